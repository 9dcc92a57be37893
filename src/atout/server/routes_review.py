"""A seat's requests for the search's opinion: a finished game's review and a hint in play.

Why a module of its own: both ask for a search that costs seconds of CPU, so both go
through a bounded queue (:class:`~.review.Reviewer`, :class:`~.hint.Hints`) that
answers at once with the result or how far it is; these routes only read the seat's
request and hand it over.

    POST /api/tables/{id}/review   {key, as_seat} → a finished game's review of a seat, or how far
                                   its queued search is (:mod:`.review`)
    POST /api/tables/{id}/hint     {key[, n]} → whether the table gives hints; with n (the move
                                   shown), on the seat's turn, the search's suggestion (:mod:`.hint`)
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.reason import reason
from .hint import Hints
from .limits import client_of
from .review import Reviewer
from .tables import TableError, TableManager
from .web import seat_request


def review_routes(manager: TableManager, reviewer: Reviewer, hints: Hints) -> list[BaseRoute]:
    """The routes above, on ``manager``'s tables."""

    async def review(request: Request) -> Response:
        table, seat, data = await seat_request(manager, request)
        who = data.get("as_seat", seat)
        if not isinstance(who, int) or isinstance(who, bool):
            raise TableError("bad_request", reason("server.as_seat"))
        return JSONResponse(await reviewer.request(table, who, client_of(request.scope)))

    async def hint(request: Request) -> Response:
        table, seat, data = await seat_request(manager, request)
        return JSONResponse(await hints.request(table, seat, data.get("n"), client_of(request.scope)))

    return [
        Route("/api/tables/{table}/review", review, methods=["POST"]),
        Route("/api/tables/{table}/hint", hint, methods=["POST"]),
    ]
