"""The Stable-Baselines3 route: :class:`SB3Bridge` with numpy alone, ``AtoutSB3VecEnv`` and MaskablePPO where installed."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from atout.envs.sb3 import HAVE_SB3, AtoutSB3VecEnv, SB3Bridge
from atout.envs.vector import AtoutVectorEnv


def bridge(**kwargs: object) -> SB3Bridge:
    return SB3Bridge(AtoutVectorEnv("wizard", 6, 4, autoreset_mode="same_step", rounds=2), **kwargs)  # type: ignore[arg-type]


def test_bridge_speaks_sb3s_protocol() -> None:
    """What SB3's VecEnv and sb3-contrib's MaskablePPO ask, checked with plain numpy."""
    env = bridge()
    env.seed(30)
    obs = env.reset()
    assert obs.shape == (6, env.env.game.information_state_tensor_size())
    assert env.observation_space.contains(obs[0])
    assert env.reset_infos[3]["match_seed"] == 33  # SB3's convention: env i gets seed + i
    # MaskablePPO: get_attr("action_masks") must not fail; env_method("action_masks") gives one row per env.
    assert len(env.get_attr("action_masks")) == 6
    rng = np.random.default_rng(0)
    dones_seen = 0
    for _ in range(200):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.shape == (6, env.action_space.n) and masks.dtype == np.bool_  # type: ignore[attr-defined]
        assert masks.any(axis=1).all()  # SAME_STEP: always a decision, never an empty row
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert rewards.dtype == np.float32 and dones.shape == (6,) and len(infos) == 6
        for i in np.flatnonzero(dones).tolist():
            assert infos[i]["TimeLimit.truncated"] is False and "final_scores" in infos[i]
            dones_seen += 1
    assert dones_seen >= 6
    assert env.env_method("action_masks", indices=[1, 4])[1].shape == (env.action_space.n,)  # type: ignore[attr-defined]
    assert env.env_is_wrapped(object) == [False] * 6


def test_bridge_refusals_and_dict_observation() -> None:
    with pytest.raises(ValueError, match="same_step"):
        SB3Bridge(AtoutVectorEnv("wizard", 2, 4, rounds=1))
    env = bridge(dict_observation=True)
    obs = env.reset()
    assert set(obs) == {"observation", "action_mask"}
    with pytest.raises(RuntimeError, match="step_async"):
        env.step_wait()
    with pytest.raises(ValueError, match="every env"):
        env.set_attr("seat", 1, indices=[0])


def test_a_snapshot_path_that_names_no_file_is_refused_with_that_path(tmp_path: Path) -> None:
    """Before, SB3's own error named ``PATH.zip.zip`` deep in a traceback (issue 49's fresh-venv check)."""
    from atout.envs.sb3 import SB3Policy

    missing = tmp_path / "snapshot.zip"
    with pytest.raises(FileNotFoundError, match=r"no saved model at .*snapshot\.zip \("):
        SB3Policy.load(missing)
    with pytest.raises(FileNotFoundError, match="no saved model"):
        SB3Policy.load(str(tmp_path / "snapshot"))  # SB3 would try snapshot.zip as well: neither is there


@pytest.mark.skipif(HAVE_SB3, reason="stable-baselines3 is installed: the class is built instead")
def test_without_sb3_the_adapter_says_what_to_install() -> None:
    with pytest.raises(ImportError, match="pip install stable-baselines3"):
        AtoutSB3VecEnv("wizard", num_envs=2)


@pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None,
    reason="sb3-contrib (and stable-baselines3) not installed: optional, never an atout dependency",
)
def test_maskable_ppo_learns_a_few_steps() -> None:  # pragma: no cover - where sb3-contrib is installed
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_checker import check_env  # noqa: F401  (importable alongside)
    from stable_baselines3.common.vec_env import VecEnv

    env = AtoutSB3VecEnv("wizard", num_envs=8, opponents="heuristic", rounds=2)
    assert isinstance(env, VecEnv)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    obs = env.reset()
    actions, _ = model.predict(obs, action_masks=env.action_masks())
    assert env.action_masks()[np.arange(8), actions].all()


@pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None,
    reason="sb3-contrib (and stable-baselines3) not installed: optional, never an atout dependency",
)
def test_an_sb3_model_plays_the_other_seats_self_play_and_league(
    tmp_path: Path,
) -> None:  # pragma: no cover - where sb3-contrib is installed
    """Self-play (the learner's own model at the other seats, one predict a step for all of them)
    and a league (a saved snapshot at one seat): legal moves, the same as the model's own answers."""
    from sb3_contrib import MaskablePPO

    from atout.envs.sb3 import SB3Policy

    me = SB3Policy()
    env = AtoutSB3VecEnv("wizard", num_envs=6, opponents=me, rounds=2)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=48, n_epochs=1, seed=0)
    me.model = model
    calls: list[int] = []
    predict = model.predict

    def counting(obs: Any, action_masks: Any = None, **kwargs: Any) -> Any:
        calls.append(len(obs))
        return predict(obs, action_masks=action_masks, **kwargs)

    model.predict = counting  # type: ignore[method-assign,assignment]
    model.learn(96)
    assert calls and max(calls) <= 6  # one call a step for every env's opponent rows, not a row at a time
    model.predict = predict  # type: ignore[method-assign]
    model.save(tmp_path / "snapshot.zip")
    league = SB3Policy.load(tmp_path / "snapshot.zip")
    vec = AtoutVectorEnv("wizard", 4, 4, opponents=[league, "heuristic", me], rounds=2, stagger=False)
    obs, _ = vec.reset(seed=3)
    for _ in range(40):
        obs, *_ = vec.step(np.array([np.flatnonzero(m)[0] for m in vec.action_masks()]))
    assert vec.opponent_names == ["callable:0", "heuristic", "callable:1"]
    masks = np.ones((2, vec.game.num_actions), dtype=bool)
    masks[:, :3] = False
    answer = league(obs["observation"][:2], masks)
    assert (answer >= 3).all()
    with pytest.raises(RuntimeError, match="no model yet"):
        SB3Policy()(obs["observation"], vec.action_masks())
    # The batched evaluation: every deal and rotation in one predict a step, the same measure as
    # the tournament's; the model's answers are legal (an illegal one would stop the batch).
    from atout.learn.evaluate import heuristic_policy, measure

    calls.clear()
    model.predict = counting  # type: ignore[method-assign,assignment]
    result = measure("wizard", 4, me.on_batch, heuristic_policy, deals=3, options={"rounds": 2})
    assert result.deals == 3 and math.isfinite(result.margin)
    assert calls and max(calls) <= 3  # never more rows than deals at once: one call a step
