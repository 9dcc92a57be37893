"""Live tables: the rules engine between the database and the sockets.

One :class:`LiveTable` per table in memory holds the state rebuilt from the
database, the bots and the connected sockets of each seat.  Every change goes
through :meth:`LiveTable.act` under the table's lock, in this order:

1. the rules engine judges (``state.parse`` then ``state.illegal_reason``):
   a refusal carries the rule's reason and changes nothing;
2. the action is committed to the database (one transaction);
3. only then is it applied to the state in memory and each seat told its new
   view (``state.view(seat).to_dict()``, nothing else).

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
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

from ..bots.factory import LEVELS, available, make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError, IllegalAction, NotationError, OptionError
from ..core.game import TERMINAL, Game, State
from ..core.registry import game_class, load
from ..match import derive_seed
from ..records import Record
from .room import Room
from .storage import ConflictError, SeatInfo, Storage, StoredTable

log = logging.getLogger("atout.server")

#: What a socket is to a table: an async function sending one JSON message.
Sender = Callable[[dict[str, Any]], Awaitable[None]]

MAX_NAME = 40

#: Bot paces a table may be created with: each one's factor on the server's bot delay.
BOT_PACES: dict[str, float] = {"slow": 1.875, "normal": 1.0, "fast": 0.375}
DEFAULT_PACE = "normal"


class TableError(AtoutError):
    """A request about a table that cannot be served; ``code`` is for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


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
                {"name": s.name, "bot": s.bot, "free": s.bot is None and s.key_hash is None}
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

    def __init__(self, storage: Storage, bot_delay: float = 0.8) -> None:
        self.storage = storage
        #: Seconds before each bot move at the ``normal`` pace (the server's setting).
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        self._closing = False
        #: Called with each table rebuilt from the database, before anyone sees it
        #: (the room's state: :mod:`.living`).
        self.load_hooks: list[Callable[[LiveTable, StoredTable], Awaitable[None]]] = []

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

    async def stop(self) -> None:
        self._closing = True
        tasks = [t.driver for t in self.tables.values() if t.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table in self.tables.values():
            for bot in table.bots.values():
                bot.close()

    # -- creating and finding tables -----------------------------------------------------
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
    ) -> tuple[str, dict[int, str]]:
        """Create a table; returns its id and the secret key of each human seat."""
        if bot_pace not in BOT_PACES:
            raise TableError("bad_request", f"bot_pace must be one of: {', '.join(BOT_PACES)}")
        try:
            game = load(game_name, players, **options)
        except AtoutError as exc:
            raise TableError("bad_request", str(exc)) from None
        if len(seats) != game.players:
            raise TableError("bad_request", f"give {game.players} seats, not {len(seats)}")
        bots = available(game)
        infos: list[SeatInfo] = []
        keys: dict[int, str] = {}
        for i, spec in enumerate(seats):
            name = " ".join(spec.name.split())[:MAX_NAME] or f"Seat {i + 1}"
            if spec.bot is not None:
                if spec.bot not in bots:  # never cmd:...: a web user may not start programs
                    raise TableError(
                        "bad_request", f"no bot {spec.bot!r} for {game.name}; choose from: {', '.join(bots)}"
                    )
                infos.append(SeatInfo(i, name, spec.bot, None))
            elif key_hashes is not None and i in key_hashes:  # a rematch: the seat keeps its key
                infos.append(SeatInfo(i, name, None, key_hashes[i]))
            elif spec.open:
                infos.append(SeatInfo(i, name, None, None))
            else:
                keys[i] = secrets.token_urlsafe(24)
                infos.append(SeatInfo(i, name, None, hash_key(keys[i])))
        table_id = secrets.token_hex(8)
        seed = secrets.randbits(63)
        options_text = {k: v for k, v in (p.split("=", 1) for p in game.options_text().split())}
        await to_thread.run_sync(
            lambda: self.storage.create_table(
                table_id, game.name, game.players, options_text, seed, infos, {"bot_pace": bot_pace}
            )
        )
        table = await self.get(table_id)
        self._kick(table)
        return table_id, keys

    async def get(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the database the first time it is asked for."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            if not isinstance(table_id, str) or not table_id.isalnum() or len(table_id) > 32:
                raise TableError("not_found", "no such table")
            stored = await to_thread.run_sync(self.storage.load, table_id)
            if stored is None:
                raise TableError("not_found", "no such table")
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
            self.tables[table_id] = table
            return table

    def _make_bot(self, table: LiveTable, info: SeatInfo) -> Bot:
        assert info.bot is not None
        bot = make_bot(info.bot, table.game, derive_seed(table.seed, "bot", info.seat, table.n))
        bot.start(table.game, info.seat)
        return bot

    def seat_for_key(self, table: LiveTable, key: object) -> int:
        """The seat whose key this is; anything else is refused the same way."""
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            raise TableError("bad_key", "this link's key is not valid for this table")
        digest = hash_key(key)
        for info in table.seats:
            if info.key_hash is not None and hmac.compare_digest(info.key_hash, digest):
                return info.seat
        raise TableError("bad_key", "this link's key is not valid for this table")

    # -- sockets -------------------------------------------------------------------------
    async def attach(self, table: LiveTable, seat: int, send: Sender) -> None:
        async with table.lock:
            table.sockets.setdefault(seat, set()).add(send)
            await send(table.message(seat))

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
    async def act(self, table: LiveTable, seat: int, text: object, expect: object = None) -> None:
        """Play ``text`` for ``seat``; :class:`TableError` (nothing changed) when refused."""
        async with table.lock:
            await self._act_locked(table, seat, text, expect)
        self._kick(table)

    async def _act_locked(self, table: LiveTable, seat: int, text: object, expect: object) -> None:
        state = table.state
        if expect is not None and expect != table.n:
            raise TableError("stale", "the table has moved on since this move was sent; look again")
        if state.is_terminal:
            raise TableError("over", "the game is over")
        if state.current_player != seat:
            raise TableError(
                "not_your_turn", f"it is not your turn: {table.seats[state.current_player].name} is to play"
            )
        if not isinstance(text, str) or not text.strip():
            raise TableError("bad_request", "an action is a text such as those listed as legal")
        try:
            action = state.parse(text)
        except NotationError as exc:
            raise TableError("notation", str(exc)) from None
        reason = state.illegal_reason(action)
        if reason is not None:
            raise TableError("illegal", reason)
        await self._commit(table, seat, action)

    async def _commit(self, table: LiveTable, seat: int, action: int) -> None:
        probe = table.state.clone()
        probe.apply(action)
        finished = probe.current_player == TERMINAL
        idx = table.n
        try:
            await to_thread.run_sync(
                lambda: self.storage.append_action(table.id, idx, seat, action, finished)
            )
        except ConflictError:
            raise TableError("conflict", "another server wrote to this table; reload the page") from None
        if probe.round != table.state.round or finished:
            table.score_history.append(probe.scores())
        table.state = probe
        table.actions.append(action)
        await self._broadcast(table)

    def _kick(self, table: LiveTable) -> None:
        """Start the bots' driver if a bot is to play and none is running."""
        if self._closing or table.state.is_terminal or table.state.current_player not in table.bots:
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        """Play the bots' turns, one after another, at a human pace.

        A bot thinks in a worker thread, outside the table's lock, on its own
        view: the event loop keeps serving sockets meanwhile (search bots take
        up to a second), and the move is committed only if the table has not
        moved in between.
        """
        while not self._closing:
            seat = table.state.current_player
            bot = table.bots.get(seat)
            if bot is None or table.state.is_terminal:
                return
            delay = self.pace_delay(table.bot_pace)
            if delay > 0:
                await asyncio.sleep(delay)
            n = table.n
            view = table.state.view(seat)
            try:
                action = await to_thread.run_sync(bot.choose, view)
            except Exception:
                log.exception("bot %s at table %s seat %d failed", bot.name, table.id, seat)
                return
            async with table.lock:
                if table.n != n or table.bots.get(seat) is not bot:
                    continue
                if action not in view.legal_actions:
                    log.error("bot %s at table %s answered an illegal action %r", bot.name, table.id, action)
                    return
                try:
                    await self._commit(table, seat, action)
                except TableError:
                    log.exception("table %s: bot move not stored", table.id)
                    return
            if delay <= 0:
                await asyncio.sleep(0)  # let the sockets breathe between bot moves

    # -- seats and records -----------------------------------------------------------------
    async def replace_with_bot(self, table: LiveTable, seat: int, bot_name: str) -> None:
        """A human who left is replaced by a bot; the seat's key stops working."""
        if bot_name not in available(table.game):
            raise TableError(
                "bad_request", f"no bot {bot_name!r}; choose from: {', '.join(available(table.game))}"
            )
        async with table.lock:
            if table.state.is_terminal:
                raise TableError("over", "the game is over")
            info = table.seats[seat]
            await to_thread.run_sync(lambda: self.storage.set_seat(table.id, seat, bot_name, None))
            table.seats[seat] = SeatInfo(seat, info.name, bot_name, None)
            table.bots[seat] = self._make_bot(table, table.seats[seat])
            await self._broadcast(table)
        self._kick(table)

    async def rename(self, table: LiveTable, seat: int, name: object) -> None:
        """A player sitting down gives the seat their name (shown to everyone)."""
        if not isinstance(name, str) or not " ".join(name.split()):
            raise TableError("bad_request", "a name is a non-empty text")
        clean = " ".join(name.split())[:MAX_NAME]
        async with table.lock:
            await to_thread.run_sync(lambda: self.storage.set_name(table.id, seat, clean))
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
    "game_catalogue",
]
