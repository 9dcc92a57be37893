"""The living table: presence, spectators, the turn clock and the away bot, chat, the
lobby's free seats and the rematch, on top of :class:`~.tables.TableManager`.

Everything that must survive a restart is written before it is announced (the
table's settings, the chat table, the seat rows: :mod:`.roomstore`); who is
connected is not, so after a restart every human counts as gone since the restart
and every clock starts afresh, which is fair to all.

**Several processes on one PostgreSQL are one room.**  Any process serves any
socket of any table (no sticky routing):

* *presence*: a process holding a live socket of a seat keeps a row for it
  (:class:`~.roomstore.PresenceRow`), renewed every :data:`~.roomsync.PRESENCE_EVERY` seconds
  and dead :data:`~.roomstore.PRESENCE_TTL` seconds after its process's last
  renewal (``kill -9``); a seat is connected when some process has a socket for it
  (:meth:`Living.connected`), and away only when none has;
* *the clock and the away bot*: every process times the turn (for the pages), but
  only the holder of the table's lease (:mod:`.pubsub`, the one driving its bots)
  hands a seat to the away bot; the away seats, ``back``, the rematch votes and
  the next table are stored on the room's row, locked while they change;
* *announcements*: each change's notice (``room``, ``chat``, ``presence``,
  ``event``) makes every other process read the change and tell its own sockets,
  so every socket hears each announcement once, from its own process.

With SQLite (one process) nothing of this touches the database beyond what is
stored anyway: presence is the process's own sockets.  How a process keeps up with
the others (presence, the notices) is :mod:`.roomsync`, a part of :class:`Living`.

A free seat (left open for the lobby, no key yet) is played by a stand-in bot of the
table's away level from the first move, at the table's bot pace and with no clock: a
table never waits for a player who may not come.  Whoever takes the seat plays it from
the next move on (the stand-in is dropped as the seat is given).

Announcements are socket messages ``{"type": "event", "event": ..., "seat", "name"}``
with ``event`` one of ``joined`` (a player connected), ``left`` (their last socket
closed), ``sat`` (someone took a free seat from the lobby), ``away`` (the clock ran
out: a bot plays for them), ``back`` (they took their seat again); the pages
translate them.  Chat lines are ``{"type": "chat", "line": {...}}`` and the whole
log ``{"type": "chat_log", "lines": [...]}`` on joining; a rematch sends
``{"type": "rematch", "table": id}`` to every reader of the old table.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as _dt
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from anyio import to_thread
from sqlalchemy.orm import Session

from ..bots.factory import available
from ..core.reason import reason
from ..core.registry import game_class
from . import roomstore
from .chat import ChatLimiter, check_plain, clean_line
from .room import DEFAULT_AWAY_LEVEL, Room
from .roomstore import ChatLine
from .roomsync import SPECTATOR, RoomSync, log
from .storage import SeatInfo, StoredTable, Unseen
from .tables import (
    MAX_NAME,
    LiveTable,
    PlannedTable,
    SeatSpec,
    Sender,
    TableError,
    TableManager,
    hash_key,
    public_bot_name,
)

#: How often the clock is looked at (seconds).
TICK = 0.25
#: Spectators one table accepts at once (a stranger cannot open sockets without end).
MAX_SPECTATORS = 50


def humans(table: LiveTable) -> list[int]:
    """Seats played by people (claimed or free), whoever plays them for now."""
    return [s.seat for s in table.seats if s.bot is None]


def free_seats(table: LiveTable) -> list[int]:
    """Human seats nobody has taken yet (no key): a stand-in bot plays them meanwhile."""
    return [s.seat for s in table.seats if s.bot is None and s.key_hash is None]


class Living(RoomSync):
    """The social side of every live table of one server process."""

    def __init__(
        self, manager: TableManager, now: Callable[[], float] = time.monotonic, tick: float = TICK
    ) -> None:
        self.manager = manager
        self.now = now
        self.tick_every = tick
        self._ticker: asyncio.Task[None] | None = None
        self._presence: asyncio.Task[None] | None = None
        self._tasks = set()
        self.shared = manager.storage.shared
        manager.load_hooks.append(self._on_load)
        manager.notice_hooks.append(self._on_notice)
        manager.moves_hooks.append(self._before_moves)
        self._presence_locks = {}
        roomstore.ensure_tables(manager.storage)

    # -- life cycle --------------------------------------------------------------------
    async def start(self) -> None:
        if self.tick_every > 0:
            self._ticker = asyncio.create_task(self._run())
        if self.shared:
            self._presence = asyncio.create_task(self._presence_loop())

    async def stop(self) -> None:
        for task in (self._ticker, self._presence):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.shared:  # this process's sockets are gone: the others see it within a second
            storage = self.manager.storage
            with contextlib.suppress(Exception):
                await to_thread.run_sync(roomstore.forget_process, storage, storage.origin)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_every)
            try:
                await self.tick()
            except Exception:  # the clock must keep going for the other tables
                log.exception("turn clock")

    async def _on_load(self, table: LiveTable, stored: StoredTable) -> None:
        storage = self.manager.storage
        public, settings = await to_thread.run_sync(roomstore.load_room, storage, table.id)
        table.room.chat = await to_thread.run_sync(roomstore.load_chat, storage, table.id)
        if self.shared:  # a player may be at this table on another process
            found = await to_thread.run_sync(roomstore.present_elsewhere, storage, [table.id], storage.origin)
            table.room.elsewhere = {s for s in found[table.id] if s >= 0}
            table.room.spectators_elsewhere = found[table.id].get(SPECTATOR, 0)
        self._set_room(table, public, settings)

    def _set_room(self, table: LiveTable, public: bool, settings: dict[str, Any]) -> None:
        now = self.now()
        room = Room.from_settings({**settings, "public": public}, len(humans(table)), now)
        room.now = lambda: self.now()  # read through self: tests swap the clock
        room.living = table.room.living
        if room.away_level not in available(table.game):
            room.away_level = DEFAULT_AWAY_LEVEL if DEFAULT_AWAY_LEVEL in available(table.game) else "random"
        room.chat = table.room.chat
        room.elsewhere = table.room.elsewhere
        room.spectators_elsewhere = table.room.spectators_elsewhere
        for seat in humans(table):
            if not self.connected(table, seat):  # nobody here is at a table just loaded
                room.clock.gone[seat] = now
        table.room = room
        for seat in free_seats(table):
            # A free seat is played by a stand-in bot until someone takes it: nobody waits for a
            # player who may never come, and no clock runs for a seat nobody holds.
            if seat not in table.bots:
                table.bots[seat] = self._away_bot(table, seat)
        for seat in sorted(room.away):
            if table.seats[seat].bot is None:
                table.bots[seat] = self._away_bot(table, seat)
            else:
                room.away.discard(seat)

    # -- creating ------------------------------------------------------------------------
    @staticmethod
    def creation_settings(
        public: bool, turn_time: int | None, spectator_chat: bool, away_level: str | None
    ) -> tuple[dict[str, Any], str]:
        """A new table's living settings and its watch token (the watch link's secret)."""
        watch = secrets.token_urlsafe(18)
        settings: dict[str, Any] = {
            "public": public,
            "spectator_chat": spectator_chat,
            "watch": hash_key(watch),
        }
        if turn_time is not None:
            settings["turn_time"] = turn_time
        if away_level is not None:
            settings["away_level"] = away_level
        return settings, watch

    async def created(self, table: LiveTable, public: bool, settings: dict[str, Any]) -> None:
        """Store a new table's room and give the live table its settings."""
        await to_thread.run_sync(
            lambda: roomstore.save_room(self.manager.storage, table.id, public, settings)
        )
        async with table.lock:
            self._set_room(table, public, settings)
        await self.manager.lease(table)  # its clock's driver: the creator, from now
        self.manager._kick(table)  # a free seat's stand-in may be the first to play

    # -- sockets ---------------------------------------------------------------------------
    def watch_allowed(self, table: LiveTable, token: object) -> None:
        """Refuse a spectator who has neither a public table nor the table's watch link."""
        if table.room.public:
            return
        watch = table.room.watch_hash
        if (
            isinstance(token, str)
            and 0 < len(token) <= 200
            and watch is not None
            and hmac.compare_digest(watch, hash_key(token))
        ):
            return
        raise TableError("private", reason("server.private"))

    async def attach(
        self, table: LiveTable, seat: int, send: Sender, living: bool = True, key_hash: str | None = None
    ) -> None:
        """A socket joins seat ``seat`` (or watches: :data:`SPECTATOR`).

        ``living``: it wants the presence, clock and chat messages (the pages ask; a
        script that does not keeps the plain protocol: one state message per change).
        """
        room = table.room
        if living or seat == SPECTATOR:
            room.living.add(send)
        if seat == SPECTATOR:
            if self.spectators(table) >= MAX_SPECTATORS:
                raise TableError("full", reason("server.spectators_full", n=MAX_SPECTATORS))
            async with table.lock:
                table.sockets.setdefault(SPECTATOR, set()).add(send)
                await send(table.message(SPECTATOR))
        else:
            was_here = self.connected(table, seat)
            room.clock.gone.pop(seat, None)  # before its first message: its clock is whole
            await self.manager.attach(table, seat, send, key_hash)
            # Again, now the socket is in: an old socket of the seat (a page reloaded) that
            # closed while this one joined counted the seat as gone meanwhile.
            room.clock.gone.pop(seat, None)
            if self.shared and len(table.sockets.get(seat, ())) == 1:  # this process's first
                await self._present(table, seat)
            if seat in room.away:
                await self.back(table, seat)
            elif not was_here:
                await self._event(table, "joined", seat)
        if send in room.living:
            await send({"type": "chat_log", "lines": [c.to_dict() for c in room.chat]})
        async with table.lock:
            await self._refresh(table, skip=send)

    def detach(self, table: LiveTable, seat: int, send: Sender) -> None:
        """A socket closed: forget it now, and tell the others in a task of its own.

        The socket's handler may be cancelled as it ends (the test client does, a
        server shutting down does): the announcement must not be cut off with it.
        """
        self.manager.detach(table, seat, send)
        table.room.living.discard(send)
        table.room.limiters.pop(id(send), None)
        here = seat >= 0 and not table.sockets.get(seat)  # this process's last socket of the seat
        gone = here and not self.connected(table, seat)
        if gone:
            table.room.clock.gone[seat] = self.now()
        self._background(self._announce_leaving(table, seat if gone else None, seat if here else None))

    async def _announce_leaving(self, table: LiveTable, seat: int | None, here: int | None) -> None:
        try:
            if here is not None and self.shared and not table.sockets.get(here):
                await self._present(table, here)
            if seat is not None and not self.connected(table, seat):  # not back already (a reload)
                await self._event(table, "left", seat)
            async with table.lock:
                await self._refresh(table)
        except Exception:
            log.exception("table %s: announcing a departure", table.id)

    # -- the clock and the away bot ----------------------------------------------------------
    async def tick(self) -> None:
        """Hand every overdue human seat to the away bot."""
        now = self.now()
        for table in list(self.manager.tables.values()):
            state = table.state
            if state.is_terminal:
                continue
            seat = state.current_player
            if seat < 0 or seat in table.bots or table.seats[seat].bot is not None:
                continue
            table.room.clock.observe(table.n, seat, now)
            # Every process times the turn; only the one driving the table plays for the seat.
            if table.room.clock.due(seat, now) and self.manager.leases.holds(table.id):
                await self.take_over(table, seat)

    async def take_over(self, table: LiveTable, seat: int) -> None:
        async with table.lock:
            if self.shared:  # the seat may have moved on another process, unheard yet
                with contextlib.suppress(TableError):
                    await self.manager._refresh_locked(table)
            if (
                seat in table.bots
                or table.seats[seat].bot is not None
                or table.state.is_terminal
                or table.state.current_player != seat  # moved meanwhile: not this seat's turn now
            ):
                return
            await self._set_away(table, seat, True)
            table.room.away.add(seat)
            table.bots[seat] = self._away_bot(table, seat)
            await self._event(table, "away", seat)
            await self._refresh(table)
        self.manager._kick(table)

    async def playing(self, table: LiveTable, seat: int) -> None:
        """The player of ``seat`` is here (a move refused, or one :meth:`play` found unseen): back, if away.

        With several processes, the stored away seats are read first: the seat may
        have been handed to the away bot by the process driving the table, and a
        move made before its notice arrived here must take the seat back (``away``,
        then ``back``), not leave it to the bot while its player plays.
        """
        if self.shared:
            async with table.lock:
                await self._stored_away(table)
        await self.back(table, seat)

    async def play(self, table: LiveTable, seat: int, move: Callable[[], Awaitable[None]]) -> None:
        """The player of ``seat`` makes ``move`` (the manager's :meth:`~.TableManager.act`).

        They are back first if this process knows them away.  What it may not know yet
        (several processes): the process driving the table handed the seat to the away
        bot and its notice is on its way.  Reading the stored room before every move
        cost a round trip to the database per move; instead the move's own statement
        checks the seat is not stored away (:data:`.roomstore.NOT_AWAY`), and only when
        it is (:class:`.storage.Unseen`, nothing stored) is the room read: ``away``, then
        ``back``, then the move again.  A refused move brings its seat back too (the
        player is there), after the stored room is read: a refusal the away bot's move
        caused comes after ``away``.
        """
        await self.back(table, seat)
        try:
            await move()
        except Unseen:
            await self.playing(table, seat)
            try:
                await move()
            except Unseen:  # handed to the away bot again meanwhile: the player looks again
                raise TableError("conflict", reason("server.conflict")) from None
        except TableError:
            with contextlib.suppress(TableError):
                await self.playing(table, seat)
            raise

    async def back(self, table: LiveTable, seat: int) -> None:
        """The player of ``seat`` takes it again from the away bot."""
        async with table.lock:
            if seat not in table.room.away:
                return
            await self._set_away(table, seat, False)
            table.room.away.discard(seat)
            bot = table.bots.pop(seat, None)
            if bot is not None:
                bot.close()
            table.room.clock.restart(self.now())
            await self._event(table, "back", seat)
            await self._refresh(table)

    # -- chat ---------------------------------------------------------------------------------
    async def say(
        self, table: LiveTable, seat: int, speaker: object, text: object, name: object = None
    ) -> None:
        room = table.room
        if seat == SPECTATOR and not room.spectator_chat:
            raise TableError("spectator_chat", reason("server.spectator_chat"))
        line = clean_line(text)
        room.limiters.setdefault(speaker, ChatLimiter(self.now)).take()
        if seat >= 0:
            who = table.seats[seat].name
        else:
            who = " ".join(name.split())[:MAX_NAME] if isinstance(name, str) and name.strip() else ""
            if who:
                check_plain(who, name=True)
        async with table.lock:
            entry: ChatLine = await self.manager._db(
                lambda: roomstore.add_chat(self.manager.storage, table.id, seat, who, line, table.n)
            )
            room.chat.append(entry)
            room.chat.sort(key=lambda c: c.idx)  # a line said elsewhere may not be here yet
            del room.chat[: -roomstore.CHAT_KEEP]
            await self._send_all(table, {"type": "chat", "line": entry.to_dict()})

    # -- the lobby ------------------------------------------------------------------------------
    async def lobby(self) -> list[dict[str, Any]]:
        """Public unfinished tables: game, options, seats, status, move count."""
        out = []
        for table_id in await to_thread.run_sync(roomstore.public_ids, self.manager.storage):
            try:
                table = await self.manager.get(table_id)
            except Exception:
                log.exception("table %s cannot be listed", table_id)
                continue
            if table.state.is_terminal:
                continue
            seats = [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": public_bot_name(s.bot),
                    "free": s.bot is None and s.key_hash is None,
                    "connected": self.connected(table, s.seat),
                    "away": s.seat in table.room.away,
                }
                for s in table.seats
            ]
            out.append(
                {
                    "table": table.id,
                    "game": table.game.name,
                    "title": table.game.title,
                    "players": table.game.players,
                    "options": table.game.options_text(),
                    "seats": seats,
                    "status": "open" if any(s["free"] for s in seats) else "running",
                    "moves": table.n,
                    "spectators": self.spectators(table),
                    "turn_time": table.room.clock.turn_time,
                }
            )
        return out

    async def join_seat(self, table: LiveTable, seat: object, name: object) -> str:
        """Give free seat ``seat`` to a newcomer named ``name``; returns the seat's key."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
            raise TableError("bad_request", reason("server.seat_number"))
        if not isinstance(name, str) or not " ".join(name.split()):
            raise TableError("bad_request", reason("server.name_empty"))
        clean = " ".join(name.split())[:MAX_NAME]
        check_plain(clean, name=True)
        key = secrets.token_urlsafe(24)
        digest = hash_key(key)
        async with table.lock:
            info = table.seats[seat]
            if info.bot is not None or info.key_hash is not None:
                raise TableError("taken", reason("server.seat_taken"))
            if table.state.is_terminal:
                raise TableError("over", reason("server.over"))
            ok = await to_thread.run_sync(
                lambda: roomstore.claim_seat(self.manager.storage, table.id, seat, clean, digest)
            )
            if not ok:
                raise TableError("taken", reason("server.seat_taken"))
            table.seats[seat] = SeatInfo(seat, clean, None, digest)
            stand_in = table.bots.pop(seat, None)  # the newcomer plays from the next move on
            if stand_in is not None:
                stand_in.close()
            await self._event(table, "sat", seat)
            await self.manager._broadcast(table)
        return key

    # -- rematch ---------------------------------------------------------------------------------
    async def rematch(self, table: LiveTable, seat: int) -> str | None:
        """Seat ``seat`` asks for another game; when every present human has, it starts.

        The new table has the same seats (each human's key carries over: the seat
        keeps its key's hash), the same settings, a new seed, and the first dealer
        moved one seat on when the game has a ``first_dealer`` option.  Returns the
        new table's id once it exists.
        """
        room = table.room
        if not table.state.is_terminal:
            raise TableError("not_over", reason("server.rematch_after_end"))
        if room.next_table is not None:
            return room.next_table
        present = {
            s for s in humans(table) if self.connected(table, s) and table.seats[s].key_hash is not None
        }
        planned, room_settings = await self._rematch_plan(table)
        storage = self.manager.storage

        def make(session: Session) -> tuple[str, PlannedTable]:
            session.add(planned.row())
            session.flush()  # the table's row before its room's (a foreign key)
            session.add(
                roomstore.RoomRow(
                    table_id=planned.table_id,
                    public=room.public,
                    created=_dt.datetime.now(_dt.UTC),
                    settings=room_settings,
                )
            )
            return planned.table_id, planned

        async with table.lock:
            voted: tuple[set[int], str | None, Any] = await self.manager._db(
                lambda: roomstore.vote_rematch(storage, table.id, seat, present, make)
            )
            votes, new_id, made = voted
            room.rematch_votes = votes
            if new_id is None:
                await self._refresh(table)
                return None
            room.next_table = new_id
        if made is not None:
            await self.manager.opened(new_id)
        await self._send_all(table, {"type": "rematch", "table": new_id})
        return new_id

    async def _rematch_plan(self, table: LiveTable) -> tuple[PlannedTable, dict[str, Any]]:
        """The rematch of ``table`` drawn (not stored): same seats and keys, settings, the next dealer."""
        stored = await to_thread.run_sync(self.manager.storage.load, table.id)
        assert stored is not None
        _, room_settings = await to_thread.run_sync(roomstore.load_room, self.manager.storage, table.id)
        options: dict[str, Any] = dict(stored.options)
        specs = {s.name for s in game_class(table.game.name).option_specs}
        if "first_dealer" in specs:
            first = table.game.new_state(table.seed).public_view().to_dict().get("dealer")
            if isinstance(first, int):
                options["first_dealer"] = (first + 1) % table.game.players
        seats = [
            SeatSpec(name=s.name, bot=s.bot, open=s.bot is None and s.key_hash is None) for s in table.seats
        ]
        hashes = {s.seat: s.key_hash for s in table.seats if s.key_hash is not None}
        keep = ("public", "spectator_chat", "watch", "turn_time", "away_level", "hints")
        settings = {k: room_settings[k] for k in keep if k in room_settings}
        settings["prev"] = table.id
        planned = self.manager.plan(
            table.game.name, table.game.players, options, seats, bot_pace=table.bot_pace, key_hashes=hashes
        )
        return planned, settings
