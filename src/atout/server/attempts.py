"""Token buckets kept in the database, so that every server process draws from the same ones.

The sign-in and sign-up limits (:class:`.account_web.AccountLimits`) guard passwords:
kept per process (:mod:`.limits`), ``n`` processes would let an attacker try ``n``
times as many.  Here a bucket is a row (kind, key) → (tokens, when), and taking a
token is one ``UPDATE`` whose condition and arithmetic run in the database, so two
processes taking at once are serialized by the row's write lock (PostgreSQL) or the
database's (SQLite), and neither can spend a token the other spent.

A bucket refilled to full holds no information: such rows are deleted
(:meth:`StoredBuckets.prune`, at most once a minute per process), and past
:attr:`StoredBuckets.max_rows` the oldest go too, so many addresses cannot grow the
table without bound (a forgotten bucket starts full again, as :mod:`.limits`' LRU does).  Times are the wall clock's seconds (``time.time``): the processes share it,
not a monotonic clock.  Every method runs one short transaction: call them from a
worker thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Float, String, case, delete, insert, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .storage import Base, Storage

#: Seconds between two prunings by one process.
PRUNE_EVERY = 60.0


class AttemptRow(Base):
    """The bucket ``key`` of ``kind`` had ``tokens`` at ``at`` (seconds since the epoch)."""

    __tablename__ = "atout_attempts"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float, index=True)


@dataclass(eq=False)  # (a bucket is one process's handle: compared by identity)
class StoredBuckets:
    """``burst`` tokens per key, refilled at ``rate`` a second, shared by every process on ``storage``."""

    storage: Storage
    kind: str
    rate: float
    burst: int
    max_rows: int = 10_000
    clock: Callable[[], float] = time.time
    #: When this process last pruned (its own: the processes prune in turn, not together).
    _pruned: float = field(default=float("-inf"), init=False)

    def allow(self, key: str) -> bool:
        """Take a token of ``key``'s bucket; False (and nothing taken) when it has none."""
        now = self.clock()
        if now - self._pruned >= PRUNE_EVERY:
            self.prune(now)
        key = key[:200]
        refilled = AttemptRow.tokens + (now - AttemptRow.at) * self.rate
        # min(refilled, burst), as a CASE: SQLite's min() and PostgreSQL's LEAST() differ.
        level = case((refilled > float(self.burst), float(self.burst)), else_=refilled)
        for _ in range(2):
            with Session(self.storage.engine) as session, session.begin():
                taken = cast(
                    CursorResult[Any],
                    session.execute(
                        update(AttemptRow)
                        .where(AttemptRow.kind == self.kind, AttemptRow.key == key, level >= 1)
                        .values(tokens=level - 1, at=now)
                        .execution_options(synchronize_session=False)
                    ),
                )
                if taken.rowcount == 1:
                    return True
                if session.get(AttemptRow, (self.kind, key)) is not None:
                    return False  # the bucket is there and empty
            try:
                with Session(self.storage.engine) as session, session.begin():
                    session.execute(
                        insert(AttemptRow).values(kind=self.kind, key=key, tokens=self.burst - 1.0, at=now)
                    )
                return self.burst >= 1
            except IntegrityError:  # another process made the bucket meanwhile: take from it
                continue
        return False

    def prune(self, now: float | None = None) -> None:
        """Forget the buckets that have refilled, then the oldest beyond :attr:`max_rows`."""
        now = self.clock() if now is None else now
        self._pruned = now
        with Session(self.storage.engine) as session, session.begin():
            refilled = AttemptRow.tokens + (now - AttemptRow.at) * self.rate
            session.execute(
                delete(AttemptRow).where(AttemptRow.kind == self.kind, refilled >= float(self.burst))
            )
            cutoff = session.scalar(
                select(AttemptRow.at)
                .where(AttemptRow.kind == self.kind)
                .order_by(AttemptRow.at.desc())
                .offset(self.max_rows)
                .limit(1)
            )
            if cutoff is not None:
                session.execute(
                    delete(AttemptRow).where(AttemptRow.kind == self.kind, AttemptRow.at <= cutoff)
                )
