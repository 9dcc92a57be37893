"""Tournaments between bots: duplicate deals with seat rotation, statistics, ratings, reports.

``atout tournament wizard --bots expert,hard,heuristic,random --deals 500 --jobs 2``
is this package behind a command line: :func:`~.runner.schedule` the matches,
play them (:func:`~.runner.run_local` or :func:`~.runner.run_ray`),
:func:`~.stats.summarize` them and :func:`~.report.write_results`.
"""

from .report import write_results
from .runner import MatchOutcome, MatchSpec, lineup, run_local, run_match, run_ray, schedule
from .stats import BotSummary, Estimate, estimate, rate, summarize

__all__ = [
    "BotSummary",
    "Estimate",
    "MatchOutcome",
    "MatchSpec",
    "estimate",
    "lineup",
    "rate",
    "run_local",
    "run_match",
    "run_ray",
    "schedule",
    "summarize",
    "write_results",
]
