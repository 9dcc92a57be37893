"""bench/inference.py: inferred worlds scored against the true deal."""

from __future__ import annotations

import random

import pytest

import atout
from atout.bots.batched import BatchSearchBot
from tests.benchscripts import bench_script


def rows(output: str) -> dict[int, list[str]]:
    return {int(line.split()[0]): line.split() for line in output.splitlines() if line.split()[0].isdigit()}


def test_the_truth_is_placed_right_and_a_sampled_world_is_consistent() -> None:
    script = bench_script("inference")
    game = atout.load("wizard", 4)
    points = script.decisions(game, "normal", matches=1, every=9, seed=3)
    assert points
    truth, view = points[-1]
    assert script.placement(truth, truth, view.seat) == 1.0
    world = game.sample_state(view, random.Random(1))
    assert world.view(view.seat) == view
    assert 0.0 <= script.placement(world, truth, view.seat) < 1.0
    assert script.deal_of(truth) == script.deal_of(truth.clone())


def test_the_table_has_a_row_per_candidate_count_plain_first(capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script("inference")
    argv = ["--game", "wizard", "--field", "normal", "--bot", "batch:100:strong", "--matches", "1"]
    assert script.main([*argv, "--every", "9", "--worlds", "16", "--candidates", "4"]) == 0
    table = rows(capsys.readouterr().out)
    assert sorted(table) == [0, 4]
    assert table[0][2] == "—"  # the baseline is plain sampling, compared with nothing
    placed = {count: float(row[1].rstrip("%")) for count, row in table.items()}
    assert all(0 < p < 100 for p in placed.values())
    # Resampling by likelihood repeats worlds: no more distinct deals than plain draws.
    assert float(table[4][-2]) <= float(table[0][-2])


def test_bad_arguments_are_refused_with_a_reason(capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script("inference")
    assert script.main(["--candidates", "-1"]) == 2
    assert script.main(["--bot", "hard"]) == 2
    assert "not a batch search" in capsys.readouterr().err
    assert script.main(["--field", "nobody"]) == 2


def test_sample_worlds_draws_worlds_of_the_view() -> None:
    game = atout.load("sticheln", 4)
    state = game.new_state(5)
    view = state.view(state.current_player)
    worlds = BatchSearchBot(2, inference=True).sample_worlds(view, 5)
    assert len(worlds) == 5 and all(w.view(view.seat) == view for w in worlds)
