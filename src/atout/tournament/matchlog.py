"""A tournament's match log: one JSON line per finished match, appended as matches end.

Why a log: a comparison of search bots costs CPU-hours, and a long run is
stopped (time, a signal, a crash) and resumed; the benchmarks (``bench/ladder.py``,
``bench/oracle.py``, ``bench/paired.py``) write every finished match at once and a
rerun reads what is there and plays only the rest.  A line is
:class:`~atout.tournament.runner.MatchOutcome`'s fields; a line that is not one
is named by file and line, never skipped quietly (a silently shorter log would
give a silently different figure).  A log named ``*.gz`` is read and appended
gzipped (a new gzip member per append, which gzip reads as one stream): the
logs kept in the repository (``bench/logs/``) resume as they are.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from .runner import MatchOutcome

__all__ = ["LogError", "append_outcomes", "complete_deals", "log_path", "read_outcomes"]

_FIELDS = {f.name for f in fields(MatchOutcome)}
_REQUIRED = {"deal", "rotation", "seats"}


class LogError(ValueError):
    """A match log's line is not a match record (the message names the file and the line)."""


def _outcome(row: Any) -> MatchOutcome:
    if not isinstance(row, dict):
        raise TypeError("not a JSON object")
    missing = _REQUIRED - set(row)
    if missing:
        raise KeyError(f"missing {', '.join(sorted(missing))}")
    unknown = set(row) - _FIELDS
    if unknown:
        raise KeyError(f"unknown field {', '.join(sorted(unknown))}")
    row = dict(row)
    row["seats"] = tuple(str(s) for s in row["seats"])
    if row.get("contracts") is not None:
        row["contracts"] = [(int(made), int(played)) for made, played in row["contracts"]]
    return MatchOutcome(**row)


def log_path(folder: Path, name: str) -> Path:
    """The log named ``name`` in ``folder``: ``name.jsonl.gz`` when there is one (a log kept in the
    repository, resumed gzipped), else ``name.jsonl`` (written plain).

    ``name``'s colons and slashes (a bot spec's) become underscores.
    """
    safe = name.replace(":", "_").replace("/", "_")
    packed = folder / f"{safe}.jsonl.gz"
    return packed if packed.exists() else folder / f"{safe}.jsonl"


def read_outcomes(path: Path) -> list[MatchOutcome]:
    """Every match of the log at ``path`` (none when there is no file yet), in the order written.

    >>> import tempfile
    >>> log = Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> append_outcomes(log, [MatchOutcome(0, 0, ("a", "b"), scores=[3, 1])])
    >>> read_outcomes(log)[0].scores
    [3, 1]
    >>> _ = log.open("a").write('{"deal": 1}\\n')
    >>> read_outcomes(log)
    Traceback (most recent call last):
    ...
    atout.tournament.matchlog.LogError: ...log.jsonl:2: not a match record ('missing rotation, seats')
    """
    if not path.exists():
        return []
    out = []
    text = (
        gzip.decompress(path.read_bytes()).decode()
        if path.suffix == ".gz"
        else path.read_text(encoding="utf-8")
    )
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(_outcome(json.loads(line)))
        except (ValueError, KeyError, TypeError) as error:
            raise LogError(f"{path}:{number}: not a match record ({error})") from None
    return out


def append_outcomes(path: Path, outcomes: Iterable[MatchOutcome]) -> None:
    """Add ``outcomes`` at the end of the log at ``path`` (its folder made if need be)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(asdict(o)) + "\n" for o in outcomes)
    if path.suffix == ".gz":
        with gzip.open(path, "at", encoding="utf-8") as packed:
            packed.write(text)
    else:
        with path.open("a", encoding="utf-8") as out:
            out.write(text)


def complete_deals(
    outcomes: Iterable[MatchOutcome], players: int, prefix: int | None = None
) -> list[MatchOutcome]:
    """The matches of the deals played in all ``players`` rotations (a duplicate comparison needs them all).

    With ``prefix``: only deals ``0..prefix-1``, up to the first that is missing or partial — the
    schedule's first deals, as a resumed run continues after them.
    """
    by_deal: dict[int, list[MatchOutcome]] = {}
    for outcome in outcomes:
        by_deal.setdefault(outcome.deal, []).append(outcome)
    if prefix is None:
        return [o for deal in sorted(by_deal) if len(by_deal[deal]) == players for o in by_deal[deal]]
    out: list[MatchOutcome] = []
    for deal in range(prefix):
        matches = by_deal.get(deal, [])
        if len(matches) != players:
            break  # a missing or partial deal ends the prefix
        out += matches
    return out
