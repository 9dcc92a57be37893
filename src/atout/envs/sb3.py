"""Stable-Baselines3 (and sb3-contrib's ``MaskablePPO``) over the batch vector env.

Why an adapter: SB3 does not take a Gymnasium ``VectorEnv``; it steps its own
``VecEnv`` protocol (``reset() -> obs``, ``step_async``/``step_wait`` with
``dones`` and a list of info dicts, ``env_method``, ``get_attr``...), resets an
env inside the step that ends its episode, and sb3-contrib's ``MaskablePPO``
reads the legal actions through ``env_method("action_masks")``.  Wrapping
:class:`~atout.envs.vector.AtoutVectorEnv` in Gymnasium-to-SB3 shims would step
it one match at a time; :class:`AtoutSB3VecEnv` hands SB3 the whole batch.

```python
from sb3_contrib import MaskablePPO
from atout.envs.sb3 import AtoutSB3VecEnv

env = AtoutSB3VecEnv("wizard", num_envs=256, opponents="heuristic", rounds=5)
model = MaskablePPO("MlpPolicy", env, n_steps=64, seed=0)
model.learn(100_000)
```

* The vector env runs with ``autoreset_mode="same_step"`` (SB3's convention:
  the step that ends an episode returns the next one's first observation);
  matches are never truncated, so no ``terminal_observation`` is needed for
  bootstrapping and none is given.
* The observation is the tensor alone (a ``Box``, for ``MlpPolicy``): the mask
  reaches ``MaskablePPO`` through ``action_masks()``.  ``dict_observation=True``
  keeps the env's ``{"observation", "action_mask"}`` (``MultiInputPolicy``).
* Seeding as SB3 does it: ``env.seed(s)`` then ``reset()`` plays the engine's
  matches ``s, s + 1, ...`` (env ``i`` gets ``s + i``); ``infos[i]`` holds
  ``scores``, ``match_seed`` and ``illegal_action`` of env ``i``.

stable-baselines3 is not a dependency of atout: without it the class cannot be
built (a clear :class:`ImportError`).  :class:`SB3Bridge` is the protocol's
logic in numpy alone, so it is tested where SB3 is absent too.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from numpy.typing import NDArray

from .vector import AtoutVectorEnv, make_vector_env

try:
    from stable_baselines3.common.vec_env import VecEnv as _SB3VecEnv

    HAVE_SB3 = True
except ImportError:  # the optional library is absent: AtoutSB3VecEnv refuses to be built
    # (the ignore is for where SB3 is installed: a placeholder base over its class)
    _SB3VecEnv = object  # type: ignore[assignment,misc]
    HAVE_SB3 = False

__all__ = ["HAVE_SB3", "AtoutSB3VecEnv", "SB3Bridge", "SB3Policy"]

Indices = None | int | Iterable[int]


class SB3Bridge:
    """SB3's ``VecEnv`` methods over an :class:`AtoutVectorEnv` in ``SAME_STEP`` mode (numpy only)."""

    def __init__(self, env: AtoutVectorEnv, *, dict_observation: bool = False) -> None:
        if env.autoreset_mode != AutoresetMode.SAME_STEP:
            raise ValueError(
                "SB3 resets an env within the step that ends its episode: build the vector env with "
                "autoreset_mode='same_step'"
            )
        self.env = env
        self.dict_observation = dict_observation
        self.num_envs = env.num_envs
        single = env.single_observation_space
        assert isinstance(single, spaces.Dict)
        self.observation_space: spaces.Space[Any] = single if dict_observation else single["observation"]
        self.action_space: spaces.Space[Any] = env.single_action_space
        self._seeds: list[int | None] = [None] * env.num_envs
        self._actions: NDArray[np.int64] | None = None
        self.reset_infos: list[dict[str, Any]] = [{} for _ in range(env.num_envs)]

    def _observation(self, obs: dict[str, NDArray[Any]]) -> Any:
        return obs if self.dict_observation else obs["observation"]

    def _indices(self, indices: Indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    @staticmethod
    def _info_list(infos: dict[str, Any], count: int) -> list[dict[str, Any]]:
        """Gymnasium's dict of arrays (with ``_key`` presence masks) as SB3's list of per-env dicts."""
        out: list[dict[str, Any]] = [{} for _ in range(count)]
        for key, value in infos.items():
            if key.startswith("_") or key == "final_info":
                continue
            present = infos.get(f"_{key}", np.ones(count, dtype=bool))
            for i in np.flatnonzero(present).tolist():
                out[i][key] = value[i]
        return out

    def reset(self) -> Any:
        """New matches: seeds from :meth:`seed` (env ``i`` the seed plus ``i``), else drawn by the env."""
        seed = self._seeds[0]
        obs, infos = self.env.reset(seed=seed)
        self._seeds = [None] * self.num_envs  # SB3: a seed is used by one reset only
        self.reset_infos = self._info_list(infos, self.num_envs)
        return self._observation(obs)

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """The next :meth:`reset` plays seeds ``seed, seed + 1, ...`` (SB3's convention)."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._seeds = [seed + i for i in range(self.num_envs)]
        return self._seeds

    def step_async(self, actions: NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self) -> tuple[Any, NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, terminations, truncations, infos = self.env.step(self._actions)
        self._actions = None
        dones = terminations | truncations
        listed = self._info_list(infos, self.num_envs)
        for i in np.flatnonzero(dones).tolist():
            listed[i]["TimeLimit.truncated"] = bool(truncations[i])
            if "final_info" in infos:
                listed[i]["final_scores"] = infos["final_info"]["scores"][i]
        return self._observation(obs), rewards.astype(np.float32), dones, listed

    def step(
        self, actions: NDArray[Any]
    ) -> tuple[Any, NDArray[np.float32], NDArray[np.bool_], list[dict[str, Any]]]:
        self.step_async(actions)
        return self.step_wait()

    def action_masks(self) -> NDArray[np.bool_]:
        """(num_envs, num_actions) bool, as :meth:`AtoutVectorEnv.action_masks`."""
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: Indices = None) -> list[Any]:
        """The vector env's attribute, once per env asked (the matches share one env object)."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Indices = None) -> None:
        if indices is not None and sorted(self._indices(indices)) != list(range(self.num_envs)):
            raise ValueError("the matches share one vector env: set_attr applies to every env or none")
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: Indices = None, **method_kwargs: Any
    ) -> list[Any]:
        """``action_masks`` gives each env its own row (what ``MaskablePPO`` stacks); another method is called once."""
        chosen = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in chosen]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in chosen]

    def env_is_wrapped(self, wrapper_class: type, indices: Indices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]


class AtoutSB3VecEnv(SB3Bridge, _SB3VecEnv):
    """A Stable-Baselines3 ``VecEnv`` over the batch vector env (see the module docstring).

    ``AtoutSB3VecEnv("wizard", num_envs=256, players=4, **settings_and_options)``
    builds the vector env (``make_vector_env``'s keywords; ``autoreset_mode``
    is ``same_step``), or ``AtoutSB3VecEnv(vector_env)`` adapts one built so.
    """

    def __init__(
        self,
        env: AtoutVectorEnv | str,
        num_envs: int | None = None,
        players: int | None = None,
        *,
        dict_observation: bool = False,
        **kwargs: Any,
    ) -> None:
        if not HAVE_SB3:
            raise ImportError(
                "AtoutSB3VecEnv needs stable-baselines3 (pip install stable-baselines3 sb3-contrib); "
                "without it use atout.envs.vector.AtoutVectorEnv, a Gymnasium VectorEnv"
            )
        if isinstance(env, str):
            if num_envs is None:
                raise ValueError("num_envs is needed to build the vector env")
            kwargs.setdefault("autoreset_mode", "same_step")
            env = make_vector_env(num_envs, env, players, **kwargs)
        elif num_envs is not None or players is not None or kwargs:
            raise ValueError("an AtoutVectorEnv given: num_envs, players and settings are its own")
        SB3Bridge.__init__(self, env, dict_observation=dict_observation)
        _SB3VecEnv.__init__(self, env.num_envs, self.observation_space, self.action_space)


class SB3Policy:
    """A Stable-Baselines3 model as the vector env's opponent (:class:`~atout.envs.vector.BatchPolicy`):
    one ``predict`` a step for every env in which its seats are to act, the legal masks given
    to ``MaskablePPO`` (a model without masks must answer legal actions itself, or the step is
    refused).

    Self-play: build the env with ``SB3Policy()`` as the opponents, the model on that env, then
    ``policy.model = model`` (the opponents play the learner's current weights).  A league:
    ``SB3Policy.load("snapshot.zip")`` for a frozen snapshot, one per seat if you like.
    ``deterministic``: the most probable action (default) or one drawn from the policy.
    """

    def __init__(
        self, model: Any = None, *, deterministic: bool = True, information_state: bool = True
    ) -> None:
        self.model = model
        self.deterministic = deterministic
        #: The tensor the model reads in :meth:`on_batch` (the env's ``tensor``: information state by default).
        self.information_state = information_state

    def on_batch(self, batch: Any, rows: NDArray[np.intp]) -> NDArray[np.intp]:
        """The policy as an :mod:`atout.batch` policy (``atout.learn.evaluate.Policy``): one
        ``predict`` for all ``rows`` of a batch, each from the view of its seat to act.

        What makes an evaluation fast: ``measure(game, players, policy.on_batch, heuristic_policy,
        deals=50)`` (:func:`atout.learn.evaluate.measure`, numpy only) plays every deal and
        rotation together, one forward pass a step for every row the model is to answer,
        where an atout bot asks it one decision at a time.
        """
        x = batch.observation_tensor(information_state=self.information_state, dtype=np.float32)[rows]
        return self(x, batch.legal_mask()[rows])

    @classmethod
    def load(cls, path: str | Any, *, deterministic: bool = True) -> SB3Policy:
        """A saved ``MaskablePPO`` (``model.save(path)``), on the CPU.

        A path that names no file (as SB3 reads it: as given, else with ``.zip``
        added) is refused with that path, not SB3's traceback naming ``PATH.zip.zip``.
        """
        if isinstance(path, str | os.PathLike):
            given = Path(path)
            if not given.is_file() and not given.with_name(given.name + ".zip").is_file():
                raise FileNotFoundError(
                    f"SB3Policy.load: no saved model at {given} (model.save(path) writes one)"
                )
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as error:
            raise ImportError("SB3Policy.load needs sb3-contrib: pip install 'atout[sb3]'") from error
        return cls(MaskablePPO.load(path, device="cpu"), deterministic=deterministic)

    def __call__(self, observations: NDArray[np.float32], masks: NDArray[np.bool_]) -> NDArray[np.intp]:
        if self.model is None:
            raise RuntimeError("SB3Policy has no model yet: set policy.model (self-play: the learner)")
        if "action_masks" in inspect.signature(self.model.predict).parameters:
            actions, _ = self.model.predict(
                observations, action_masks=masks, deterministic=self.deterministic
            )
        else:
            actions, _ = self.model.predict(observations, deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.intp).reshape(-1)
