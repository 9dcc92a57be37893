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
  another observation space falls back to gymnasium's loop.  Directly over an
  ``AtoutVectorEnv`` it asks the env to write its observations into one fresh
  flattened array a step (``AtoutVectorEnv.flat_observations``) and returns
  that array: no copy at all (checked each step: the entries must be that
  array's views, the mask its values, else it concatenates);
* :class:`NormalizeObservation`: gymnasium's running statistics (the same
  ``RunningMeanStd`` update, from the batch mean and variance computed by the
  same float32 reductions as ``np.mean`` and ``np.var``: rows added one
  after the other, in order) and the same ``(x - mean) / sqrt(var + epsilon)``
  — value for value gymnasium's observations and statistics (tested).  Why
  it is fast: memory, not arithmetic, bounds it (the batch is 125 MB at
  8,192 Wizard envs; gymnasium's makes six passes over it and four
  temporaries of its size), so the variance and the normalisation run over
  blocks of rows that stay in the processor's cache (one pass over memory
  each), and over atout's ``FlattenObservation`` (whose array is fresh and
  kept by no one) the result is written in place.

**The pair directly over the env** (``NormalizeObservation(FlattenObservation(env))``,
the usual stack) goes further: the env hands its observations over as sparse
rows (:attr:`AtoutVectorEnv.sparse_observations`, set by this
``NormalizeObservation``: a :class:`~atout.batch.common.SparseTensor`, 20–80
non-zero values of Wizard's 3,813 a row), the inner ``FlattenObservation``
passes them on as such, and ``NormalizeObservation`` writes the whole
normalised array itself — still gymnasium's values and statistics bit for bit
(tested): a zero adds nothing to the mean's float32 sums, which ``np.add.at``
adds column by column in row order as ``np.mean`` does; the variance's blocks
fill in each zero's square ``(0 - mean)²`` and put the entries' squares at
their places, then add the rows in order as ``np.var`` does; a zero's
normalised value is its column's ``(0 - mean) / scale``.  No (N, 3,813)
array of zeros is written by the env, and none is read: at 8,192 envs, 114 k
steps/s by CPU time against 81 k (docs/research.md).  The array it returns is
written over at the next step only if no one holds it or a view of it (its
reference count; else a new one): a learner may keep each step's
observations, as gymnasium's fresh arrays allow.  That inner
``FlattenObservation`` returns the sparse rows if stepped on its own: it
serves the wrapper above it.

Use them as gymnasium's: ``NormalizeObservation(FlattenObservation(env))``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.wrappers import vector as gym_vector
from numpy.typing import NDArray

from ..batch.common import SparseTensor
from .vector import AtoutVectorEnv

__all__ = ["FlattenObservation", "NormalizeObservation"]

#: About how many bytes of rows a block holds: well inside a core's L2 cache, so that the
#: operations on a block after the first read it from cache, not from memory.
BLOCK_BYTES = 1 << 19


class _Holder:
    """An object holding one array by an attribute, as :class:`NormalizeObservation` holds its last result."""

    held: Any = None


def _alone_count() -> int:
    """``sys.getrefcount(obj.attribute)`` of an array that only that attribute holds, in this interpreter."""
    holder = _Holder()
    holder.held = np.empty(1)
    return sys.getrefcount(holder.held)


_ALONE = _alone_count()


def _block_rows(x: NDArray[Any]) -> int:
    """How many rows of ``x`` make a block (at least one)."""
    return max(1, BLOCK_BYTES // max(1, int(x[0].nbytes)))


class FlattenObservation(gym_vector.FlattenObservation):
    """Gymnasium's ``FlattenObservation`` over the whole batch at once (see the module docstring)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        #: The env writes its observations straight into the flattened array (atout's env, directly).
        self._flat_env = isinstance(env, AtoutVectorEnv)
        if self._flat_env:
            env.flat_observations = True

    def observations(self, observations: Any) -> Any:
        space = self.env.observation_space
        if not isinstance(space, spaces.Dict) or not all(isinstance(s, spaces.Box) for s in space.values()):
            return super().observations(observations)
        dtype = self.single_observation_space.dtype
        count = self.num_envs
        if any(isinstance(observations[key], SparseTensor) for key in space):
            # The env's sparse observation (asked by atout's NormalizeObservation above): flattened
            # as such, for that wrapper only, which writes the dense array.
            return SparseTensor.hstack(
                [
                    entry
                    if isinstance(entry := observations[key], SparseTensor)
                    else SparseTensor.from_dense(np.asarray(entry).reshape(count, -1), dtype)
                    for key in space
                ]
            )
        parts = [np.asarray(observations[key]).reshape(count, -1) for key in space]
        if self._flat_env:
            flat = _written_flat(parts, count, dtype)
            if flat is not None:
                return flat
        # A fresh array every step (gymnasium's deep copy): a learner may keep the observations it was given.
        flat = np.concatenate(parts, axis=1, dtype=dtype)
        return flat


def _root(array: NDArray[Any]) -> NDArray[Any]:
    """The array that owns ``array``'s memory (``array`` itself when it is no view)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def _written_flat(parts: list[NDArray[Any]], count: int, dtype: Any) -> NDArray[Any] | None:
    """The array the env wrote the flattened observations into, if ``parts`` are exactly its columns.

    Each part must be a view of one C-contiguous (count, width) array of ``dtype`` at its place in
    the flattened order, or hold that array's values there (the int8 mask beside its float copy);
    else None (the caller concatenates).  What a wrapper between the env and this one could have
    changed is so checked, at the price of reading the non-view parts (the mask: 74 columns).
    """
    width = sum(p.shape[1] for p in parts)
    base = next((root for root in map(_root, parts) if root.shape == (count, width)), None)
    if base is None or base.dtype != dtype or not base.flags.c_contiguous:
        return None
    at = 0
    start = base.__array_interface__["data"][0]
    for part in parts:
        end = at + part.shape[1]
        view = (
            _root(part) is base
            and part.dtype == dtype
            and part.strides == base.strides
            and part.__array_interface__["data"][0] == start + at * base.itemsize
        )
        if not view and not np.array_equal(base[:, at:end], part):
            return None
        at = end
    return base


def _variance(x: NDArray[np.float32], mean: NDArray[np.float32]) -> NDArray[np.float32]:
    """``np.var(x, axis=0)`` bit for bit, one pass over ``x`` in cache-sized blocks of rows.

    ``np.var`` squares ``x - mean`` into a temporary of ``x``'s size and adds its rows in order,
    one after the other, in float32.  Here each block's squares go into a small buffer whose row
    0 holds the sum so far, and ``np.add.reduce`` over the buffer adds its rows in that same
    order: the same float32 additions, the same result (tested against ``np.var``).
    """
    rows, width = x.shape
    step = _block_rows(x)
    buffer = np.empty((step + 1, width), dtype=np.float32)
    total = np.zeros(width, dtype=np.float32)
    for begin in range(0, rows, step):
        block = x[begin : begin + step]
        squares = buffer[1 : len(block) + 1]
        buffer[0] = total
        np.subtract(block, mean, out=squares)
        np.multiply(squares, squares, out=squares)
        np.add.reduce(buffer[: len(block) + 1], axis=0, out=total)
    result: NDArray[np.float32] = np.true_divide(total, rows, dtype=np.float32)
    return result


def _sparse_variance(x: SparseTensor, mean: NDArray[np.float32]) -> NDArray[np.float32]:
    """``np.var(x.toarray(), axis=0)`` bit for bit, without the dense array.

    The same float32 additions as :func:`_variance`, row after row, but a block's squares are
    written, not read: every cell of a zero entry squares ``0 - mean`` (the column's ``mean²``,
    filled in), the non-zero entries' squares are put at their places.  Nothing of ``x`` is read
    but its non-zero entries.
    """
    rows, width = x.shape
    step = max(1, BLOCK_BYTES // max(1, width * 4))
    squares = np.subtract(x.values, mean[x.indices], dtype=np.float32)
    np.multiply(squares, squares, out=squares)
    zero = np.multiply(mean, mean)  # (0 - m)² is m² exactly
    entry_rows = np.repeat(np.arange(rows, dtype=np.intp), np.diff(x.indptr))
    buffer = np.empty((step + 1, width), dtype=np.float32)
    total = np.zeros(width, dtype=np.float32)
    for begin in range(0, rows, step):
        end = min(begin + step, rows)
        buffer[0] = total
        buffer[1 : end - begin + 1] = zero
        lo, hi = x.indptr[begin], x.indptr[end]
        buffer[entry_rows[lo:hi] - (begin - 1), x.indices[lo:hi]] = squares[lo:hi]
        np.add.reduce(buffer[: end - begin + 1], axis=0, out=total)
    result: NDArray[np.float32] = np.true_divide(total, rows, dtype=np.float32)
    return result


class NormalizeObservation(gym_vector.NormalizeObservation):
    """Gymnasium's ``NormalizeObservation``, in cache-sized blocks, in place when it may (see the module docstring)."""

    def __init__(self, env: Any, epsilon: float = 1e-8) -> None:
        super().__init__(env, epsilon)
        #: The last array :meth:`_sparse_observations` returned (written over when no one else holds it).
        self._returned: NDArray[np.float32] | None = None
        if isinstance(env, FlattenObservation) and env._flat_env:
            # Directly over atout's Flatten directly over atout's env: the env hands its observations
            # over as sparse rows, and this wrapper writes the normalised array (module docstring).
            raw = env.env
            assert isinstance(raw, AtoutVectorEnv)
            raw.sparse_observations = True

    def observations(self, observations: Any) -> Any:
        if isinstance(observations, SparseTensor):
            if self._float32_statistics():
                return self._sparse_observations(observations)
            observations = observations.toarray()
        x = np.asarray(observations)
        rms = self.obs_rms
        if x.dtype != np.float32 or x.ndim != 2 or not x.flags.c_contiguous or not x.shape[0]:
            return super().observations(observations)
        if self._update_running_mean:
            mean = x.mean(axis=0)
            rms.update_from_moments(mean, _variance(x, mean), x.shape[0])  # type: ignore[no-untyped-call]
        if rms.mean.dtype != np.float32 or rms.var.dtype != np.float32:  # statistics set from outside
            return ((x - rms.mean) / np.sqrt(rms.var + self.epsilon)).astype(np.float32)
        # atout's FlattenObservation hands over a fresh array no one else keeps: normalised in place.
        out = x if isinstance(self.env, FlattenObservation) and x.flags.writeable else np.empty_like(x)
        scale = np.sqrt(rms.var + self.epsilon)
        step = _block_rows(x)
        for begin in range(0, x.shape[0], step):
            block = out[begin : begin + step]
            np.subtract(x[begin : begin + step], rms.mean, out=block)
            np.divide(block, scale, out=block)
        return out

    def _float32_statistics(self) -> bool:
        """The running statistics are float32 (gymnasium's for a float32 space; not if set from outside)."""
        return bool(self.obs_rms.mean.dtype == np.float32 and self.obs_rms.var.dtype == np.float32)

    def _sparse_observations(self, x: SparseTensor) -> NDArray[np.float32]:
        """The normalised (N, size) array of sparse observations: gymnasium's values bit for bit.

        The statistics' sums add the same float32 numbers in the same order as ``np.mean`` and
        ``np.var`` on the dense array: a zero adds nothing to the mean's sums (``np.add.at``
        adds each column's entries in row order), and the variance fills in a zero's square
        (:func:`_sparse_variance`).  The result's cells of zero entries are ``(0 - mean) /
        scale``, the column's constant; the others are computed as gymnasium computes them.
        """
        rows, width = x.shape
        rms = self.obs_rms
        if self._update_running_mean:
            sums = np.zeros(width, dtype=np.float32)
            np.add.at(sums, x.indices, x.values.astype(np.float32, copy=False))
            mean = np.true_divide(sums, rows, dtype=np.float32)
            rms.update_from_moments(mean, _sparse_variance(x, mean), rows)  # type: ignore[no-untyped-call]
        scale = np.sqrt(rms.var + self.epsilon)
        out = self._spare_array((rows, width))
        out[:] = np.subtract(np.float32(0), rms.mean) / scale
        entry_rows = np.repeat(np.arange(rows, dtype=np.intp), np.diff(x.indptr))
        out[entry_rows, x.indices] = (x.values - rms.mean[x.indices]) / scale[x.indices]
        self._returned = out
        return out

    def _spare_array(self, shape: tuple[int, int]) -> NDArray[np.float32]:
        """The array to write this step's observations into: the last one returned if nothing else
        holds it (nor a view of it), else a new one.

        Why: a fresh 125 MB array a step (8,192 envs) costs its pages' first touch, a third of the
        normalisation (measured); the caller may keep each step's observations (gymnasium's
        wrappers return a fresh array a step), so the last one is written over only when no one
        can see it: its reference count is the one of an array only this wrapper holds
        (:data:`_ALONE`, measured in this interpreter).
        """
        # No local name for it before the count: it would count.
        if self._returned is not None and sys.getrefcount(self._returned) == _ALONE:
            last: NDArray[np.float32] = self._returned
            if last.shape == shape and last.flags.writeable:
                return last
        self._returned = None
        return np.empty(shape, dtype=np.float32)
