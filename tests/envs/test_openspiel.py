"""OpenSpiel: every game registered with pyspiel, its consistency tests, playthroughs, pickling,
perfect recall, MCTS, ISMCTS and evaluate_bots."""

from __future__ import annotations

import json
import pickle
import re
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.observation import make_observation

import atout
import atout.envs.openspiel as atout_spiel
from atout.testing.adapters import (
    check_openspiel,
    check_openspiel_multiprocessing,
    check_openspiel_playthrough,
)

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


# -- point 4 of issue 20: OpenSpiel's own tools, pickling, perfect recall ---------------------------

#: Short matches for the slower tools, and still more than one round where cheap.
SHORT: dict[str, tuple[int, dict[str, Any]]] = {
    "wizard": (3, {"rounds": 2}),
    "malin": (3, {"start_score": 1}),
    "sticheln": (3, {"hands": 1}),
    "nain-jaune": (3, {"max_deals": 1}),
}


def test_short_configurations_cover_every_game() -> None:
    assert sorted(SHORT) == sorted(atout.names())


@pytest.mark.parametrize("name", sorted(SHORT))
def test_generate_playthrough_runs_and_replays(name: str) -> None:
    players, options = SHORT[name]
    text = check_openspiel_playthrough(name, players, options, seed=1)
    assert "GameType.provides_factored_observation_string = True" in text


@pytest.mark.parametrize(("name", "players"), one_table_per_game())
def test_games_pickle_with_their_parameters(name: str, players: int) -> None:
    game = pyspiel.load_game(
        atout_spiel.short_name(name), {"players": players, "information_state": "per_round"}
    )
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is getattr(atout_spiel, atout_spiel.class_name(name))
    assert type(again).__module__ == "atout.envs.openspiel"
    assert again.atout == game.atout and again.information_state == "per_round"
    assert str(again) == str(game)
    state = game.new_initial_state()
    rng = np.random.RandomState(players)
    for _ in range(30):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history()
    assert copy.information_state_string(0) == state.information_state_string(0)


def test_unpickling_finds_a_game_class_by_its_module_name() -> None:
    cls = atout_spiel.__getattr__(atout_spiel.class_name("nain-jaune"))
    assert cls is atout_spiel.REGISTERED["nain-jaune"]
    with pytest.raises(AttributeError):
        atout_spiel.__getattr__("AtoutSpiel_python_atout_bridge")


def test_a_game_and_a_state_go_to_a_spawned_process() -> None:
    check_openspiel_multiprocessing("wizard", 3, {"rounds": 2})


@pytest.mark.parametrize("name", sorted(SHORT))
def test_per_round_information_state(name: str) -> None:
    players, options = SHORT[name]
    check_openspiel(name, players, {**options, "information_state": "per_round"}, sims=1)


def test_information_state_parameter() -> None:
    assert pyspiel.load_game("python_atout_wizard").information_state == "perfect_recall"
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "information_state": "per_round"})
    assert game.information_state_tensor_size() == game.atout.information_state_tensor_size()
    full = pyspiel.load_game("python_atout_wizard", {"players": 3})
    assert full.information_state_tensor_size() == game.atout.information_state_tensor_size() + 64
    with pytest.raises(Exception, match="information_state must be one of perfect_recall, per_round"):
        pyspiel.load_game("python_atout_wizard", {"information_state": "total_recall"})


def _replayed(game: Any, texts: list[str]) -> Any | None:
    """The OpenSpiel state after ``texts`` (action notations), or None if one is illegal."""
    state = game.new_initial_state()
    for text in texts:
        action = state.atout_state.parse(text)
        if not state.atout_state.is_legal(action):
            return None
        state.apply_action(action)
    return state


def _two_histories_differing_in_seat_0s_cards(game: Any) -> tuple[Any, Any]:
    """Two Wizard matches up to seat 0's first decision of round 3 that differ only in one of
    seat 0's round-2 cards (dealt, then played to a trick that is not the round's last): same
    bids, same trick winners, same scores, same round-3 deal."""
    for seed in range(100):
        rng = np.random.RandomState(seed)
        state = game.new_initial_state()
        texts: list[tuple[int, str]] = []
        while not (state.atout_state.round == 3 and state.current_player() == 0):
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                action = int(rng.choice(actions, p=probs))
            else:
                action = int(rng.choice(state.legal_actions()))
            texts.append((state.atout_state.round, state.atout_state.action_to_text(action)))
            state.apply_action(action)
        later = {text.split()[-1] for rnd, text in texts if rnd >= 2}
        unused = [f"{c}{r}" for c in "RGBY" for r in range(1, 14) if f"{c}{r}" not in later]
        plain = [text for _, text in texts]
        for i, (rnd, text) in enumerate(texts):
            card = text.split()[-1]
            if rnd != 2 or not text.startswith("deal 0 ") or not re.fullmatch(r"[RGBY]\d+", card):
                continue
            play = plain.index(f"play {card}")
            for other in unused:
                swapped = plain.copy()
                swapped[i], swapped[play] = f"deal 0 {other}", f"play {other}"
                twin = _replayed(game, swapped)
                if twin is None or twin.atout_state.scores() != state.atout_state.scores():
                    continue
                if twin.atout_state.view(0).prev_round_trick == state.atout_state.view(0).prev_round_trick:
                    return state, twin
    raise AssertionError("no pair of histories found")


def test_perfect_recall_remembers_own_cards_of_earlier_rounds() -> None:
    """Issue 20: two round-2 histories that differ in seat 0's own cards gave the same round-3
    information state.  Per round they still do (by design); with perfect recall (the default)
    the strings and the tensors differ, in the digest block only."""
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 3, "first_dealer": 0})
    one, two = _two_histories_differing_in_seat_0s_cards(game)
    assert one.atout_state.view(0) == two.atout_state.view(0)
    per_round = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False))
    assert per_round.string_from(one, 0) == per_round.string_from(two, 0)
    assert one.information_state_string(0) != two.information_state_string(0)
    first, second = one.information_state_tensor(0), two.information_state_tensor(0)
    base = game.atout.information_state_tensor_size()
    assert first[:base] == second[:base] and first[base:] != second[base:]
    # information_state=per_round keeps the former information state: it forgets.
    per_round_game = pyspiel.load_game(
        "python_atout_wizard",
        {"players": 3, "rounds": 3, "first_dealer": 0, "information_state": "per_round"},
    )
    old = []
    for state in (one, two):
        again = per_round_game.new_initial_state()
        for action in state.history():
            again.apply_action(action)
        old.append(again)
    assert old[0].information_state_string(0) == old[1].information_state_string(0)
    assert old[0].information_state_tensor(0) == old[1].information_state_tensor(0)
    # Seat 0's record of round 2 holds its own cards, and no other seat's.
    record = json.loads(one.information_state_string(0))["past"][1]
    assert record["round"] == 2 and any(t and t.startswith("deal 0 ") for t in record["seen"])
    assert not any(t and t.startswith(("deal 1 ", "deal 2 ")) for t in record["seen"])


def test_public_and_private_observations() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "rounds": 2})
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    private = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=False, perfect_recall=True, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
        ),
    )
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while not state.is_terminal():
        strings = {public.string_from(state, p) for p in range(3)}
        assert len(strings) == 1, "the public observation is the same for every seat"
        for seat in range(3):
            mine = json.loads(private.string_from(state, seat))["private"]
            assert all(text.startswith(f"deal {seat} ") for text in mine), mine
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(json.loads(private.string_from(state, 0))["private"]) == 3  # 1 + 2 cards over the match
    every_seat = pyspiel.IIGObservationType(
        perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every seat"):
        game.make_py_observer(every_seat)
