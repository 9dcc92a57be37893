"""The ASGI application: pages, a small JSON API and one WebSocket per seat, assembled.

Why this module is short: each group of routes lives with its concern and
:func:`create_app` only builds the shared objects (storage, tables, the living room,
the review and hint queues) and puts the groups together:

* :mod:`.routes_pages`: ``/``, ``/table/{id}``, ``/rules/{game}``, ``/i18n/{lang}/{name}.json``
* ``GET /api/games`` (here): the games, their options and bots in the page's language
* :mod:`.routes_tables`: ``/api/tables`` (create, lobby), ``…/join``, ``…/seat``, ``…/leave``
* :mod:`.routes_records`: ``…/record``, ``…/replay``
* :mod:`.routes_review`: ``…/review``, ``…/hint``
* :mod:`.account_web`: the optional accounts' pages and API
* :mod:`.socket`: ``WS /ws/{id}``, the table's protocol, one handler per message type
* ``/static/``: the pages' scripts, styles and card faces

Keys travel in request bodies and socket messages, never in URLs.  Every
error is a JSON ``{"type": "error", "code", "message"}`` (:mod:`.web`); nothing a
client sends can produce a stack trace in a response.  ``message`` is in the reader's
language (:mod:`.messages` translates the engines' English refusals): an HTTP
request's (``pick_language``), a socket's from its join message's ``lang``,
else from the page's cookie / Accept-Language.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .account_web import account_routes
from .hint import Hints
from .languages import LANGUAGES, pick_language
from .lessons import LESSONS, lesson_routes
from .limits import TOO_MANY_REQUESTS_WHY, ClientBuckets, Limits, RateLimit
from .living import Living
from .messages import localize
from .review import Reviewer
from .routes_pages import is_dictionary, page_routes
from .routes_records import record_routes
from .routes_review import review_routes
from .routes_tables import FORM_LEVELS, localize_catalogue, table_routes
from .socket import BURST, RATE, Sockets
from .storage import Storage, default_url
from .tables import BOT_PACES, DEFAULT_PACE, TableManager, check_allowed_bots, game_catalogue
from .web import EXCEPTION_HANDLERS, SECURITY_HEADERS, STATIC, SecurityHeaders, page, read_json

__all__ = [
    "FORM_LEVELS",
    "SECURITY_HEADERS",
    "STATIC",
    "SecurityHeaders",
    "create_app",
    "games_route",
    "is_dictionary",
    "localize_catalogue",
]


def games_route(manager: TableManager) -> Route:
    """``GET /api/games[?lang=de]``: the games, their options (Game.option_specs) and bots,
    described in the page's language (i18n/<lang>/games.json: each option's label, help and
    choice labels; the bot levels), with the operator's own bots and the bots' paces."""

    async def api_games(request: Request) -> Response:
        lang = request.query_params.get("lang", "")
        games = localize_catalogue(game_catalogue(), lang if lang in LANGUAGES else pick_language(request))
        for g in games:
            g["renderer"] = (STATIC / "games" / f"{g['name']}.js").is_file()
            g["lesson"] = g["name"] in LESSONS  # a first game that teaches (lessons.py)
            # The operator's own bots, offered under their names (no text to translate).
            for extra in manager.bot_aliases:  # their names only: a spec shows the server's files
                if extra not in g["bots"]:
                    g["bots"].append(extra)
                    g.setdefault("levels", []).append({"name": extra, "label": extra, "help": ""})
        paces = [{"name": p, "seconds": round(manager.pace_delay(p), 3)} for p in BOT_PACES]
        return JSONResponse(
            {"games": games, "bot_paces": paces, "default_pace": DEFAULT_PACE},
            headers={"Vary": "Accept-Language, Cookie"},
        )

    return Route("/api/games", api_games)


def create_app(
    db: str | None = None,
    bot_delay: float | None = None,
    rate: float = RATE,
    burst: int = BURST,
    limits: Limits | None = None,
    allowed_bots: tuple[str, ...] = (),
    clock_tick: float | None = None,
    deal_seed: int | None = None,
) -> Starlette:
    """The web table on database ``db`` (a URL or a SQLite path; default: ``ATOUT_DATABASE_URL``).

    ``rate``/``burst``: each socket's messages; ``limits``: everything else a client
    can make the server do (:class:`~atout.server.limits.Limits`); ``allowed_bots``:
    the operator's ``py:``/``cmd:`` bots tables may seat, besides the built-in ones
    (checked here: a wrong one fails now, not at a table); ``deal_seed``: deals drawn from
    this seed rather than the system's randomness (``atout serve --deal-seed``: tests and
    demonstrations only, whoever knows it knows every hand).
    """
    allowed = check_allowed_bots(allowed_bots)
    storage = Storage(db or default_url())
    if bot_delay is None:
        bot_delay = float(os.environ.get("ATOUT_BOT_DELAY", "0.8"))
    limits = limits or Limits()
    manager = TableManager(
        storage, bot_delay=bot_delay, limits=limits, allowed_bots=allowed, deal_seed=deal_seed
    )
    creations = ClientBuckets(limits.create_per_minute / 60, limits.create_burst, limits.max_clients)
    # The turn clock is looked at every ``clock_tick`` seconds (0: never; tests call ``tick()``).
    living = Living(manager, tick=clock_tick if clock_tick is not None else 0.25)
    reviewer = Reviewer(storage, playouts=limits.review_playouts, workers=1 if limits.bot_workers > 0 else 0)
    hints = Hints(storage, manager.pool, playouts=limits.review_playouts)
    sockets = Sockets(manager, living, limits, rate, burst)  # the table's protocol: .socket
    # For end-to-end tests only: ATOUT_CLOCK_SCALE=10 makes the turn clock run ten times
    # faster, so a real server's 60 s turn is 6 s (the page still counts the nominal time).
    scale = float(os.environ.get("ATOUT_CLOCK_SCALE", "1") or 1)
    if scale != 1:
        living.now = lambda: time.monotonic() * scale

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await manager.start()
        await living.start()
        try:
            yield
        finally:
            await living.stop()
            reviewer.close()
            await manager.stop()
            storage.close()

    app = Starlette(
        debug=False,
        routes=[
            *page_routes(),
            games_route(manager),
            *table_routes(manager, living, creations),
            *record_routes(manager),
            *review_routes(manager, reviewer, hints),
            WebSocketRoute("/ws/{table}", sockets.endpoint),
            *account_routes(storage, page, read_json),  # optional accounts (account_web.py)
            *lesson_routes(manager, living, creations, page),  # the first games that teach (lessons.py)
            Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        ],
        exception_handlers=dict(EXCEPTION_HANDLERS),
        lifespan=lifespan,
    )
    app.add_middleware(
        RateLimit,
        limits=limits,
        say=lambda scope: localize(TOO_MANY_REQUESTS_WHY, pick_language(HTTPConnection(scope))),
    )
    app.add_middleware(SecurityHeaders)
    app.state.manager = manager
    app.state.living = living
    app.state.reviewer = reviewer
    app.state.hints = hints
    app.state.storage = storage
    return app
