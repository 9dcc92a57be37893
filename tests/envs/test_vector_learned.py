"""Learned networks as the vector env's opponents: by path (a frozen snapshot) or the shipped one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import atout
from atout.bots import learned
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


SMALL = Path(learned.__file__).parent / "models" / "small" / "wizard-4p.npz"


@pytest.mark.parametrize(
    ("name", "bot"),
    [("policy-full", "policy"), ("policy", f"net:{SMALL}"), ("policy-small", f"net:{SMALL}")],
    ids=["full", "policy-is-small", "small"],
)
def test_learned_opponents_play_as_the_policy_bot_in_every_env(name: str, bot: str) -> None:
    """The shipped network at two seats, evaluated for every env in one product a step, plays
    the moves the bot of the same network plays in the single-agent env on the same deals (and
    a heuristic seat between them keeps its own choices): ``policy-full`` as the ``policy`` bot,
    ``policy`` (and ``policy-small``) as the small network's file played by ``net:PATH``."""
    N = 5
    opponents = [name, "heuristic", name]
    env = AtoutVectorEnv("wizard", N, 4, seat=1, opponents=opponents, stagger=False)
    obs, _ = env.reset(seed=70)
    game = atout.load("wizard", 4)
    bots = [bot, "heuristic", bot]
    singles = [AtoutGymEnv(game, seat=1, opponents=bots) for _ in range(N)]
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


def test_policy_opponents_are_the_small_network_where_one_is_shipped() -> None:
    """``policy`` is the small network at Wizard's 4 players (the vector env's speed), the big one
    elsewhere; ``policy-full`` always the big one; ``policy-small`` refused where none is shipped."""
    from atout.bots.learned import ModelMismatch, shipped_model, shipped_small_model
    from atout.envs.vector import learned_model

    game = atout.load("wizard", 4)
    small = shipped_small_model(game)
    assert small is not None and learned_model(game, "policy") is small
    assert learned_model(game, "policy-small") is small
    assert learned_model(game, "policy-full") is shipped_model(game)
    assert small.trunk[0][0].shape[1] * 4 <= shipped_model(game).trunk[0][0].shape[1]
    five = atout.load("wizard", 5)
    assert learned_model(five, "policy") is shipped_model(five)
    with pytest.raises(ModelMismatch, match="no small network of wizard at 5 players"):
        learned_model(five, "policy-small")
    with pytest.raises(ValueError, match="no small network"):
        AtoutVectorEnv("wizard", 4, 5, opponents="policy-small")


def test_policy_opponents_replay_the_same_matches_from_a_seed() -> None:
    """Two vector envs with ``policy`` opponents, reset with one seed and given the same actions,
    step through the same observations, rewards and ends (the small network is deterministic)."""

    def run() -> list[np.ndarray]:
        env = AtoutVectorEnv("wizard", 16, 4, opponents="policy")
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(3)
        out = [obs["observation"].copy()]
        for _ in range(120):
            masks = env.action_masks()
            obs, rewards, terminations, truncations, _ = env.step((rng.random(masks.shape) * masks).argmax(1))
            out += [obs["observation"].copy(), rewards.copy(), terminations.copy(), truncations.copy()]
        return out

    first, second = run(), run()
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        assert np.array_equal(a, b)
