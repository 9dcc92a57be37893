"""Wizard's draws without lists in the compiled loop: ``_draw_chance`` draws what ``random.choices``
draws, ``_uniform_action`` what ``random.choice`` draws (the loop itself: tests/test_playout.py)."""

from __future__ import annotations

import math
import random

import pytest

import atout
from atout.core import rng as R
from atout.core.game import sample_chance
from atout.core.playout import random_playout
from atout.games.wizard.game import WizardState
from atout.games.wizard.rules import DEAL, TURN_UP
from tests.test_playout import python_random_playout


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_draw_chance_is_random_choices(players: int) -> None:
    """At every chance node of unseeded matches (first dealer, every card dealt, every turn-up,
    the last round's deal of the whole deck), the outcome and the generator's state after it
    are those of ``random.choices`` over ``chance_outcomes()`` and of ``sample_chance``."""
    game = atout.load("wizard", players=players)
    nodes = 0
    for seed in range(3):
        state = game.new_state(None)
        moves = random.Random(seed)
        ours, theirs, listed = random.Random(seed + 100), random.Random(seed + 100), random.Random(seed + 100)
        while not state.is_terminal:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                drawn = state._draw_chance(ours)
                assert drawn == theirs.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                assert drawn == sample_chance(state, listed)
                nodes += 1
                state.apply(drawn)
            else:
                state.apply(moves.choice(state.legal_actions()))
        assert ours.random() == theirs.random() == listed.random()  # the generators stay in step
    assert nodes > 3 * 60 * 2  # several deals of every round, card by card


def test_draw_chance_of_another_generator_class_uses_its_methods() -> None:
    """A generator of another class (its own ``random``) draws through ``rand.weighted``, as sample_chance does."""

    class Half(random.Random):
        def random(self) -> float:
            return 0.5

    state = atout.load("wizard", players=4, first_dealer=0).new_state(None)
    assert state._draw_chance(Half(1)) == R.weighted(Half(1), state.chance_outcomes())


@pytest.mark.parametrize(
    "options",
    [
        {"plus_minus_one": True},  # a forbidden bid left out of the dealer's bids
        {"clairvoyance": True},  # round 1 played blind: its one legal action
        {"rounds": 2, "start_round": 14},  # the last rounds: every card dealt, no turn-up
    ],
)
def test_uniform_action_is_random_choice_with_options(options: dict[str, object]) -> None:
    """The variants' legal lists, drawn from the masks: the random playout plays ``rng.choice``'s moves."""
    game = atout.load("wizard", players=4, **options)
    for seed in range(4):
        for state_seed in (seed, None):
            ours, theirs = game.new_state(seed=state_seed), game.new_state(seed=state_seed)
            a, b = random.Random(seed), random.Random(seed)
            assert random_playout(ours, a) == python_random_playout(theirs, b)
            assert ours.history == theirs.history
            assert a.random() == b.random()


def drawing(value: float) -> random.Random:
    """A ``random.Random`` (that very class, as the compiled draw needs) whose ``random()`` gives ``value``."""
    rng = random.Random(0)

    def draw() -> float:
        return value

    rng.random = draw  # type: ignore[method-assign]
    return rng


def test_draw_chance_at_every_boundary_of_the_running_sums() -> None:
    """The card found from the table of running sums is ``random.choices``' card at the draws that decide
    it: ``random()`` at 0, just under 1, and at and around each card's share ``k / left``, for decks
    with every count of cards left (Wizards and Jesters left or not)."""
    game = atout.load("wizard", players=3, first_dealer=0)
    masks = random.Random(11)
    checked = 0
    for dealt_count in range(60):
        for _ in range(3):
            state = game.new_state(None)
            assert isinstance(state, WizardState)
            slots = masks.sample(range(60), dealt_count)
            state.dealt = sum(1 << s for s in slots)
            left = 60 - dealt_count
            values = {0.0, 1.0 - 2.0**-53}
            for k in range(1, left + 1):
                share = k / left
                values.update((share, math.nextafter(share, 0.0), math.nextafter(share, 1.0)))
            for value in sorted(v for v in values if 0.0 <= v < 1.0):
                ours, theirs = drawing(value), drawing(value)
                assert state._draw_chance(ours) == R.weighted(theirs, state.chance_outcomes())
                checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_seeded_deal_in_one_go_is_the_seeds_outcomes_one_at_a_time(players: int) -> None:
    """A seeded round's deal and turn-up made at once (``_deal_seeded``: slots counted, Wizards and
    Jesters given their lowest copies) are the seed's chance outcomes (``_seeded_order``) applied
    one at a time: the same hands, cards dealt, history, turned card and trump, every round."""
    game = atout.load("wizard", players=players)
    for seed in range(8):
        state = game.new_state(seed=seed)
        assert isinstance(state, WizardState)
        state.seed = None  # stopping at each round's deal, which the test then makes from the seed
        moves = random.Random(seed)
        rounds = 0
        while not state.is_terminal:
            random_playout(state, moves, round_only=True)
            if state.is_terminal:
                break
            assert state.phase == DEAL and state.deal_count == 0
            by_one = state.clone()
            by_one.seed = state.seed = seed
            while by_one.phase <= TURN_UP:
                outcome = by_one._seeded_outcome()  # the order of the seed, one outcome at a time
                by_one._do(outcome)
                by_one.history.append(outcome)
            state._resolve_chance()
            assert state.hands == by_one.hands
            assert (state.dealt, state.turned, state.trump, state.phase, state.to_act) == (
                by_one.dealt,
                by_one.turned,
                by_one.trump,
                by_one.phase,
                by_one.to_act,
            )
            assert state.history == by_one.history
            state.seed = None
            rounds += 1
        assert rounds == state.game.num_rounds - 1  # every round's deal after the first (made by new_state)
