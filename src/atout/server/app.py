"""The ASGI application: pages, a small JSON API and one WebSocket per seat.

Routes::

    GET  /                         the home page (games, creation form)
    GET  /table/{id}#key=...       a seat's table page (the key stays in the fragment:
                                   it never reaches a log or a Referer header)
    GET  /rules/{game}             the game's rules page (i18n/<lang>/rules/) rendered to HTML
    GET  /i18n/{lang}/{name}.json  a page's dictionary, i18n/<lang>/<name>.json of a spoken
                                   language, served as the static files are (ETag, 304)
    GET  /api/games[?lang=de]      the games, their options (Game.option_specs) and bots,
                                   described in the page's language (i18n/<lang>/games.json:
                                   each option's label, help and choice labels; the bot levels)
    GET  /table/{id}#watch=...     a spectator's page (the watch token; empty at a public table)
    POST /api/tables               create a table ({game, players, options, seats, bot_pace,
                                   public, turn_time, spectator_chat, away_level, hints}; a seat
                                   {"open": true} is left free for the lobby): returns each
                                   claimed human seat's key and link, and the watch link
    GET  /api/tables               the lobby: public unfinished tables (game, options, seats
                                   with name / bot / free / connected / away, status, moves)
    POST /api/tables/{id}/join     {seat, name[, watch]} → a free seat's key and link
    POST /api/tables/{id}/seat     {key} → the seat's message (same as the socket's)
    POST /api/tables/{id}/record   {key, format} → the seat's record; the full one once over
    POST /api/tables/{id}/replay   {key, step} → the seat's view after `step` actions
    POST /api/tables/{id}/leave    {key, bot} → a bot takes the seat; the key stops working
    POST /api/tables/{id}/review   {key, as_seat} → a finished game's review of a seat, or how far
                                   its queued search is (:mod:`.review`)
    POST /api/tables/{id}/hint     {key[, n]} → whether the table gives hints; with n (the move
                                   shown), on the seat's turn, the search's suggestion (:mod:`.hint`)
    WS   /ws/{id}                  the table's socket: first {"type": "join", "key", "lang"} (or
                                   "watch"), then act, name, chat, back, rematch, ping; the
                                   protocol, one handler per message type, is :mod:`.socket`

Keys travel in request bodies and socket messages, never in URLs.  Every
error is a JSON ``{"type": "error", "code", "message"}``; nothing a client
sends can produce a stack trace in a response.  ``message`` is in the reader's
language (:mod:`.messages` translates the engines' English refusals): an HTTP
request's (``pick_language``), a socket's from its join message's ``lang``,
else from the page's cookie / Accept-Language.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from html import escape as html_escape
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .. import i18n
from ..bots.factory import available
from ..core.errors import AtoutError, UnknownGame
from ..core.reason import Reason, reason
from ..core.registry import game_class
from ..core.rules_pages import rules_text
from .account_web import account_routes
from .chat import check_plain
from .clock import TURN_TIMES
from .hint import Hints
from .languages import LANGUAGES, chosen_language, game_texts, language_buttons, language_links, pick_language
from .limits import TOO_MANY_REQUESTS_WHY, ClientBuckets, Limits, RateLimit, client_of
from .living import Living
from .messages import ReasonContext, http_said, localize
from .messages import said as said_by
from .review import Reviewer
from .socket import BURST, MAX_MESSAGE, RATE, Sockets, parse_json, table_context
from .storage import Storage, default_url
from .tables import (
    BOT_PACES,
    DEFAULT_PACE,
    SeatSpec,
    TableError,
    TableManager,
    check_allowed_bots,
    game_catalogue,
)

log = logging.getLogger("atout.server")

#: The bot levels the creation form offers, in order (``heuristic`` is ``normal``;
#: ``search`` is for programs).
FORM_LEVELS = ("random", "easy", "normal", "hard", "expert", "master")

STATIC = resources.files("atout.server") / "static"


def is_dictionary(name: str) -> bool:
    """A dictionary a page may fetch from a language's folder: a ``.json`` file at its top
    (``table.json``, ``wizard.json``), never a rules page or a sub-folder.

    >>> [is_dictionary(n) for n in ("wizard.json", "rules/wizard.md", "..json", "__init__.py")]
    [True, False, False, False]
    """
    return i18n.is_name(name) and "/" not in name and name.endswith(".json")


def localize_catalogue(games: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """``games`` (from game_catalogue) with its texts in ``lang``; a missing text stays English.

    Option names and choice values are untouched (they are what the program accepts).
    Each option gains ``label`` (the option's name when i18n/<lang>/games.json has none: a
    test keeps that from happening), an option with choices ``choice_labels``
    ({value: label}), an option that may be unset ``none_label``; each game gains
    ``levels``, the bot levels the form offers ({name, label, help}).
    """
    texts = game_texts(lang)
    if not texts:
        return games
    bots = texts.get("bots", {})
    levels = texts.get("levels", {})
    for g in games:
        game = texts.get("games", {}).get(g["name"], {})
        g["summary"] = game.get("summary") or g["summary"]
        g["bot_help"] = {b: bots.get(b) or h for b, h in g["bot_help"].items()}
        g["levels"] = [
            {
                "name": b,
                "label": levels.get(b, {}).get("label") or b,
                "help": levels.get(b, {}).get("help") or g["bot_help"].get(b, ""),
            }
            for b in FORM_LEVELS
            if b in g["bots"]
        ]
        for o in g["options"]:
            option = game.get("options", {}).get(o["name"], {})
            o["label"] = option.get("label") or o["name"]
            o["help"] = option.get("help") or o["help"]
            if o["choices"] is not None:
                labels = option.get("choices", {})
                o["choice_labels"] = {str(c): labels.get(str(c)) or str(c) for c in o["choices"]}
            if o["none_ok"]:
                o["none_label"] = option.get("none") or "none"
    return games


def context_of(request: HTTPConnection) -> ReasonContext | None:
    context = getattr(request.state, "reason_context", None)
    return context if isinstance(context, ReasonContext) else None


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


_STATUS = {
    "not_found": 404,
    "bad_key": 403,
    "left": 403,
    "unsupported_media": 415,
    "rate_limited": 429,
    "busy": 503,
    "unavailable": 503,
}


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

    def page(name: str, request: Request) -> HTMLResponse:
        """A page of static/, its ``{{head}}`` the pages' shared head (static/head.html), in the reader's language."""
        lang = pick_language(request)
        head = (STATIC / "head.html").read_text(encoding="utf-8")
        html = (
            (STATIC / name)
            .read_text(encoding="utf-8")
            .replace("{{head}}", head)
            .replace("{{lang}}", lang)
            .replace("{{langs}}", language_buttons(lang))
        )
        return HTMLResponse(html, headers={"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie"})

    async def home(request: Request) -> Response:
        return page("index.html", request)

    async def table_page(request: Request) -> Response:
        return page("table.html", request)

    async def rules(request: Request) -> Response:
        name = request.path_params["game"]
        try:
            cls = game_class(name)
        except UnknownGame as exc:
            return error("not_found", localize(said_by(exc), pick_language(request)), 404)
        chosen = chosen_language(request)  # its language switch's links
        lang = chosen or pick_language(request)
        page = rules_text(cls.name, lang)
        if page is None:
            return PlainTextResponse(f"The rules of {cls.title} are not written yet.", status_code=404)
        body = MarkdownIt("commonmark", {"html": False}).enable("table").render(page.text)
        # The pages' shared head (a phone lays the page out at its own width), the site's bar.
        head = (STATIC / "head.html").read_text(encoding="utf-8")
        head = head.replace("<title>atout</title>", f"<title>{html_escape(cls.title)} · atout</title>")
        html = (
            f'<!doctype html><html lang="{page.lang}"><head>{head}</head><body class="rules-page">'
            '<header class="rules-bar"><a class="brand" href="/"><span class="brand-mark" aria-hidden="true">♠</span>atout</a>'
            f'<nav class="langs">{language_links(page.lang)}</nav></header>'
            f'<main class="rules">{body}</main></body></html>'
        )
        response = HTMLResponse(html)
        if chosen:  # remembered as the other pages' buttons do (lib/dom.js setLang)
            response.set_cookie("lang", chosen, max_age=31_536_000, samesite="lax")
        return response

    # The language folders as the pages read them (lib/dom.js loadStrings): a StaticFiles
    # app gives them the same ETag, Last-Modified and 304 as /static/, and only what
    # ``dictionary`` lets through reaches it (no listing, no path out, no rules page).
    dictionaries = StaticFiles(directory=str(i18n.ROOT))

    async def dictionary(request: Request) -> Response:
        lang, name = request.path_params["lang"], request.path_params["name"]
        if lang not in LANGUAGES or not is_dictionary(name):
            raise HTTPException(404)
        return await dictionaries.get_response(f"{lang}/{name}", request.scope)

    async def api_games(request: Request) -> Response:
        lang = request.query_params.get("lang", "")
        games = localize_catalogue(game_catalogue(), lang if lang in LANGUAGES else pick_language(request))
        for g in games:
            g["renderer"] = (STATIC / "games" / f"{g['name']}.js").is_file()
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

    async def read_json(request: Request) -> dict[str, Any]:
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

    async def create_table(request: Request) -> Response:
        data = await read_json(request)
        game = data.get("game")
        players = data.get("players")
        options = data.get("options") or {}
        seats = data.get("seats")
        pace = data.get("bot_pace", DEFAULT_PACE)
        if isinstance(game, str):
            request.state.reason_context = ReasonContext(game=game)
        if not isinstance(game, str) or not isinstance(players, int) or isinstance(players, bool):
            raise TableError("bad_request", reason("server.give_game"))
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise TableError("bad_request", reason("server.options_object"))
        if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
            raise TableError("bad_request", reason("server.seats_list"))
        specs = []
        for s in seats:
            bot = s.get("bot")
            name = s.get("name", "")
            if (bot is not None and not isinstance(bot, str)) or not isinstance(name, str):
                raise TableError("bad_request", reason("server.seat_object"))
            check_plain(name, name=True)
            specs.append(SeatSpec(name=name, bot=bot or None, open=s.get("open") is True and not bot))
        if not isinstance(pace, str) or pace not in BOT_PACES:
            raise TableError("bad_request", reason("server.bot_pace", known=", ".join(BOT_PACES)))
        public, spectator_chat = data.get("public", False), data.get("spectator_chat", False)
        turn_time, away_level = data.get("turn_time"), data.get("away_level")
        if not isinstance(public, bool) or not isinstance(spectator_chat, bool):
            raise TableError("bad_request", reason("server.public_bool"))
        if turn_time is not None and (isinstance(turn_time, bool) or turn_time not in TURN_TIMES):
            raise TableError("bad_request", reason("server.turn_time", known=", ".join(map(str, TURN_TIMES))))
        if away_level is not None and away_level not in FORM_LEVELS:
            raise TableError("bad_request", reason("server.away_level", known=", ".join(FORM_LEVELS)))
        with_hints = data.get("hints", False)
        if not isinstance(with_hints, bool):
            raise TableError("bad_request", reason("server.hints_bool"))
        settings, watch = living.creation_settings(public, turn_time, spectator_chat, away_level)
        if with_hints:
            settings["hints"] = True  # stored with the room's settings (server/hint.py reads it)
        if not creations.allow(client_of(request.scope)):
            raise TableError("rate_limited", reason("server.too_many_tables"))
        table_id, keys = await manager.create(game, players, options, specs, bot_pace=pace)
        await living.created(await manager.get(table_id), public, settings)
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {
                "table": table_id,
                "public": public,
                "watch": watch,
                "watch_url": f"{base}/table/{table_id}#watch={watch}",
                "seats": [
                    {"seat": seat, "key": key, "url": f"{base}/table/{table_id}#key={key}"}
                    for seat, key in sorted(keys.items())
                ],
            }
        )

    async def seat_request(request: Request) -> tuple[Any, int, dict[str, Any]]:
        data = await read_json(request)
        table = await manager.get(request.path_params["table"])
        request.state.reason_context = table_context(table)
        seat = manager.seat_for_key(table, data.get("key"))
        return table, seat, data

    async def seat_state(request: Request) -> Response:
        table, seat, _ = await seat_request(request)
        return JSONResponse(table.message(seat))

    async def record(request: Request) -> Response:
        table, seat, data = await seat_request(request)
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
        table, seat, data = await seat_request(request)
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

    async def review(request: Request) -> Response:
        table, seat, data = await seat_request(request)
        who = data.get("as_seat", seat)
        if not isinstance(who, int) or isinstance(who, bool):
            raise TableError("bad_request", reason("server.as_seat"))
        return JSONResponse(await reviewer.request(table, who, client_of(request.scope)))

    async def hint(request: Request) -> Response:
        table, seat, data = await seat_request(request)
        return JSONResponse(await hints.request(table, seat, data.get("n"), client_of(request.scope)))

    async def leave(request: Request) -> Response:
        table, seat, data = await seat_request(request)
        bots = available(table.game)
        bot = data.get("bot") or ("normal" if "normal" in bots else bots[-1])
        if not isinstance(bot, str):
            raise TableError("bad_request", reason("server.bot_name"))
        await manager.replace_with_bot(table, seat, bot)
        return JSONResponse({"ok": True})

    async def lobby(request: Request) -> Response:
        return JSONResponse({"tables": await living.lobby()}, headers={"Cache-Control": "no-store"})

    async def join_seat(request: Request) -> Response:
        data = await read_json(request)
        table = await manager.get(request.path_params["table"])
        request.state.reason_context = table_context(table)
        if not table.room.public:
            living.watch_allowed(table, data.get("watch"))
        key = await living.join_seat(table, data.get("seat"), data.get("name"))
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {"table": table.id, "seat": data["seat"], "key": key, "url": f"{base}/table/{table.id}#key={key}"}
        )

    def said(request: Request, message: str | Reason) -> str:
        return localize(message, pick_language(request), context_of(request))

    async def table_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, TableError)
        return error(exc.code, said(request, exc.message), _STATUS.get(exc.code, 400))

    async def atout_error(request: Request, exc: Exception) -> Response:
        return error("bad_request", said(request, said_by(exc)), 400)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error("http", said(request, http_said(exc.status_code, str(exc.detail))), exc.status_code)

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s", request.url.path, exc_info=exc)
        return error("internal", said(request, reason("server.internal")), 500)

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
            Route("/", home),
            Route("/table/{table}", table_page),
            Route("/rules/{game}", rules),
            Route("/i18n/{lang}/{name}", dictionary),
            Route("/api/games", api_games),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables", lobby, methods=["GET"]),
            Route("/api/tables/{table}/join", join_seat, methods=["POST"]),
            Route("/api/tables/{table}/seat", seat_state, methods=["POST"]),
            Route("/api/tables/{table}/record", record, methods=["POST"]),
            Route("/api/tables/{table}/replay", replay, methods=["POST"]),
            Route("/api/tables/{table}/leave", leave, methods=["POST"]),
            Route("/api/tables/{table}/review", review, methods=["POST"]),
            Route("/api/tables/{table}/hint", hint, methods=["POST"]),
            WebSocketRoute("/ws/{table}", sockets.endpoint),
            *account_routes(storage, page, read_json),  # optional accounts (account_web.py)
            Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
        ],
        exception_handlers={
            TableError: table_error,
            AtoutError: atout_error,
            HTTPException: http_error,
            Exception: internal_error,
        },
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
