"""Several server processes on one PostgreSQL: "table N changed" notices and bot leases.

Any process may serve any table.  Two mechanisms of PostgreSQL itself keep them
in step, no message bus of our own:

* **LISTEN/NOTIFY** on channel :data:`CHANNEL`.  Whoever writes a table
  (:class:`~atout.server.storage.Storage`: an action, a seat, a name) sends
  ``pg_notify(CHANNEL, "<table id> <origin>")`` *in the same transaction*, so the
  notice goes out exactly when the change is committed, and never for a change
  that was rolled back.  The living room (:mod:`.living`) adds what changed:
  ``"<table id> <origin> room"`` (away seats, rematch votes, the next table),
  ``chat`` (a new line), ``presence`` (a seat's sockets on some process came or
  went), ``event <name> <seat>`` (an announcement with no stored change), ``names`` (the chat's
  speakers renamed: a deleted account's).  :class:`Listener` holds one dedicated connection in a
  thread, waits for notices and hands each table id to the server's loop, which
  reloads the table's new rows and tells its own sockets.  The payload says
  nothing but "this table changed" (other kinds of change, e.g. a lobby's, can
  use the same channel).  Notices sent while a listener is disconnected are lost:
  after a reconnection the server refreshes every table it holds.
* **Advisory locks** (``pg_try_advisory_lock``) as bot leases.  A process drives
  a table's bots only while it holds that table's lock, on one dedicated
  connection (:class:`Leases`); the lock lives as long as that connection, so
  when the process dies (even ``kill -9``) PostgreSQL releases it, and another
  process, which tries every :attr:`Leases.interval` seconds for the tables it
  holds, takes the table over.  Two processes racing anyway (a lock lost with
  its connection during an outage) cannot fork a table: ``(table, idx)`` is the
  primary key, the loser gets a conflict and reloads.

SQLite is one process: it needs neither (:class:`LocalLeases` always grants).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import zlib
from collections.abc import Callable
from typing import Any

log = logging.getLogger("atout.server")

CHANNEL = "atout_tables"
#: First key of every advisory lock we take (the ASCII of "ATOU"): other users of the
#: database taking advisory locks with other first keys never collide with ours.
LOCK_SPACE = 0x41544F55


def libpq_url(url: str) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://``) as libpq reads it."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix) :]
    return url


def lock_key(table_id: str) -> int:
    """The advisory lock's second key for a table: a stable signed 32-bit hash of its id."""
    value = zlib.crc32(table_id.encode())
    return value - (1 << 32) if value >= 1 << 31 else value


class LocalLeases:
    """One process owns every table (SQLite)."""

    interval = 0.0

    def holds(self, table_id: str) -> bool:
        return True

    def acquire(self, table_ids: list[str]) -> set[str]:
        return set(table_ids)

    def release(self, table_id: str) -> None:
        return None

    def close(self) -> None:
        return None


class Leases:
    """Bot leases as PostgreSQL session advisory locks on one dedicated connection.

    Thread-safe; the calls that talk to the database (:meth:`acquire`,
    :meth:`release`) are meant for a worker thread.  A lost connection loses every
    lease (PostgreSQL drops the locks with it): :meth:`holds` is then false for all
    until :meth:`acquire` gets them again on a new connection.
    """

    #: Seconds between two attempts at the leases of tables whose bots nobody drives.
    interval = 1.0

    def __init__(self, url: str) -> None:
        self.url = libpq_url(url)
        self._conn: Any = None
        self._held: set[str] = set()
        #: What :meth:`holds` reads, replaced whole (never blocks the event loop on
        #: ``_lock``, which a worker thread holds while it talks to the database).
        self._published: frozenset[str] = frozenset()
        self._lock = threading.Lock()

    def holds(self, table_id: str) -> bool:
        return table_id in self._published

    def _publish(self) -> None:
        self._published = frozenset(self._held)

    def _connection(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed or self._conn.broken:
            self._held.clear()
            self._publish()
            self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
        return self._conn

    def acquire(self, table_ids: list[str]) -> set[str]:
        """Try each table's lease; returns the tables whose lease this process now holds."""
        with self._lock:
            try:
                conn = self._connection()
                # Every lease not held yet tried in one statement: one round trip a second
                # (a statement per table was a hundred on a busy server, each one waiting
                # for the database's process). A dead session keeps no lock: the statement
                # also checks it is alive before _held is trusted (with nothing to try, a
                # statement that takes nothing does).
                todo = [t for t in dict.fromkeys(table_ids) if t not in self._held]
                if todo:
                    rows = conn.execute(
                        "SELECT t, pg_try_advisory_lock(%s, k) FROM unnest(%s::text[], %s::int4[]) AS u(t, k)",
                        (LOCK_SPACE, todo, [lock_key(t) for t in todo]),
                    ).fetchall()
                else:
                    rows = conn.execute("SELECT NULL, false").fetchall()
                self._held.update(t for t, won in rows if won)
            except Exception as exc:
                log.warning("bot leases: database unavailable (%s); retrying", type(exc).__name__)
                self._drop()
            self._publish()
            return set(self._held)

    def release(self, table_id: str) -> None:
        with self._lock:
            if table_id not in self._held:
                return
            self._held.discard(table_id)
            self._publish()
            try:
                self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_SPACE, lock_key(table_id)))
            except Exception:
                self._drop()

    def _drop(self) -> None:
        self._held.clear()
        self._publish()
        if self._conn is not None:
            with contextlib.suppress(Exception):  # closing a broken connection
                self._conn.close()
        self._conn = None

    def close(self) -> None:
        with self._lock:
            self._drop()


def notice_payload(table_id: str, origin: str, what: str = "") -> str:
    """A notice's text: ``"<table id> <origin>"`` then, for a room's change, what changed."""
    return f"{table_id} {origin} {what}" if what else f"{table_id} {origin}"


def parse_notice(payload: str) -> tuple[str, str, str]:
    """``(table id, origin, what)`` of a notice (``what`` empty: the table's moves or seats)."""
    table_id, _, rest = payload.partition(" ")
    origin, _, what = rest.partition(" ")
    return table_id, origin, what


class Listener:
    """A thread LISTENing on :data:`CHANNEL`; calls ``on_change(table_id, origin, what)`` in ``loop``.

    Calls ``on_reconnect()`` in ``loop`` each time it starts listening, the first time
    too, and reconnects after any error (with back-off up to 2 s): notices sent while
    nobody listened were lost, so every table held is brought up to the database.
    """

    def __init__(
        self,
        url: str,
        loop: asyncio.AbstractEventLoop,
        on_change: Callable[[str, str, str], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self.url = libpq_url(url)
        self.loop = loop
        self.on_change = on_change
        self.on_reconnect = on_reconnect
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="atout-listen", daemon=True)
        #: Set once the first LISTEN is in place (tests wait for it).
        self.listening = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        delay = 0.1
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        log.warning("notices: listening again; refreshing every table")
                    # Even the first time: a table loaded before this LISTEN (the server's
                    # start waited for it in vain) may have missed a notice.
                    self.loop.call_soon_threadsafe(self.on_reconnect)
                    first, delay = False, 0.1
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=0.5):
                            table_id, origin, what = parse_notice(notice.payload)
                            self.loop.call_soon_threadsafe(self.on_change, table_id, origin, what)
            except Exception as exc:
                if self._stop.is_set():
                    break
                first = False
                log.warning(
                    "notices: connection lost (%s); reconnecting in %.1f s", type(exc).__name__, delay
                )
                self._stop.wait(delay)
                delay = min(delay * 2, 2.0)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
