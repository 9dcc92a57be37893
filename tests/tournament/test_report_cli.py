"""Tournament result files, the command line, and the Ray backend (same results as local)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import atout
from atout.cli.main import app
from atout.tournament import run_local, run_ray, schedule, summarize, write_results

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mybot.py"


def test_results_are_written_as_json_csv_and_plots(tmp_path: Path) -> None:
    game = atout.load("wizard", 3, rounds=2)
    outcomes = run_local(schedule(game, ["heuristic", "random"], deals=3, seed=1))
    summaries = summarize(outcomes)
    paths = write_results(tmp_path / "out", {"game": "wizard", "players": 3}, outcomes, summaries)
    names = sorted(p.name for p in paths)
    assert names == ["bots.csv", "matches.csv", "plot.png", "plot.svg", "results.json"]
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["matches_scored"] == 9 and data["deals_scored"] == 3 and data["aborted"] == []
    assert [b["bot"] for b in data["bots"]] == [s.bot for s in summaries]
    assert data["bots"][0]["margin_per_round"]["ci95"] is not None
    with (tmp_path / "out" / "bots.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["bot"] for r in rows} == {"heuristic", "random"}
    assert float(rows[0]["score_per_match"]) == pytest.approx(summaries[0].score_per_match.mean)
    # Made, over and under split every contract; per round, two rounds here.
    for row, bot, summary in zip(rows, data["bots"], summaries, strict=True):
        shares = [float(row[k]) for k in ("contracts_made", "contracts_over", "contracts_under")]
        assert sum(shares) == pytest.approx(1) and shares[1] == pytest.approx(summary.contracts_over)
        assert len(bot["contracts_made_by_round"]) == 2
    with (tmp_path / "out" / "matches.csv").open() as f:
        assert len(list(csv.reader(f))) == 1 + 9 * 3
    assert (tmp_path / "out" / "plot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (tmp_path / "out" / "plot.svg").read_text()[:1000]


def test_tournament_command(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        ["tournament", "wizard", "--bots", f"heuristic,cmd:{sys.executable} {EXAMPLE}", "--players", "3",
         "--deals", "2", "--seed", "4", "--out", str(out), "-o", "rounds=2", "--no-plot"],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output and "6 matches" in result.output
    data = json.loads((out / "results.json").read_text())
    assert data["settings"]["lineup"] == [
        "heuristic",
        f"cmd:{sys.executable} {EXAMPLE}",
        f"cmd:{sys.executable} {EXAMPLE}",
    ]
    assert "--seed 4" in data["settings"]["command"]
    assert not (out / "plot.png").exists()


def test_the_table_fits_an_80_column_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every column shows, and a long bot name folds rather than pushing columns off."""
    from atout.cli import output

    monkeypatch.setattr(output.out, "width", 80)
    long_name = f"cmd:{sys.executable} {EXAMPLE}"
    result = runner.invoke(
        app,
        ["tournament", "wizard", "--bots", f"heuristic,{long_name}", "--players", "3", "--deals", "1",
         "--out", str(tmp_path / "t"), "-o", "rounds=1", "--no-plot"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "rating" in line)
    assert header.split() == ["bot", "rating", "score/round", "margin/round", "wins", "made", "ms", "p50/p99"]
    assert all(len(line) <= 80 for line in result.output.splitlines())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "heuristic,grandmaster"], "no bot 'grandmaster'"),
        (["--bots", "a,b,c,d,e,f,g"], "at most"),
        (["--bots", ","], "at least one bot"),
        (["--players", "9"], "3 to 6 players"),
    ],
)
def test_tournament_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "never"
    result = runner.invoke(app, ["tournament", "wizard", "--deals", "1", "--out", str(out), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not out.exists()


@pytest.mark.ray
def test_ray_gives_the_same_results_as_the_local_runner() -> None:
    """A local Ray (Ray 2.60 no longer has local_mode) against the in-process runner, same seed."""
    game = atout.load("wizard", 3, rounds=2)
    specs = schedule(game, ["search:4", "heuristic", "random"], deals=2, seed=8)
    local = run_local(specs)
    done: list[int] = []
    remote = run_ray(specs, on_done=lambda o: done.append(o.deal))
    assert len(done) == len(specs)
    assert [(o.deal, o.rotation, o.seats, o.scores, o.contracts) for o in remote] == [
        (o.deal, o.rotation, o.seats, o.scores, o.contracts) for o in local
    ]
