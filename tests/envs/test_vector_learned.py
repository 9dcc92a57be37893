"""Learned networks as the vector env's opponents: by path (a frozen snapshot) or the shipped one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import atout
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
