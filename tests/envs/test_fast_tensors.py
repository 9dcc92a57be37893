"""Tensors written straight into the adapters' float32 arrays equal the list tensors.

The research adapters no longer build a list of floats and convert it at every
step: the game's encoder writes into a zeroed float32 array
(:meth:`atout.Game.write_tensor`).  These tests pin that both roads give the
same values (as float32) at every seat of sampled states of every game, with
options that change the layouts, and that each adapter serves those values.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

import atout
from atout.core.game import CHANCE
from atout.envs import pettingzoo_env
from atout.envs.arrays import tensor_array

from .conftest import table_sizes

#: Layout-changing options, per game, beside every table size at the defaults.
OPTIONS: list[tuple[str, int, dict[str, Any]]] = [
    ("wizard", 4, {"clairvoyance": True, "rounds": 3}),
    ("wizard", 5, {"bids": "hidden_until_end", "rounds": 4}),
    ("malin", 4, {"fun": False}),
]


def _sample(game: atout.Game, seed: int, every: float) -> list[atout.State]:
    """States of a random match (chance included), about one decision in ``1 / every``."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    out: list[atout.State] = []
    while not state.is_terminal and len(out) < 40:
        if state.current_player != CHANCE and rng.random() < every:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    out.append(state)  # the match's last state (over, or cut at 40 samples)
    return out


def _check(game: atout.Game, seed: int) -> None:
    for state in _sample(game, seed, every=0.15):
        for seat in range(game.players):
            view = state.view(seat)
            for information_state in (False, True):
                expected = (
                    game.information_state_tensor(view)
                    if information_state
                    else game.observation_tensor(view)
                )
                written = tensor_array(game, view, information_state)
                assert written.dtype == np.float32
                where = f"{game!r} seed {seed} step {len(state.history)} seat {seat} info {information_state}"
                assert np.array_equal(written, np.asarray(expected, np.float32)), where


@pytest.mark.parametrize(("name", "players"), table_sizes())
def test_written_tensors_equal_list_tensors(name: str, players: int) -> None:
    _check(atout.load(name, players), seed=players)


@pytest.mark.parametrize(("name", "players", "options"), OPTIONS)
def test_written_tensors_equal_list_tensors_with_options(
    name: str, players: int, options: dict[str, Any]
) -> None:
    _check(atout.load(name, players, **options), seed=11)


def test_pettingzoo_observation_is_the_written_tensor() -> None:
    env = pettingzoo_env("sticheln", 4)
    env.reset(seed=5)
    rng = random.Random(5)
    game = env.unwrapped.game
    for _ in range(60):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        seat = env.unwrapped.state.current_player
        view = env.unwrapped.state.view(seat)
        assert np.array_equal(obs["observation"], np.asarray(game.information_state_tensor(view), np.float32))
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(view.legal_actions)
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def test_pettingzoo_last_before_reset_is_refused_as_pettingzoo_does() -> None:
    env = pettingzoo_env("wizard", 3)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    assert str(env) == "atout_wizard"


def test_a_game_pickles_without_its_caches() -> None:
    """Games carry cached layouts once used; a pickle is still just class, players, options."""
    game = atout.load("wizard", 4, rounds=3)
    state = game.new_state(2)
    tensor_array(game, state.view(0), True)  # fills the caches (a module among them)
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.options == game.options
    assert np.array_equal(tensor_array(again, state.view(0), True), tensor_array(game, state.view(0), True))


def test_openspiel_tensors_are_the_games_and_follow_the_state() -> None:
    """pyspiel asks the observer twice per tensor; the second answer must never be stale."""
    pyspiel = pytest.importorskip("pyspiel")
    import atout.envs.openspiel  # registers the games

    game = pyspiel.load_game("python_atout_sticheln", {"players": 3, "information_state": "per_round"})
    atout_game = atout.load("sticheln", 3)
    state = game.new_initial_state()
    rng = random.Random(4)
    seen = 0
    while not state.is_terminal() and seen < 40:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        view = state.atout_state.view(state.current_player())
        expected = np.asarray(atout_game.information_state_tensor(view), np.float32)
        for _ in range(2):  # asked again: the same answer, from the memo
            assert np.array_equal(np.asarray(state.information_state_tensor(), np.float32), expected)
        other = (state.current_player() + 1) % 3
        other_view = state.atout_state.view(other)
        assert np.array_equal(
            np.asarray(state.information_state_tensor(other), np.float32),
            np.asarray(atout_game.information_state_tensor(other_view), np.float32),
        )
        state.apply_action(rng.choice(state.legal_actions()))
        seen += 1
    assert seen == 40
