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
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import atout
from atout.core.game import CHANCE
from atout.envs import pettingzoo_env
from atout.envs.aec import AtoutAECEnv
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


class _ClearingEnv(AtoutAECEnv):
    """The AEC env clearing ``rewards`` at every step, as PettingZoo's ``_clear_rewards`` is meant."""

    @property
    def _dirty(self) -> bool:
        return True

    @_dirty.setter
    def _dirty(self, value: bool) -> None:
        pass


@pytest.mark.parametrize("tensor", ["information_state", "observation"])
@pytest.mark.parametrize(
    ("name", "options"), [("wizard", {"rounds": 3}), ("malin", {}), ("sticheln", {}), ("nain-jaune", {})]
)
def test_pettingzoo_match_observes_the_list_encoding_and_pays_as_pettingzoo(
    name: str, options: dict[str, Any], tensor: str
) -> None:
    """A whole seeded AEC match through ``pettingzoo_env`` (its own wrapper, iterator and reward
    bookkeeping, issue 48) beside the same match through PettingZoo's stock
    ``OrderEnforcingWrapper`` around an env that clears the rewards at every step: the same
    agents in turn, the same ``last()`` (cumulative reward, flags, infos), the same ``rewards``
    (values and types) after every step; and every agent's observation equal to the game's
    list encoder and ``legal_mask``, as float32 and int8."""
    fast = pettingzoo_env(name, 4, tensor=tensor, **options)
    base = fast.unwrapped
    stock = OrderEnforcingWrapper(_ClearingEnv(base.game, tensor=tensor))
    game = base.game
    rng = random.Random(4)
    for env in (fast, stock):
        env.reset(seed=21)
    for agent, other in zip(fast.agent_iter(), stock.agent_iter(), strict=True):
        assert agent == other
        obs, *rest = fast.last()
        obs_stock, *rest_stock = stock.last()
        assert rest == rest_stock
        state = base.state
        for seat, each in enumerate(fast.possible_agents):
            view = state.view(seat)
            seen = fast.observe(each)
            encoded = (
                game.information_state_tensor(view)
                if tensor == "information_state"
                else game.observation_tensor(view)
            )
            assert seen["observation"].dtype == np.float32 and seen["action_mask"].dtype == np.int8
            assert np.array_equal(seen["observation"], np.asarray(encoded, np.float32))
            legal = state.legal_mask() if view.legal_actions else [0] * game.num_actions
            assert seen["action_mask"].tolist() == legal
        assert np.array_equal(obs["observation"], obs_stock["observation"])
        assert np.array_equal(obs["action_mask"], obs_stock["action_mask"])
        over = rest[1] or rest[2]
        action = None if over else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        fast.step(action)
        stock.step(action)
        assert [(k, v, type(v)) for k, v in fast.rewards.items()] == [
            (k, v, type(v)) for k, v in stock.rewards.items()
        ]
    assert not stock.agents and base.state.is_terminal


@pytest.mark.parametrize("players", range(3, 9))
def test_nain_jaune_float32_memoryview_road_equals_the_list_tensors(players: int) -> None:
    """The AEC env's road (its ``Observer``: the layout's ``encode`` into a fresh float32
    memoryview) at every decision of a seeded Le Nain Jaune match, every seat, both tensors, at
    every table size: equal to the list encoder's tensor as float32 and to the numpy road's
    (the digests pin the list road only; issue 48 rewrites the encoders for that road)."""
    game = atout.load("nain-jaune", players)
    layout = game._tensor_layout()
    assert layout is not None
    rng = random.Random(players)
    state = game.new_state(players)
    sizes = {
        flag: len(
            game.information_state_tensor(state.view(0)) if flag else game.observation_tensor(state.view(0))
        )
        for flag in (False, True)
    }
    while not state.is_terminal:
        if state.current_player != CHANCE:
            for seat in range(players):
                view = state.view(seat)
                for information_state in (False, True):
                    raw = bytearray(4 * sizes[information_state])
                    layout.encode(view, information_state, memoryview(raw).cast("f"))
                    expected = (
                        game.information_state_tensor(view)
                        if information_state
                        else game.observation_tensor(view)
                    )
                    where = (
                        f"{players} players, step {len(state.history)}, seat {seat}, info {information_state}"
                    )
                    assert np.array_equal(np.frombuffer(raw, np.float32), np.asarray(expected, np.float32)), (
                        where
                    )
                    assert np.array_equal(
                        tensor_array(game, view, information_state), np.frombuffer(raw, np.float32)
                    ), where
        state.apply(rng.choice(state.legal_actions()))
