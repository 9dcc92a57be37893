"""What a Wizard seat sees: its :class:`~.view.WizardView`'s values, computed compiled.

See :data:`atout._build.COMPILED` for why this is apart from :mod:`.view` (issue 48).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.game import head_values
from ...core.shown import shown_tricks
from . import cards as C
from .rules import SEATS_FROM

if TYPE_CHECKING:
    from .game import WizardState


def bids_visible(state: WizardState, round_over: bool) -> bool:
    """Whether the other seats' bids of a round are public yet."""
    mode = state.game.options["bids"]
    if mode == "open" or round_over:
        return True
    if mode == "hidden_until_play":
        return all(b >= 0 for b in state.bids)
    return False


def view_fields(state: WizardState, seat: int, public: bool = False) -> dict[str, Any]:
    """The fields of seat ``seat``'s :class:`~.view.WizardView` of ``state``, by name (``public``: a spectator's)."""
    to_act, legal, phase = head_values(state, seat, public)
    n = state.n
    clairvoyant = state.game.blind_action >= 0 and state.round == 1
    own = () if public else tuple(C.cards_in(state.hands[seat]))
    seen: tuple[tuple[int, ...] | None, ...] | None = None
    if clairvoyant and not public:
        seen = tuple(None if s == seat else tuple(C.cards_in(state.hands[s])) for s in range(n))
        own = ()
    public_bids = bids_visible(state, False)
    if public_bids:
        bids = tuple([None if b < 0 else b for b in state.bids])
    else:
        bids = tuple([b if s == seat and not public and b >= 0 else None for s, b in enumerate(state.bids)])
    seats = SEATS_FROM[n]
    prev = state.prev_round_trick_shown
    if prev is None and state.prev_round_trick is not None:
        lead, kinds, w = state.prev_round_trick
        prev = state.prev_round_trick_shown = (tuple(zip(seats[lead], kinds, strict=True)), w)
    shown = state.tricks_shown = shown_tricks(
        state.tricks_shown, state.tricks, lambda t: (tuple(zip(seats[t[0]], t[1], strict=True)), t[2])
    )
    return {
        "game": state.game,
        "seat": seat,
        "current_player": to_act,
        "legal_actions": legal,
        "phase": phase,
        "round": state.round,
        "rounds": state.game.num_rounds,
        "dealer": state.dealer,
        "hand": own,
        "seen_hands": seen,
        "hand_sizes": tuple(map(int.bit_count, state.hands)),
        "turned": None if state.turned < 0 else state.turned,
        "trump": None if state.trump < 0 else state.trump,
        "bids": bids,
        "has_bid": tuple([b >= 0 for b in state.bids]),
        "tricks_won": tuple(state.tricks_won),
        "leader": state.leader,
        "trick": tuple(zip(seats[state.leader], state.trick, strict=False)),
        "tricks": () if shown is None else shown[1],
        "prev_round_trick": prev,
        "scores": tuple(state.scores_),
        "sheet": tuple(state.sheet),
    }
