"""PettingZoo: api_test, seed_test, max_cycles, exact seeding and rewards for every game.

A game whose engine is broken fails here loudly (never skipped): see
tests/test_conformance.py for the engine's own verdict.
"""

from __future__ import annotations

import pytest

import atout
from atout.envs import pettingzoo_env
from atout.testing.adapters import check_pettingzoo

from .conftest import table_sizes


@pytest.mark.parametrize(("name", "players"), table_sizes())
def test_pettingzoo_checks(name: str, players: int) -> None:
    check_pettingzoo(name, players, {}, seed=players)


def test_wizard_with_options_and_match_rewards() -> None:
    check_pettingzoo("wizard", 3, {"rounds": 2, "bids": "hidden_until_play"}, cycles=50)
    env = pettingzoo_env("wizard", 3, rounds=2, reward="win")
    env.reset(seed=4)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(obs["action_mask"].argmax()))
    assert sum(total.values()) == pytest.approx(1.0)
    assert max(total.values()) > 0


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    env = pettingzoo_env("wizard", 4)
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(obs["action_mask"].argmin())
    before = list(env.unwrapped.state.history)
    with pytest.raises(atout.IllegalAction):
        env.step(illegal)
    assert env.unwrapped.state.history == before
    with pytest.raises(ValueError, match="None"):
        env.step(None)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="colour"):
        pettingzoo_env("wizard", 4, colour=True)
    with pytest.raises(ValueError, match="tensor"):
        pettingzoo_env("wizard", 4, tensor="pixels")
    with pytest.raises(ValueError, match="reward"):
        pettingzoo_env("wizard", 4, reward="money")
    with pytest.raises(ValueError, match="max_cycles"):
        pettingzoo_env("wizard", 4, max_cycles=0)
    with pytest.raises(atout.OptionError):
        pettingzoo_env("wizard", 9)


def test_unseeded_resets_follow_the_last_seed() -> None:
    a, b = pettingzoo_env("wizard", 4), pettingzoo_env("wizard", 4)
    a.reset(seed=10)
    b.reset(seed=10)
    a.reset()
    b.reset()
    assert a.unwrapped.state.history == b.unwrapped.state.history
    assert a.unwrapped.state.history != atout.load("wizard", 4).new_state(10).history


def test_observation_layout_is_the_games_tensor() -> None:
    env = pettingzoo_env("wizard", 4, tensor="observation")
    env.reset(seed=3)
    agent = env.agent_selection
    obs, *_ = env.last()
    game = atout.load("wizard", 4)
    seat = env.possible_agents.index(agent)
    assert obs["observation"].tolist() == pytest.approx(game.observation_tensor(game.new_state(3).view(seat)))
    other = env.possible_agents[(seat + 1) % 4]
    assert env.observe(other)["action_mask"].sum() == 0  # not to act: nothing legal


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    """``human`` prints the table (PettingZoo's render_test runs in check_pettingzoo), ``ansi`` returns it."""
    env = pettingzoo_env("wizard", 3, rounds=1, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    printed = capsys.readouterr().out
    env = pettingzoo_env("wizard", 3, rounds=1, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip() == printed.strip()
    quiet = pettingzoo_env("wizard", 3)
    quiet.reset(seed=0)
    assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env("wizard", 3, render_mode="rgb_array")
