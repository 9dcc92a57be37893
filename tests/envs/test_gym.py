"""The single-agent Gymnasium wrapper against atout bots, for every game."""

from __future__ import annotations

import pytest

import atout
from atout.envs import gym_env
from atout.testing.adapters import check_gym

from .conftest import one_table_per_game


@pytest.mark.parametrize(("name", "players"), one_table_per_game())
def test_gym_checks(name: str, players: int) -> None:
    check_gym(name, players, {}, opponents="random", seed=players)


@pytest.mark.parametrize(("name", "players"), one_table_per_game())
def test_gym_against_the_games_own_bots(name: str, players: int) -> None:
    opponents = [*atout.load(name, players).bots, "random"][0]
    check_gym(name, players, {}, opponents=opponents, seed=1)


def test_gym_refusals() -> None:
    with pytest.raises(ValueError, match="seat"):
        gym_env("wizard", 4, seat=4)
    with pytest.raises(atout.OptionError, match="no bot"):
        gym_env("wizard", 4, opponents="grandmaster")
    with pytest.raises(ValueError, match="3 opponents"):
        gym_env("wizard", 4, opponents=["random"])
    env = gym_env("wizard", 4, rounds=1)
    obs, _ = env.reset(seed=0)
    with pytest.raises(atout.IllegalAction):
        env.step(int(obs["action_mask"].argmin()))
