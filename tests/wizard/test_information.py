"""What a seat may know: black-box twins (two tables that differ only in what a
seat cannot see give it the same view and the same redacted history) and
sample_state on positions built by hand."""

from __future__ import annotations

import random

import pytest

from atout.games.wizard import WizardGame, WizardState

from .helpers import bid_all, deal, goto_round, new_state, play, vd


def twins(
    hands_a: dict[int, str], hands_b: dict[int, str], turn: str = "Y13", **options: object
) -> tuple[WizardState, WizardState]:
    """Two 3-player tables at round 3 (dealer 0) that differ only in the deals given."""
    out = []
    for hands in (hands_a, hands_b):
        state = new_state(3, dealer=1, **options)
        goto_round(state, 3)
        deal(state, hands, turn=turn)
        out.append(state)
    return out[0], out[1]


HANDS_A = {1: "B5 G2 R9", 2: "B3 B11 Y4", 0: "G7 N R2"}
HANDS_B = {1: "B5 G2 R9", 2: "B12 Z G1", 0: "G7 N R2"}  # only seat 2's cards differ


class TestTwins:
    def test_other_hands_never_show(self) -> None:
        a, b = twins(HANDS_A, HANDS_B)
        for state in (a, b):
            bid_all(state, [1, 0, 2])
            play(state, "B5")
        for seat in (0, 1):
            assert vd(a, seat) == vd(b, seat)
            assert a.redacted_history(seat) == b.redacted_history(seat)
        assert vd(a, 2) != vd(b, 2)
        assert a.redacted_history(2) != b.redacted_history(2)

    def test_the_views_agree_after_public_plays(self) -> None:
        a, b = twins(HANDS_A, HANDS_B)
        for state in (a, b):
            bid_all(state, [1, 0, 2])
            play(state, "B5", "B3" if state is a else "B12", "G7")
        # different cards were played by seat 2: now public, views differ
        assert vd(a, 0) != vd(b, 0)

    def test_secret_bids_never_show(self) -> None:
        results = []
        for seat2_bid in (0, 3):
            state = new_state(3, dealer=1, bids="hidden_until_end")
            goto_round(state, 3)
            deal(state, HANDS_A, turn="Y13")
            bid_all(state, {0: 1, 1: 2, 2: seat2_bid})
            play(state, "B5", "B11")
            results.append(state)
        a, b = results
        for seat in (0, 1):
            assert vd(a, seat) == vd(b, seat)
            assert a.redacted_history(seat) == b.redacted_history(seat)
        assert vd(a, 2) != vd(b, 2)

    def test_clairvoyance_own_card_never_shows(self) -> None:
        states = []
        for own in ("B5", "Z"):
            state = new_state(3, dealer=0, clairvoyance=True)
            deal(state, {1: own, 2: "G2", 0: "R9"}, turn="Y13")
            states.append(state)
        a, b = states
        assert vd(a, 1) == vd(b, 1)
        assert a.redacted_history(1) == b.redacted_history(1)
        assert vd(a, 0) != vd(b, 0), "the others see seat 1's card"


class TestSampleState:
    def test_revealed_voids_are_respected(self) -> None:
        a, _ = twins(HANDS_A, HANDS_A)
        bid_all(a, [1, 1, 1])
        play(a, "B5", "B11", "G7")  # seat 0 showed it has no blue
        assert a.current_player == 2
        view = a.view(2)
        rng = random.Random(5)
        seat0_cards: set[str] = set()
        for _ in range(60):
            world = a.game.sample_state(view, rng)
            assert isinstance(world, WizardState)
            assert world.view(2) == view
            hand0 = vd(world, 0)["hand"]
            seat0_cards.update(hand0)
            assert len(hand0) == 2
            assert not [c for c in hand0 if c[0] == "B"], hand0
            played = {"B5", "B11", "G7", "Y13"}
            assert not played & set(hand0 + vd(world, 1)["hand"])
        assert len(seat0_cards) > 6, "the hidden cards really vary"

    def test_sample_at_the_trump_choice(self) -> None:
        state = new_state(4, dealer=2)
        deal(state, {3: "B1", 0: "B2", 1: "B3", 2: "Y9"}, turn="Z")
        view = state.view(2)
        world = state.game.sample_state(view, random.Random(1))
        assert isinstance(world, WizardState)
        assert world.view(2) == view
        assert world.current_player == 2
        world.apply("trump yellow")
        assert vd(world, 0)["trump"] == "yellow"

    def test_sample_with_clairvoyance_draws_the_own_card(self) -> None:
        state = new_state(3, dealer=0, clairvoyance=True)
        deal(state, {1: "B5", 2: "G2", 0: "R9"}, turn="Y13")
        view = state.view(1)
        own = set()
        rng = random.Random(3)
        for _ in range(30):
            world = state.game.sample_state(view, rng)
            assert isinstance(world, WizardState)
            assert world.view(1) == view
            card = vd(world, 0)["seen_hands"][1]
            assert card is not None and card[0] not in ("G2", "R9", "Y13")
            own.add(card[0])
        assert len(own) > 3

    def test_sample_with_secret_bids(self) -> None:
        state = new_state(3, dealer=0, bids="hidden_until_end")
        goto_round(state, 2)  # dealer 1
        deal(state, {2: "B1 B2", 0: "B3 B4", 1: "B5 B6"}, turn="G1")
        bid_all(state, {2: 2, 0: 1, 1: 0})
        view = state.view(0)
        rng = random.Random(2)
        for _ in range(20):
            world = state.game.sample_state(view, rng)
            assert isinstance(world, WizardState)
            assert world.view(0) == view
            # the world is complete: it plays to the end of the round with some bids
            while world.round == 2:
                world.apply(world.legal_actions()[0])
            bids = vd(world, 0)["sheet"][-1]["bids"]
            assert bids[0] == 1 and all(0 <= b <= 2 for b in bids)

    def test_sample_needs_a_view_of_the_same_game(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B5", 2: "G2", 0: "R9"}, turn="Y13")
        with pytest.raises(ValueError):
            WizardGame(4).sample_state(state.view(1), random.Random(0))


def test_view_of_a_seat_not_at_the_table() -> None:
    state = new_state(3)
    for bad in (-1, 3, 10):
        with pytest.raises(ValueError):
            state.view(bad)
