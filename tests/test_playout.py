"""The compiled playouts (atout.core.playout) play the very moves of the Python loops they replace."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import atout
from atout.bots.search import policy_bot
from atout.core.bot import Bot
from atout.core.game import CHANCE, TERMINAL, State, sample_chance
from atout.core.playout import play_out_round, random_playout

GAMES = ["wizard", "malin", "sticheln", "nain-jaune"]


def python_random_playout(state: State, rng: random.Random, round_only: bool = False) -> int:
    """random_playout's documented equivalent, as a Python loop through ``State.apply``."""
    start, decisions = state.round, 0
    while not state.is_terminal and not (round_only and state.round != start):
        if state.is_chance:
            state.apply(sample_chance(state, rng))
        else:
            decisions += 1
            state.apply(rng.choice(state.legal_actions()))
    return decisions


def python_play_out_round(state: State, policies: Sequence[Bot], rng: random.Random) -> State:
    """The searches' playout as it was written in bots/search.py before it was compiled."""
    start_round = state.round
    while True:
        actor = state.current_player
        if actor == TERMINAL or state.round != start_round:
            return state
        if actor == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else policies[actor].choose(state.view(actor)))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [3, 4])
def test_random_playout_is_the_python_loop(name: str, players: int) -> None:
    game = atout.load(name, players=players)
    for seed in range(6):
        # Seeded (chance from the seed) and unseeded (chance drawn from rng) states, whole and by round.
        for state_seed in (seed, None):
            for round_only in (False, True):
                ours, theirs = game.new_state(seed=state_seed), game.new_state(seed=state_seed)
                a, b = random.Random(seed), random.Random(seed)
                count = random_playout(ours, a, round_only)
                assert count == python_random_playout(theirs, b, round_only)
                assert ours.history == theirs.history
                assert ours.scores() == theirs.scores()
                assert a.random() == b.random()  # the generators stay in step
                if not round_only:
                    assert ours.is_terminal


@pytest.mark.parametrize("name", GAMES)
def test_play_out_round_is_the_python_loop(name: str) -> None:
    game = atout.load(name, players=4)
    for seed in range(3):
        # Two sets of the same seeded policies: a policy may draw from its own generator.
        policies, twins = ([policy_bot(game, seed * 10 + s) for s in range(4)] for _ in "ab")
        for s in range(4):
            policies[s].start(game, s)
            twins[s].start(game, s)
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            ours, theirs = state.clone(), state.clone()
            a, b = random.Random(seed), random.Random(seed)
            play_out_round(ours, policies, a)
            python_play_out_round(theirs, twins, b)
            assert ours.history == theirs.history
            assert a.random() == b.random()
            state = ours


def test_a_policy_answer_is_judged_by_the_rules() -> None:
    class Illegal(Bot):
        def choose(self, view: atout.View) -> int:
            return -5

    state = atout.load("wizard", players=4).new_state(seed=1)
    with pytest.raises(atout.IllegalAction):
        play_out_round(state, [Illegal()] * 4, random.Random(0))


def test_another_generator_class_draws_with_its_own_choice() -> None:
    class Mine(random.Random):
        pass

    game = atout.load("wizard", players=4)
    ours, theirs = game.new_state(seed=3), game.new_state(seed=3)
    a, b = Mine(5), Mine(5)
    assert random_playout(ours, a) == python_random_playout(theirs, b)
    assert ours.history == theirs.history
