"""Wizard's draws without lists in the compiled loop: ``_draw_chance`` draws what ``random.choices``
draws, ``_uniform_action`` what ``random.choice`` draws (the loop itself: tests/test_playout.py)."""

from __future__ import annotations

import random

import pytest

import atout
from atout.core import rng as R
from atout.core.game import sample_chance
from atout.core.playout import random_playout
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
