"""bench/baselines.py: a thin row carries its warning in the table it prints."""

from __future__ import annotations

from tests.benchscripts import bench_script


def test_a_row_on_enough_deals_gives_its_interval_unmarked() -> None:
    figures = bench_script("baselines").figures
    assert figures(500, 4, 3.654, 0.291) == ("500 × 4", "+3.65 ± 0.29")
    assert figures(10, 6, -1.0, 2.0) == ("10 × 6", "-1.00 ± 2.00")


def test_a_row_on_few_deals_is_marked_thin() -> None:
    figures = bench_script("baselines").figures
    assert figures(9, 4, 0.71, 0.06) == ("9 × 4, **thin**", "+0.71 ± 0.06")
    assert figures(3, 5, 8.6, 0.83) == ("3 × 5, **thin**", "+8.60 ± 0.83")


def test_under_three_deals_no_interval_is_given() -> None:
    figures = bench_script("baselines").figures
    assert figures(2, 4, 12.333, 4.1) == ("2 × 4, **thin** (too few for an interval)", "+12.33")
    assert figures(1, 3, 28.33, None) == ("1 × 3, **thin** (too few for an interval)", "+28.33")
