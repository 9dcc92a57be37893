"""The living table across processes: presence and the notices of what other processes changed.

Why a module of its own: with several processes on one PostgreSQL, a table's room
(who is connected, the away seats, the chat, the rematch) is kept in the database
and each process follows it: it stores how many sockets of each seat it holds
and reads the others' (:class:`RoomSync`'s presence, renewed every
:data:`PRESENCE_EVERY` seconds), and it reads a room's change again when another
process's notice says so, telling its own sockets once.  How a process keeps up
with the others is one concern, apart from what a living table does (the clock,
the away bot, chat, the lobby, the rematch: :mod:`.living`).  With SQLite (one
process) none of it runs but :meth:`RoomSync._take_room`'s reading of the away
seats.  :class:`RoomParts` is what the living table's parts share: its
attributes and the messages every part sends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from anyio import to_thread

from . import roomstore
from .storage import SeatInfo
from .tables import LiveTable, Sender, TableManager

log = logging.getLogger("atout.server")

#: How often a process renews its presence rows and reads the others' (seconds; PostgreSQL).
PRESENCE_EVERY = 1.0
#: The seat a spectator's socket is kept under.
SPECTATOR = -1


class RoomParts:
    """What the parts of :class:`~.living.Living` share: the attributes it sets, and the messages
    (an event, a state refresh, a message to every living socket) and tasks every part starts."""

    manager: TableManager
    #: The clock (monotonic seconds; tests swap it).
    now: Callable[[], float]
    #: Several processes share this room through the database (PostgreSQL).
    shared: bool
    _tasks: set[asyncio.Task[None]]
    #: One lock per (table, seat) this process writes presence for: a reload's "none
    #: here" and "one here" are written in the order asked, each with the count of then.
    _presence_locks: dict[tuple[str, int], asyncio.Lock]

    def _background(self, coro: Any) -> None:
        """Run ``coro`` in a task of its own (kept referenced until done; errors logged)."""

        async def run() -> None:
            try:
                await coro
            except Exception:
                log.exception("living table")

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    def connected(table: LiveTable, seat: int) -> bool:
        """Whether some process (this one or, PostgreSQL, another) holds a live socket of ``seat``."""
        return bool(table.sockets.get(seat)) or seat in table.room.elsewhere

    def _away_bot(self, table: LiveTable, seat: int) -> Any:
        info = table.seats[seat]
        return self.manager._make_bot(table, SeatInfo(seat, info.name, table.room.away_level, None))

    async def _set_away(self, table: LiveTable, seat: int, away: bool) -> None:
        await self.manager._db(lambda: roomstore.set_away(self.manager.storage, table.id, seat, away))

    async def _event(self, table: LiveTable, event: str, seat: int) -> None:
        name = table.seats[seat].name if 0 <= seat < len(table.seats) else ""
        await self._send_all(table, {"type": "event", "event": event, "seat": seat, "name": name})

    async def _send_all(self, table: LiveTable, message: dict[str, Any]) -> None:
        """``message`` to every socket that joined with ``living`` (the pages; scripts did not ask)."""
        for senders in list(table.sockets.values()):
            for send in list(senders):
                if send not in table.room.living:
                    continue
                try:
                    await send(message)
                except Exception:
                    senders.discard(send)

    async def _refresh(self, table: LiveTable, skip: Sender | None = None) -> None:
        """Each living socket's state message again (presence, clock, spectators changed).

        ``skip``: a socket that has just been sent its state (the one joining).
        """
        for seat, senders in list(table.sockets.items()):
            mine = [s for s in senders if s in table.room.living and s is not skip]
            if not mine:
                continue
            message = table.message(seat)
            for send in mine:
                try:
                    await send(message)
                except Exception:
                    senders.discard(send)


class RoomSync(RoomParts):
    """A living table kept up with the other processes (a part of :class:`~.living.Living`)."""

    # -- presence across processes (PostgreSQL) ---------------------------------------------
    @staticmethod
    def spectators(table: LiveTable) -> int:
        """The table's spectators on every process."""
        return len(table.sockets.get(SPECTATOR, ())) + table.room.spectators_elsewhere

    async def _present(self, table: LiveTable, seat: int) -> None:
        """Store (and announce) how many sockets of ``seat`` this process holds now (0: it no longer has one).

        A database away is logged, not raised: the heartbeat (:meth:`sync_presence`)
        writes this process's rows again every :data:`PRESENCE_EVERY` seconds.
        """
        storage = self.manager.storage
        lock = self._presence_locks.setdefault((table.id, seat), asyncio.Lock())
        try:
            async with lock:  # the count is read when it is written: the last write is the truth
                count = len(table.sockets.get(seat, ()))
                await to_thread.run_sync(
                    roomstore.set_present, storage, table.id, seat, storage.origin, count
                )
        except Exception as exc:
            log.warning("table %s: presence not stored (%s)", table.id, type(exc).__name__)

    async def _presence_loop(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_EVERY)
            try:
                await self.sync_presence()
            except Exception as exc:  # the database is away: the next round tries again
                log.warning("presence: %s", type(exc).__name__)

    async def sync_presence(self, only: str | None = None) -> None:
        """Renew this process's presence rows (all tables), then read the others' (``only`` that table)."""
        storage = self.manager.storage
        tables = self.manager.tables
        if only is None:
            for key in [k for k, lock in self._presence_locks.items() if not lock.locked()]:
                if key[0] not in tables:  # the table was let go: its seats' locks with it
                    del self._presence_locks[key]
            mine = [(t.id, seat, len(s)) for t in list(tables.values()) for seat, s in t.sockets.items() if s]
            await to_thread.run_sync(roomstore.heartbeat, storage, storage.origin, mine)
        ids = [only] if only is not None else list(tables)
        found = await to_thread.run_sync(roomstore.present_elsewhere, storage, ids, storage.origin)
        for table_id, sockets in found.items():
            table = tables.get(table_id)
            if table is not None:
                await self._set_elsewhere(table, sockets)

    async def _set_elsewhere(self, table: LiveTable, sockets: dict[int, int]) -> None:
        """The sockets on other processes are now ``sockets`` (by seat): announce who came and went."""
        room = table.room
        seats = {s for s in sockets if s >= 0}
        watchers = sockets.get(SPECTATOR, 0)
        changed = sorted(s for s in seats ^ room.elsewhere if 0 <= s < len(table.seats))
        if not changed:
            room.elsewhere = seats
            if watchers != room.spectators_elsewhere:
                room.spectators_elsewhere = watchers
                async with table.lock:
                    await self._refresh(table)
            return
        room.spectators_elsewhere = watchers
        before = {s: self.connected(table, s) for s in changed}
        room.elsewhere = set(seats)
        for seat in changed:
            now_connected = self.connected(table, seat)
            if now_connected == before[seat]:
                continue
            if now_connected:
                room.clock.gone.pop(seat, None)
                await self._event(table, "joined", seat)
            else:
                room.clock.gone[seat] = self.now()
                await self._event(table, "left", seat)
        async with table.lock:
            await self._refresh(table)

    # -- what other processes changed (PostgreSQL notices) ------------------------------------
    def _on_notice(self, table_id: str, what: str) -> None:
        """A notice of another process's change to a table's room (in the loop)."""
        table = self.manager.tables.get(table_id)
        if table is not None:
            self._background(self._follow(table, what))

    async def _follow(self, table: LiveTable, what: str) -> None:
        """Read what another process changed and tell this process's sockets (empty ``what``: all)."""
        kind, _, rest = what.partition(" ")
        if kind in ("room", ""):
            await self._reload_room(table)
        if kind in ("chat", ""):
            await self._reload_chat(table)
        if kind == "names":
            await self._renamed_chat(table)
        if kind in ("presence", ""):
            await self.sync_presence(only=table.id)
        if kind == "event":
            name, _, seat = rest.partition(" ")
            if name in ("sat", "bot_slow") and seat.isdigit() and int(seat) < len(table.seats):
                if name == "sat":
                    await self.manager.refresh(table)  # the seat's new name and key
                await self._event(table, name, int(seat))

    async def _reload_room(self, table: LiveTable) -> None:
        """The room's stored state again: away seats (their bots, ``away``/``back``), votes, next table."""
        _, settings = await to_thread.run_sync(roomstore.load_room, self.manager.storage, table.id)
        room = table.room
        async with table.lock:
            old_next = room.next_table
            await self._take_room(table, settings)
            await self._refresh(table)
        if room.next_table is not None and room.next_table != old_next:
            await self._send_all(table, {"type": "rematch", "table": room.next_table})
        self.manager._kick(table)

    async def _take_room(self, table: LiveTable, settings: dict[str, Any]) -> bool:
        """Make the stored room ``settings`` this process's (under the table's lock); whether the away seats changed.

        A seat newly away gets its away bot and ``away`` is announced; a seat back is
        given back and ``back`` announced.
        """
        room = table.room
        old_away = set(room.away)
        room.apply(settings)
        for seat in sorted(room.away - old_away):
            if not 0 <= seat < len(table.seats) or table.seats[seat].bot is not None:
                room.away.discard(seat)
                continue
            table.bots[seat] = self._away_bot(table, seat)
            await self._event(table, "away", seat)
        for seat in sorted(old_away - room.away):
            if 0 <= seat < len(table.seats) and table.seats[seat].bot is None:
                bot = table.bots.pop(seat, None)
                if bot is not None:
                    bot.close()
                room.clock.restart(self.now())
                await self._event(table, "back", seat)
        return room.away != old_away

    async def _stored_away(self, table: LiveTable) -> None:
        """Take the stored away seats before anything else (several processes; under the table's lock).

        Another process (the one driving the table) may have handed a seat to its away
        bot, and its notice may not have been read here yet: whatever this process
        tells its sockets next (the bot's moves, a refusal, the seat's own move) must
        come after that ``away``.
        """
        if self.shared:
            settings = await self.manager._db(lambda: roomstore.load_room(self.manager.storage, table.id)[1])
            if await self._take_room(table, settings):
                await self._refresh(table)

    async def _before_moves(self, table: LiveTable, actions: list[int]) -> None:
        """Moves another process stored are about to be told here: the away notice first.

        Only a human seat's move can be the away bot's: when every move is a bot seat's (or
        a seat already known away here), there is no notice to wait for, and no database
        read (most moves at a table of bots and one human)."""
        probe = table.state.clone()
        for action in actions:
            seat = probe.current_player
            if 0 <= seat < len(table.seats) and table.seats[seat].bot is None and seat not in table.room.away:
                await self._stored_away(table)
                return
            probe.apply(action)

    async def _reload_chat(self, table: LiveTable) -> None:
        """Chat lines said on other processes, each sent once to this process's living sockets."""
        room = table.room
        async with table.lock:  # as say() holds it: a line is either known here or new
            known = {c.idx for c in room.chat}
            after = room.chat[-1].idx - 50 if room.chat else -1
            lines = await to_thread.run_sync(roomstore.load_chat, self.manager.storage, table.id, after)
            new = [line for line in lines if line.idx not in known]
            if not new:
                return
            room.chat = sorted([*room.chat, *new], key=lambda c: c.idx)[-roomstore.CHAT_KEEP :]
            for line in new:
                await self._send_all(table, {"type": "chat", "line": line.to_dict()})

    async def _renamed_chat(self, table: LiveTable) -> None:
        """The speakers' names were changed in the stored chat (a deleted account's lines are a
        former player's): the log read again and sent whole to this process's living sockets."""
        async with table.lock:
            lines = await to_thread.run_sync(roomstore.load_chat, self.manager.storage, table.id)
            table.room.chat = lines
            await self._send_all(table, {"type": "chat_log", "lines": [c.to_dict() for c in lines]})
