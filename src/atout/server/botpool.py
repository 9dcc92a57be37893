"""Bots that search think in worker processes, never in the serving process.

A search bot (``hard``, ``expert``, ``search``, ``search:N...``) runs hundreds of
playouts per decision: in a thread of the server it holds the interpreter lock
for up to its time cap and every socket of every table waits (issue 17: ping
p99 0.6 → 720 ms with 24 expert tables).  :class:`BotPool` sends such a
decision to a bounded :class:`~concurrent.futures.ProcessPoolExecutor` (spawn
context: a worker never inherits the server's sockets, locks or database
connections) and awaits the answer without blocking the event loop.

What a worker receives is the seat's *view* and nothing else: the view's
fields without its ``game`` (a game does not pickle), plus the game's name,
seat count and options, from which the worker rebuilds the game (cached).  The
bot is made fresh for each decision with ``derive_seed(table seed, "bot",
seat, n)``, ``n`` the number of actions played: built-in bots keep no memory
between decisions beyond their random generator, so this is the same bot, and
a decision is reproducible from the table alone (within the level's time cap,
which the server's in-thread bots share).

Cheap bots (``random``, ``easy``, ``normal`` and a game's own heuristic) take
well under a millisecond and stay in the server's threads
(:func:`needs_worker`).

A worker that dies (killed, out of memory) breaks the executor: the pool
replaces it and tries the decision once more; the caller (the bot driver)
falls back to a cheap bot if that fails too, so a table never stalls.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import fields, is_dataclass
from functools import lru_cache
from typing import Any

from ..bots.factory import make_bot
from ..core.game import Game, View
from ..core.registry import load

log = logging.getLogger("atout.server")

#: Bot names that search (everything else is cheap enough for a thread).
SEARCH_LEVELS = ("hard", "expert", "master", "search")


def needs_worker(bot: str) -> bool:
    """Whether bot ``bot`` searches, hence thinks in a worker process."""
    return bot in SEARCH_LEVELS or bot.startswith("search:")


def default_workers() -> int:
    """One worker per core but one (the server's), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def pack_view(view: View) -> tuple[type[View], dict[str, Any]]:
    """The view's class and fields without its game: what crosses to a worker."""
    if is_dataclass(view):
        values = {f.name: getattr(view, f.name) for f in fields(view) if f.name != "game"}
    else:  # pragma: no cover - every built-in view is a dataclass
        values = {k: v for k, v in vars(view).items() if k != "game"}
    return type(view), values


def unpack_view(cls: type[View], values: dict[str, Any], game: Game) -> View:
    """The view again, on the worker's own copy of the game (views are frozen dataclasses)."""
    view = cls.__new__(cls)
    object.__setattr__(view, "game", game)
    for name, value in values.items():
        object.__setattr__(view, name, value)
    return view


#: What a worker rebuilds a game from: its name, seat count and options (a game does not pickle).
GameSpec = tuple[str, int, tuple[tuple[str, str], ...]]


def game_spec(game: Game) -> GameSpec:
    """The picklable description of ``game`` a worker rebuilds it from (:func:`worker_game`)."""
    options = tuple(sorted((k, v) for k, v in (p.split("=", 1) for p in game.options_text().split())))
    return (game.name, game.players, options)


def worker_game(spec: GameSpec) -> Game:
    """The game ``spec`` describes, built once per worker process."""
    return _game(*spec)


@lru_cache(maxsize=64)
def _game(name: str, players: int, options: tuple[tuple[str, str], ...]) -> Game:
    return load(name, players, **dict(options))


def think(
    game: GameSpec,
    bot: str,
    seat: int,
    seed: int,
    view: tuple[type[View], dict[str, Any]],
) -> int:
    """In a worker: bot ``bot`` for seat ``seat`` chooses from ``view``."""
    g = worker_game(game)
    player = make_bot(bot, g, seed)
    player.start(g, seat)
    try:
        return player.choose(unpack_view(view[0], view[1], g))
    finally:
        player.close()


#: Scheduling priority of the workers (``nice``) where the idle class is not offered:
#: searching is background work, the serving process must get a core as soon as a
#: socket needs it.
WORKER_NICE = 10


def lower_priority() -> str:
    """Make this process (a bot worker) yield to the server: ``SCHED_IDLE``, else ``nice``.

    Linux's idle scheduling class (no privilege needed) gives a task the smallest
    share of a busy core (weight 3 against nice 0's 1024; nice 10 is 110), and a
    waking task of the normal class preempts it at once: a human's move never waits
    behind a search for a time slice, which ``nice`` alone (a smaller share, the same
    class) does not promise.  On an idle core the search runs at full speed.  The
    levels' searches are cut by their wall-clock caps (``hard``, ``expert``:
    :data:`atout.bots.factory.EXPERT_CAP`), so a worker squeezed by other work plays a
    shallower move on time, not a late one.  Returns which was applied.
    """
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))
            return "idle"
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICE)
        return "nice"
    return "none"  # pragma: no cover - neither is allowed here


def _init_worker(parent: int) -> None:
    """A worker: the lowest priority, and dies with the server (even a ``kill -9`` of it, on Linux)."""
    lower_priority()
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the server died before prctl took effect
        os._exit(0)


def _warm() -> int:
    """Import what a decision needs, so the first one is not slowed by imports."""
    from ..bots import search  # noqa: F401

    return os.getpid()


class BotPool:
    """At most ``workers`` worker processes thinking for search bots, started when first needed."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        #: Executors replaced after a worker died (for the logs and tests).
        self.restarts = 0

    def _get(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
                )
            return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:
                self._executor = None
                self.restarts += 1
        _shutdown(broken)

    async def choose(self, game: Game, bot: str, seat: int, seed: int, view: View) -> int:
        """The bot's action for ``view``, thought in a worker; retried once on a fresh pool."""
        result: int = await self.run(think, game_spec(game), bot, seat, seed, pack_view(view))
        return result

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker (picklable arguments), awaited; retried once on a fresh pool.

        The game review (:mod:`.review`) runs its searches through here too, on its own pool.
        """
        for attempt in (1, 2):
            executor = self._get()
            try:
                future = executor.submit(fn, *args)
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                log.error("a bot worker process died (attempt %d): starting a new pool", attempt)
                self._replace(executor)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def pids(self) -> list[int]:
        """Worker process ids (started on demand; for tests and the bench)."""
        executor = self._get()
        return sorted({executor.submit(_warm).result() for _ in range(self.workers)})

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            _shutdown(executor)


def _shutdown(executor: ProcessPoolExecutor) -> None:
    """Stop the executor without waiting for a decision in progress (an expert's takes seconds)."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:  # no public way before Python 3.14 (terminate_workers)
        with contextlib.suppress(Exception):
            process.terminate()
