"""A table's past, for one of its seats: the record to download and the replay's views.

Why a module of its own: both answer with what a seat may see of the moves made, and
the rule of who sees what is theirs (before the end a seat has its own record and
views only; once the game is over, the full record and any seat's views).

    POST /api/tables/{id}/record   {key, format} → the seat's record; the full one once over
    POST /api/tables/{id}/replay   {key, step} → the seat's view after `step` actions
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.reason import reason
from .tables import TableError, TableManager
from .web import seat_request


def record_routes(manager: TableManager) -> list[BaseRoute]:
    """The routes above, on ``manager``'s tables."""

    async def record(request: Request) -> Response:
        table, seat, data = await seat_request(manager, request)
        full = table.state.is_terminal and bool(data.get("full", True))
        rec = manager.record(table, None if full else seat)
        as_json = data.get("format") == "json"
        suffix = "json" if as_json else "atout"
        who = "" if full else f"-seat{seat}"
        return Response(
            rec.to_json() if as_json else rec.to_text(),
            media_type="application/json" if as_json else "text/plain; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="{table.game.name}-{table.id}{who}.{suffix}"'
            },
        )

    async def replay(request: Request) -> Response:
        table, seat, data = await seat_request(manager, request)
        step = data.get("step")
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= table.n:
            raise TableError("bad_request", reason("server.step_range", n=table.n))
        # Before the end a seat replays its own past views; afterwards any seat's.
        who = data.get("as_seat", seat)
        if who != seat and not table.state.is_terminal:
            raise TableError("forbidden", reason("server.views_after_end"))
        if not isinstance(who, int) or isinstance(who, bool) or not 0 <= who < table.game.players:
            raise TableError("bad_request", reason("server.as_seat"))
        state = manager.state_at(table, step)
        view = state.view(who)
        return JSONResponse(
            {"step": step, "steps": table.n, "seat": who, "view": view.to_dict(), "over": state.is_terminal}
        )

    return [
        Route("/api/tables/{table}/record", record, methods=["POST"]),
        Route("/api/tables/{table}/replay", replay, methods=["POST"]),
    ]
