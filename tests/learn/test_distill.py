"""Distillation: teacher decisions recorded from each seat's view, a fit that lowers its loss, a model that plays."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from typer.testing import CliRunner

import atout
from atout.bots.factory import make_bot
from atout.bots.learned import PolicyBot, PolicyModel, shipped_model
from atout.cli.main import app
from atout.core.game import State
from atout.learn.distill import (
    DISTILL_SEED_BASE,
    FRESH_PRIOR,
    Decisions,
    Fit,
    collect,
    distill,
    fresh_model,
    network_from_model,
)
from atout.match import derive_seed, play_match

TEACHER = "search:2"


@pytest.fixture(scope="module")
def wizard_decisions() -> Decisions:
    return collect(atout.load("wizard", players=4), TEACHER, matches=2, seed=5)


def test_each_decision_is_recorded_from_its_seats_view(wizard_decisions: Decisions) -> None:
    """Replaying the first match: every choice with more than one legal action is a row, read from the view."""
    game = atout.load("wizard", players=4)
    data = wizard_decisions
    rows = np.flatnonzero(data.match == 0)
    seed = derive_seed(DISTILL_SEED_BASE + 5, "match", 0)
    bots = [make_bot(TEACHER, game, derive_seed(seed, "seat", s), caps=False) for s in range(4)]
    seen: list[int] = []

    def check(state: State, seat: int, action: int) -> None:
        view = state.view(seat)
        if len(view.legal_actions) < 2:
            return
        row = int(rows[len(seen)])
        x, mask, _, label = data.tensors(np.array([row]), game.num_actions)
        want = np.zeros(game.information_state_tensor_size(), dtype=np.float32)
        game.write_tensor(view, True, want)
        assert np.array_equal(x[0].numpy(), want)
        assert sorted(np.flatnonzero(np.isfinite(mask[0].numpy()))) == sorted(view.legal_actions)
        assert int(label[0]) == action
        seen.append(row)

    play_match(game, bots, seed, check)
    assert len(seen) == len(rows) > 100


def test_decisions_round_trip_and_join(wizard_decisions: Decisions, tmp_path: Path) -> None:
    data = wizard_decisions
    data.save(tmp_path / "d.npz")
    again = Decisions.load(tmp_path / "d.npz")
    assert len(again) == len(data) and again.width == data.width
    # The teacher travels with its decisions; two teachers are never joined.
    assert data.teacher == again.teacher == TEACHER
    stranger = Decisions(**{**vars(again), "teacher": "hard"})
    with pytest.raises(ValueError, match="different teachers"):
        Decisions.join([again, stranger])
    unnamed = Decisions(**{**vars(again), "teacher": ""})  # a file from before teachers were recorded
    assert Decisions.join([unnamed, again]).teacher == TEACHER
    first, second = (np.flatnonzero(data.match == m) for m in (0, 1))
    parts = [Decisions.load(tmp_path / "d.npz") for _ in range(2)]
    joined = Decisions.join(parts)
    assert len(joined) == 2 * len(data)
    # The second copy's rows read the same tensors as the original's.
    some = np.concatenate([first[:3], second[-3:]])
    for a, b in zip(data.tensors(some, 64), joined.tensors(some + len(data), 64), strict=True):
        assert np.array_equal(a.numpy(), b.numpy())
    train, held = data.split()
    assert set(data.match[held]) == {1} and set(data.match[train]) == {0}
    (tmp_path / "other.npz").write_bytes(b"not numpy")
    with pytest.raises(Exception):  # noqa: B017 - numpy's own error for a file that is not an archive
        Decisions.load(tmp_path / "other.npz")
    np.savez(tmp_path / "wrong.npz", width=np.array(3))
    with pytest.raises(ValueError, match="not a decisions file"):
        Decisions.load(tmp_path / "wrong.npz")


def test_a_model_survives_the_trip_into_torch_and_back() -> None:
    game = atout.load("wizard", players=4)
    model = shipped_model(game)
    again = network_from_model(model).export(dict(model.meta))
    x = np.zeros((3, game.information_state_tensor_size()), dtype=np.float32)
    x[:, ::97] = 1.0
    prior = np.array([0, 1, 2])
    for a, b in zip(model.forward(x, prior), again.forward(x, prior), strict=True):
        assert np.allclose(a, b, atol=1e-3)


def test_distillation_lowers_its_loss_and_writes_a_model_that_plays(
    wizard_decisions: Decisions, tmp_path: Path
) -> None:
    game = atout.load("wizard", players=4)
    start = shipped_model(game)
    figures: list[Fit] = []
    model, fits = distill(start, wizard_decisions, epochs=3, teacher=TEACHER, report=figures.append)
    assert figures[0].epoch == -1 and len(fits) == 3
    assert fits[-1].loss < fits[0].loss
    # The teacher's held-out choices are likelier under the distilled model than under the start.
    assert fits[-1].held_loss < figures[0].held_loss
    assert 0.0 <= fits[-1].agreement <= 1.0 and math.isfinite(fits[-1].heuristic_agreement)
    model.save(tmp_path / "m.npz")
    loaded = PolicyModel.load(tmp_path / "m.npz")
    loaded.check(game)
    assert loaded.meta["training"]["distilled"]["teacher"] == TEACHER
    result = play_match(game, [PolicyBot(s, loaded) for s in range(4)], seed=3)
    assert result.state.is_terminal
    searcher = make_bot(f"batch:24:net={tmp_path / 'm.npz'}:sample", game, 1)
    state = game.new_state(seed=4)
    assert searcher.choose(state.view(state.current_player)) in state.legal_actions()


def test_a_model_of_another_game_is_refused(wizard_decisions: Decisions) -> None:
    other = shipped_model(atout.load("nain-jaune", players=4))
    with pytest.raises(ValueError, match="width"):
        distill(other, wizard_decisions, epochs=1)


def test_the_command_collects_grows_and_refits(tmp_path: Path) -> None:
    runner = CliRunner()
    folder = tmp_path / "run"
    args = [
        "distill",
        "nain-jaune",
        "--players",
        "4",
        "--teacher",
        TEACHER,
        "--epochs",
        "1",
        "--out",
        str(folder),
    ]
    first = runner.invoke(app, [*args, "--matches", "2"])
    assert first.exit_code == 0, first.output
    assert "agreement with search:2" in first.output
    size = len(Decisions.load(folder / "decisions.npz"))
    assert size > 0
    PolicyModel.load(folder / "model.npz").check(atout.load("nain-jaune", players=4))
    grown = runner.invoke(app, [*args, "--matches", "1"])
    assert grown.exit_code == 0, grown.output
    data = Decisions.load(folder / "decisions.npz")
    assert len(data) > size and sorted(set(data.match.tolist())) == [0, 1, 2]
    refit = runner.invoke(app, [*args, "--matches", "0"])
    assert refit.exit_code == 0 and len(Decisions.load(folder / "decisions.npz")) == len(data)
    # A refit without --teacher names the folder's teacher, in its output and in the model's card.
    named = runner.invoke(
        app,
        ["distill", "nain-jaune", "--players", "4", "--matches", "0", "--epochs", "1", "--out", str(folder)],
    )
    assert named.exit_code == 0 and f"decisions of {TEACHER}" in named.output, named.output
    card = PolicyModel.load(folder / "model.npz").meta["training"]["distilled"]
    assert card["teacher"] == TEACHER
    # Another teacher's matches are not added to this folder's: refused, the decisions kept.
    mixed = runner.invoke(app, [*args[:5], "hard", *args[6:], "--matches", "1"])
    assert mixed.exit_code != 0 and "would mix two teachers" in mixed.output
    assert "Traceback" not in mixed.output
    assert len(Decisions.load(folder / "decisions.npz")) == len(data)
    bad = runner.invoke(
        app,
        [
            "distill",
            "nain-jaune",
            "--players",
            "4",
            "--teacher",
            "grandmaster",
            "--matches",
            "1",
            "--out",
            str(tmp_path / "b"),
        ],
    )
    assert bad.exit_code != 0 and "no bot 'grandmaster'" in bad.output and "Traceback" not in bad.output
    empty = runner.invoke(
        app, ["distill", "nain-jaune", "--players", "4", "--matches", "0", "--out", str(tmp_path / "e")]
    )
    assert empty.exit_code != 0 and "ask for some --matches" in empty.output
    # Three players: no model shipped to start from, so a fresh network (said plainly), fitted and
    # written for three seats.
    three = runner.invoke(
        app,
        [*args[:3], "3", *args[4:-1], str(tmp_path / "t"), "--matches", "1"],
    )
    assert three.exit_code == 0 and "starting from a fresh network" in three.output, three.output
    PolicyModel.load(tmp_path / "t" / "model.npz").check(atout.load("nain-jaune", players=3))


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
def test_a_fresh_network_plays_as_the_heuristic(name: str) -> None:
    """Where no model is shipped, distillation starts from a network whose choice is the heuristic's."""
    game = atout.load(name, players=5)
    model = fresh_model(game, seed=2)
    model.check(game)
    assert model.prior_weight == pytest.approx(FRESH_PRIOR)
    net = PolicyBot(0, model)
    compared: list[int] = []

    def check(state: State, seat: int, action: int) -> None:
        view = state.view(seat)
        if len(view.legal_actions) > 1:
            assert net.choose(view) == action
            compared.append(action)

    heuristics = [make_bot("heuristic", game, s) for s in range(game.players)]
    play_match(game, heuristics, 7, check)
    assert len(compared) > 20
