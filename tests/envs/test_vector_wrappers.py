"""atout's whole-batch ``FlattenObservation`` and ``NormalizeObservation`` (atout.envs.vector_wrappers, issue 49).

They replace gymnasium's per-env loop and float64 temporaries by whole-batch numpy, so
they must give gymnasium's observations and statistics exactly, step after step, ends and
automatic resets included, and stay gymnasium's wrappers for whoever checks.
"""

from __future__ import annotations

import itertools
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.wrappers import vector as wrappers

from atout.batch.common import SparseTensor
from atout.envs import vector_wrappers as fast
from atout.envs.single_agent import gym_id
from atout.envs.vector import AtoutVectorEnv


def make(name: str, num_envs: int) -> Any:
    options: dict[str, Any] = (
        {"rounds": 2} if name == "wizard" else {"max_deals": 2}
    )  # short matches: ends and resets
    return gymnasium.make_vec(gym_id(name), num_envs=num_envs, **options)


def masks_of(env: VectorEnv[Any, Any, Any]) -> Any:
    raw = env.unwrapped
    assert isinstance(raw, AtoutVectorEnv)
    return raw.action_masks()


@pytest.mark.parametrize("sparse", [True, False])  # the env's sparse rows (the default), or its dense array
@pytest.mark.parametrize(
    "block_bytes", [fast.BLOCK_BYTES, 1, 40_000]
)  # whole batch, a row, a few rows a block
@pytest.mark.parametrize("name", ["wizard", "nain-jaune"])
def test_the_whole_batch_wrappers_give_gymnasiums_observations(
    name: str, block_bytes: int, sparse: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fast, "BLOCK_BYTES", block_bytes)
    theirs = wrappers.NormalizeObservation(wrappers.FlattenObservation(make(name, 16)))
    ours = fast.NormalizeObservation(fast.FlattenObservation(make(name, 16)))
    raw = ours.unwrapped
    assert isinstance(raw, AtoutVectorEnv) and raw.sparse_observations  # set by the pair, directly over it
    raw.sparse_observations = sparse
    assert isinstance(ours, wrappers.NormalizeObservation) and isinstance(
        ours.env, wrappers.FlattenObservation
    )
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    a, _ = theirs.reset(seed=5)
    b, _ = ours.reset(seed=5)
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(80):
        assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b)
        assert np.array_equal(theirs.obs_rms.mean, ours.obs_rms.mean)
        assert np.array_equal(theirs.obs_rms.var, ours.obs_rms.var)
        masks = masks_of(theirs)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        a, _, done, _, _ = theirs.step(actions)
        b, *_ = ours.step(actions)
        ended += int(done.sum())
    assert ended  # episodes ended and restarted on the way
    ours.update_running_mean = theirs.update_running_mean = False  # frozen statistics: the other branch
    masks = masks_of(theirs)
    actions = masks.argmax(axis=1)
    assert np.array_equal(theirs.step(actions)[0], ours.step(actions)[0])


def test_flatten_alone_matches_and_keeps_what_it_returned() -> None:
    theirs = wrappers.FlattenObservation(make("wizard", 8))
    ours = fast.FlattenObservation(make("wizard", 8))
    a, _ = theirs.reset(seed=1)
    b, _ = ours.reset(seed=1)
    assert np.array_equal(a, b) and a.shape == (8, spaces.flatdim(ours.single_observation_space))
    kept = b.copy()
    masks = masks_of(ours)
    ours.step(masks.argmax(axis=1))
    assert np.array_equal(b, kept)  # a fresh array each step, as gymnasium's deep copy


def test_another_observation_space_falls_back_to_gymnasiums_loop() -> None:
    env = fast.FlattenObservation(
        wrappers.FlattenObservation(make("wizard", 4))  # a Box already: gymnasium's own path
    )
    obs, _ = env.reset(seed=0)
    assert obs.shape == (4, spaces.flatdim(env.single_observation_space))


@pytest.mark.parametrize("block_bytes", [1, 100, 1 << 19])
def test_the_variance_in_blocks_is_numpys_bit_for_bit(
    block_bytes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """np.var adds the squares' rows in order in float32; the blocks add them in the same order
    (would fail if a block's sum were added to the total as one number)."""
    monkeypatch.setattr(fast, "BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(7)
    x = (rng.random((301, 37)) * (rng.random((301, 37)) < 0.3)).astype(np.float32)
    x[:, :3] = rng.normal(50.0, 10.0, (301, 3)).astype(np.float32)  # large values: rounding shows
    mean = x.mean(axis=0)
    assert np.array_equal(fast._variance(x, mean), np.var(x, axis=0))
    pairwise = np.float32(0)
    for row in ((x - mean) ** 2).reshape(7, 43, 37).sum(axis=1):  # sums of blocks, then their sum
        pairwise = pairwise + row
    assert not np.array_equal(pairwise / np.float32(301), np.var(x, axis=0))  # the test can tell


def test_flatten_over_the_env_returns_the_array_the_env_wrote() -> None:
    """Directly over the env, flattening copies nothing: the env writes its Dict's entries as views
    of one fresh flattened array a step, gymnasium's values (and its observations' own values stay
    the bare env's)."""
    ours = fast.FlattenObservation(make("wizard", 8))
    theirs = wrappers.FlattenObservation(make("wizard", 8))
    bare = make("wizard", 8)
    raw = ours.unwrapped
    assert isinstance(raw, AtoutVectorEnv) and raw.flat_observations
    a, _ = theirs.reset(seed=3)
    b, _ = ours.reset(seed=3)
    c, _ = bare.reset(seed=3)
    rng = np.random.default_rng(1)
    seen = []
    for _ in range(30):
        assert np.array_equal(a, b) and b.flags.c_contiguous and b.dtype == np.float32
        assert raw.batch is not None
        inner = raw._observe(raw.batch)
        assert np.array_equal(inner["observation"], c["observation"])
        assert np.array_equal(inner["action_mask"], c["action_mask"])
        assert fast._root(inner["observation"]).shape == b.shape  # a view of the flattened array
        seen.append(b)
        masks = masks_of(theirs)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        a, *_ = theirs.step(actions)
        b, *_ = ours.step(actions)
        c, *_ = bare.step(actions)
    assert len({id(x) for x in seen}) == len(seen)  # a fresh array each step


def test_flattened_parts_that_are_not_the_envs_are_concatenated() -> None:
    """The check of each step: a part that is no view at its place and differs from the array's
    values there makes the wrapper concatenate (what a wrapper between the two could cause)."""
    count = 4
    flat = np.zeros((count, 7), dtype=np.float32)
    flat[:, :3] = [1, 0, 1]
    mask = np.tile(np.array([1, 0, 1], dtype=np.int8), (count, 1))
    observation = flat[:, 3:]
    observation[:] = 0.5
    assert fast._written_flat([mask, observation], count, np.float32) is flat
    assert fast._written_flat([mask, observation.copy()], count, np.float32) is None  # no view: no array
    changed = mask.copy()
    changed[2, 1] = 1
    assert fast._written_flat([changed, observation], count, np.float32) is None
    assert fast._written_flat([mask, observation + 1], count, np.float32) is None
    assert fast._written_flat([mask, observation], count, np.float64) is None


def test_normalize_writes_in_place_over_atouts_flatten_only() -> None:
    """Over atout's FlattenObservation (a fresh array kept by no one) the normalisation overwrites
    it; over gymnasium's, what it was given stays as it was."""
    ours = fast.NormalizeObservation(fast.FlattenObservation(make("wizard", 8)))
    ours.unwrapped.sparse_observations = False  # type: ignore[attr-defined]  # the env's dense array
    x = ours.env.reset(seed=2)[0]
    assert ours.observations(x) is x
    mixed = fast.NormalizeObservation(wrappers.FlattenObservation(make("wizard", 8)))
    y = mixed.env.reset(seed=2)[0]
    kept = y.copy()
    out = mixed.observations(y)
    assert out is not y and np.array_equal(y, kept)


@pytest.mark.parametrize("block_bytes", [1, 100, 1 << 19])
def test_the_sparse_variance_is_numpys_bit_for_bit(block_bytes: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The zeros' squares filled in, the entries' put at their places: np.var's additions, in order
    (rows with no entry, columns with none, large values whose rounding would show)."""
    monkeypatch.setattr(fast, "BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(8)
    x = (rng.random((301, 37)) * (rng.random((301, 37)) < 0.2)).astype(np.float32)
    x[:, :3] *= rng.normal(50.0, 10.0, (301, 3)).astype(np.float32)
    x[40:60] = 0.0
    x[:, 30] = 0.0
    mean = x.mean(axis=0)
    sparse = SparseTensor.from_dense(x)
    assert np.array_equal(fast._sparse_variance(sparse, mean), np.var(x, axis=0))
    sums = np.zeros(37, dtype=np.float32)
    np.add.at(sums, sparse.indices, sparse.values)
    assert np.array_equal(np.true_divide(sums, 301, dtype=np.float32), mean)  # the sparse mean: np.mean's


def test_sparse_tensors_side_by_side_are_the_dense_hstack() -> None:
    rng = np.random.default_rng(3)
    parts = [(rng.random((9, w)) * (rng.random((9, w)) < 0.4)).astype(np.float32) for w in (4, 11, 1)]
    parts[1][3] = 0.0  # a row empty in one part
    stacked = SparseTensor.hstack([SparseTensor.from_dense(p) for p in parts])
    assert stacked.shape == (9, 16) and np.array_equal(stacked.toarray(), np.hstack(parts))
    for row in range(9):  # each row's columns ascending, as compressed rows keep them
        columns = stacked.indices[stacked.indptr[row] : stacked.indptr[row + 1]]
        assert (np.diff(columns) > 0).all()
    with pytest.raises(ValueError, match="side by side"):
        SparseTensor.hstack([SparseTensor.from_dense(parts[0]), SparseTensor.from_dense(parts[1][:4])])


def test_the_sparse_pair_with_statistics_set_from_outside_falls_back() -> None:
    """float64 statistics (set from outside): the dense formula on the sparse rows' array."""
    ours = fast.NormalizeObservation(fast.FlattenObservation(make("wizard", 8)))
    dense = fast.NormalizeObservation(fast.FlattenObservation(make("wizard", 8)))
    dense.unwrapped.sparse_observations = False  # type: ignore[attr-defined]
    for env in (ours, dense):
        env.reset(seed=4)
        env.obs_rms.mean = env.obs_rms.mean.astype(np.float64)
        env.obs_rms.var = env.obs_rms.var.astype(np.float64)
    masks = masks_of(ours)
    a = ours.step(masks.argmax(axis=1))[0]
    b = dense.step(masks.argmax(axis=1))[0]
    assert a.dtype == np.float32 and np.array_equal(a, b)


def test_the_sparse_pair_writes_over_its_last_array_only_when_no_one_holds_it() -> None:
    """An array the caller dropped is written over (no fresh 125 MB a step); one it keeps, or a view
    of, stays as it was returned; the values are gymnasium's either way."""
    theirs = wrappers.NormalizeObservation(wrappers.FlattenObservation(make("wizard", 8)))
    ours = fast.NormalizeObservation(fast.FlattenObservation(make("wizard", 8)))
    theirs.reset(seed=6)
    ours.reset(seed=6)
    rng = np.random.default_rng(4)
    ids: list[int] = []
    kept: list[tuple[Any, Any]] = []
    for step in range(40):
        masks = masks_of(theirs)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        a = theirs.step(actions)[0]
        b = ours.step(actions)[0]
        assert np.array_equal(a, b)
        ids.append(id(b))
        if step % 10 == 3:
            kept.append((b, b.copy()))
        elif step % 10 == 7:
            kept.append((b[2:5, 10:], b[2:5, 10:].copy()))  # a view keeps its array
        del b
    assert all(np.array_equal(x, copy) for x, copy in kept)
    assert sum(x == y for x, y in itertools.pairwise(ids)) >= 20  # dropped arrays were reused
    for step in (3, 7, 13, 17):  # a kept array (or viewed one) was not handed out again
        assert ids[step + 1] != ids[step]
