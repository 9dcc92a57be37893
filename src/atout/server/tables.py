"""Live tables: the rules engine between the database and the sockets.

One :class:`LiveTable` per table in memory holds the state rebuilt from the
database, the bots and the connected sockets of each seat.  Every change goes
through :meth:`LiveTable.act` under the table's lock, in this order:

1. the rules engine judges, once: ``state.parse``, then ``apply`` on a copy of
   the state; a refusal (:class:`~atout.core.errors.IllegalAction`) carries the
   rule's reason as data and changes nothing;
2. the action is committed to the database (one transaction);
3. only then does the copy become the table's state, and each seat is told its
   new view (``state.view(seat).to_dict()``, nothing else).

Bots play server-side through the same path, after a delay so a human can
follow: each table has a *bot pace* chosen at creation (``slow``, ``normal``,
``fast``; stored with the table), and the server's ``bot_delay`` (``atout serve
--bot-delay``, default 0.8 s) is the ``normal`` pace, the others scaled from it
(:data:`BOT_PACES`: slow 1.875x, fast 0.375x, i.e. 1.5 / 0.8 / 0.3 s by
default).  So the server flag still sets how fast every table goes (tests run
with ``--bot-delay 0.05`` or 0: every pace is then that fast or faster).

A server killed at any point restarts from the database:
:meth:`TableManager.start` rebuilds every unfinished table by replaying its
stored actions on ``game.new_state(seed)``.

The manager is split by concept, one part a module: this one holds its life cycle,
finding and creating tables, the sockets, the moves (a human's judged and committed,
the bots' driven) and the records; :mod:`.seats` the seats and keys, :mod:`.tablesync`
keeping up with the database, :mod:`.botthink` what a bot plays, and :mod:`.live` the
table itself and the names they all share (importable from here as before).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from anyio import to_thread
from sqlalchemy.exc import SQLAlchemyError

from ..core.errors import IllegalAction, NotationError
from ..core.game import TERMINAL, State
from ..core.reason import reason
from ..records import Record
from .botpool import BotPool
from .botthink import BotThinking
from .limits import Limits
from .live import (
    BOT_PACES,
    DEFAULT_PACE,
    LEFT,
    LEFT_WHY,
    MAX_NAME,
    STALE,
    UNAVAILABLE,
    UNAVAILABLE_WHY,
    LiveTable,
    PlannedTable,
    SeatSpec,
    Sender,
    TableError,
    check_allowed_bots,
    clean_name,
    game_catalogue,
    hash_key,
    log,
    public_bot_name,
    rebuild,
)
from .pubsub import Leases, Listener, LocalLeases
from .seats import TableSeats
from .storage import ConflictError, SeatTaken, Storage, StoredTable
from .tablesync import TableSync

#: Back-off of the bot driver after a storage error: first wait, then doubled up to the last.
BACKOFF = (0.1, 5.0)
#: Seconds a starting server on PostgreSQL waits for its LISTEN before it serves anyway
#: (then the first LISTEN refreshes every table it loaded meanwhile).
LISTEN_WAIT = 10.0


class TableManager(TableSeats, TableSync, BotThinking):
    """Every live table of one server process."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.8,
        limits: Limits | None = None,
        allowed_bots: tuple[str, ...] = (),
        deal_seed: int | None = None,
    ) -> None:
        self.storage = storage
        #: Where new tables' seeds come from: the system's randomness, or with ``deal_seed``
        #: (``atout serve --deal-seed``) a generator seeded with it, so that the n-th table
        #: this process creates always has the same deal (reproducible tests and demonstrations;
        #: whoever knows the seed knows every hand, so never on a server strangers use).
        self._seeds = random.Random(deal_seed) if deal_seed is not None else None
        #: Seconds before each bot move at the ``normal`` pace (the server's setting).
        self.bot_delay = bot_delay
        #: Bots beyond the built-in ones that tables may seat: the operator's
        #: ``atout serve --allow-bot`` (``py:...``, ``cmd:...``), never a web user's.
        self.allowed_bots = tuple(dict.fromkeys(allowed_bots))
        #: The operator's bots by the name visitors see (:func:`public_bot_name`): the
        #: creation form offers and sends these, never the specs.
        self.bot_aliases = {public_bot_name(b) or b: b for b in self.allowed_bots}
        #: Operator bots whose last move overran ``limits.bot_move_time``, by (table, seat):
        #: set once their abandoned thread returns; until then the fallback bot plays at once.
        self._overdue: dict[tuple[str, int], threading.Event] = {}
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._closing = False
        self.limits = limits or Limits()
        #: Worker processes for search bots (:mod:`.botpool`); ``None``: they think in threads.
        self.pool = BotPool(self.limits.bot_workers) if self.limits.bot_workers > 0 else None
        #: Bounds the bots thinking at once in this process's threads.
        self._thinking = asyncio.Semaphore(max(1, self.limits.max_thinking))
        #: Which tables' bots this process drives (PostgreSQL: advisory locks, :mod:`.pubsub`).
        self.leases: Leases | LocalLeases = Leases(storage.url) if storage.shared else LocalLeases()
        self._listener: Listener | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._refreshing: set[str] = set()
        #: Tables changed by another process while nobody here watched them (:meth:`get` reloads).
        self._unwatched: set[str] = set()
        #: The table :meth:`get` is reading from the database, if any: a notice for it then
        #: marks it :attr:`_unwatched` (its copy may have been read before that move).
        self._loading_id: str | None = None
        #: SQLite: the last outside change read (an operator's command: :meth:`_look_outside`);
        #: ``None`` before :meth:`start` and on PostgreSQL (its notices tell).
        self._outside_seen: int | None = None
        #: SQLite: seconds between two looks at the outside changes while nothing reads a table.
        self.outside_every = 2.0
        #: Called with each table rebuilt from the database, before anyone sees it
        #: (the room's state: :mod:`.living`).
        self.load_hooks: list[Callable[[LiveTable, StoredTable], Awaitable[None]]] = []
        #: Called in the loop with (table id, what) for each notice of a room's change made by
        #: another process (:mod:`.living`); what is empty after lost notices: look at everything.
        self.notice_hooks: list[Callable[[str, str], None]] = []
        #: Called under the table's lock before moves another process stored are applied and
        #: told here (:mod:`.living`: the stored away seats, so ``away`` comes before the bot's move).
        #: Given the table and those moves (actions, in order).
        self.moves_hooks: list[Callable[[LiveTable, list[int]], Awaitable[None]]] = []

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished table and let its bots resume."""
        if self.storage.shared:
            # Listening before serving: a notice sent before the LISTEN is lost, and a client
            # that joined a table here meanwhile would wait for a move it is never told of.
            self._listener = Listener(
                self.storage.url, asyncio.get_running_loop(), self._on_change, self._on_reconnect
            )
            self._listener.start()
            if not await to_thread.run_sync(self._listener.listening.wait, LISTEN_WAIT):
                log.warning("notices: not listening after %.0f s; serving, still trying", LISTEN_WAIT)
        for table_id in await to_thread.run_sync(self.storage.unfinished_ids):
            try:
                table = await self.get(table_id)
            except Exception:  # a table that no longer replays must not stop the others
                log.exception("table %s cannot be rebuilt", table_id)
                continue
            self._kick(table)
        if self.storage.shared:
            self._spawn(self._lease_loop())
        else:
            self._outside_seen = await self._db(self.storage.last_outside)
            self._spawn(self._outside_loop())

    def _spawn(self, coro: Awaitable[None]) -> None:
        async def run() -> None:
            await coro

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        self._closing = True
        if self._listener is not None:
            await to_thread.run_sync(self._listener.stop)
        for task in list(self._background):
            task.cancel()
        tasks = [t.driver for t in self.tables.values() if t.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for bot in table.bots.values():
                bot.close()
        if self.pool is not None:
            self.pool.close()
        self.leases.close()

    async def _db(self, call: Callable[[], Any]) -> Any:
        """Run a storage call in a thread; a database that cannot be reached is a refusal."""
        try:
            return await to_thread.run_sync(call)
        except (SQLAlchemyError, OSError) as exc:
            log.warning("database error (%s): %s", type(exc).__name__, str(exc).splitlines()[0][:200])
            raise TableError("unavailable", UNAVAILABLE_WHY) from None

    # -- creating and finding tables -----------------------------------------------------
    def bot_wait(self, table: LiveTable) -> float:
        """Seconds the bot to act at ``table`` waits before moving: the table's pace, or none
        for a forced move (its only legal action, such as Le Malin's pass by a seat holding
        no playable Malheur card): a pause there is no decision to follow, only a delay
        (each such move is still committed and sent on its own, so it stays visible)."""
        delay = self.pace_delay(table.bot_pace)
        return 0.0 if len(table.state.legal_actions()) == 1 else delay

    def pace_delay(self, pace: str) -> float:
        """Seconds a bot waits before each move at a table of pace ``pace``."""
        return self.bot_delay * BOT_PACES.get(pace, 1.0)

    async def create(self, planned: PlannedTable) -> tuple[str, dict[int, str]]:
        """Store a table :meth:`plan` drew, open it; returns its id and the secret key of each human seat.

        Planned first, stored here: a rematch (server/living.py) stores its plan in a room's
        transaction instead, then :meth:`opened` it as this does.
        """
        await self._db(lambda: self.storage.create_table(planned.row()))
        await self.opened(planned.table_id)
        return planned.table_id, planned.keys

    async def opened(self, table_id: str) -> LiveTable:
        """A table just stored (here or, for a rematch, in a room's transaction): load it, drive its bots."""
        table = await self.get(table_id)
        await self.lease(table)
        return table

    @staticmethod
    def wants_lease(table: LiveTable) -> bool:
        """Whether someone must drive the table: the lease drives its bots and its turn clock."""
        return bool(table.bots or table.room.clock.turn_time > 0) and not table.state.is_terminal

    async def lease(self, table: LiveTable) -> None:
        """Take the table's lease now if it needs a driver (the creator drives), and drive."""
        if self.wants_lease(table):
            await to_thread.run_sync(self.leases.acquire, [table.id])
        self._kick(table)

    async def get(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the database the first time it is asked for.

        On SQLite the outside changes are read first (:meth:`_look_outside`), so a table an
        operator's command changed (a deleted account's seat renamed) is reloaded before it
        is read here.
        """
        await self._look_outside()
        table = self.tables.get(table_id)
        if table is not None:
            if table_id in self._unwatched:  # changed elsewhere while nobody here looked
                self._unwatched.discard(table_id)
                try:
                    await self.refresh(table)
                except TableError:
                    self._unwatched.add(table_id)
                    raise
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 32:
                raise TableError("not_found", reason("server.no_such_table"))
            self._loading_id = table_id
            try:
                stored = await self._db(lambda: self.storage.load(table_id))
            finally:
                self._loading_id = None
            if stored is None:
                raise TableError("not_found", reason("server.no_such_table"))
            game, state, score_history = rebuild(stored)
            table = LiveTable(
                id=table_id,
                game=game,
                seed=stored.seed,
                state=state,
                seats=stored.seats,
                actions=list(stored.actions),
                score_history=score_history,
            )
            pace = stored.settings.get("bot_pace")
            if isinstance(pace, str) and pace in BOT_PACES:
                table.bot_pace = pace
            for info in stored.seats:
                if info.bot is not None:
                    table.bots[info.seat] = self._make_bot(table, info)
            for hook in self.load_hooks:
                await hook(table, stored)
            self._evict()
            self.tables[table_id] = table
            return table

    def _evict(self) -> None:
        """Forget finished tables nobody watches beyond ``limits.max_finished`` (they reload on demand)."""
        finished = [
            t.id
            for t in self.tables.values()
            if t.state.is_terminal and not any(t.sockets.values()) and (t.driver is None or t.driver.done())
        ]
        for table_id in finished[: max(0, len(finished) - self.limits.max_finished)]:
            table = self.tables.pop(table_id)
            for bot in table.bots.values():
                bot.close()

    # -- sockets -------------------------------------------------------------------------
    async def attach(self, table: LiveTable, seat: int, send: Sender, key_hash: str | None = None) -> None:
        async with table.lock:
            # A page (re)loaded is shown the stored table, whatever this copy missed.
            with contextlib.suppress(TableError):
                await self._refresh_locked(table)
            self.check_holder(table, seat, key_hash)
            table.sockets.setdefault(seat, set()).add(send)
            await send(table.message(seat))
            if table.id in self._unwatched:
                # A notice came during the read above, before this socket watched the table
                # (:meth:`_on_change` then only marks it): a move stored after the read.
                self._unwatched.discard(table.id)
                try:
                    await self._refresh_locked(table)
                except TableError:  # the database is away: the next get or notice retries
                    self._unwatched.add(table.id)

    async def _cut_off(self, table: LiveTable, seat: int) -> None:
        """The seat's sockets are told it was handed over (their socket closes) and dropped."""
        for send in list(table.sockets.pop(seat, set())):
            with contextlib.suppress(Exception):
                await send({"type": "left", "table": table.id, "seat": seat, "code": "left", "message": LEFT})

    def detach(self, table: LiveTable, seat: int, send: Sender) -> None:
        table.sockets.get(seat, set()).discard(send)

    async def _broadcast(self, table: LiveTable) -> None:
        for seat, senders in list(table.sockets.items()):
            if not senders:
                continue
            message = table.message(seat)
            for send in list(senders):
                try:
                    await send(message)
                except Exception:  # a socket that went away: forget it
                    senders.discard(send)

    # -- actions -------------------------------------------------------------------------
    async def act(
        self, table: LiveTable, seat: int, text: object, expect: object = None, key_hash: str | None = None
    ) -> None:
        """Play ``text`` for ``seat``; :class:`TableError` (nothing changed) when refused.

        ``key_hash``: the key the socket joined with; the seat must still have it.
        """
        try:
            async with table.lock:
                self.check_holder(table, seat, key_hash)
                try:
                    await self._act_locked(table, seat, text, expect, key_hash)
                except TableError as exc:
                    # Refused as out of date: maybe it is this copy that is (another server
                    # on the same database moved on): judge again on the stored table.
                    if exc.code not in STALE or not await self._refresh_locked(table):
                        raise
                    self.check_holder(table, seat, key_hash)
                    await self._act_locked(table, seat, text, expect, key_hash)
        finally:  # after a conflict too: the reloaded table may be the bots' turn
            self._kick(table)

    async def _act_locked(
        self, table: LiveTable, seat: int, text: object, expect: object, key_hash: str | None = None
    ) -> None:
        state = table.state
        if expect is not None and expect != table.n:
            raise TableError("stale", reason("server.stale"))
        if state.is_terminal:
            raise TableError("over", reason("server.over"))
        if state.current_player != seat:
            raise TableError(
                "not_your_turn", reason("server.not_your_turn", name=table.seats[state.current_player].name)
            )
        if not isinstance(text, str) or not text.strip():
            raise TableError("bad_request", reason("server.action_text"))
        try:
            action = state.parse(text)
        except NotationError as exc:
            raise TableError("notation", exc.why or str(exc)) from None
        # Judged once, by the engine applying it to a copy: its refusal (data) is what the
        # player is told, and the table's own state is never touched by a refused move.
        after = state.clone()
        try:
            after.apply(action)
        except IllegalAction as exc:
            raise TableError("illegal", exc.why or exc.reason, exc.why) from None
        await self._commit(table, seat, action, key_hash, after)

    async def _commit(
        self,
        table: LiveTable,
        seat: int,
        action: int,
        key_hash: str | None = None,
        after: State | None = None,
    ) -> None:
        """Store ``action`` (seat ``seat``'s), then make it the table's and tell everyone.

        ``after``: the table's state with the action applied, when the caller has it
        already (a human's move, judged by applying it); else it is applied here (a
        bot's move, one of its view's legal actions).
        """
        probe = after
        if probe is None:
            probe = table.state.clone()
            probe.apply(action)
        finished = probe.current_player == TERMINAL
        idx = table.n
        try:
            await self._db(
                lambda: self.storage.append_action(table.id, idx, seat, action, finished, key_hash)
            )
        except SeatTaken:
            await self._refresh_locked(table)  # another process handed the seat over: catch up
            raise TableError("left", LEFT_WHY) from None
        except ConflictError:
            # Another process stored a move here first: take the table as the database
            # has it (everyone here is told), then refuse this move, which was judged
            # on a position that is gone.
            await self._refresh_locked(table)
            raise TableError("conflict", reason("server.conflict")) from None
        self._advance(table, probe, action)
        log.debug(
            "table %s: move %d stored (seat %d), now %s to act", table.id, idx, seat, probe.current_player
        )
        await self._broadcast(table)

    @staticmethod
    def _advance(table: LiveTable, state: State, action: int) -> None:
        """``state`` (the table after ``action``) becomes the table's."""
        if state.round != table.state.round or state.is_terminal:
            table.score_history.append(state.scores())
        table.state = state
        table.actions.append(action)

    # -- the bots' turns (what a bot plays: .botthink) -----------------------------------------

    def _kick(self, table: LiveTable) -> None:
        """Start the bots' driver if a bot is to play, none is running and this process drives."""
        if self._closing or table.state.is_terminal or table.state.current_player not in table.bots:
            return
        if not self.leases.holds(table.id):
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        """Play the bots' turns, one after another, at a human pace.

        A bot thinks outside the table's lock, on its own view, in a worker process
        (search bots, :mod:`.botpool`) or a thread (cheap bots): the event loop keeps
        serving sockets meanwhile, and the move is committed only if the table has not
        moved in between.

        The driver never gives up on a table that has a bot to play: a bot that fails
        or answers an illegal action is logged and a safe bot plays that move
        (:meth:`_think`); a database that cannot be reached is logged and retried with
        back-off (:data:`BACKOFF`), the table reloaded from the database each time (a
        commit whose answer was lost may have been stored).  It stops when the game
        ends, a human is to play, or (several processes) this process lost the table's
        lease: the new holder drives.
        """
        failures = 0
        while not self._closing:
            seat = table.state.current_player
            bot = table.bots.get(seat)
            if bot is None or table.state.is_terminal or not self.leases.holds(table.id):
                return
            delay = self.bot_wait(table) if failures == 0 else 0.0
            if delay > 0:
                await asyncio.sleep(delay)
                # The table may have moved while we waited (another process's move, the
                # player back from away): never ask a bot for a seat that is not to act.
                if table.state.current_player != seat or table.bots.get(seat) is not bot:
                    continue
            n = table.n
            view = table.state.view(seat)
            if not view.legal_actions:  # pragma: no cover - the seat to act always has a move
                return
            action = await self._think(table, seat, bot, view)
            try:
                async with table.lock:
                    if failures:
                        await self._refresh_locked(table)
                    if table.n != n or table.bots.get(seat) is not bot or not self.leases.holds(table.id):
                        failures = 0
                        continue
                    await self._commit(table, seat, action)
                failures = 0
            except TableError as exc:
                if exc.code == "conflict":  # reloaded: think again on the new position
                    continue
                failures += 1
                wait = min(BACKOFF[0] * 2 ** (failures - 1), BACKOFF[1])
                log.warning(
                    "table %s: bot move not stored (%s, attempt %d); retrying in %.2f s",
                    table.id, exc.code, failures, wait,
                )  # fmt: skip
                await asyncio.sleep(wait)
                continue
            if delay <= 0:
                await asyncio.sleep(0)  # let the sockets breathe between bot moves

    # -- records ---------------------------------------------------------------------------

    def record(self, table: LiveTable, seat: int | None) -> Record:
        """Seat ``seat``'s export (its hidden-from-it moves masked), or the full record."""
        return Record.from_state(
            table.state,
            seats=table.seat_names(),
            tags={"Table": table.id},
            view=seat,
        )

    def state_at(self, table: LiveTable, step: int) -> State:
        """The table after its first ``step`` player actions (for replays)."""
        state = table.game.new_state(table.seed)
        for action in table.actions[:step]:
            state.apply(action)
        return state


__all__ = [
    "BACKOFF",
    "BOT_PACES",
    "DEFAULT_PACE",
    "LEFT",
    "LEFT_WHY",
    "MAX_NAME",
    "STALE",
    "UNAVAILABLE",
    "UNAVAILABLE_WHY",
    "IllegalAction",
    "LiveTable",
    "PlannedTable",
    "SeatSpec",
    "Sender",
    "TableError",
    "TableManager",
    "check_allowed_bots",
    "clean_name",
    "game_catalogue",
    "hash_key",
    "public_bot_name",
    "rebuild",
]
