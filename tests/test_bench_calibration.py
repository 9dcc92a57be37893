"""bench/calibration.py: a distilled network's held-out loss and entropy by temperature."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import atout
from atout.bots.learned import shipped_model
from atout.learn.distill import Decisions, _held_out, collect, network_from_model
from tests.benchscripts import bench_script

GAME = "nain-jaune"


@pytest.fixture(scope="module")
def decisions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("calibration") / "decisions.npz"
    collect(atout.load(GAME, players=4), "normal", matches=3, seed=2).save(path)
    return path


def model_path(tmp_path: Path) -> Path:
    path = tmp_path / "model.npz"
    shipped_model(atout.load(GAME, players=4)).save(path)
    return path


def rows(output: str) -> dict[float, tuple[float, float]]:
    table = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0][0].isdigit():
            table[float(parts[0])] = (float(parts[1]), float(parts[2]))
    return table


def test_the_table_reads_the_held_out_decisions_at_each_temperature(
    decisions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    model = model_path(tmp_path)
    assert (
        bench_script("calibration").main([GAME, str(model), str(decisions), "--temperatures", "0.5,1,2,8"])
        == 0
    )
    out = capsys.readouterr().out
    assert "held-out decisions of normal" in out
    table = rows(out)
    assert sorted(table) == [0.5, 1.0, 2.0, 8.0]
    # At temperature 1 the loss is distill's own held-out loss (another code path, same figure).
    data = Decisions.load(decisions)
    game = atout.load(GAME, players=4)
    want = _held_out(network_from_model(shipped_model(game)), data, data.split()[1], game.num_actions)[0]
    assert table[1.0][0] == pytest.approx(want, abs=2e-3)
    # Hotter is flatter: the mean entropy rises with the temperature.
    entropies = [table[t][1] for t in sorted(table)]
    assert entropies == sorted(entropies) and entropies[0] < entropies[-1]


def test_bad_inputs_are_named(decisions: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script("calibration")
    model = model_path(tmp_path)
    assert script.main([GAME, str(tmp_path / "none.npz"), str(decisions)]) == 2
    assert "not a model file" in capsys.readouterr().err
    assert script.main([GAME, str(model), str(decisions), "--temperatures", "1,-2"]) == 2
    assert "positive" in capsys.readouterr().err
    assert script.main(["wizard", str(model), str(decisions)]) == 2
    assert "nain-jaune" in capsys.readouterr().err
    single = Decisions.load(decisions)
    first = np.flatnonzero(single.match == 0)
    lone = Decisions(
        **{
            **vars(single),
            "match": single.match[first],
            "offsets": single.offsets[: len(first) + 1],
            "legal_offsets": single.legal_offsets[: len(first) + 1],
            "prior": single.prior[first],
            "label": single.label[first],
        }
    )
    lone.save(tmp_path / "one.npz")
    assert script.main([GAME, str(model), str(tmp_path / "one.npz")]) == 2
    assert "nothing is held out" in capsys.readouterr().err
