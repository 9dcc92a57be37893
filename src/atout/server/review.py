"""The web table's game review: queued, searched in a small worker pool, cached with the table.

Why bounded this way: a review searches every decision of a seat (a few
seconds of a core for a whole Wizard game, :mod:`atout.bots.review`), which a
stranger could ask for again and again.  So:

* a review runs in its own :class:`~.botpool.BotPool` of worker processes
  (:data:`REVIEW_WORKERS`, niced like the bots' workers), never in the serving
  process and never in the pool the live tables' bots think in: a review never
  delays a bot's move;
* at most :data:`MAX_JOBS` reviews are queued or running at once; one more is
  refused with ``busy`` ("try again in a minute") rather than queued without end;
* each client address may *start* :data:`STARTS_PER_MINUTE` reviews a minute
  (a burst of :data:`STARTS_BURST`); asking how a review is going, or reading
  one already made, costs no start;
* the pool searches a review :data:`REVIEW_PART` decisions a task, one review at a
  time, so that asking how it is going answers the decisions done and in all
  (the page's progress bar: a whole 4-player game is some seconds of search);
* a finished review is stored in ``atout_reviews`` with the table (one row per
  seat and budget): the second reader, and any reader after a restart, pays
  nothing.

Only a finished table is reviewed (its record is then public to its players),
and every decision is still judged from the seat's view at that moment: what
crosses to the worker is the table's game, seed and actions, from which the
worker rebuilds the game and :func:`~atout.bots.review.review_game` gives the
search the seat's views only.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from anyio import to_thread
from sqlalchemy import JSON, DateTime, ForeignKey, Integer
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..bots.review import (
    REVIEW_PLAYOUTS,
    Decision,
    DecisionReview,
    GameReview,
    review_decision,
    review_game,
    review_plan,
)
from ..core.game import State
from ..core.reason import reason
from .botpool import BotPool, GameSpec, game_spec, worker_game
from .limits import ClientBuckets
from .storage import Base, Storage
from .tables import LiveTable, TableError

log = logging.getLogger("atout.server")

#: Worker processes reviewing (one: reviews are background work on a small machine).
REVIEW_WORKERS = 1
#: Reviews queued or running at once, over every table; one more is refused as busy.
MAX_JOBS = 8
#: Reviews one client address may start, per minute and in a burst.
STARTS_PER_MINUTE = 4.0
STARTS_BURST = 6
#: Failed reviews remembered until their next reader is told (the oldest forgotten first).
FAILED_KEPT = 100
#: The seed every web review is searched from (a table's review is the same for every reader).
REVIEW_SEED = 0
#: Decisions a worker searches per task: the reviewer tells how far it is between two.
REVIEW_PART = 4


class ReviewRow(Base):
    """A finished table's review of one seat at one budget (the JSON of :meth:`GameReview.to_dict`)."""

    __tablename__ = "atout_reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    playouts: Mapped[int] = mapped_column(Integer, primary_key=True)
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


def ensure_tables(storage: Storage) -> None:
    """Create the reviews' table in a database made before it (idempotent)."""
    Base.metadata.create_all(storage.engine, tables=[ReviewRow.__table__])  # type: ignore[list-item]


def load_review(storage: Storage, table_id: str, seat: int, playouts: int) -> dict[str, Any] | None:
    with Session(storage.engine) as session:
        row = session.get(ReviewRow, (table_id, seat, playouts))
        return None if row is None else dict(row.data)


def save_review(storage: Storage, table_id: str, seat: int, playouts: int, data: dict[str, Any]) -> None:
    with Session(storage.engine) as session, session.begin():
        session.merge(
            ReviewRow(
                table_id=table_id,
                seat=seat,
                playouts=playouts,
                created=_dt.datetime.now(_dt.UTC),
                data=data,
            )
        )


@dataclass(frozen=True)
class ReviewJob:
    """A review as it crosses to a worker: the finished table's game, seed and player actions
    (the worker rebuilds the table from them), the seat, the budget and the search's seed."""

    spec: GameSpec
    seed: int
    actions: list[int]
    seat: int
    playouts: int
    review_seed: int

    def plan(self) -> list[Decision]:
        """The seat's decisions to weigh (:func:`~atout.bots.review.review_plan`) in the rebuilt table."""
        return review_plan(self.table(), [self.seat])

    def table(self) -> State:
        state = worker_game(self.spec).new_state(self.seed)
        for action in self.actions:
            state.apply(action)
        return state


def review_in_worker(job: ReviewJob, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """The review of the job's seat in one piece (``progress`` as :func:`~atout.bots.review.review_game` calls it)."""
    return review_game(
        job.table(), seats=[job.seat], playouts=job.playouts, seed=job.review_seed, progress=progress
    ).to_dict()


def count_decisions(job: ReviewJob) -> int:
    """How many decisions the review weighs (a replay, no search): the progress's total."""
    return len(job.plan())


def review_part_in_worker(job: ReviewJob, start: int, stop: int) -> list[DecisionReview]:
    """In a worker: the review's decisions ``start`` to ``stop``, each searched from its own seed,
    so that the parts together are :func:`review_in_worker`'s review."""
    return [
        review_decision(view, action, at, job.playouts, job.review_seed)
        for view, action, at in job.plan()[start:stop]
    ]


def assemble_review(job: ReviewJob, decisions: list[DecisionReview]) -> dict[str, Any]:
    """The parts' decisions as :func:`review_in_worker` would have answered them."""
    game = worker_game(job.spec)
    review = GameReview(
        game.name, game.players, job.playouts, job.review_seed, [job.seat], game.review_thresholds
    )
    review.decisions.extend(decisions)
    return review.to_dict()


Key = tuple[str, int, int]


class Reviewer:
    """The review queue of one server process (see the module's docstring for its bounds)."""

    def __init__(
        self,
        storage: Storage,
        playouts: int = REVIEW_PLAYOUTS,
        workers: int = REVIEW_WORKERS,
        max_jobs: int = MAX_JOBS,
        starts: ClientBuckets | None = None,
    ) -> None:
        self.storage = storage
        self.playouts = playouts
        self.max_jobs = max_jobs
        #: No pool with ``workers=0`` (the server's ``bot_workers=0``, tests): reviews run in a thread.
        self.pool = BotPool(workers) if workers > 0 else None
        self.starts = starts or ClientBuckets(STARTS_PER_MINUTE / 60, STARTS_BURST)
        #: Reviews queued or running, in the order they were asked for.
        self.jobs: dict[Key, asyncio.Task[None]] = {}
        #: Reviews that failed, reported once to the next reader who asks.
        self.failed: dict[Key, str] = {}
        #: The running reviews' progress: (decisions done, decisions in all).
        self.progress: dict[Key, tuple[int, int]] = {}
        #: Held by the review searching in the pool (one at a time, in the order asked).
        self._turn: asyncio.Lock | None = None
        ensure_tables(storage)

    async def request(self, table: LiveTable, seat: int, client: str) -> dict[str, Any]:
        """The review of ``seat`` at ``table``: ``{"status": "done", "review"}``, or how far it is.

        ``{"status": "queued", "ahead": k}`` while it waits behind ``k`` others or runs (``k`` = 0).
        """
        if not table.state.is_terminal:
            raise TableError("forbidden", reason("server.review_after_end"))
        if not 0 <= seat < table.game.players:
            raise TableError("bad_request", reason("server.as_seat"))
        key = (table.id, seat, self.playouts)
        message = self.failed.pop(key, None)
        if message is not None:
            raise TableError("unavailable", message)
        if key not in self.jobs:
            cached = await to_thread.run_sync(load_review, self.storage, table.id, seat, self.playouts)
            if cached is not None:
                return {"status": "done", "review": cached}
            if len(self.jobs) >= self.max_jobs:
                raise TableError("busy", reason("server.reviewer_busy"))
            if not self.starts.allow(client):
                raise TableError("rate_limited", reason("server.too_many_reviews"))
            work = ReviewJob(
                game_spec(table.game), table.seed, list(table.actions), seat, self.playouts, REVIEW_SEED
            )
            self.jobs[key] = asyncio.get_running_loop().create_task(self._run(key, work))
        status: dict[str, Any] = {"status": "queued", "ahead": list(self.jobs).index(key)}
        done = self.progress.get(key)
        if done is not None:  # running: how far (the page's progress bar)
            status["done"], status["total"] = done
        return status

    async def _run(self, key: Key, work: ReviewJob) -> None:
        table_id, seat, playouts = key
        try:
            if self.pool is None:

                def progress(done: int, total: int) -> None:
                    self.progress[key] = (done, total)

                data = await to_thread.run_sync(lambda: review_in_worker(work, progress))
            else:
                data = await self._run_in_parts(key, work)
            await to_thread.run_sync(save_review, self.storage, table_id, seat, playouts, data)
        except Exception:
            log.exception("the review of table %s seat %d failed", table_id, seat)
            self.failed[key] = "the review failed: try again later"
            while len(self.failed) > FAILED_KEPT:  # reported once each; never an unbounded list
                del self.failed[next(iter(self.failed))]
        finally:
            del self.jobs[key]
            self.progress.pop(key, None)

    async def _run_in_parts(self, key: Key, work: ReviewJob) -> dict[str, Any]:
        """The review searched :data:`REVIEW_PART` decisions at a time in the pool, its progress kept.

        One review at a time holds the pool (the queue stays first come, first
        served: ``ahead`` counts the reviews before it), and between two parts
        :attr:`progress` says how many decisions are done.
        """
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            assert self.pool is not None
            total = await to_thread.run_sync(count_decisions, work)
            self.progress[key] = (0, total)
            decisions: list[DecisionReview] = []
            for start in range(0, total, REVIEW_PART):
                stop = min(start + REVIEW_PART, total)
                decisions += await self.pool.run(review_part_in_worker, work, start, stop)
                self.progress[key] = (len(decisions), total)
        return assemble_review(work, decisions)

    async def wait(self) -> None:
        """Until every queued review is done (tests)."""
        while self.jobs:
            await asyncio.gather(*self.jobs.values(), return_exceptions=True)

    def close(self) -> None:
        for task in self.jobs.values():
            task.cancel()
        if self.pool is not None:
            self.pool.close()
