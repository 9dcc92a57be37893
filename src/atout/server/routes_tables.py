"""The tables' JSON API: the games on offer, creating a table, the lobby, taking and leaving a seat.

Why a module of its own: this is where a stranger makes the server hold something
(a table, a seat, bots playing), so every field of a request is checked here, in one
place, before :class:`~.tables.TableManager` or :class:`~.living.Living` sees it, and
creation is bounded per address.

    GET  /api/games[?lang=de]      the games, their options (Game.option_specs) and bots,
                                   described in the page's language (i18n/<lang>/games.json:
                                   each option's label, help and choice labels; the bot levels);
                                   served by :mod:`.app`
    POST /api/tables               create a table ({game, players, options, seats, bot_pace,
                                   public, turn_time, spectator_chat, away_level, hints}; a seat
                                   {"open": true} is left free for the lobby): returns each
                                   claimed human seat's key and link, and the watch link
    GET  /api/tables               the lobby: public unfinished tables (game, options, seats
                                   with name / bot / free / connected / away, status, moves)
    POST /api/tables/{id}/join     {seat, name[, watch]} → a free seat's key and link
    POST /api/tables/{id}/seat     {key} → the seat's message (same as the socket's)
    POST /api/tables/{id}/leave    {key, bot} → a bot takes the seat; the key stops working
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..bots.factory import available
from ..core.reason import reason
from .chat import check_plain
from .clock import TURN_TIMES
from .languages import game_texts
from .limits import ClientBuckets, client_of
from .living import Living
from .messages import ReasonContext
from .tables import BOT_PACES, DEFAULT_PACE, SeatSpec, TableError, TableManager
from .web import read_json, seat_request, table_request

#: The bot levels the creation form offers, in order (``heuristic`` is ``normal``;
#: ``search`` is for programs).
FORM_LEVELS = ("random", "easy", "normal", "hard", "expert", "master")


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


def seat_specs(seats: Any) -> list[SeatSpec]:
    """The creation request's ``seats``: a list of ``{name, bot, open}`` objects, names plain text."""
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
    return specs


def room_fields(data: dict[str, Any]) -> tuple[bool, Any, bool, Any, bool]:
    """The creation request's room settings, checked: public, turn_time, spectator_chat,
    away_level and hints."""
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
    return public, turn_time, spectator_chat, away_level, with_hints


def table_routes(manager: TableManager, living: Living, creations: ClientBuckets) -> list[BaseRoute]:
    """The routes above but ``/api/games``, on ``manager`` and ``living``; ``creations``
    bounds the tables each address creates."""

    async def create_table(request: Request) -> Response:
        data = await read_json(request)
        game = data.get("game")
        players = data.get("players")
        options = data.get("options") or {}
        pace = data.get("bot_pace", DEFAULT_PACE)
        if isinstance(game, str):
            request.state.reason_context = ReasonContext(game=game)
        if not isinstance(game, str) or not isinstance(players, int) or isinstance(players, bool):
            raise TableError("bad_request", reason("server.give_game"))
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise TableError("bad_request", reason("server.options_object"))
        specs = seat_specs(data.get("seats"))
        if not isinstance(pace, str) or pace not in BOT_PACES:
            raise TableError("bad_request", reason("server.bot_pace", known=", ".join(BOT_PACES)))
        public, turn_time, spectator_chat, away_level, with_hints = room_fields(data)
        settings, watch = living.creation_settings(public, turn_time, spectator_chat, away_level)
        if with_hints:
            settings["hints"] = True  # stored with the room's settings (server/hint.py reads it)
        if not creations.allow(client_of(request.scope)):
            raise TableError("rate_limited", reason("server.too_many_tables"))
        table_id, keys = await manager.create(manager.plan(game, players, options, specs, bot_pace=pace))
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

    async def lobby(request: Request) -> Response:
        return JSONResponse({"tables": await living.lobby()}, headers={"Cache-Control": "no-store"})

    async def join_seat(request: Request) -> Response:
        table, data = await table_request(manager, request)
        if not table.room.public:
            living.watch_allowed(table, data.get("watch"))
        key = await living.join_seat(table, data.get("seat"), data.get("name"))
        base = str(request.base_url).rstrip("/")
        return JSONResponse(
            {"table": table.id, "seat": data["seat"], "key": key, "url": f"{base}/table/{table.id}#key={key}"}
        )

    async def seat_state(request: Request) -> Response:
        table, seat, _ = await seat_request(manager, request)
        return JSONResponse(table.message(seat))

    async def leave(request: Request) -> Response:
        table, seat, data = await seat_request(manager, request)
        bots = available(table.game)
        bot = data.get("bot") or ("normal" if "normal" in bots else bots[-1])
        if not isinstance(bot, str):
            raise TableError("bad_request", reason("server.bot_name"))
        await manager.replace_with_bot(table, seat, bot)
        return JSONResponse({"ok": True})

    return [
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", lobby, methods=["GET"]),
        Route("/api/tables/{table}/join", join_seat, methods=["POST"]),
        Route("/api/tables/{table}/seat", seat_state, methods=["POST"]),
        Route("/api/tables/{table}/leave", leave, methods=["POST"]),
    ]
