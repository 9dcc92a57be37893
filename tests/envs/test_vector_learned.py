"""Learned networks as the vector env's opponents: by path (a frozen snapshot) or the shipped one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import atout
from atout.envs.single_agent import AtoutGymEnv
from atout.envs.vector import AtoutVectorEnv
from tests.bots.test_learned import random_model


def test_a_trained_network_plays_the_other_seats(tmp_path: Path) -> None:
    game = atout.load("wizard", players=4)
    model = random_model(game, seed=3)
    model.save(tmp_path / "snapshot.npz")
    env = AtoutVectorEnv(
        "wizard", 8, 4, opponents=["heuristic", f"net:{tmp_path / 'snapshot.npz'}", "random"]
    )
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(200):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, reward, _, _, _ = env.step(actions)
        assert np.isfinite(reward).all()
    env.close()


def test_a_network_for_another_game_is_refused_as_an_opponent(tmp_path: Path) -> None:
    model = random_model(atout.load("malin", players=4))
    model.save(tmp_path / "malin.npz")
    with pytest.raises(ValueError, match="plays malin, not wizard"):
        AtoutVectorEnv("wizard", 4, 4, opponents=f"net:{tmp_path / 'malin.npz'}")
    with pytest.raises(ValueError, match="opponents"):
        AtoutVectorEnv("wizard", 4, 4, opponents="grandmaster")


def test_learned_opponents_play_as_the_policy_bot_in_every_env() -> None:
    """The shipped network at two seats, evaluated for every env in one product a step, plays
    the moves the ``policy`` bot plays in the single-agent env on the same deals (and a
    heuristic seat between them keeps its own choices)."""
    N = 5
    opponents = ["policy", "heuristic", "policy"]
    env = AtoutVectorEnv("wizard", N, 4, seat=1, opponents=opponents, stagger=False)
    obs, _ = env.reset(seed=70)
    game = atout.load("wizard", 4)
    singles = [AtoutGymEnv(game, seat=1, opponents=opponents) for _ in range(N)]
    expected = [s.reset(seed=seed)[0] for s, seed in zip(singles, env.match_seeds, strict=True)]
    rng = np.random.default_rng(5)
    for _ in range(60):  # several rounds: bids and plays, learned seats before and after the agent
        for i in range(N):
            assert (expected[i]["observation"] == obs["observation"][i]).all()
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminations, _, _ = env.step(actions)
        for i in range(N):
            expected[i], reward, done, _, _ = singles[i].step(int(actions[i]))
            assert reward == rewards[i] and done == terminations[i] and not done
