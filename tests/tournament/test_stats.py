"""Tournament statistics: interval arithmetic, per-deal units, win shares, ratings."""

from __future__ import annotations

import math

import pytest

from atout.tournament import estimate, rate, summarize
from atout.tournament.runner import MatchOutcome
from atout.tournament.stats import complete, percentiles


def test_estimate_on_known_data() -> None:
    est = estimate([1, 2, 3, 4, 5])
    assert est.mean == 3
    # s.d. = sqrt(2.5); half-width = 1.96 * sqrt(2.5) / sqrt(5)
    half = 1.959964 * math.sqrt(2.5) / math.sqrt(5)
    assert est.ci95 == pytest.approx(half, rel=1e-6)
    assert est.low == pytest.approx(3 - half) and est.high == pytest.approx(3 + half) and est.n == 5
    assert estimate([7]).ci95 is None and estimate([7]).mean == 7
    assert math.isnan(estimate([]).mean)
    assert estimate([4, 4, 4]).ci95 == 0


def test_percentiles() -> None:
    p = percentiles([float(i) for i in range(1, 101)])
    assert p["p50"] == pytest.approx(50.5) and p["max"] == 100 and p["p99"] == pytest.approx(99.01)
    assert percentiles([]) == {"p50": None, "p90": None, "p99": None, "max": None}


def outcome(
    deal: int, rotation: int, seats: tuple[str, ...], scores: list[int], rounds: int = 2
) -> MatchOutcome:
    best = max(scores)
    return MatchOutcome(
        deal,
        rotation,
        seats,
        scores=scores,
        winners=[s for s, v in enumerate(scores) if v == best],
        rounds=rounds,
        contracts=[(1, 2), (0, 2)],
        overtricks=[[0, 1], [-2, 1]],
        times=[[0.1, 0.2], [0.3]],
        choice=[[True, False], [True]],
    )


def test_summary_uses_the_deal_as_unit_and_counts_margins_wins_contracts() -> None:
    outcomes = [
        outcome(0, 0, ("a", "b"), [30, 10]),
        outcome(0, 1, ("b", "a"), [20, 20]),
        outcome(1, 0, ("a", "b"), [50, 10]),
        outcome(1, 1, ("b", "a"), [0, 40]),
    ]
    by_bot = {b.bot: b for b in summarize(outcomes)}
    a, b = by_bot["a"], by_bot["b"]
    # a's score per deal: (30 + 20) / 2 = 25 and (50 + 40) / 2 = 45.
    assert a.score_per_match.mean == 35 and a.score_per_match.n == 2
    assert a.score_per_round.mean == 17.5
    assert a.margin_per_match.mean == pytest.approx(((20 + 0) / 2 + (40 + 40) / 2) / 2)
    assert a.win_share.mean == pytest.approx((1 + 0.5 + 1 + 1) / 4)
    assert a.win_share.mean + b.win_share.mean == pytest.approx(1)
    # seat 0 made 1 of 2 contracts, seat 1 none: a sat twice in each seat.
    assert a.contracts_made == pytest.approx(2 / 8) and a.contracts_played == 8
    # seat 0 made round 1 and went over in round 2; seat 1 went under, then over.
    assert a.contracts_over == pytest.approx(4 / 8) and a.contracts_under == pytest.approx(2 / 8)
    assert a.contracts_made_by_round == pytest.approx([2 / 4, 0.0])
    assert a.decision_times["max"] == pytest.approx(0.3) and a.decisions == 4  # forced decisions left out
    assert a.rating > b.rating and summarize(outcomes)[0].bot == "a"


def test_aborted_matches_take_their_deal_out_of_the_statistics() -> None:
    bad = MatchOutcome(1, 1, ("b", "a"), error="bot 'b' at seat 0: exited")
    outcomes = [outcome(0, 0, ("a", "b"), [30, 10]), outcome(0, 1, ("b", "a"), [20, 20]),
                outcome(1, 0, ("a", "b"), [50, 10]), bad]  # fmt: skip
    played, aborted = complete(outcomes)
    assert aborted == [bad] and {o.deal for o in played} == {0}
    assert {b.bot: b.score_per_match.mean for b in summarize(outcomes)} == {"a": 25, "b": 15}


def test_over_and_under_are_left_out_when_a_match_lacks_the_detail() -> None:
    """Logs written before overtricks were kept: the made share stays, no partial split."""
    old = outcome(1, 0, ("a", "b"), [50, 10])
    old.overtricks = None
    outcomes = [outcome(0, 0, ("a", "b"), [30, 10]), outcome(0, 1, ("b", "a"), [20, 20]), old,
                outcome(1, 1, ("b", "a"), [0, 40])]  # fmt: skip
    a = {b.bot: b for b in summarize(outcomes)}["a"]
    assert a.contracts_made == pytest.approx(2 / 8)
    assert a.contracts_over is None and a.contracts_under is None and a.contracts_made_by_round is None


def test_ratings_move_towards_the_winner() -> None:
    start = rate([outcome(0, 0, ("a", "b"), [10, 10])])
    assert start["a"][0] == pytest.approx(start["b"][0])
    after = rate([outcome(0, 0, ("a", "b"), [30, 10])])
    assert after["a"][0] > start["a"][0] > after["b"][0]
    assert after["a"][1] < 25 / 3  # uncertainty shrinks from the default
    many = rate([outcome(i, 0, ("a", "b"), [30, 10]) for i in range(20)])
    assert many["a"][0] - many["b"][0] > after["a"][0] - after["b"][0]
    # copies of a bot form one team; a bot alone at the table is not rated
    assert rate([outcome(0, 0, ("a", "a"), [1, 2])]) == {"a": (25.0, 25 / 3)}
