"""A tournament's statistics: per-bot means with 95% intervals, win share, contracts, times, ratings.

The unit of every confidence interval is the **deal**: an entrant's results are
first averaged over its seats in all rotations of a deal (the duplicate
comparison), and the deals — independent draws — give the interval.  Averaging
matches instead would count the rotations of one deal as independent and give
intervals too narrow.

Intervals are mean ± 1.96 standard errors (normal approximation; tournaments
have hundreds of deals).  Ratings are OpenSkill's Plackett–Luce, updated match
by match in schedule order (so the same seed gives the same ratings), each
entrant a one-player team ranked by its mean score at the table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .runner import MatchOutcome

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A mean with the half-width of its 95% confidence interval (None below two samples)."""

    mean: float
    ci95: float | None
    n: int

    @property
    def low(self) -> float | None:
        return None if self.ci95 is None else self.mean - self.ci95

    @property
    def high(self) -> float | None:
        return None if self.ci95 is None else self.mean + self.ci95


def estimate(values: Sequence[float]) -> Estimate:
    """Mean and 95% half-width (1.96 × sample s.d. / √n) of independent samples."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, None, 0)
    data = np.asarray(values, dtype=float)
    mean = float(data.mean())
    if n < 2:
        return Estimate(mean, None, n)
    return Estimate(mean, Z95 * float(data.std(ddof=1)) / math.sqrt(n), n)


def percentiles(values: Sequence[float], qs: Sequence[float] = (50, 90, 99)) -> dict[str, float | None]:
    """``{"p50": ..., "p90": ..., "p99": ..., "max": ...}`` (None without data)."""
    keys = [f"p{q:g}" for q in qs] + ["max"]
    if not values:
        return dict.fromkeys(keys)
    data = np.asarray(values, dtype=float)
    out: dict[str, float | None] = {f"p{q:g}": float(np.percentile(data, q)) for q in qs}
    out["max"] = float(data.max())
    return out


@dataclass
class BotSummary:
    """One entrant's results over the complete deals."""

    bot: str
    #: Seat-matches played (a bot in three seats of a match counts three).
    seat_matches: int
    score_per_match: Estimate
    score_per_round: Estimate
    #: The bot's score minus the mean score of the other seats, per match and per round.
    margin_per_match: Estimate
    margin_per_round: Estimate
    #: Share of the matches won (a tie for first shares the win); parity is 1/players.
    win_share: Estimate
    #: Contracts made / played (games whose score sheet shows bids and tricks), else None.
    contracts_made: float | None
    contracts_played: int
    #: Shares of the contracts missed by taking too many tricks and too few (None without
    #: per-round detail: games without contracts, or logs written before it was kept).
    contracts_over: float | None
    contracts_under: float | None
    #: Share of contracts made in each round (1st, 2nd, ...): Wizard's round r deals r cards.
    contracts_made_by_round: list[float] | None
    #: Decision times in seconds, decisions with a choice only (forced ones cost nothing).
    decision_times: dict[str, float | None]
    decisions: int
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    #: OpenSkill's conservative rating, mu - 3 sigma (what the table is sorted by).
    rating: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, dict) and {"mean", "ci95", "n"} <= value.keys():
                data[key] = {k: _json_float(v) for k, v in value.items()}
        return data


def _json_float(value: Any) -> Any:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def complete(outcomes: Sequence[MatchOutcome]) -> tuple[list[MatchOutcome], list[MatchOutcome]]:
    """(matches of the deals played out in every rotation, aborted matches).

    A deal with an aborted match is left out entirely, so the duplicate
    comparison stays balanced (every entrant in every seat on the same cards).
    """
    aborted = [o for o in outcomes if o.error is not None]
    bad = {o.deal for o in aborted}
    return [o for o in outcomes if o.deal not in bad], aborted


def summarize(outcomes: Sequence[MatchOutcome]) -> list[BotSummary]:
    """Per-entrant summaries of complete deals, best rating first."""
    played, _ = complete(outcomes)
    names = list(dict.fromkeys(name for o in played for name in o.seats))
    per_deal: dict[str, dict[int, dict[str, list[float]]]] = {name: {} for name in names}
    made = dict.fromkeys(names, 0)
    contracts = dict.fromkeys(names, 0)
    has_contracts = False
    # Per bot: [over, under] counts and per-round [made, played]; None once a match lacks the detail.
    missed: dict[str, list[int] | None] = {name: [0, 0] for name in names}
    by_round: dict[str, list[list[int]]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    seat_matches = dict.fromkeys(names, 0)
    for o in played:
        n = len(o.scores)
        total = sum(o.scores)
        best = set(o.winners)
        rounds = max(o.rounds, 1)
        for s, name in enumerate(o.seats):
            margin = o.scores[s] - (total - o.scores[s]) / (n - 1) if n > 1 else 0.0
            bucket = per_deal[name].setdefault(
                o.deal, {"score": [], "score_round": [], "margin": [], "margin_round": [], "win": []}
            )
            bucket["score"].append(o.scores[s])
            bucket["score_round"].append(o.scores[s] / rounds)
            bucket["margin"].append(margin)
            bucket["margin_round"].append(margin / rounds)
            bucket["win"].append(1.0 / len(best) if s in best else 0.0)
            seat_matches[name] += 1
            if o.contracts is not None:
                has_contracts = True
                made[name] += o.contracts[s][0]
                contracts[name] += o.contracts[s][1]
                _count_overtricks(o, s, missed, by_round[name])
            times[name].extend(t for t, c in zip(o.times[s], o.choice[s], strict=True) if c)

    def deal_means(name: str, key: str) -> Estimate:
        return estimate([sum(b[key]) / len(b[key]) for b in per_deal[name].values()])

    ratings = rate(played)
    summaries = []
    for name in names:
        mu, sigma = ratings[name]
        summaries.append(
            BotSummary(
                bot=name,
                seat_matches=seat_matches[name],
                score_per_match=deal_means(name, "score"),
                score_per_round=deal_means(name, "score_round"),
                margin_per_match=deal_means(name, "margin"),
                margin_per_round=deal_means(name, "margin_round"),
                win_share=deal_means(name, "win"),
                contracts_made=made[name] / contracts[name] if has_contracts and contracts[name] else None,
                contracts_played=contracts[name],
                **_missed_shares(missed[name], by_round[name], contracts[name]),
                decision_times=percentiles(times[name]),
                decisions=len(times[name]),
                rating_mu=mu,
                rating_sigma=sigma,
                rating=mu - 3 * sigma,
            )
        )
    summaries.sort(key=lambda b: -b.rating)
    return summaries


def _count_overtricks(
    o: MatchOutcome, seat: int, missed: dict[str, list[int] | None], by_round: list[list[int]]
) -> None:
    """Add one seat-match's contracts to its bot's over/under and per-round counts."""
    name = o.seats[seat]
    counts = missed[name]
    if counts is None:
        return
    if o.overtricks is None:
        missed[name] = None  # a log without the detail: no partial figures
        return
    for r, diff in enumerate(o.overtricks[seat]):
        if r == len(by_round):
            by_round.append([0, 0])
        by_round[r][0] += diff == 0
        by_round[r][1] += 1
        counts[0] += diff > 0
        counts[1] += diff < 0


def _missed_shares(counts: list[int] | None, by_round: list[list[int]], played: int) -> dict[str, Any]:
    if counts is None or not played or not by_round:
        return {"contracts_over": None, "contracts_under": None, "contracts_made_by_round": None}
    return {
        "contracts_over": counts[0] / played,
        "contracts_under": counts[1] / played,
        "contracts_made_by_round": [m / n for m, n in by_round],
    }


def rate(outcomes: Sequence[MatchOutcome]) -> dict[str, tuple[float, float]]:
    """OpenSkill (Plackett–Luce) ``{bot: (mu, sigma)}`` after every match, in the order given.

    openskill is imported here, not with the module: the 'tournament' extra's, it must not keep
    ``atout --help`` (which imports this package) from starting where it is not installed.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for o in outcomes:
        if o.error is not None:
            continue
        names = list(dict.fromkeys(o.seats))
        if len(names) < 2:
            continue  # a bot against itself tells nothing
        for name in names:
            ratings.setdefault(name, model.rating(name=name))
        table = [
            sum(sc for sc, nm in zip(o.scores, o.seats, strict=True) if nm == name) / o.seats.count(name)
            for name in names
        ]
        new = model.rate([[ratings[name]] for name in names], scores=table)
        for name, team in zip(names, new, strict=True):
            ratings[name] = team[0]
    everyone = dict.fromkeys(name for o in outcomes for name in o.seats)
    default = model.rating()
    return {
        name: (float(ratings[name].mu), float(ratings[name].sigma))
        if name in ratings
        else (float(default.mu), float(default.sigma))
        for name in everyone
    }
