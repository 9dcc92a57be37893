"""Worlds consistent with a Wizard view, for search bots (determinization).

A sampled world deals the cards the viewer has not seen (the other hands and
the undealt stack) at random, under every constraint play has revealed: hand
sizes, and the suits a seat has shown it lacks by not following.  Secret bids
(hidden-bid variants) are drawn uniformly from 0..round.  The sampler draws
each unseen card, most constrained first, into a seat weighted by the room
left there, and starts again on the rare dead end (after a few, it draws so
that no dead end is possible: only a view no deal explains is refused); it is
not exactly uniform over consistent deals, a bias every PIMC bot accepts for
speed (see docs/bots.md).
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from ...core import rng as rand
from ...core.deal import LastView, dealt_within_tries, frame, place_on_try
from . import cards as C
from .game import WizardGame, WizardState
from .rules import BID, LED_NONE, PHASE_NAMES, PLAY, TRUMP
from .view import WizardView


def revealed_voids(view: WizardView) -> list[int]:
    """Per seat, a bitmask of the suits that seat has shown it lacks this round."""
    voids = [0] * view.game.players
    for trick in [t for t, _ in view.tricks] + [view.trick]:
        led = -1
        for seat, kind in trick:
            if kind == C.WIZARD and led == -1:
                led = -2
            elif kind < C.WIZARD:
                if led == -1:
                    led = kind // C.RANKS
                elif led >= 0 and kind // C.RANKS != led:
                    voids[seat] |= 1 << led
    return voids


class _Known(NamedTuple):
    """What a view alone says about its worlds (no draw in it): worked out once per view.

    A search samples many worlds of the same view (hundreds per decision); the
    cards seen, the seats' room and voids and which hidden cards are constrained
    do not change between them, so :func:`sample_world` keeps them for the view
    it was last asked about and only draws.  Lists here are copied before a world
    takes them.
    """

    phase: int
    hands: list[int]
    trick_slots: list[tuple[int, int, int]]
    need: dict[int, int]
    stack: int
    voids: list[int]
    #: The hidden slots some seat may not hold, in slot order: (seats allowed, slot, those seats).
    constrained: list[tuple[int, int, list[int]]]
    free: list[int]
    tricks: list[tuple[int, list[int], int]]


#: What :func:`sample_world` knows from the last view it was asked about.
_KNOWN: Final[LastView[WizardGame, WizardView, _Known]] = LastView()


def sample_world(game: WizardGame, view: WizardView, rng: random.Random) -> WizardState:
    """A world the viewer cannot tell from the real one, at the view's decision (see the module docstring)."""
    known = _KNOWN.get(game, view, _known)
    n = game.players
    hands = list(known.hands)
    dealt = _deal(known.constrained, known.free, known.need, known.stack, rng)
    for seat, slots in dealt.items():
        if seat < 0:
            continue  # the undealt stack
        for slot in slots:
            hands[seat] |= 1 << slot

    prev = view.prev_round_trick  # public: the same in every world (the view's form, and the state's own)
    state = WizardState.fields.build(
        WizardState,
        **frame(game, view.round, view.dealer),
        phase=known.phase,
        to_act=view.current_player,
        scores_=list(view.scores),
        sheet=list(view.sheet),
        _deck=None,
        prev_round_trick=None if prev is None else (prev[0][0][0], [k for _, k in prev[0]], prev[1]),
        prev_round_trick_shown=prev,
        tricks_shown=None,
        hands=hands,
        dealt=C.FULL_MASK & ~sum(1 << s for s in dealt.get(-1, [])),
        deal_count=view.round * n,
        turned=-1 if view.turned is None else view.turned,
        trump=-1 if view.trump is None else view.trump,
        bids=[
            (b if b is not None else (rand.randint(rng, 0, view.round) if view.has_bid[s] else -1))
            for s, b in enumerate(view.bids)
        ],
        tricks_won=list(view.tricks_won),
        trick=[],
        leader=view.leader,
        led=LED_NONE,
        win_seat=-1,
        win_kind=-1,
        tricks=list(known.tricks),
        voids=list(known.voids),
    )
    state.restore_trick(known.trick_slots)
    state.to_act = view.current_player
    return state


def _known(game: WizardGame, view: WizardView) -> _Known:
    """What ``view`` says of every world of it (see :class:`_Known`); ValueError if no world fits."""
    phase = PHASE_NAMES.index(view.phase)
    if phase not in (TRUMP, BID, PLAY):
        raise ValueError(f"nothing to sample at a {view.phase} node: sample at a decision")
    n = game.players
    taken = 0

    def alloc(kind: int) -> int:
        nonlocal taken
        free = C.slots_of_kind(kind) & ~taken
        if not free:
            raise ValueError(f"view is inconsistent: too many {C.card_text(kind)}")
        slot = free & -free
        taken |= slot
        return slot

    hands = [0] * n
    unknown_seats: list[int] = []
    if view.seen_hands is not None:  # clairvoyance: all but our own card are known
        for seat, cards in enumerate(view.seen_hands):
            if cards is None:
                unknown_seats.append(seat)
            else:
                for k in cards:
                    hands[seat] |= alloc(k)
    else:
        for k in view.hand:
            hands[view.seat] |= alloc(k)
        unknown_seats = [s for s in range(n) if s != view.seat]
    for trick, _ in view.tricks:
        for _, k in trick:
            alloc(k)
    trick_slots = [(seat, alloc(k), k) for seat, k in view.trick]
    if view.turned is not None:
        alloc(view.turned)

    need = {s: view.hand_sizes[s] for s in unknown_seats}
    pool = [s for s in range(C.NUM_SLOTS) if not taken >> s & 1]
    stack = len(pool) - sum(need.values())
    if stack < 0:
        raise ValueError("view is inconsistent: more hidden cards than unseen cards")
    voids = revealed_voids(view)
    constrained, free = _split(pool, need, voids)
    tricks = [(t[0][0], [k for _, k in t], w) for t, w in view.tricks]
    return _Known(phase, hands, trick_slots, need, stack, voids, constrained, free, tricks)


def _split(
    pool: list[int], need: dict[int, int], voids: list[int]
) -> tuple[list[tuple[int, int, list[int]]], list[int]]:
    """The ``pool`` slots some seat may not hold (a suit it showed void in), each with the
    seats (and the stack, -1) that may, in slot order; and the free rest."""
    void_suits = 0
    for v in voids:
        void_suits |= v
    constrained: list[tuple[int, int, list[int]]] = []
    free: list[int] = []
    seats_all = [*need, -1]
    for slot in pool:
        suit = C.suit_of(C.kind_of_slot(slot))
        if suit < 0 or not void_suits >> suit & 1:
            free.append(slot)
            continue
        seats = [s for s in seats_all if s == -1 or not voids[s] >> suit & 1]
        constrained.append((len(seats), slot, seats))
    return constrained, free


def _assign(
    pool: list[int], need: dict[int, int], stack: int, voids: list[int], rng: random.Random
) -> dict[int, list[int]]:
    """Deal ``pool`` slots to seats (``need`` each) and the stack (key -1): :func:`_deal` of :func:`_split`."""
    constrained, free = _split(pool, need, voids)
    return _deal(constrained, free, need, stack, rng)


def _deal(
    constrained_slots: list[tuple[int, int, list[int]]],
    free_slots: list[int],
    need: dict[int, int],
    stack: int,
    rng: random.Random,
) -> dict[int, list[int]]:
    """Deal the hidden slots to seats (``need`` each) and the stack (key -1).

    Slots some seat may not hold (``constrained_slots``) are placed first, the
    most constrained first (ties in a random order), each to an open seat drawn
    in proportion to its room; the unconstrained rest are then shuffled into the
    room left, which deals them uniformly at a fraction of the cost (most slots,
    most of the time).  A few plain draws, then one that cannot dead-end: only a
    view no deal explains is refused.  The lists given are not changed.
    """
    constrained = [(count, rng.random(), slot, seats) for count, slot, seats in constrained_slots]
    constrained.sort()

    def attempt(number: int, room: dict[int, int], out: dict[int, list[int]]) -> bool:
        if not place_on_try(number, constrained, room, out, rng):
            return False
        free = list(free_slots)
        rand.shuffle(rng, free)
        at = 0
        for seat, left in room.items():
            out[seat].extend(free[at : at + left])
            at += left
        return True

    why = "view is inconsistent: no deal gives every seat its cards outside the suits it showed void in"
    return dealt_within_tries(need, -1, stack, attempt, why)


def sample_round(
    game: WizardGame, view: WizardView, rng: random.Random
) -> tuple[WizardState, list[int]] | None:
    """A world at the first decision of the view's round, and the round's actions since.

    The hidden cards come from :func:`sample_world`; the cards played this round
    go back into the hands that played them, and the round restarts at its
    trump choice or first bid.  Secret bids are the world's drawn ones.  Rounds
    under clairvoyance (round 1 of that variant) are not offered: every card
    but one's own is seen there, so there is nothing to infer.
    """
    if view.seen_hands is not None:
        return None
    world = sample_world(game, view, rng)
    n = game.players
    hands = list(world.hands)
    # Dealt slots in no hand: the cards played this round, and the turned-up card.
    loose = world.dealt
    for h in hands:
        loose &= ~h
    actions: list[int] = []
    if view.turned == C.WIZARD and view.trump is not None:
        actions.append(game.trump_base + view.trump)
    for i in range(n):
        seat = (view.dealer + 1 + i) % n
        if view.has_bid[seat]:
            actions.append(game.bid_base + world.bids[seat])
    for trick in [t for t, _ in view.tricks] + [view.trick]:
        for seat, kind in trick:
            free = C.slots_of_kind(kind) & loose
            slot = free & -free
            loose ^= slot
            hands[seat] |= slot
            actions.append(kind)

    # The world rewound to its round's start: the match so far (scores, sheet,
    # the previous round's last trick) is the world's, the round's fields fresh.
    state = world.clone()
    state.reset_round()
    state.hands = hands
    state.dealt = world.dealt
    state.deal_count = view.round * n
    state.turned = -1 if view.turned is None else view.turned
    if view.turned == C.WIZARD:
        state.phase, state.to_act = TRUMP, view.dealer
    else:
        state.trump = world.trump
        state.phase, state.to_act = BID, (view.dealer + 1) % n
    return state, actions
