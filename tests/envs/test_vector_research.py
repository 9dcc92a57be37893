"""The vector env with the tools researchers bring: Gymnasium's vector wrappers, action masks, staggered episodes.

Why a file of its own: test_vector.py checks the env against the engine's
single-agent env; here it is checked against what outside code expects of it
(issue 27): every observation wrapper Gymnasium ships for vector envs runs on
it, ``NEXT_STEP`` autoreset means what Gymnasium says, ``action_masks()`` is
what sb3-contrib's MaskablePPO reads, and matches start at different rounds
(``start_round="random"``), each the engine's game with that start round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers import vector as wrappers

import atout
from atout.envs import gym_env
from atout.envs.single_agent import AtoutGymEnv, gym_id
from atout.envs.vector import AtoutVectorEnv


def legal_from(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


def flat_size(env: VectorEnv[Any, Any, Any]) -> int:
    return int(spaces.flatdim(env.single_observation_space))


#: Each wrapper named in issue 27, alone where it takes the env's Dict observation, else after
#: FlattenObservation (NormalizeObservation and DtypeObservation want a Box).
WRAPPERS: dict[str, Callable[[VectorEnv[Any, Any, Any]], VectorEnv[Any, Any, Any]]] = {
    "FilterObservation": lambda env: wrappers.FilterObservation(env, ["observation"]),
    "TransformObservation": lambda env: wrappers.TransformObservation(
        env, lambda obs: {**obs, "observation": obs["observation"] * 0.5}
    ),
    "FlattenObservation": lambda env: wrappers.FlattenObservation(env),
    "NormalizeObservation": lambda env: wrappers.NormalizeObservation(wrappers.FlattenObservation(env)),
    "DtypeObservation": lambda env: wrappers.DtypeObservation(wrappers.FlattenObservation(env), np.float64),
}


# Gymnasium's Box casts its float bounds to the new dtype's range and warns about it (its own doing).
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.parametrize("wrapper", list(WRAPPERS))
def test_gymnasium_vector_observation_wrappers_run(wrapper: str) -> None:
    """A few hundred steps of ``make_vec("atout/Wizard-v0")`` under each wrapper, through episode ends."""
    env = WRAPPERS[wrapper](gymnasium.make_vec(gym_id("wizard"), num_envs=8, rounds=2, opponents="heuristic"))
    raw = env.unwrapped
    assert isinstance(raw, AtoutVectorEnv) and raw.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        assert env.observation_space.contains(obs) or wrapper == "NormalizeObservation"
        obs, _, terminations, truncations, infos = env.step(legal_from(raw.action_masks(), rng))
        assert not infos["illegal_action"].any() and not truncations.any()
        ends += int(terminations.sum())
    assert ends >= 8  # every env finished matches and went on
    if wrapper == "NormalizeObservation":
        assert obs.shape == (8, flat_size(raw)) and np.isfinite(obs).all()
    if wrapper == "DtypeObservation":
        assert obs.dtype == np.float64


@pytest.mark.parametrize("name", ["wizard", "sticheln", "malin", "nain-jaune"])
def test_next_step_autoreset_semantics(name: str) -> None:
    """The step after a terminal one is the reset step: action ignored, reward 0, the new match's first observation."""
    options: dict[str, Any] = {"wizard": {"rounds": 2}, "sticheln": {"hands": 1}}.get(name, {})
    env = AtoutVectorEnv(name, 4, 4, opponents="heuristic", **options)
    game = atout.load(name, 4, **options)
    obs, _ = env.reset(seed=21)
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 4:
        obs, rewards, terminations, _, infos = env.step(legal_from(env.action_masks(), rng))
        if not terminations.any():
            continue
        ended = np.flatnonzero(terminations)
        old_seeds = [env.match_seeds[i] for i in ended.tolist()]
        assert env.action_masks()[ended].all() and obs["action_mask"][ended].all()
        # Any action, even one the finished match would refuse, is ignored by the reset step.
        actions = legal_from(env.action_masks(), rng)
        actions[ended] = game.num_actions - 1
        obs, rewards, terminations, _, infos = env.step(actions)
        for i, old in zip(ended.tolist(), old_seeds, strict=True):
            assert rewards[i] == 0.0 and not terminations[i] and not infos["illegal_action"][i]
            assert env.match_seeds[i] != old
            single = AtoutGymEnv(game, opponents="heuristic")
            first, _ = single.reset(seed=env.match_seeds[i])
            assert (first["observation"] == obs["observation"][i]).all()
            assert (first["action_mask"] == obs["action_mask"][i]).all()
            checked += 1


def test_action_masks_single_and_vector() -> None:
    """``action_masks()``: bool, (n_actions,) for the single env, (num_envs, n_actions) for the vector env."""
    single = gym_env("sticheln", players=4, hands=1)
    obs, _ = single.reset(seed=4)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        mask = single.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (single.game.num_actions,)
        assert (mask == obs["action_mask"].astype(bool)).all() and mask.any()
        obs, _, done, _, _ = single.step(int(rng.choice(np.flatnonzero(mask))))
    assert not single.action_masks().any()  # over: nothing is accepted
    registered = gymnasium.make(gym_id("wizard"), rounds=1)
    registered.reset(seed=0)
    assert registered.unwrapped.action_masks().shape == (registered.action_space.n,)  # type: ignore[attr-defined]

    env = AtoutVectorEnv("wizard", 5, 3, rounds=2)
    with pytest.raises(RuntimeError, match="reset"):
        env.action_masks()
    obs, _ = env.reset(seed=1)
    for _ in range(40):
        masks = env.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (5, env.game.num_actions)
        assert (masks == obs["action_mask"].astype(bool)).all() and masks.any(axis=1).all()
        obs, *_ = env.step(legal_from(masks, rng))


def test_random_start_rounds_stagger_and_equal_the_engine() -> None:
    """``start_round="random"``: each match at a seeded random round, the engine's game with that start round."""
    N = 6
    env = AtoutVectorEnv(
        "wizard", N, 4, opponents="heuristic", start_round="random", autoreset_mode="same_step", rounds=None
    )
    obs, _ = env.reset(seed=9)
    assert env.batch is not None
    starts = env.batch.start_round.tolist()
    assert len(set(starts)) > 1 and all(1 <= r <= 15 for r in starts)
    again = AtoutVectorEnv("wizard", N, 4, opponents="heuristic", start_round="random")
    again.reset(seed=9)
    assert again.batch is not None and again.batch.start_round.tolist() == starts  # seeded

    # Each match against the engine's single env of the game with its start round (rules, rewards, ends;
    # the observations differ only in the score scale, which is the configuration's).
    def single_for(i: int) -> tuple[AtoutGymEnv, dict[str, Any]]:
        assert env.batch is not None
        game = atout.load("wizard", 4, start_round=int(env.batch.start_round[i]))
        single = AtoutGymEnv(game, opponents="heuristic")
        return single, single.reset(seed=env.match_seeds[i])[0]

    singles = [single_for(i) for i in range(N)]
    rng = np.random.default_rng(0)
    episodes = 0
    rounds_seen: set[tuple[int, ...]] = set()
    while episodes < 2 * N:
        rounds_seen.add(tuple(env.batch.round.tolist()))
        for i in range(N):
            assert (singles[i][1]["action_mask"] == obs["action_mask"][i]).all()
        actions = legal_from(env.action_masks(), rng)
        obs, rewards, terminations, _, _ = env.step(actions)
        for i in range(N):
            single_obs, reward, done, _, _ = singles[i][0].step(int(actions[i]))
            assert reward == rewards[i] and done == terminations[i]
            singles[i] = single_for(i) if done else (singles[i][0], single_obs)
            episodes += int(done)
    assert any(len(set(r)) > 1 for r in rounds_seen)  # not in lockstep


def test_fixed_start_round_and_refusals() -> None:
    env = AtoutVectorEnv("sticheln", 3, 4, start_round=3)
    env.reset(seed=0)
    assert env.batch is not None and env.batch.round.tolist() == [3, 3, 3]
    with pytest.raises(ValueError, match="start_round must be a round number or 'random'"):
        AtoutVectorEnv("sticheln", 3, 4, start_round="late")
    with pytest.raises(ValueError, match="autoreset_mode must be one of 'next_step', 'same_step'"):
        AtoutVectorEnv("sticheln", 3, 4, autoreset_mode="whenever")
    vec = gymnasium.make_vec(gym_id("malin"), num_envs=2, start_round="random", rounds=2)
    assert isinstance(vec.unwrapped, AtoutVectorEnv) and vec.unwrapped.random_start


@pytest.mark.parametrize(("name", "options"), [("wizard", {"rounds": 2}), ("nain-jaune", {}), ("malin", {})])
def test_engine_random_plays_the_single_envs_matches(name: str, options: dict[str, Any]) -> None:
    """``engine_random=True``: random opponents draw as RandomBot, so the matches are gym_env's, step by step."""
    N = 3
    env = AtoutVectorEnv(name, N, 4, seat=1, opponents="random", engine_random=True, stagger=False, **options)
    obs, _ = env.reset(seed=60)
    game = atout.load(name, 4, **options)
    singles = [AtoutGymEnv(game, seat=1, opponents="random") for _ in range(N)]
    expected = [s.reset(seed=seed)[0] for s, seed in zip(singles, env.match_seeds, strict=True)]
    rng = np.random.default_rng(4)
    resetting = np.zeros(N, dtype=bool)
    episodes = 0
    while episodes < 2 * N:
        for i in np.flatnonzero(~resetting).tolist():
            assert (expected[i]["observation"] == obs["observation"][i]).all()
        actions = legal_from(env.action_masks(), rng)
        obs, rewards, terminations, _, _ = env.step(actions)
        for i in range(N):
            if resetting[i]:
                resetting[i] = False
                expected[i], _ = singles[i].reset(seed=env.match_seeds[i])
                continue
            single_obs, reward, done, _, _ = singles[i].step(int(actions[i]))
            assert reward == rewards[i] and done == terminations[i]
            expected[i] = single_obs
            if done:
                resetting[i] = True
                episodes += 1
    # By default the random draws are numpy's, for all matches at once: other matches from the same seeds.
    fast = AtoutVectorEnv(name, N, 4, seat=1, opponents="random", **options)
    fast.reset(seed=60)
    assert fast.match_seeds[:N] == list(range(60, 60 + N))
