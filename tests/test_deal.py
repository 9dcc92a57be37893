"""Placing hidden cards under revealed constraints (``atout.core.deal``): the samplers' shared step.

A view the true deal explains must always yield a world: a search bot that
raises there crashes its seat mid-match (it happened to Wizard's ``master`` in
round 15, seats void in several suits).  The deals here are built from a true
placement with every seat made void in as many suits as it lacks, the tightest
constraints play can reveal.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.core.deal import LastView, place_by_room, place_surely
from atout.games.wizard import cards as wizard_cards
from atout.games.wizard import sampling as wizard_sampling

Cards = list[tuple[int, float, int, list[int]]]


def tight_deal(
    seed: int, seats: int, cards: int, suits: int, pile: bool
) -> tuple[Cards, dict[int, int], list[int]]:
    """Cards dealt at random, each allowed only in the seats that hold its suit (the pile, -1, takes any)."""
    rng = random.Random(seed)
    places = [*range(seats), *([-1] if pile else [])]
    truth = [rng.choice(places) for _ in range(cards)]
    suit = [rng.randrange(suits) for _ in range(cards)]
    holds = {p: {suit[c] for c in range(cards) if truth[c] == p} for p in places}
    listed: Cards = []
    for c in range(cards):
        allowed = [p for p in places if p == -1 or suit[c] in holds[p]]
        listed.append((len(allowed), rng.random(), c, allowed))
    listed.sort()
    room = {p: truth.count(p) for p in places}
    return listed, room, truth


def placed(cards: Cards, room: dict[int, int], seed: int, place: object) -> dict[int, list[int]] | None:
    left = dict(room)
    out: dict[int, list[int]] = {p: [] for p in room}
    assert callable(place)
    return out if place(cards, left, out, random.Random(seed)) else None


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(2, 6),
    cards=st.integers(1, 45),
    suits=st.integers(1, 6),
    pile=st.booleans(),
)
def test_every_card_finds_a_seat_when_a_deal_explains_the_view(
    seed: int, seats: int, cards: int, suits: int, pile: bool
) -> None:
    listed, room, _ = tight_deal(seed, seats, cards, suits, pile)
    out = placed(listed, room, seed, place_surely)
    assert out is not None
    for _, _, card, allowed in listed:
        (holder,) = [p for p, got in out.items() if card in got]
        assert holder in allowed
    assert {p: len(got) for p, got in out.items()} == room
    plain = placed(listed, room, seed, place_by_room)
    if plain is not None:  # the same draws wherever the plain draw gets through
        assert plain == out


def test_the_plain_draw_dead_ends_where_the_sure_one_does_not() -> None:
    """The case for :func:`place_surely`: on tight deals the plain draw fails most tries."""
    failures = 0
    for seed in range(200):
        listed, room, _ = tight_deal(seed, 6, 12, 4, pile=False)
        failures += placed(listed, room, seed, place_by_room) is None
        assert placed(listed, room, seed, place_surely) is not None
    assert failures > 50
    # One such deal (six seats, two cards each, four suits): the plain draw fails
    # 97 tries in 100, so a sampler retrying it 200 times gives up once in 450 worlds.
    listed, room, _ = tight_deal(152, 6, 12, 4, pile=False)
    plain = [placed(listed, room, 152_000 + t, place_by_room) is None for t in range(100)]
    assert sum(plain) >= 90
    assert all(placed(listed, room, 152_000 + t, place_surely) is not None for t in range(100))


def test_a_placement_no_deal_explains_is_refused() -> None:
    cards: Cards = [(1, 0.1, 7, [0]), (1, 0.2, 8, [0]), (2, 0.3, 9, [0, 1])]
    assert placed(cards, {0: 1, 1: 2}, 1, place_surely) is None


def wizard_deal(seed: int, others: int) -> tuple[list[int], dict[int, int], int, list[int]]:
    """Late-round Wizard: a few cards in each other hand, some in the stack, every seat void in every suit it lacks."""
    rng = random.Random(seed)
    slots = list(range(60))
    rng.shuffle(slots)
    size = rng.randint(1, 5)
    need = {s: size for s in range(1, others + 1)}
    stack = rng.randint(0, 3)
    pool = slots[: others * size + stack]
    voids = [0] * (others + 1)
    for s in need:
        held = {wizard_cards.suit_of(wizard_cards.kind_of_slot(x)) for x in pool[(s - 1) * size : s * size]}
        voids[s] = sum(1 << suit for suit in range(4) if suit not in held)
    return sorted(pool), need, stack, voids


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), others=st.integers(2, 5))
def test_wizard_deals_a_world_for_any_voids_the_true_deal_allows(seed: int, others: int) -> None:
    """Wizard's own deal of slots (Wizards and Jesters go anywhere) under the tightest voids."""
    pool, need, stack, voids = wizard_deal(seed, others)
    dealt = wizard_sampling._assign(pool, need, stack, voids, random.Random(seed))
    assert {s: len(dealt[s]) for s in need} == need
    assert len(dealt[-1]) == stack
    assert sorted(x for got in dealt.values() for x in got) == pool
    for s in need:
        for slot in dealt[s]:
            suit = wizard_cards.suit_of(wizard_cards.kind_of_slot(slot))
            assert suit < 0 or not voids[s] >> suit & 1


def test_a_sampler_works_a_view_out_once_and_never_takes_another_view_for_it() -> None:
    """``LastView``: the work is redone for another view, even an equal one, or another game."""
    calls: list[tuple[str, tuple[int, ...]]] = []

    def work(game: str, view: tuple[int, ...]) -> int:
        calls.append((game, view))
        return len(calls)

    last: LastView[str, tuple[int, ...], int] = LastView()
    view, equal = (1, 2), tuple([1, 2])
    assert view == equal and view is not equal
    assert [last.get("g", view, work) for _ in range(3)] == [1, 1, 1]
    assert last.get("g", equal, work) == 2  # an equal view is not taken for the same one
    assert last.get("h", equal, work) == 3  # nor a view of another game
    assert last.get("h", equal, work) == 3 and len(calls) == 3
