"""Tournaments between bots: duplicate deals with seat rotation, statistics, ratings, reports.

``atout tournament wizard --bots expert,hard,heuristic,random --deals 500 --jobs 2``
is this package behind a command line: :func:`~.runner.schedule` the matches,
play them (:func:`~.runner.run_local` or :func:`~.runner.run_ray`),
:func:`~.stats.summarize` them and :func:`~.report.write_results`.

The statistics and the report (numpy) are loaded on first use of one of their names: the
command line imports the runner with every command, and ``atout serve`` (each browser test
starts one) should not pay for numpy it never uses.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .runner import MatchOutcome, MatchSpec, lineup, run_local, run_match, run_ray, schedule

if TYPE_CHECKING:
    from .report import write_results
    from .stats import BotSummary, Estimate, estimate, rate, summarize

#: The names loaded on first use, and their modules.
_LAZY = {
    "write_results": ".report",
    **dict.fromkeys(("BotSummary", "Estimate", "estimate", "rate", "summarize"), ".stats"),
}


def __getattr__(name: str) -> Any:
    """A name of :data:`_LAZY`, imported now (PEP 562)."""
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
