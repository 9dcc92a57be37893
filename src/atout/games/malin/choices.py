"""Le Malin's choices of a seat's own: its contract (the bid) and its card, with the value a
Twin or the Wish declares, and the Wish's new value when a later card took it.

Each decision has one refusal function (the rule an action breaks, or None), and its
legal actions are listed by the same predicates, so that the reason given is the check
that refused, never a guess after the fact.  Apart from the state machine (``game.py``),
which dispatches to them by phase, because these are the rules of the cards and the
contracts, read on their own; the Malheur cards' choices are in :mod:`.malheur`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.reason import Card, Reason, Seat, reason
from . import cards as C
from .cards import TWIN, WISH, Value
from .rules import (
    BID_BASE,
    MAX_BID,
    REDECLARE_BASE,
    WISH_BASE,
    WISH_MAX,
    WISH_MIN,
    play_action,
    play_kind_value,
)

if TYPE_CHECKING:
    from .game import MalinState


def wish_actions(base: int, forbidden: set[Value], out: list[int]) -> list[int]:
    """``out`` extended by ``base + v`` for each Wish value ``v`` not in ``forbidden``, ascending.

    The Wish takes any of 201 values and the forbidden ones are the few of a trick
    (or a hand): the allowed ones are added as the ranges between those, not tested
    one by one, at every legal-move list of a seat holding the Wish.
    """
    start = WISH_MIN
    for v in sorted(int(x) for x in forbidden if WISH_MIN <= x <= WISH_MAX and x == int(x)):
        if v >= start:
            out.extend(range(base + start, base + v))
            start = v + 1
    out.extend(range(base + start, base + WISH_MAX + 1))
    return out


def legal_bids(state: MalinState) -> list[int]:
    """The bids :func:`bid_refusal` lets through, by its checks in one pass (bots call this often)."""
    size = state.game.hand_size
    made = [b for b in state.bids if b >= 0]
    total = sum(made)
    sum_binds = state.to_act == state.dealer or state.game.options["sum_rule"] == "running"
    out = [b for b in range(size) if b not in made and not (sum_binds and total + b == size)]
    assert out, "a legal bid always exists (rules-notes §1.3)"
    return out


def bid_refusal(state: MalinState, action: int) -> Reason | None:
    if not BID_BASE <= action <= BID_BASE + MAX_BID:
        return reason("time_to_bid", seat=Seat(state.to_act), action=state._verb(action))
    bid = action - BID_BASE
    size = state.game.hand_size
    if not 0 <= bid < size:
        return reason("malin.bid_range", hi=size - 1, size=size)
    for seat, b in enumerate(state.bids):
        if b == bid:
            return reason("malin.bid_taken", bid=bid, seat=Seat(seat))
    total = sum(b for b in state.bids if b >= 0)
    if total + bid == size:
        if state.to_act == state.dealer:
            return reason("malin.dealer_sum", size=size, bid=bid)
        if state.game.options["sum_rule"] == "running":
            return reason("malin.running_sum", size=size, bid=bid)
    return None


def wish_forbidden(state: MalinState, exclude: int = -1) -> set[Value]:
    """Values the Wish may not take now (the trick's, or the whole hand's)."""
    vals = {p.value for i, p in enumerate(state.trick) if i != exclude}
    if state.game.wish_scope_hand:
        for cards, _ in state.tricks:
            vals.update(p.value for p in cards)
    return vals


def twin_values(state: MalinState) -> list[int]:
    """Values a Twin may be declared now (second Twin of a trick: the other value)."""
    high = state.game.twin_high
    values = [0, high]
    for p in state.trick:
        if p.kind == TWIN:
            values = [high if p.declared == 0 else 0]
            break
    if len(values) == 2 and state.game.twin_avoid_taken:
        taken = {p.value for p in state.trick}
        free = [v for v in values if v not in taken]
        if free:
            values = free
    return values


def legal_plays(state: MalinState) -> list[int]:
    hand = state.hands[state.to_act]
    out = C.cards_in(hand & ((1 << TWIN) - 1))
    if hand & C.TWIN_MASK:
        out.extend(play_action(TWIN, v) for v in twin_values(state))
    if hand & C.WISH_MASK:
        forbidden = wish_forbidden(state)
        wish_actions(WISH_BASE, forbidden, out)
    return out


def play_refusal(state: MalinState, action: int) -> Reason | None:
    if not 0 <= action <= WISH_BASE + WISH_MAX:
        return reason("malin.turn_to_play", seat=Seat(state.to_act), action=state._verb(action))
    kind, value = play_kind_value(action, state.game.twin_high)
    if not state.hands[state.to_act] & C.slots_of_kind(kind):
        card = Card(C.card_text(kind))
        if kind < TWIN and kind >= state.game.top:
            return reason("malin.not_in_deck", card=card, n=state.n, top=state.game.top)
        return reason("not_held", card=card)
    if kind == TWIN:
        allowed = twin_values(state)
        if value not in allowed:
            other = next((p for p in state.trick if p.kind == TWIN), None)
            if len(allowed) == 1 and other is not None:
                return reason("malin.other_twin", v=other.declared, other=allowed[0])
            return reason("malin.twin_avoid", v=allowed[0])
    if kind == WISH and value in wish_forbidden(state):
        scope = state.game.options["wish_forbidden_scope"]
        return reason("malin.wish_in_trick" if scope == "trick" else "malin.wish_in_hand", v=value)
    return None


def legal_redeclarations(state: MalinState) -> list[int]:
    """The Wish's new values once a later card took its value: those :func:`wish_forbidden` allows,
    the Wish's own place in the trick aside."""
    return wish_actions(REDECLARE_BASE, wish_forbidden(state, exclude=state.wish_pos), [])


def redeclare_refusal(state: MalinState, action: int) -> Reason | None:
    if not REDECLARE_BASE + WISH_MIN <= action <= REDECLARE_BASE + WISH_MAX:
        return reason("malin.redeclare_first", seat=Seat(state.to_act), action=state._verb(action))
    value = action - REDECLARE_BASE
    if value in wish_forbidden(state, exclude=state.wish_pos):
        return reason("malin.wish_in_the_trick", v=value)
    return None
