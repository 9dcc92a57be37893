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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from sqlalchemy.exc import SQLAlchemyError

from ..bots.factory import LEVELS, available, make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError, IllegalAction, NotationError, OptionError
from ..core.game import TERMINAL, Game, State
from ..core.reason import GameName, Quoted, Reason, reason
from ..core.registry import game_class, load
from ..match import derive_seed
from ..records import Record
from .botpool import BotPool, needs_worker
from .limits import Limits
from .pubsub import Leases, Listener, LocalLeases
from .room import Room
from .storage import FORMER_PLAYER, ConflictError, SeatInfo, SeatTaken, Storage, StoredTable

log = logging.getLogger("atout.server")

#: What a socket is to a table: an async function sending one JSON message.
Sender = Callable[[dict[str, Any]], Awaitable[None]]

MAX_NAME = 40

#: Bot paces a table may be created with: each one's factor on the server's bot delay.
BOT_PACES: dict[str, float] = {"slow": 1.875, "normal": 1.0, "fast": 0.375}
DEFAULT_PACE = "normal"


class TableError(AtoutError):
    """A request about a table that cannot be served; ``code`` is for clients.

    ``message`` is what the reader is told: a reason (rendered in the reader's
    language, server/messages.py), or a text sent as it is.
    """

    def __init__(self, code: str, message: str | Reason, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: A rules engine's refusal as data (the socket sends it as data too), else None.
        self.reason = reason


def public_bot_name(bot: str | None) -> str | None:
    """What visitors are shown of a bot: an operator's ``py:``/``cmd:`` bot by its name alone.

    ``py:pkg.module:MyBot`` is ``MyBot``, ``cmd:/opt/bots/mine --deep`` is ``mine``: the
    specs name the server's modules and files, which are nobody else's business.
    """
    if bot is None or not bot.startswith(("py:", "cmd:")):
        return bot
    if bot.startswith("py:"):
        return bot.rsplit(":", 1)[-1].rsplit(".", 1)[-1] or "bot"
    words = bot[4:].split()
    return (words[0].replace("\\", "/").rsplit("/", 1)[-1] if words else "") or "bot"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def clean_name(name: str) -> str:
    """A name as shown and stored: printable characters only (no NUL, control or lone
    surrogate, which PostgreSQL refuses), runs of spaces as one, at most MAX_NAME long."""
    return " ".join("".join(c if c.isprintable() else " " for c in name).split())[:MAX_NAME]


#: Why a socket of a seat handed over to a bot is closed (sent as ``{"type": "left"}``).
LEFT_WHY = reason("server.left")
LEFT = str(LEFT_WHY)
#: Refusal when the database cannot be reached (nothing was changed).
UNAVAILABLE_WHY = reason("server.unavailable")
UNAVAILABLE = str(UNAVAILABLE_WHY)
#: Refusals that may come from this process's copy being behind the database.
STALE = ("stale", "not_your_turn", "over")
#: Back-off of the bot driver after a storage error: first wait, then doubled up to the last.
BACKOFF = (0.1, 5.0)


@dataclass(frozen=True)
class SeatSpec:
    """A seat as asked for at creation: a bot's name, or ``None`` for a human."""

    name: str
    bot: str | None = None
    #: A human seat left free for whoever joins from the lobby (no key until then).
    open: bool = False


@dataclass
class LiveTable:
    id: str
    game: Game
    seed: int
    state: State
    seats: list[SeatInfo]
    #: Player actions in order: exactly what the database holds.
    actions: list[int]
    #: Every seat's match score at the start and after each round (the chart's points):
    #: scores at a round's end are on the public score sheet of every game.
    score_history: list[list[int]] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    sockets: dict[int, set[Sender]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None
    #: The bots' pace (a key of :data:`BOT_PACES`), stored with the table.
    bot_pace: str = DEFAULT_PACE
    #: Presence, spectators, clock, away bots, chat, rematch (:mod:`.room`).
    room: Room = field(default_factory=Room)

    @property
    def n(self) -> int:
        return len(self.actions)

    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]

    def message(self, seat: int) -> dict[str, Any]:
        """What seat ``seat`` is sent: its view and public table facts, nothing else.

        Seat -1 is a spectator: the public view, oriented as seat 0, no legal action.
        """
        view = self.state.view(seat) if seat >= 0 else self.state.public_view()
        over = self.state.is_terminal
        msg: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.game.players,
            "options": self.game.options_text(),
            "seat": seat,
            "n": self.n,
            "seats": [
                {
                    "name": s.name,
                    "bot": public_bot_name(s.bot),
                    "free": s.bot is None and s.key_hash is None,
                    "former": s.bot is None and s.name == FORMER_PLAYER,
                }
                for s in self.seats
            ],
            "view": view.to_dict(),
            "legal": [view.text(a) for a in view.legal_actions] if seat >= 0 else [],
            "to_act": self.state.current_player if not over else None,
            "over": over,
            "score_history": self.score_history,
        }
        if over:
            msg["result"] = {"scores": self.state.scores(), "winners": self.state.winners()}
        if seat < 0:
            msg["spectator"] = True
        msg["room"] = self.room.facts(msg["seats"], self.sockets, msg["to_act"], self.n)
        return msg


@dataclass(frozen=True)
class PlannedTable:
    """A new table as :meth:`TableManager.plan` drew it: what its rows hold, and the seats' keys."""

    table_id: str
    game: Game
    options: dict[str, str]
    seed: int
    seats: list[SeatInfo]
    settings: dict[str, Any]
    keys: dict[int, str]

    def row_args(self) -> tuple[str, str, int, dict[str, str], int, list[SeatInfo], dict[str, Any]]:
        """The arguments of :meth:`Storage.create_table` and :func:`.storage.table_row`."""
        return (
            self.table_id, self.game.name, self.game.players, self.options, self.seed, self.seats, self.settings
        )  # fmt: skip


def rebuild(stored: StoredTable) -> tuple[Game, State, list[list[int]]]:
    """The table's game, state and score history: ``new_state(seed)`` then every stored action."""
    game = load(stored.game, stored.players, **stored.options)
    state = game.new_state(stored.seed)
    history = [state.scores()]
    for action in stored.actions:
        before = state.round
        state.apply(action)
        if state.round != before or state.is_terminal:
            history.append(state.scores())
    return game, state, history


class TableManager:
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
        for table_id in await to_thread.run_sync(self.storage.unfinished_ids):
            try:
                table = await self.get(table_id)
            except Exception:  # a table that no longer replays must not stop the others
                log.exception("table %s cannot be rebuilt", table_id)
                continue
            self._kick(table)
        if self.storage.shared:
            self._listener = Listener(
                self.storage.url, asyncio.get_running_loop(), self._on_change, self._on_reconnect
            )
            self._listener.start()
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

    async def create(
        self,
        game_name: str,
        players: int,
        options: dict[str, Any],
        seats: list[SeatSpec],
        bot_pace: str = DEFAULT_PACE,
        key_hashes: dict[int, str] | None = None,
        seed: int | None = None,
    ) -> tuple[str, dict[int, str]]:
        """Create a table; returns its id and the secret key of each human seat.

        ``seed``: the deal's seed, for a lesson's scripted deal (server/lessons.py); else drawn.
        """
        planned = self.plan(game_name, players, options, seats, bot_pace, key_hashes, seed)
        await self._db(lambda: self.storage.create_table(*planned.row_args()))
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

    def plan(
        self,
        game_name: str,
        players: int,
        options: dict[str, Any],
        seats: list[SeatSpec],
        bot_pace: str = DEFAULT_PACE,
        key_hashes: dict[int, str] | None = None,
        seed: int | None = None,
    ) -> PlannedTable:
        """A new table checked and drawn (id, seed, seats, keys), not stored yet."""
        if bot_pace not in BOT_PACES:
            raise TableError("bad_request", reason("server.bot_pace", known=", ".join(BOT_PACES)))
        live = sum(1 for t in self.tables.values() if not t.state.is_terminal)
        if live >= self.limits.max_live_tables:
            raise TableError("busy", reason("server.busy", n=live))
        try:
            # Only the game's own option names reach the game's constructor (not
            # ``players``, ``name``, ``self``: keyword arguments of something else).
            cls = game_class(game_name)
            by_name = {s.name for s in cls.option_specs}
            for key in options:
                if key.replace("-", "_") not in by_name:
                    known = ", ".join(sorted(by_name)) or "none"
                    raise OptionError(
                        reason("option.unknown", game=GameName(cls.name), option=Quoted(key), known=known)
                    )
            game = load(game_name, players, **options)
        except AtoutError as exc:
            raise TableError("bad_request", exc.why or str(exc)) from None
        if len(seats) != game.players:
            raise TableError("bad_request", reason("server.seat_count", n=game.players, m=len(seats)))
        bots = self.bots_for(game)
        infos: list[SeatInfo] = []
        keys: dict[int, str] = {}
        for i, spec in enumerate(seats):
            name = clean_name(spec.name) or f"Seat {i + 1}"
            if spec.bot is not None and spec.bot in self.bot_aliases:
                spec = SeatSpec(spec.name, self.bot_aliases[spec.bot], spec.open)
            if spec.bot is not None:
                # Never a program or an import path the operator did not allow:
                # a web user names bots from this list only.
                if spec.bot not in bots:
                    raise TableError(
                        "bad_request",
                        reason(
                            "server.no_bot_for",
                            bot=Quoted(spec.bot),
                            game=GameName(game.name),
                            known=", ".join(bots),
                        ),
                    )
                infos.append(SeatInfo(i, name, spec.bot, None))
            elif key_hashes is not None and i in key_hashes:  # a rematch: the seat keeps its key
                infos.append(SeatInfo(i, name, None, key_hashes[i]))
            elif spec.open:
                infos.append(SeatInfo(i, name, None, None))
            else:
                keys[i] = secrets.token_urlsafe(24)
                infos.append(SeatInfo(i, name, None, hash_key(keys[i])))
        options_text = {k: v for k, v in (p.split("=", 1) for p in game.options_text().split())}
        if seed is None:
            seed = self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)
        return PlannedTable(
            secrets.token_hex(8),
            game,
            options_text,
            seed,
            infos,
            {"bot_pace": bot_pace},
            keys,
        )

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
            stored = await self._db(lambda: self.storage.load(table_id))
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

    def bots_for(self, game: Game) -> list[str]:
        """The bot names a table of ``game`` may seat: the built-in ones and the operator's."""
        return [*available(game), *(b for b in self.allowed_bots if b not in available(game))]

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

    def _make_bot(self, table: LiveTable, info: SeatInfo) -> Bot:
        assert info.bot is not None
        if info.bot not in self.bots_for(table.game):
            # A table stored while the operator allowed this bot, served now without it.
            raise TableError(
                "bad_request",
                reason("server.bot_not_allowed", n=info.seat + 1, bot=Quoted(info.bot)),
            )
        bot = make_bot(info.bot, table.game, derive_seed(table.seed, "bot", info.seat, table.n))
        bot.start(table.game, info.seat)
        return bot

    def seat_for_key(self, table: LiveTable, key: object) -> int:
        """The seat whose key this is; anything else is refused the same way."""
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            raise TableError("bad_key", reason("server.bad_key"))
        digest = hash_key(key)
        for info in table.seats:
            if info.key_hash is not None and hmac.compare_digest(info.key_hash, digest):
                return info.seat
        raise TableError("bad_key", reason("server.bad_key"))

    # -- sockets -------------------------------------------------------------------------
    @staticmethod
    def check_holder(table: LiveTable, seat: int, key_hash: str | None) -> None:
        """Refuse a socket whose seat has been handed over since it joined (under the lock)."""
        if key_hash is not None and table.seats[seat].key_hash != key_hash:
            raise TableError("left", LEFT_WHY)

    async def attach(self, table: LiveTable, seat: int, send: Sender, key_hash: str | None = None) -> None:
        async with table.lock:
            # A page (re)loaded is shown the stored table, whatever this copy missed.
            with contextlib.suppress(TableError):
                await self._refresh_locked(table)
            self.check_holder(table, seat, key_hash)
            table.sockets.setdefault(seat, set()).add(send)
            await send(table.message(seat))

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

    # -- keeping up with the database (other processes, lost answers) ------------------------
    async def refresh(self, table: LiveTable) -> bool:
        """Bring ``table`` up to the database; True when anything changed (then everyone is told)."""
        try:
            async with table.lock:
                return await self._refresh_locked(table)
        finally:
            self._kick(table)

    async def _refresh_locked(self, table: LiveTable) -> bool:
        """Apply the stored actions after ours and the stored seats.

        Memory only ever holds committed actions, and a stored position is never
        rewritten (primary key), so what is in memory is a prefix of what is stored:
        the new actions are those from number ``table.n`` on.
        """
        found = await self._db(lambda: self.storage.changes(table.id, table.n))
        if found is None:
            return False
        seats, new = found
        changed = False
        if new:
            for hook in self.moves_hooks:
                await hook(table, list(new))
        for action in new:  # each move told on its own: every client sees every move once
            probe = table.state.clone()
            probe.apply(action)
            self._advance(table, probe, action)
            await self._broadcast(table)
        for info in seats:
            if not 0 <= info.seat < len(table.seats) or table.seats[info.seat] == info:
                continue
            old = table.seats[info.seat]
            table.seats[info.seat] = info
            changed = True
            if info.key_hash != old.key_hash:
                await self._cut_off(table, info.seat)
            if info.bot != old.bot:
                gone = table.bots.pop(info.seat, None)
                if gone is not None:
                    gone.close()
                if info.bot is not None:
                    table.bots[info.seat] = self._make_bot(table, info)
        if changed:
            await self._broadcast(table)
        return changed

    def _on_change(self, table_id: str, origin: str, what: str = "") -> None:
        """A notice from PostgreSQL (in the loop): another process changed ``table_id``.

        ``what`` names a change of the table's room (:mod:`.living` handles those);
        empty, the table's moves or seats changed.
        """
        if origin == self.storage.origin or self._closing:
            return
        if what:
            for hook in self.notice_hooks:
                hook(table_id, what)
            return
        table = self.tables.get(table_id)
        if table is None or table_id in self._refreshing:
            return
        if not any(table.sockets.values()) and not self.leases.holds(table_id):
            # Nobody here watches it and we do not drive its bots: reload it only when
            # asked for (get) or taken over (lease loop), not at every move made elsewhere.
            self._unwatched.add(table_id)
            return
        self._refreshing.add(table_id)

        async def run() -> None:
            self._refreshing.discard(table_id)  # a notice arriving from now on refreshes again
            with contextlib.suppress(TableError):  # the database is away: the lease loop retries
                await self.refresh(table)

        self._spawn(run())

    async def _look_outside(self) -> None:
        """SQLite: take the changes made outside this process since the last look
        (:meth:`.Storage.changed_outside`) as PostgreSQL's notices are taken (:meth:`_on_change`);
        a table of those is reloaded at its next :meth:`get` even if sockets watch it."""
        seen = self._outside_seen
        if seen is None:
            return
        last, changes = await self._db(lambda: self.storage.outside_since(seen))
        self._outside_seen = max(last, self._outside_seen or 0)
        for table_id, what in changes:
            if not what and table_id in self.tables:
                self._unwatched.add(table_id)
            self._on_change(table_id, "outside", what)

    async def _outside_loop(self) -> None:
        """SQLite: look at the outside changes every :attr:`outside_every` seconds, so that the
        sockets watching a table an operator's command changed are told without a new read."""
        while not self._closing:
            await asyncio.sleep(self.outside_every)
            with contextlib.suppress(TableError):  # the database is away: the next look retries
                await self._look_outside()

    def _on_reconnect(self) -> None:
        """Notices were lost while the listener was disconnected: refresh every table held."""
        for table_id, table in list(self.tables.items()):
            if not table.state.is_terminal:
                self._on_change(table_id, "")
                for hook in self.notice_hooks:
                    hook(table_id, "")

    async def _lease_loop(self) -> None:
        """Several processes: take the bot leases of tables nobody drives (one whose driver died).

        Every :attr:`Leases.interval` seconds: load the unfinished tables other
        processes created, try the lease of every table with bots, release those of
        finished tables, and drive (after a refresh) the tables just taken over.
        """
        tick = 0
        while not self._closing:
            try:
                if tick % 3 == 0:
                    for table_id in await self._db(self.storage.unfinished_ids):
                        if table_id not in self.tables:
                            try:
                                await self.get(table_id)
                            except TableError:
                                raise
                            except Exception:
                                log.exception("table %s cannot be rebuilt", table_id)
                for table in list(self.tables.values()):
                    if table.state.is_terminal and self.leases.holds(table.id):
                        await to_thread.run_sync(self.leases.release, table.id)
                want = [t.id for t in self.tables.values() if self.wants_lease(t)]
                before = {i for i in want if self.leases.holds(i)}
                held = await to_thread.run_sync(self.leases.acquire, want)
                for table_id in held:
                    table = self.tables[table_id]
                    if table_id not in before:
                        log.info("table %s: this process now drives its bots", table_id)
                        self._unwatched.discard(table_id)
                        await self.refresh(table)
                    else:
                        self._kick(table)
            except TableError:
                pass  # the database is away; try again next time
            except Exception:
                log.exception("bot leases")
            tick += 1
            await asyncio.sleep(self.leases.interval)

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

    async def _think(self, table: LiveTable, seat: int, bot: Bot, view: Any) -> int:
        """The bot's legal action; a safe bot's when it fails (logged), so the table goes on."""
        name = table.seats[seat].bot or bot.name
        try:
            if name in self.allowed_bots:
                action = await self._think_outside(table, seat, name, bot, view)
            elif self.pool is not None and needs_worker(name):
                seed = derive_seed(table.seed, "bot", seat, table.n)
                action = await self.pool.choose(table.game, name, seat, seed, view)
            else:
                async with self._thinking:
                    action = await to_thread.run_sync(bot.choose, view)
            if action in view.legal_actions:
                return int(action)
            log.error("bot %s at table %s answered an illegal action %r", name, table.id, action)
        except Exception:
            log.exception("bot %s at table %s seat %d failed", name, table.id, seat)
        for fallback in ("normal", "random"):
            try:
                safe = make_bot(fallback, table.game, derive_seed(table.seed, "fallback", seat, table.n))
                safe.start(table.game, seat)
                action = safe.choose(view)
                if action in view.legal_actions:
                    log.warning("table %s seat %d: the %s bot played for %s", table.id, seat, fallback, name)
                    return int(action)
            except Exception:
                log.exception("fallback bot %s at table %s failed", fallback, table.id)
        return int(view.legal_actions[0])  # pragma: no cover - the random bot cannot fail

    async def _think_outside(self, table: LiveTable, seat: int, name: str, bot: Bot, view: Any) -> int:
        """An operator's bot (``py:``/``cmd:``) chooses within ``limits.bot_move_time`` seconds.

        Such code is not ours: it may hang.  Past the limit its thread is abandoned (a
        thread cannot be killed), the table is told (event ``bot_slow``) and
        :class:`TimeoutError` makes :meth:`_think` have the fallback bot play this move, a
        legal one; while the abandoned call has not returned, the fallback plays that
        seat's later moves at once instead of waiting the limit again at every turn (and
        no second thread is left hanging).  Its answer, when it comes, is thrown away.
        """
        key = (table.id, seat)
        pending = self._overdue.get(key)
        if pending is not None and not pending.is_set():
            raise TimeoutError(f"bot {name} has not answered its previous move yet")
        self._overdue.pop(key, None)
        done = threading.Event()

        def choose() -> int:
            try:
                return int(bot.choose(view))
            finally:
                done.set()

        async with self._thinking:
            try:
                return await asyncio.wait_for(
                    to_thread.run_sync(choose, abandon_on_cancel=True), self.limits.bot_move_time
                )
            except TimeoutError:
                self._overdue[key] = done
                await self._tell_living(
                    table,
                    {"type": "event", "event": "bot_slow", "seat": seat, "name": table.seats[seat].name},
                )
                with contextlib.suppress(Exception):  # the other processes' sockets (a courtesy)
                    await to_thread.run_sync(self.storage.announce, table.id, f"event bot_slow {seat}")
                raise TimeoutError(
                    f"bot {name} did not answer within {self.limits.bot_move_time:g} s"
                ) from None

    async def _tell_living(self, table: LiveTable, message: dict[str, Any]) -> None:
        """``message`` to the table's sockets that asked for events (the pages)."""
        for senders in list(table.sockets.values()):
            for send in list(senders):
                if send in table.room.living:
                    with contextlib.suppress(Exception):
                        await send(message)

    # -- seats and records -----------------------------------------------------------------
    async def replace_with_bot(self, table: LiveTable, seat: int, bot_name: str) -> None:
        """A human who left is replaced by a bot; the seat's key stops working."""
        if bot_name not in self.bots_for(table.game):
            raise TableError(
                "bad_request",
                reason("server.no_bot", bot=Quoted(bot_name), known=", ".join(self.bots_for(table.game))),
            )
        async with table.lock:
            if table.state.is_terminal:
                raise TableError("over", reason("server.over"))
            info = table.seats[seat]
            await self._db(lambda: self.storage.set_seat(table.id, seat, bot_name, None))
            table.seats[seat] = SeatInfo(seat, info.name, bot_name, None)
            table.bots[seat] = self._make_bot(table, table.seats[seat])
            # The sockets joined with the old key must neither see the bot's hand nor play.
            await self._cut_off(table, seat)
            await self._broadcast(table)
        await to_thread.run_sync(self.leases.acquire, [table.id])
        self._kick(table)

    async def rename(self, table: LiveTable, seat: int, name: object, key_hash: str | None = None) -> None:
        """A player sitting down gives the seat their name (shown to everyone)."""
        if not isinstance(name, str) or not clean_name(name):
            raise TableError("bad_request", reason("server.name_empty"))
        clean = clean_name(name)
        async with table.lock:
            self.check_holder(table, seat, key_hash)
            await self._db(lambda: self.storage.set_name(table.id, seat, clean))
            info = table.seats[seat]
            table.seats[seat] = SeatInfo(seat, clean, info.bot, info.key_hash)
            await self._broadcast(table)

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


def check_allowed_bots(specs: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The operator's extra bots, each checked now (``py:`` imported and built), not at a table.

    Only ``py:`` and ``cmd:`` names: the built-in bots are always offered.
    """
    from ..core.registry import names

    out: list[str] = []
    for spec in specs:
        name = spec.strip()
        if not name.startswith(("py:", "cmd:")):
            raise AtoutError(f"--allow-bot {spec!r}: give a py:MODULE:NAME or cmd:<program> bot")
        if name.startswith("py:"):
            for game in names():
                cls = game_class(game)
                make_bot(name, cls(cls.min_players), 0).close()
        out.append(name)
    return tuple(out)


def game_catalogue() -> list[dict[str, Any]]:
    """Every registered game with what the creation form needs (options, bots)."""
    from ..core.registry import names

    out: list[dict[str, Any]] = []
    for name in names():
        cls = game_class(name)
        try:
            sample = cls(cls.min_players)
            bots = available(sample)
        except (OptionError, AtoutError):
            bots = ["random"]
        out.append(
            {
                "name": name,
                "title": cls.title,
                "summary": cls.summary,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "bots": bots,
                "default_bot": "normal" if "normal" in bots else bots[-1],
                "bot_help": {b: LEVELS[b] for b in bots if b in LEVELS},
                "options": [
                    {
                        "name": s.name,
                        "kind": s.kind.__name__,
                        "default": s.default,
                        "help": s.help,
                        "choices": list(s.choices) if s.choices is not None else None,
                        "minimum": s.minimum,
                        "maximum": s.maximum,
                        "none_ok": s.none_ok,
                    }
                    for s in cls.option_specs
                ],
            }
        )
    return out


__all__ = [
    "BOT_PACES",
    "IllegalAction",
    "LiveTable",
    "SeatSpec",
    "TableError",
    "TableManager",
    "check_allowed_bots",
    "game_catalogue",
]
