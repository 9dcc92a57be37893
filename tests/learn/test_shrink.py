"""The small network's recipe: the teacher's positions at batch speed are the engine's, and a fit
exports a model that loads, fits its game and plays."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import atout
from atout.bots.factory import make_bot
from atout.bots.learned import PolicyModel, shipped_model
from atout.core.game import State
from atout.learn.shrink import SHRINK_SEED_BASE, Positions, collect, fit
from atout.match import play_match


@pytest.fixture(scope="module")
def positions() -> Positions:
    return collect(shipped_model(atout.load("wizard", players=4)), 3, chunk=2, sample_share=0.0)


def test_the_teachers_positions_are_its_engine_decisions(positions: Positions) -> None:
    """Greedy, the batch's recorded decisions of match 0 are the ``policy`` bot's on the engine, in
    order: every decision with two legal actions or more, the same legal actions, the teacher's
    most probable one the action it took."""
    game = atout.load("wizard", players=4)
    taken: list[tuple[list[int], int]] = []

    def record(state: State, seat: int, action: int) -> None:
        legal = list(state.view(seat).legal_actions)
        if len(legal) >= 2:
            taken.append((legal, action))

    bots = [make_bot("policy", game, s) for s in range(game.players)]
    play_match(game, bots, SHRINK_SEED_BASE, record)
    rows = np.flatnonzero(positions.match == 0)
    assert len(rows) == len(taken) > 100
    for row, (legal, action) in zip(rows, taken, strict=True):
        span = slice(positions.legal_ptr[row], positions.legal_ptr[row + 1])
        assert positions.legal[span].tolist() == sorted(legal)
        assert positions.legal[span][np.argmax(positions.logits[span])] == action


def test_positions_round_trip_through_their_file(positions: Positions, tmp_path: Path) -> None:
    positions.save(tmp_path / "p.npz")
    again = Positions.load(tmp_path / "p.npz")
    assert (again.width, again.actions) == (positions.width, positions.actions)
    for key in ("indptr", "columns", "values", "legal_ptr", "legal", "logits", "prior", "value", "match"):
        assert np.array_equal(getattr(again, key), getattr(positions, key))


def test_a_fit_exports_a_small_model_that_plays(positions: Positions, tmp_path: Path) -> None:
    game = atout.load("wizard", players=4)
    teacher = shipped_model(game)
    seen: list[float] = []
    model, epochs = fit(
        teacher, positions, (8,), epochs=2, held_matches=1, report=lambda e: seen.append(e.agreement)
    )
    assert len(epochs) == 2 == len(seen) and 0.0 <= epochs[-1].agreement <= 1.0
    assert epochs[-1].loss < epochs[0].loss
    model.save(tmp_path / "small.npz")
    loaded = PolicyModel.load(tmp_path / "small.npz")
    loaded.check(game)
    assert [w.shape for w, _ in loaded.trunk] == [(game.information_state_tensor_size(), 8)]
    assert loaded.meta["training"]["epochs"] == 2 and loaded.prior_weight is not None
    bots = [make_bot(f"net:{tmp_path / 'small.npz'}", game, s) for s in range(game.players)]
    assert play_match(game, bots, seed=1).state.is_terminal
