"""Gymnasium's vector observation wrappers, whole batch: the same observations, without a Python loop over the envs.

Why: on :class:`atout.envs.vector.AtoutVectorEnv` (or any vector env with a
``Dict`` of ``Box`` observations), ``gymnasium.wrappers.vector.FlattenObservation``
flattens each env's observation in turn — ``spaces.flatten`` called once per
env, 8,192 calls a step at 8,192 envs, through ``singledispatch`` — then
stacks the rows and deep-copies the stacked batch: at 8,192 envs that cost
nine tenths of a step (measured, bench/vector_env.py).  The classes here are
gymnasium's own wrappers (subclasses: ``isinstance`` checks, ``.env``,
spaces, statistics and options behave as theirs) whose observation
function works on the whole batch at once:

* :class:`FlattenObservation`: one ``np.concatenate`` of the ``Dict``'s
  entries in the space's key order (gymnasium's flatten order), in the
  flattened space's dtype — value for value gymnasium's output (tested);
  another observation space falls back to gymnasium's loop;
* :class:`NormalizeObservation`: gymnasium's running statistics (the same
  ``RunningMeanStd`` update, from the batch mean and variance computed by the
  same float32 reductions as ``np.mean`` and ``np.var``) and the same
  ``(x - mean) / sqrt(var + epsilon)``, written in place into one buffer
  (gymnasium's allocates a temporary for each operation, then copies the
  result with ``astype``): value for value gymnasium's observations and
  statistics (tested).

Use them as gymnasium's: ``NormalizeObservation(FlattenObservation(env))``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import vector as gym_vector
from numpy.typing import NDArray

__all__ = ["FlattenObservation", "NormalizeObservation"]


class FlattenObservation(gym_vector.FlattenObservation):
    """Gymnasium's ``FlattenObservation`` over the whole batch at once (see the module docstring)."""

    def observations(self, observations: Any) -> Any:
        space = self.env.observation_space
        if not isinstance(space, spaces.Dict) or not all(isinstance(s, spaces.Box) for s in space.values()):
            return super().observations(observations)
        dtype = self.single_observation_space.dtype
        count = self.num_envs
        parts = [np.asarray(observations[key]).reshape(count, -1) for key in space]
        # A fresh array every step (gymnasium's deep copy): a learner may keep the observations it was given.
        flat: NDArray[Any] = np.concatenate(parts, axis=1, dtype=dtype)
        return flat


class NormalizeObservation(gym_vector.NormalizeObservation):
    """Gymnasium's ``NormalizeObservation``, its arithmetic in place in one buffer (see the module docstring)."""

    def observations(self, observations: Any) -> Any:
        x = np.asarray(observations)
        if x.dtype != np.float32 or x.ndim != 2:
            return super().observations(observations)
        rms = self.obs_rms
        if self._update_running_mean:
            mean = x.mean(axis=0)
            out = np.subtract(x, mean, dtype=np.float32)
            np.multiply(out, out, out=out)  # np.var's squares, in the same buffer
            var = out.mean(axis=0)
            rms.update_from_moments(mean, var, x.shape[0])  # type: ignore[no-untyped-call]
            np.subtract(x, rms.mean, out=out, dtype=np.float32)
        else:
            out = np.subtract(x, rms.mean, dtype=np.float32)
        out /= np.sqrt(rms.var + self.epsilon).astype(np.float32)
        return out
