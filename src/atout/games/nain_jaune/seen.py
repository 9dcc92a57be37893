"""What a Le Nain Jaune seat sees: its :class:`~.view.NainJauneView`'s values, computed compiled.

See :data:`atout._build.COMPILED` for why this is apart from :mod:`.view` (issue 48).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.bits import bits_of  # C.cards_in, called natively (compiled: an alias is a Python call)
from ...core.game import head_values

if TYPE_CHECKING:
    from .game import NainJauneState


def view_fields(state: NainJauneState, seat: int, public: bool = False) -> dict[str, Any]:
    """The fields of seat ``seat``'s :class:`~.view.NainJauneView` of ``state``, by name (``public``: a spectator's)."""
    to_act, legal, phase = head_values(state, seat, public)
    return {
        "game": state.game,
        "seat": seat,
        "current_player": to_act,
        "legal_actions": legal,
        "phase": phase,
        "deal": state.round,
        "dealer": state.dealer,
        "opener": state.opener,
        "hand": () if public else tuple(bits_of(state.hands[seat])),
        "hand_sizes": tuple(map(int.bit_count, state.hands)),
        "need": state.need or None,
        "last": state.last,
        "asked": state.asked,
        "lacks": tuple(state.lacks),
        "played": tuple(state.played),
        "claim_box": None if state.claim_box < 0 else state.claim_box,
        "boxes": tuple(state.boxes),
        "tokens": tuple(state.tokens),
        "bonus_due": state.bonus_due,
        "sheet": tuple(state.sheet),
    }
