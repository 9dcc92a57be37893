"""What a bot plays at a live table: in a worker, a thread, or bounded in time, else a safe bot.

Why a module of its own: a bot's move is the one thing a table waits for that is not
a person, and it may fail, answer an illegal action or hang (an operator's program);
each case ends in a legal move for the table, and the rules for that are here.
:class:`BotThinking` is one part of :class:`~.tables.TableManager`, whose driver
(``_drive``) asks it for each bot move.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any

from anyio import to_thread

from ..bots.factory import make_bot
from ..core.bot import Bot
from ..match import derive_seed
from .botpool import needs_worker
from .live import LiveTable, ManagerParts, log


class BotThinking(ManagerParts):
    """The bots' moves (a part of :class:`~.tables.TableManager`)."""

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
