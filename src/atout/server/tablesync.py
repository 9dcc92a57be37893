"""Keeping a live table up with the database: other processes' moves, lost notices, leases.

Why a module of its own: with several processes on one PostgreSQL (or an operator's
command on SQLite) the database, not this process's memory, is the table; how a copy
catches up (only ever a prefix of what is stored), when it is reloaded lazily, and
who drives the bots (the lease) are one concern, apart from playing a move.
:class:`TableSync` is one part of :class:`~.tables.TableManager`.
"""

from __future__ import annotations

import asyncio
import contextlib

from anyio import to_thread

from .live import LiveTable, ManagerParts, TableError, log


class TableSync(ManagerParts):
    """The manager's tables kept up with the database (a part of :class:`~.tables.TableManager`)."""

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
        if table is None:
            if table_id == self._loading_id:  # being read: the copy may lack this move
                self._unwatched.add(table_id)
            return
        if table_id in self._refreshing:
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
