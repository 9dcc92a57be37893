"""atout's whole-batch ``FlattenObservation`` and ``NormalizeObservation`` (atout.envs.vector_wrappers, issue 49).

They replace gymnasium's per-env loop and float64 temporaries by whole-batch numpy, so
they must give gymnasium's observations and statistics exactly, step after step, ends and
automatic resets included, and stay gymnasium's wrappers for whoever checks.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.wrappers import vector as wrappers

from atout.envs import vector_wrappers as fast
from atout.envs.single_agent import gym_id
from atout.envs.vector import AtoutVectorEnv


def make(name: str, num_envs: int) -> Any:
    options: dict[str, Any] = (
        {"rounds": 2} if name == "wizard" else {"max_deals": 2}
    )  # short matches: ends and resets
    return gymnasium.make_vec(gym_id(name), num_envs=num_envs, **options)


def masks_of(env: VectorEnv[Any, Any, Any]) -> Any:
    raw = env.unwrapped
    assert isinstance(raw, AtoutVectorEnv)
    return raw.action_masks()


@pytest.mark.parametrize("name", ["wizard", "nain-jaune"])
def test_the_whole_batch_wrappers_give_gymnasiums_observations(name: str) -> None:
    theirs = wrappers.NormalizeObservation(wrappers.FlattenObservation(make(name, 16)))
    ours = fast.NormalizeObservation(fast.FlattenObservation(make(name, 16)))
    assert isinstance(ours, wrappers.NormalizeObservation) and isinstance(
        ours.env, wrappers.FlattenObservation
    )
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    a, _ = theirs.reset(seed=5)
    b, _ = ours.reset(seed=5)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(80):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b)
        assert np.array_equal(theirs.obs_rms.mean, ours.obs_rms.mean)
        assert np.array_equal(theirs.obs_rms.var, ours.obs_rms.var)
        masks = masks_of(theirs)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        a, _, done, _, _ = theirs.step(actions)
        b, *_ = ours.step(actions)
        ended += int(done.sum())
    assert ended  # episodes ended and restarted on the way
    ours.update_running_mean = theirs.update_running_mean = False  # frozen statistics: the other branch
    masks = masks_of(theirs)
    actions = masks.argmax(axis=1)
    assert np.array_equal(theirs.step(actions)[0], ours.step(actions)[0])


def test_flatten_alone_matches_and_keeps_what_it_returned() -> None:
    theirs = wrappers.FlattenObservation(make("wizard", 8))
    ours = fast.FlattenObservation(make("wizard", 8))
    a, _ = theirs.reset(seed=1)
    b, _ = ours.reset(seed=1)
    assert np.array_equal(a, b) and a.shape == (8, spaces.flatdim(ours.single_observation_space))
    kept = b.copy()
    masks = masks_of(ours)
    ours.step(masks.argmax(axis=1))
    assert np.array_equal(b, kept)  # a fresh array each step, as gymnasium's deep copy


def test_another_observation_space_falls_back_to_gymnasiums_loop() -> None:
    env = fast.FlattenObservation(
        wrappers.FlattenObservation(make("wizard", 4))  # a Box already: gymnasium's own path
    )
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, spaces.flatdim(env.single_observation_space))
