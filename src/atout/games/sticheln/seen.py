"""What a Sticheln seat sees: its :class:`~.view.StichelnView`'s values, computed compiled.

See :data:`atout._build.COMPILED` for why this is apart from :mod:`.view` (issue 48).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.bits import bits_of
from ...core.game import head_values
from ...core.shown import shown_tricks

if TYPE_CHECKING:
    from .game import StichelnState


def view_fields(state: StichelnState, seat: int, public: bool = False) -> dict[str, Any]:
    """The fields of seat ``seat``'s :class:`~.view.StichelnView` of ``state``, by name (``public``: a spectator's)."""
    shown = state.tricks_shown = shown_tricks(
        state.tricks_shown, state.tricks, lambda t: (tuple(zip(t[0], t[1], strict=True)), t[2])
    )
    to_act, legal, phase = head_values(state, seat, public)
    return {
        "game": state.game,
        "seat": seat,
        "current_player": to_act,
        "legal_actions": legal,
        "phase": phase,
        "round": state.round,
        "rounds": state.game.num_hands,
        "dealer": state.dealer,
        "hand": () if public else tuple(bits_of(state.hands[seat])),  # deck.kinds_in: a Python-level call
        "hand_sizes": tuple(map(int.bit_count, state.hands)),
        "pain_laid": tuple(map(len, state.pains)),
        "pains": tuple(
            [
                tuple(p) if (state.revealed or (s == seat and not public)) else None
                for s, p in enumerate(state.pains)
            ]
        ),
        "revealed": state.revealed,
        "leader": state.leader,
        "trick": tuple(zip(state.trick_seats, state.trick, strict=True)),
        "tricks": () if shown is None else shown[1],
        "prev_round_trick": state.prev_round_trick,
        "scores": state.scores_,
        "sheet": state.sheet,
    }
