"""OpenSpiel: every game registered with pyspiel, its consistency tests, MCTS, ISMCTS and evaluate_bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import atout
import atout.envs.openspiel as atout_spiel
from atout.testing.adapters import check_openspiel

from .conftest import one_table_per_game


@pytest.mark.parametrize(("name", "players"), one_table_per_game())
def test_openspiel_consistency(name: str, players: int) -> None:
    check_openspiel(name, players, {})


def test_every_game_is_registered() -> None:
    registered = set(pyspiel.registered_names())
    for name in atout.names():
        assert atout_spiel.short_name(name) in registered


def test_parameters_map_to_options() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 2, "plus_minus_one": True})
    atout_game = game.atout
    assert atout_game == atout.load("wizard", 3, rounds=2, plus_minus_one=True)
    assert game.num_distinct_actions() == atout_game.num_actions
    assert game.max_game_length() == atout_game.max_history_length()
    full = pyspiel.load_game("python_atout_wizard")  # rounds=0 stands for None: every round
    assert full.atout.num_rounds == 15 and full.num_players() == 4
    with pytest.raises(atout.OptionError):
        pyspiel.load_game("python_atout_wizard", {"players": 3, "bids": "shouted"})


class _ISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's python ISMCTS lacks restart_at/inform_action, which evaluate_bots calls."""

    def restart_at(self, state: Any) -> None:
        self.reset()

    def inform_action(self, state: Any, player: int, action: int) -> None:
        return None


def test_mcts_ismcts_and_evaluate_bots() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 2})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bots = [
        _ISMCTS(game, evaluator, 2.0, 30, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=np.random.RandomState(2)),
        pyspiel.make_uniform_random_bot(2, 3),
    ]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert len(returns) == 3
    low, high = game.atout.score_bounds()
    assert all(low <= r <= high for r in returns)
    assert len(pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)) == 3
    # OpenSpiel's C++ loop and C++ MCTS over the python game.
    cpp = [
        pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 5), 2.0, 20, 100_000, False, 6, False),
        pyspiel.make_uniform_random_bot(1, 3),
        pyspiel.make_uniform_random_bot(2, 3),
    ]
    assert len(pyspiel.evaluate_bots(game.new_initial_state(), cpp, 7)) == 3


def test_ismcts_samples_worlds_of_its_information_state() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 4, "rounds": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while state.is_chance_node() or state.atout_state.round < 3:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    bot = _ISMCTS(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 40, random_state=rng)
    action = bot.step(state)
    assert action in state.legal_actions()
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    clone.apply_action(action)
    assert clone.history() != state.history()


def test_wizard_variants_through_openspiel() -> None:
    check_openspiel("wizard", 3, {"rounds": 2, "clairvoyance": True}, sims=1)
    check_openspiel("wizard", 5, {"rounds": 2, "bids": "hidden_until_end", "first_dealer": 2}, sims=1)


def test_serialization_round_trip_and_sampled_worlds() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    while state.is_chance_node() or len(state.history()) < 12:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history()
    assert again.atout_state.history == state.atout_state.history
    world = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    )
    with pytest.raises(TypeError, match="sampled"):
        world.serialize()


def test_openspiel_rl_environment() -> None:
    """OpenSpiel's own RL loop (``rl_environment``) runs on the registered game."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 2})
    env = rl_environment.Environment(game, seed=1)
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(3)]
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        action = agents[player].step(step).action
        assert action in legal
        step = env.step([action])
    final = env.get_state.atout_state.scores()
    assert step.rewards == [float(s) for s in final]
