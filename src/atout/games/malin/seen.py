"""What a Le Malin seat sees: its :class:`~.view.MalinView`'s values, computed compiled.

See :data:`atout._build.COMPILED` for why this is apart from :mod:`.view` (issue 48).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import head_values
from . import cards as C
from .rules import WINDOW_NAMES

if TYPE_CHECKING:
    from .game import MalinState


def view_fields(state: MalinState, seat: int, public: bool = False) -> dict[str, Any]:
    """The fields of seat ``seat``'s :class:`~.view.MalinView` of ``state``, by name (``public``: a spectator's)."""
    to_act, legal, phase = head_values(state, seat, public)
    return {
        "game": state.game,
        "seat": seat,
        "current_player": to_act,
        "legal_actions": legal,
        "phase": phase,
        "round": state.round,
        "dealer": state.dealer,
        "hand_size": state.game.hand_size,
        "removed": None if state.removed < 0 else state.removed,
        "hand": () if public else tuple(C.cards_in(state.hands[seat])),
        "hand_sizes": tuple(map(int.bit_count, state.hands)),
        "bids": tuple([None if b < 0 else b for b in state.bids]),
        "tricks_won": tuple(state.tricks_won),
        "leader": state.leader,
        "trick": tuple(state.trick),
        "wish_modified": state.wish_mod,
        "tricks": tuple(state.tricks),
        "prev_round_trick": state.prev_round_trick,
        "scores": tuple(state.scores_),
        "sheet": tuple(state.sheet),
        "malheur": tuple(0 for _ in state.mal[seat]) if public else tuple(state.mal[seat]),
        "malheur_counts": tuple(map(sum, state.mal)),
        "malheur_pile": sum(state.pile),
        "malheur_discard": tuple(state.discard),
        "malheur_log": tuple(state.mlog),
        "window": WINDOW_NAMES[state.win_kind],
        "passed": tuple([s for s in range(state.n) if state.passed >> s & 1]) if state.passed else (),
        "pending": state.pending,
        "steal_groups": tuple(state.steal_groups),
        "gain_queue": tuple(state.gain_queue),
        "last_actor": state.last_actor,
    }
