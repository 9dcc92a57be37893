"""What every group of the web table's routes shares: one way to answer, to read, to fail.

Why a module of its own: the routes are grouped by concern (:mod:`.routes_pages`,
:mod:`.routes_tables`, :mod:`.routes_records`, :mod:`.routes_review`,
:mod:`.account_web`, the socket's :mod:`.socket`), and each must serve a static page,
read a JSON body and word an error exactly alike; those few steps live here once, as
plain functions, so no group keeps its own copy and :func:`~.app.create_app` only
assembles.

* :func:`page`: a page of ``static/`` with the shared head, in the reader's language.
* :func:`read_json`: a request's JSON object, refused unless ``application/json`` (what
  another site's form cannot send without asking) and small.
* :func:`seat_request`: a seat's request (its table, its seat from the key, the body).
* :func:`error` and :data:`EXCEPTION_HANDLERS`: every refusal is
  ``{"type": "error", "code", "message"}`` in the reader's language, never a trace.
* :class:`SecurityHeaders`: the headers every HTTP response carries.
"""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ..core.errors import AtoutError
from ..core.reason import Reason, reason
from .languages import language_buttons, pick_language
from .messages import ReasonContext, http_said, localize
from .messages import said as said_by
from .socket import MAX_MESSAGE, parse_json, table_context
from .tables import LiveTable, TableError, TableManager

log = logging.getLogger("atout.server")

#: The pages, scripts, styles and card faces the server ships (package data).
STATIC = resources.files("atout.server") / "static"

#: Sent with every HTTP response: the pages load only their own scripts, styles and sockets,
#: cannot be framed by another site, and no response is reinterpreted as another type.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response (not to sockets)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.lower().encode() not in present:
                        headers.append((name.lower().encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"type": "error", "code": code, "message": message}, status_code=status)


#: The HTTP status of a :class:`~.tables.TableError` by its code (400 for any other).
STATUS = {
    "not_found": 404,
    "bad_key": 403,
    "left": 403,
    "unsupported_media": 415,
    "rate_limited": 429,
    "busy": 503,
    "unavailable": 503,
}


def page(name: str, request: Request) -> HTMLResponse:
    """A page of static/, its ``{{head}}`` the pages' shared head (static/head.html), in the reader's language.

    ``{{accounts}}`` (a line of its own): the account link's style and module
    (static/accounts-head.html), in each page that shows the link, one place to name them.
    """
    lang = pick_language(request)
    head = (STATIC / "head.html").read_text(encoding="utf-8")
    accounts = (STATIC / "accounts-head.html").read_text(encoding="utf-8")
    html = (
        (STATIC / name)
        .read_text(encoding="utf-8")
        .replace("{{head}}", head)
        .replace("{{accounts}}\n", accounts)
        .replace("{{lang}}", lang)
        .replace("{{langs}}", language_buttons(lang))
    )
    return HTMLResponse(html, headers={"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie"})


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body, a JSON object of at most :data:`~.socket.MAX_MESSAGE` bytes."""
    # JSON only: a form or text/plain POST is what another site's page can send without
    # asking (no CORS preflight), so refusing it keeps other sites from acting here.
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise TableError("unsupported_media", reason("server.json_only"))
    too_large = TableError("too_large", reason("server.request_too_large", n=MAX_MESSAGE))
    body = b""
    async for chunk in request.stream():  # stop reading as soon as the limit is passed
        body += chunk
        if len(body) > MAX_MESSAGE:
            raise too_large
    try:
        data = parse_json(body)
    except (ValueError, UnicodeDecodeError):
        raise TableError("bad_request", reason("server.not_json")) from None
    if not isinstance(data, dict):
        raise TableError("bad_request", reason("server.not_object"))
    return data


async def table_request(manager: TableManager, request: Request) -> tuple[LiveTable, dict[str, Any]]:
    """The table a request names (``/api/tables/{table}/...``) and its JSON body; the
    request's refusals from now on name the table's game and players."""
    data = await read_json(request)
    table = await manager.get(request.path_params["table"])
    request.state.reason_context = table_context(table)
    return table, data


async def seat_request(manager: TableManager, request: Request) -> tuple[LiveTable, int, dict[str, Any]]:
    """A seat's request: its table, the seat its ``key`` opens (else refused) and the body."""
    table, data = await table_request(manager, request)
    seat = manager.seat_for_key(table, data.get("key"))
    return table, seat, data


def context_of(request: HTTPConnection) -> ReasonContext | None:
    context = getattr(request.state, "reason_context", None)
    return context if isinstance(context, ReasonContext) else None


def said(request: Request, message: str | Reason) -> str:
    """``message`` in the request's language, naming its table's game and players if known."""
    return localize(message, pick_language(request), context_of(request))


async def table_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TableError)
    return error(exc.code, said(request, exc.message), STATUS.get(exc.code, 400))


async def atout_error(request: Request, exc: Exception) -> Response:
    return error("bad_request", said(request, said_by(exc)), 400)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return error("http", said(request, http_said(exc.status_code, str(exc.detail))), exc.status_code)


async def internal_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=exc)
    return error("internal", said(request, reason("server.internal")), 500)


#: The app's exception handlers: the engine's and the table's refusals, HTTP errors, and
#: anything else as a bare ``internal`` (logged here, never shown).
EXCEPTION_HANDLERS = {
    TableError: table_error,
    AtoutError: atout_error,
    HTTPException: http_error,
    Exception: internal_error,
}
