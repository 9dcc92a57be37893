"""The table's optional hint: on a player's turn, the search's suggestion and its expected points.

Why these rules:

* **Off by default, and public.**  A table gets hints only when its creator asks
  (``"hints": true`` at creation, kept in the room's settings), and every seat's
  page says so: nobody plays against a helped opponent without knowing.
* **From the seat's view only.**  What crosses to the worker is
  ``state.view(seat)`` (:func:`~.botpool.pack_view`): the search samples the hidden
  cards from it, as any bot does, so a hint can say nothing about the real hands
  that the seat could not infer.  Its seed is derived from the table's id and the
  move number, never from the table's seed (which fixes the deals).
* **One hint a decision.**  A hint is searched once per (table, move, seat); asking
  again answers the same suggestion without a new search.  Starts are limited per
  client address, and the search runs in the live bots' worker pool (it costs what
  a ``master`` decision of the batch search costs, far under a second), or in a
  thread when the server has no pool.
* **A lesson's coach has the last word.**  At a step of a lesson's script
  (:mod:`.lessons`) the hint is the move the script asks, marked ``"lesson": true``
  and without a search: a search may prefer another move, which the lesson table
  would then refuse (issue 50).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from anyio import to_thread

from ..bots.review import REVIEW_PLAYOUTS, evaluate_view
from ..core.game import View
from ..core.reason import reason
from ..match import derive_seed
from . import lessons, roomstore
from .botpool import BotPool, GameSpec, game_spec, pack_view, unpack_view, worker_game
from .limits import ClientBuckets
from .storage import Storage
from .tables import LiveTable, TableError

#: Playouts of a hint's search (the batch-engine search: well under a second).
HINT_PLAYOUTS = REVIEW_PLAYOUTS
#: Hints one client address may ask for, per minute and in a burst (one per own decision is plenty).
HINTS_PER_MINUTE = 30.0
HINTS_BURST = 10
#: Hints remembered (the newest; an older decision's hint is searched again if ever asked).
KEEP = 2000
#: Tables whose setting is remembered without asking the database again.
KNOWN_TABLES = 2000


def hint_in_worker(
    spec: GameSpec, view: tuple[type[View], dict[str, Any]], playouts: int, seed: int
) -> dict[str, Any]:
    """In a worker: the suggestion for the seat's ``view`` (only its view crosses) and its figures."""
    game = worker_game(spec)
    return suggest(unpack_view(view[0], view[1], game), playouts, seed)


def suggest(view: View, playouts: int, seed: int) -> dict[str, Any]:
    """The search's choice at ``view``, its expected points (± standard error) and worlds."""
    evaluation = evaluate_view(view, playouts, seed)
    best = evaluation.choice
    return {
        "action": view.game.action_to_text(best),
        "mean": evaluation.mean(best),
        "stderr": evaluation.stderr(best),
        "worlds": evaluation.worlds(best),
    }


class Hints:
    """The hints of one server process: the tables' setting, the hints given, their limits."""

    def __init__(self, storage: Storage, pool: BotPool | None, playouts: int = HINT_PLAYOUTS) -> None:
        self.storage = storage
        self.pool = pool
        self.playouts = playouts
        self.starts = ClientBuckets(HINTS_PER_MINUTE / 60, HINTS_BURST)
        self.given: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self._enabled: OrderedDict[str, bool] = OrderedDict()

    async def enabled(self, table_id: str) -> bool:
        known = self._enabled.get(table_id)
        if known is None:
            _, settings = await to_thread.run_sync(roomstore.load_room, self.storage, table_id)
            known = settings.get("hints") is True
            self._remember(table_id, known)
        return known

    def _remember(self, table_id: str, on: bool) -> None:
        self._enabled[table_id] = on
        self._enabled.move_to_end(table_id)
        while len(self._enabled) > KNOWN_TABLES:
            self._enabled.popitem(last=False)

    async def request(self, table: LiveTable, seat: int, n: object, client: str) -> dict[str, Any]:
        """``{"enabled"}``, and with ``n`` (the move number the page shows) the hint for that decision."""
        on = await self.enabled(table.id)
        if n is None:
            return {"enabled": on}
        if not on:
            raise TableError("forbidden", reason("server.hints_off"))
        if not isinstance(n, int) or isinstance(n, bool) or n != table.n:
            raise TableError("stale", reason("server.hint_stale"))
        state = table.state
        if state.is_terminal or state.current_player != seat:
            raise TableError("bad_request", reason("server.hint_own_turn"))
        coached = lessons.scripted(table, seat)
        if coached is not None:
            return {"enabled": True, "n": n, "action": coached, "lesson": True}
        key = (table.id, n, seat)
        hint = self.given.get(key)
        if hint is None:
            if not self.starts.allow(client):
                raise TableError("rate_limited", reason("server.too_many_hints"))
            view = state.view(seat)
            seed = derive_seed(0, "hint", table.id, n)
            if self.pool is None:
                hint = await to_thread.run_sync(suggest, view, self.playouts, seed)
            else:
                hint = await self.pool.run(
                    hint_in_worker, game_spec(table.game), pack_view(view), self.playouts, seed
                )
            self.given[key] = hint
            while len(self.given) > KEEP:
                self.given.popitem(last=False)
        return {"enabled": True, "n": n, **hint}
