"""The batch's sparse tensors (``sparse_tensor()``) and the networks' sparse first layer (issue 49).

The sparse tensors are written by the very encoders that write the dense ones (their writes
recorded instead of stored), so they must hold the same values, in every game, for every
viewer, at every kind of position; the first layer fed with them must give the dense
product's logits (the same sums in another order) and so the same greedy actions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import atout
from atout.batch import batch_class
from atout.batch.common import Batch, SparseTensor
from atout.batch.wizard import WizardBatch
from atout.bots.learned import shipped_model
from atout.envs.vector import AtoutVectorEnv
from tests.bots.test_learned import random_model


def played_positions(
    name: str, players: int, seeds: range, steps: int
) -> Iterator[tuple[Batch, np.random.Generator]]:
    """A batch of ``name`` at each of its first ``steps`` positions (random play, every kind of position),
    with the generator that plays it (the caller may draw from it too)."""
    batch = batch_class(name)(players, seeds)
    rng = np.random.default_rng(players)
    for _ in range(steps):
        if batch.terminal.all():
            return
        yield batch, rng
        batch.step(batch.random_actions(rng), active=~batch.terminal)


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
@pytest.mark.parametrize("players", [3, 4])
def test_sparse_tensors_hold_the_dense_tensors_values(name: str, players: int) -> None:
    checked = 0
    for batch, rng in played_positions(name, players, range(40, 104), 120):
        for information_state in (True, False):
            for seats in (None, rng.integers(0, players, batch.num_games)):
                dense = batch.observation_tensor(seats, information_state=information_state)
                sparse = batch.sparse_tensor(seats, information_state=information_state)
                assert sparse.shape == dense.shape
                assert np.array_equal(sparse.toarray(), dense)
                assert (sparse.values != 0).all()  # no stored zeros
                rows = rng.permutation(batch.num_games)[:20]
                assert np.array_equal(sparse.select(rows).toarray(), dense[rows])
                checked += 1
    assert checked > 100


def test_a_later_write_replaces_an_earlier_one_as_in_numpy() -> None:
    """The recorder keeps numpy's assignment rule: the last value written to a cell."""
    from atout.batch.common import TensorFrame

    frame = TensorFrame([("a", 3), ("b", 2)], np.zeros(2, dtype=np.intp), 2, 2, np.float32, sparse=True)
    frame.out[:, 0:3] = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    frame.out[np.array([0, 1]), np.array([2, 1])] = np.array([5.0, 7.0])
    frame.block("b", 2)[:] = 0.5
    tensor = frame.sparse_tensor()
    assert isinstance(tensor, SparseTensor)
    expected = np.array([[1.0, 0.0, 5.0, 0.5, 0.5], [0.0, 7.0, 0.0, 0.5, 0.5]], dtype=np.float32)
    assert np.array_equal(tensor.toarray(), expected)


@pytest.mark.parametrize("name", ["wizard", "sticheln"])
def test_the_sparse_first_layer_gives_the_dense_logits_and_actions(name: str) -> None:
    game = atout.load(name, players=4)
    model = shipped_model(game) if name == "wizard" else random_model(game, hidden=64, seed=2)
    batch = batch_class(name)(4, range(500, 756))
    rng = np.random.default_rng(1)
    decisions = margins = 0
    for _ in range(150):
        if batch.terminal.all():
            break
        rows = np.flatnonzero(~batch.terminal)
        mask = batch.legal_mask()[rows]
        prior = batch.heuristic_actions()[rows] if model.prior_weight is not None else None
        dense = model.masked_logits(batch.information_state_tensor()[rows], mask, prior)
        sparse = model.masked_logits(batch.sparse_tensor().select(rows), mask, prior)
        finite = np.isfinite(dense)
        assert np.array_equal(finite, np.isfinite(sparse))
        np.testing.assert_allclose(sparse[finite], dense[finite], rtol=1e-4, atol=1e-4)
        # Greedy actions agree wherever the best two legal logits are not within rounding of each other.
        top = np.sort(np.where(finite, dense, -1e30), axis=1)[:, -2:]
        clear = (top[:, 1] - top[:, 0]) > 1e-3
        assert np.array_equal(dense.argmax(axis=1)[clear], sparse.argmax(axis=1)[clear])
        decisions += len(rows)
        margins += int((~clear).sum())
        batch.step(batch.random_actions(rng), active=~batch.terminal)
    assert decisions > 5000 and margins < decisions // 100


@pytest.mark.parametrize(
    ("switch", "opponents"),
    [
        ("sparse_inputs", ["policy", "heuristic", "policy"]),
        ("subset_rows", ["policy", "heuristic", "policy"]),  # the heuristic seat's prior reused
        ("subset_rows", ["policy", "policy", "policy"]),  # the prior written for the rows only
        ("skip_forced", ["policy", "policy", "policy"]),
        ("skip_forced", ["policy", "heuristic", "policy"]),
    ],
)
def test_learned_opponents_play_the_same_matches_either_way(switch: str, opponents: list[str]) -> None:
    """The vector env's learned opponents move the same with either setting of ``switch``: from
    sparse tensors (the default) as with the dense product; from tensors and a prior written for
    the rows they answer (``subset_rows``, the default) as from the whole batch's; playing forced
    moves without the network (``skip_forced``, the default) as asking it: the same
    observations, rewards and ends, step by step, on seeded matches."""
    envs = []
    for on in (True, False):
        env = AtoutVectorEnv("wizard", 48, 4, seat=2, opponents=opponents)
        setattr(env, switch, on)
        envs.append(env)
    observed = [env.reset(seed=11)[0] for env in envs]
    rng = np.random.default_rng(3)
    for _ in range(150):
        assert np.array_equal(observed[0]["observation"], observed[1]["observation"])
        masks = envs[0].action_masks()
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        results = [env.step(actions) for env in envs]
        observed = [r[0] for r in results]
        for a, b in zip(results[0][1:4], results[1][1:4], strict=True):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize(
    "options", [{}, {"bids": "hidden_until_play"}, {"bids": "hidden_until_end"}, {"start_round": 9}]
)
def test_wizards_direct_sparse_encoder_writes_the_recorders_rows(
    players: int, options: dict[str, Any]
) -> None:
    """Wizard writes its compressed rows directly (``wizard_tensor.encode_sparse``, issue 49): the very
    arrays the generic recorder makes from the dense encoder's writes — the same entries in the same
    order, so the first layer adds the same weight rows in the same order (the same actions)."""
    from atout.batch import wizard_tensor

    checked = 0
    batch = WizardBatch(players, range(70, 134), **options)
    rng = np.random.default_rng(players)
    while not batch.terminal.all():
        for information_state in (True, False):
            for seats in (None, rng.integers(0, players, batch.num_games)):
                direct = batch.sparse_tensor(seats, information_state=information_state)
                frame = batch._encode(seats, information_state, np.float32, sparse=True, fill=False)
                wizard_tensor.encode(batch, frame, information_state)
                recorded = frame.sparse_tensor()
                assert direct.shape == recorded.shape
                for mine, theirs in zip(direct[:3], recorded[:3], strict=True):
                    assert mine.dtype == theirs.dtype and np.array_equal(mine, theirs)
                checked += 1
        batch.step(batch.random_actions(rng), active=~batch.terminal)
    assert checked > 200


def test_wizards_direct_sparse_encoder_leaves_clairvoyance_to_the_recorder() -> None:
    """Clairvoyance's seen hands are not among the direct encoder's slots: it declines, the recorder writes them."""
    from atout.batch import wizard_tensor

    batch = WizardBatch(4, range(5), clairvoyance=True)
    frame = batch._encode(None, True, np.float32, sparse=True, fill=False)
    assert wizard_tensor.encode_sparse(batch, frame, True) is None
    assert np.array_equal(batch.sparse_tensor().toarray(), batch.information_state_tensor())


def test_the_buffered_forward_pass_gives_the_same_actions() -> None:
    """``best_actions(..., buffers)`` (the vector env's, issue 49) writes its layers into reused arrays:
    the same actions as without, call after call, as the row count grows past the buffers and shrinks."""
    from atout.bots.learned import ForwardBuffers

    game = atout.load("wizard", players=4)
    model = shipped_model(game)
    buffers = ForwardBuffers()
    for count in (3, 700, 1500, 40):
        batch = batch_class("wizard")(4, range(count))
        rng = np.random.default_rng(count)
        for _ in range(25):
            batch.step(batch.random_actions(rng), active=~batch.terminal)
        rows = np.flatnonzero(~batch.terminal)
        x, mask = batch.sparse_tensor().select(rows), batch.legal_mask()[rows]
        prior = batch.heuristic_actions()[rows]
        assert np.array_equal(model.best_actions(x, mask, prior, buffers), model.best_actions(x, mask, prior))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_product_runs_scipys_csr_loop_and_gives_the_matrix_products_values(dtype: Any) -> None:
    """``SparseTensor.dot`` calls scipy's CSR × dense loop directly where it can (issue 49): the very
    values of ``csr_matrix(...) @ weight`` (the same sums in the same order), bit for bit; a weight it
    cannot pass as it is (another dtype, not contiguous) takes the ``csr_matrix`` route."""
    from scipy.sparse import csr_matrix

    from atout.batch.common import _csr_product

    assert _csr_product() is not None  # this scipy has the loop: the direct path is the one tested
    batch = WizardBatch(4, range(200, 456))
    rng = np.random.default_rng(8)
    for _ in range(30):
        batch.step(batch.random_actions(rng), active=~batch.terminal)
    x = batch.sparse_tensor(dtype=dtype)
    weight = rng.standard_normal((x.shape[1], 24)).astype(dtype)
    expected = np.asarray(csr_matrix((x.values, x.indices, x.indptr), shape=x.shape) @ weight)
    for w in (weight, np.asfortranarray(weight), weight.astype(np.float16)):
        got = x.dot(w)
        reference = (
            expected
            if w.dtype == dtype
            else np.asarray(csr_matrix((x.values, x.indices, x.indptr), shape=x.shape) @ w)
        )
        assert got.dtype == reference.dtype and np.array_equal(got, reference)


@pytest.mark.parametrize("broken", ["missing", "raises", "wrong"])
def test_a_scipy_whose_private_loop_differs_gets_the_matrix_route(
    monkeypatch: pytest.MonkeyPatch, broken: str
) -> None:
    """The direct loop is a private scipy function: one missing, taking other arguments or
    answering another product (another scipy version) is not used, and the products stay right."""
    from scipy.sparse import _sparsetools, csr_matrix

    from atout.batch import common

    def raises(*args: Any) -> None:
        raise TypeError("another signature")

    def wrong(*args: Any) -> None:
        args[-1][:] += 1.0

    # (Under another name: scipy's own csr_matrix product runs csr_matvecs.)
    monkeypatch.setattr(common, "_CSR_LOOP", "atout_test_loop")
    if broken != "missing":
        monkeypatch.setattr(
            _sparsetools, "atout_test_loop", raises if broken == "raises" else wrong, raising=False
        )
    common._csr_product.cache_clear()
    try:
        assert common._csr_product() is None
        batch = WizardBatch(4, range(40))
        rng = np.random.default_rng(3)
        for _ in range(12):
            batch.step(batch.random_actions(rng), active=~batch.terminal)
        x = batch.sparse_tensor()
        weight = rng.standard_normal((x.shape[1], 8)).astype(np.float32)
        expected = np.asarray(csr_matrix((x.values, x.indices, x.indptr), shape=x.shape) @ weight)
        assert np.array_equal(x.dot(weight), expected)
    finally:
        monkeypatch.undo()
        common._csr_product.cache_clear()
