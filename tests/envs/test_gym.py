"""The single-agent Gymnasium wrapper against atout bots, for every game: Gymnasium's own
``check_env`` on the registered ids, the ``illegal_action`` modes."""

from __future__ import annotations

import gymnasium
import pytest

import atout
from atout.envs import gym_env
from atout.envs.single_agent import GYM_IDS, AtoutGymEnv, gym_id
from atout.testing.adapters import check_gym, check_gym_registered

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


# -- issue 20: registered with Gymnasium, check_env as shipped, illegal actions --------------------


def test_every_game_is_registered_with_gymnasium() -> None:
    assert {name: gym_id(name) for name in atout.names()} == GYM_IDS
    assert gym_id("wizard") == "atout/Wizard-v0" and gym_id("nain-jaune") == "atout/NainJaune-v0"
    for env_id in GYM_IDS.values():
        assert env_id in gymnasium.registry


@pytest.mark.parametrize("name", sorted(atout.names()))
def test_registered_env_passes_check_env_as_shipped(name: str) -> None:
    check_gym_registered(name)


def test_registered_env_takes_settings_and_options() -> None:
    env = gymnasium.make("atout/Wizard-v0", players=3, rounds=2, seat=1, illegal_action="raise")
    base = env.unwrapped
    assert isinstance(base, AtoutGymEnv)
    assert base.game == atout.load("wizard", 3, rounds=2) and base.seat == 1
    obs, _ = env.reset(seed=0)
    with pytest.raises(atout.IllegalAction):
        env.step(int(obs["action_mask"].argmin()))
    env.close()


def test_penalty_is_one_below_the_worst_return_or_given() -> None:
    env = gym_env("wizard", 4, rounds=2, illegal_action="penalty", illegal_penalty=-3.5)
    obs, _ = env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmin()))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-3.5, True, False, True)
    assert "illegal_reason" in info and info["action_mask"].sum() > 0
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=1)  # a new episode plays again
    bounds = env.game.score_bounds()
    assert bounds is not None
    low = bounds[0]
    env = gym_env("wizard", 4, rounds=2, illegal_action="penalty", reward="match")
    obs, _ = env.reset(seed=1)
    assert env.penalty() == low - 1
    _, reward, *_ = env.step(int(obs["action_mask"].argmin()))
    assert reward == low - 1


def test_illegal_action_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        gym_env("wizard", 4, illegal_action="ignore")
    with pytest.raises(ValueError, match="illegal_penalty"):
        gym_env("wizard", 4, illegal_action="penalty", illegal_penalty=float("nan"))
    with pytest.raises(ValueError, match="illegal_penalty"):
        gym_env("wizard", 4, illegal_penalty=True)
    with pytest.raises(ValueError, match="render_mode"):
        gym_env("wizard", 4, render_mode="rgb_array")


def test_legal_steps_say_so() -> None:
    env = gym_env("wizard", 4, rounds=1)
    obs, info = env.reset(seed=2)
    assert info["illegal_action"] is False
    assert info["action_mask"] is not obs["action_mask"]
    _, _, _, _, info = env.step(int(obs["action_mask"].argmax()))
    assert info["illegal_action"] is False and "played_action" not in info


def test_human_render_prints_the_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = gym_env("wizard", 4, rounds=1, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "'seat': 0" in capsys.readouterr().out
    env = gym_env("wizard", 4, rounds=1, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "'seat': 0" in text
