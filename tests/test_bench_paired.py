"""bench/paired.py: two candidates' ladder logs compared deal by deal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.benchscripts import bench_script


def paired() -> ModuleType:
    return bench_script("paired")


def write_log(
    path: Path,
    candidate: str,
    scores: dict[int, list[list[int]]],
    partial: int | None = None,
    seed: int | None = 100,
) -> None:
    """A 2-seat ladder log: per deal, each rotation's scores (the candidate in seat r of rotation r),
    deal d dealt from ``seed + d`` (no seed: a log from before seeds were kept)."""
    rows = []
    for deal, rotations in scores.items():
        for r, match in enumerate(rotations):
            seats = [candidate, "hard"] if r == 0 else ["hard", candidate]
            row = {"deal": deal, "rotation": r, "seats": seats, "scores": match, "rounds": 2, "error": None}
            if seed is not None:
                row["seed"] = seed + deal
            rows.append(row)
    if partial is not None:  # a deal cut short: one rotation only
        rows.append(
            {"deal": partial, "rotation": 0, "seats": [candidate, "hard"], "scores": [9, 0], "rounds": 2}
        )
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n")


def test_the_difference_is_taken_deal_by_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A's margin per round: deal 0 (10-0)/2 and (0-2)/2 -> mean 2; deal 1: 3 and 1 -> 2.
    write_log(tmp_path / "a.jsonl", "a", {0: [[10, 0], [2, 0]], 1: [[6, 0], [0, 2]]}, partial=2)
    # B's: deal 0: 1 and 0 -> 0.5; deal 1: 0 and 1 -> 0.5 (and a deal 3 A never played).
    write_log(tmp_path / "b.jsonl", "b", {0: [[2, 0], [0, 0]], 1: [[0, 0], [0, 2]], 3: [[4, 0], [0, 0]]})
    module = paired()
    name, margins, seeds = module.margins(tmp_path / "a.jsonl")
    assert name == "a" and margins == {0: 2.0, 1: 2.0}  # the partial deal 2 is left out
    assert seeds == {0: 100, 1: 101}
    monkeypatch.setattr(sys, "argv", ["paired.py", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")])
    module.main()
    out = capsys.readouterr().out
    assert "a − b, deal by deal: +1.50 ± 0.00 (2 deals)" in out


def test_a_malformed_line_is_named(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text('{"deal": 0}\nnot json\n')
    with pytest.raises(SystemExit, match=r"bad.jsonl:1: not a match record"):
        paired().margins(tmp_path / "bad.jsonl")


def test_logs_of_different_deals_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_log(tmp_path / "a.jsonl", "a", {0: [[1, 0], [0, 1]]})
    write_log(tmp_path / "b.jsonl", "b", {0: [[1, 0], [0, 1]]}, seed=200)  # another --seed: other cards
    monkeypatch.setattr(sys, "argv", ["paired.py", str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")])
    with pytest.raises(
        SystemExit, match=r"deal 0 was dealt differently in the two logs \(seeds 100 and 200\)"
    ):
        paired().main()
    # A log from before seeds were kept cannot be checked: the comparison says so.
    write_log(tmp_path / "b.jsonl", "b", {0: [[1, 0], [0, 1]]}, seed=None)
    paired().main()
    assert "without its deals' seeds" in capsys.readouterr().out
