"""The accounts' pages and API, mounted by :func:`.app.create_app` (:func:`account_routes`).

Routes::

    GET  /account                     sign up / sign in / settings page
    GET  /u/{name}                    a profile page; 404 for no such account, 403 (a page
                                      saying why) for a private one not yours
    GET  /leaderboard/{game}          a game's leaderboard page
                                      (the three are static/account.html, one view shown each)
    POST /api/account/signup          {name, password} → the account; signed in (cookie)
    POST /api/account/signin          {name, password} → the account; signed in (cookie)
    POST /api/account/signout         ends this session
    GET  /api/account/me              {"account": {name, public, leaderboard} or null}
    POST /api/account/settings        {public, leaderboard} → the account
    POST /api/account/claim           {table, key} → the seat becomes the signed-in account's
    POST /api/account/seat            {table, key} → {seat, owner}: whose the seat is ("me",
                                      "other" or null), for the table page's offer to claim it
    GET  /api/account/games           the signed-in account's games, with their seats' keys
    GET  /api/account/result/{table}  the signed-in account's figures and rating change there
    GET  /api/account/ratings/{table} the rating changes at a finished table the reader may see
                                      (their own, public profiles'), for its final ranking
    GET  /api/profile/{name}          a profile's figures, ratings and games (the owner's: with keys)
    GET  /api/leaderboard/{game}      the opted-in accounts' ratings in a game, and the bot levels'

Errors are the API's ``{"type": "error", "code", "message"}``; the pages show each
``code`` in the reader's language (i18n/<lang>/account.json ``err_<code>``).
Sign-in attempts are limited per address and per account name, sign-ups per address
(:class:`AccountLimits`): token buckets kept in the database (:mod:`.attempts`), so
that several server processes on one database share them (in-process buckets would
give an attacker one allowance per process).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from anyio import CapacityLimiter, to_thread
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.errors import UnknownGame
from ..core.reason import reason
from ..core.registry import game_class
from . import accounts, profiles
from .accounts import Account
from .attempts import StoredBuckets
from .languages import pick_language
from .limits import client_of
from .messages import localize
from .storage import Storage
from .tables import TableError

COOKIE = "atout_session"


@dataclass(frozen=True)
class AccountLimits:
    """Sign-in attempts per address and per account name, sign-ups per address (each a burst,
    refilled over an hour), and the password hashes computed at once."""

    signin_per_address: int = 20
    signin_per_account: int = 5
    signups_per_address: int = 5
    #: Password hashes computed at once (each takes argon2's 64 MiB).
    hashes_at_once: int = 2
    #: Buckets kept per kind (the oldest beyond are forgotten: :mod:`.attempts`).
    max_clients: int = 10_000


#: HTTP status of the refusals (400 otherwise).
_STATUS = {
    "bad_login": 401,
    "signed_out": 401,
    "bad_key": 403,
    "private": 403,
    "not_found": 404,
    "owned": 409,
    "name_taken": 409,
    "name_lookalike": 409,
    "unsupported_media": 415,
    "rate_limited": 429,
}


def _refusal(code: str, message: str) -> JSONResponse:
    return JSONResponse(
        {"type": "error", "code": code, "message": message}, status_code=_STATUS.get(code, 400)
    )


def _answering(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """``handler`` with its :class:`TableError` answered here, by code (the pages translate the
    codes; the server's message, in the reader's language, is sent along for programs)."""

    async def answer(request: Request) -> Response:
        try:
            return await handler(request)
        except TableError as exc:
            return _refusal(exc.code, localize(exc.message, pick_language(request)))

    return answer


def account_routes(
    storage: Storage,
    page: Callable[[str, Request], HTMLResponse],
    read_json: Callable[[Request], Awaitable[dict[str, Any]]],
    limits: AccountLimits | None = None,
) -> list[BaseRoute]:
    """The routes above, on ``storage``; ``page`` and ``read_json`` are the app's (one way to serve
    a static page and to read a JSON body)."""
    limits = limits or AccountLimits()
    accounts.ensure_tables(storage)

    def buckets(kind: str, burst: int) -> StoredBuckets:
        """``burst`` attempts, refilled over an hour, shared with the other processes."""
        return StoredBuckets(storage, kind, burst / 3600, burst, limits.max_clients)

    per_address = buckets("signin_addr", limits.signin_per_address)
    per_account = buckets("signin_name", limits.signin_per_account)
    signups = buckets("signup_addr", limits.signups_per_address)

    def view(name: str, request: Request, status: int = 200) -> Response:
        """static/account.html showing its view ``name`` (one page, three views)."""
        body = bytes(page("account.html", request).body).replace(b"{{view}}", name.encode())
        return HTMLResponse(
            body, status_code=status, headers={"Cache-Control": "no-store", "Vary": "Accept-Language, Cookie"}
        )

    async def db(call: Callable[[], Any]) -> Any:
        return await to_thread.run_sync(call)

    # An argon2 hash takes 64 MiB and tens of milliseconds: a few at once, whatever the
    # number of sign-in requests (the others wait their turn, they do not add memory).
    hashing = CapacityLimiter(limits.hashes_at_once)

    async def hashed(call: Callable[[], Any]) -> Any:
        return await to_thread.run_sync(call, limiter=hashing)

    async def current(request: Request) -> Account | None:
        token = request.cookies.get(COOKIE)
        return await db(lambda: accounts.session_account(storage, token)) if token else None

    async def signed_in(request: Request) -> Account:
        account = await current(request)
        if account is None:
            raise TableError("signed_out", reason("server.sign_in_first"))
        return account

    async def start_session(request: Request, account: Account) -> Response:
        token = await db(lambda: accounts.open_session(storage, account))
        response = JSONResponse({"account": account.to_dict()})
        response.set_cookie(
            COOKIE,
            token,
            max_age=accounts.SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return response

    async def signup(request: Request) -> Response:
        data = await read_json(request)
        accounts.clean_account_name(data.get("name"))  # a refused name or password takes no sign-up
        accounts.check_password(data.get("password"))
        client = client_of(request.scope)
        if not await db(lambda: signups.allow(client)):
            raise TableError("rate_limited", reason("server.too_many_accounts"))
        account = await hashed(
            lambda: accounts.create_account(storage, data.get("name"), data.get("password"))
        )
        return await start_session(request, account)

    async def signin(request: Request) -> Response:
        data = await read_json(request)
        name = data.get("name")
        folded = accounts.fold(name) if isinstance(name, str) else ""
        # Both buckets are taken from on every attempt: an address cannot try many names,
        # and many addresses cannot try many passwords of one name.
        client = client_of(request.scope)
        address_ok = await db(lambda: per_address.allow(client))
        if not (await db(lambda: per_account.allow(folded)) and address_ok):
            raise TableError("rate_limited", reason("server.too_many_sign_ins"))
        account = await hashed(lambda: accounts.authenticate(storage, name, data.get("password")))
        if account is None:
            raise TableError("bad_login", reason("server.wrong_login"))
        return await start_session(request, account)

    async def signout(request: Request) -> Response:
        await read_json(request)  # JSON only, as every POST here: no other site's form can send it
        token = request.cookies.get(COOKIE)
        await db(lambda: accounts.close_session(storage, token))
        response = JSONResponse({"account": None})
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
        return response

    async def me(request: Request) -> Response:
        account = await current(request)
        return JSONResponse(
            {"account": account.to_dict() if account else None}, headers={"Cache-Control": "no-store"}
        )

    async def settings(request: Request) -> Response:
        account = await signed_in(request)
        data = await read_json(request)
        changed = await db(
            lambda: accounts.set_privacy(storage, account, data.get("public"), data.get("leaderboard"))
        )
        return JSONResponse({"account": changed.to_dict()})

    async def claim(request: Request) -> Response:
        account = await signed_in(request)
        data = await read_json(request)
        seat = await db(lambda: accounts.claim(storage, account, data.get("table"), data.get("key")))
        return JSONResponse({"table": data["table"], "seat": seat})

    async def seat(request: Request) -> Response:
        account = await signed_in(request)
        data = await read_json(request)
        number, owner = await db(
            lambda: accounts.seat_owner(storage, account, data.get("table"), data.get("key"))
        )
        return JSONResponse({"seat": number, "owner": owner})

    async def games_of(account: Account, owner: bool) -> list[dict[str, Any]]:
        def read() -> list[dict[str, Any]]:
            profiles.settle(storage)
            return [g.to_dict(owner) for g in accounts.owned_games(storage, account.id)]

        games: list[dict[str, Any]] = await db(read)
        return games

    async def my_games(request: Request) -> Response:
        account = await signed_in(request)
        return JSONResponse({"games": await games_of(account, True)}, headers={"Cache-Control": "no-store"})

    async def my_result(request: Request) -> Response:
        account = await signed_in(request)
        table = request.path_params["table"]

        def read() -> tuple[int, dict[str, Any] | None] | None:
            profiles.settle(storage)
            return accounts.owned_result(storage, account.id, table)

        found = await db(read)
        if found is None:
            raise TableError("not_found", reason("server.no_owned_seat"))
        return JSONResponse({"seat": found[0], "result": found[1]}, headers={"Cache-Control": "no-store"})

    async def table_ratings(request: Request) -> Response:
        reader = await current(request)
        table = request.path_params["table"]

        def read() -> list[dict[str, Any]]:
            profiles.settle(storage)
            return accounts.table_ratings(storage, table, reader)

        return JSONResponse({"ratings": await db(read)}, headers={"Cache-Control": "no-store"})

    async def visible(request: Request) -> tuple[Account, bool]:
        """The profile asked for, and whether the reader is its owner; refused as :class:`TableError`."""
        name = request.path_params["name"]
        account = await db(lambda: accounts.find(storage, name))
        if account is None:
            raise TableError("not_found", reason("server.no_such_account"))
        reader = await current(request)
        owner = reader is not None and reader.id == account.id
        if not account.public and not owner:
            raise TableError("private", reason("server.private_profile"))
        return account, owner

    async def profile(request: Request) -> Response:
        account, owner = await visible(request)
        games = await games_of(account, owner)
        ratings = await db(lambda: profiles.ratings_of(storage, account.id))
        return JSONResponse(
            {
                "account": account.to_dict(),
                "owner": owner,
                "summary": profiles.summary(games),
                "ratings": ratings,
                "games": games,
            },
            headers={"Cache-Control": "no-store"},
        )

    async def profile_page(request: Request) -> Response:
        status = 200
        try:
            await visible(request)
        except TableError as exc:
            status = _STATUS[exc.code]
        return view("profile", request, status)

    def known_game(request: Request) -> str:
        try:
            return game_class(request.path_params["game"]).name
        except UnknownGame:
            raise TableError("not_found", reason("server.no_such_game")) from None

    async def leaderboard(request: Request) -> Response:
        game = known_game(request)

        def read() -> list[dict[str, Any]]:
            profiles.settle(storage)
            return profiles.leaderboard(storage, game)

        return JSONResponse({"game": game, "entries": await db(read)}, headers={"Cache-Control": "no-store"})

    async def leaderboard_page(request: Request) -> Response:
        known_game(request)
        return view("leaderboard", request)

    async def account_page(request: Request) -> Response:
        return view("account", request)

    routes = [
        Route("/account", account_page),
        Route("/u/{name}", profile_page),
        Route("/leaderboard/{game}", leaderboard_page),
        Route("/api/account/signup", signup, methods=["POST"]),
        Route("/api/account/signin", signin, methods=["POST"]),
        Route("/api/account/signout", signout, methods=["POST"]),
        Route("/api/account/me", me),
        Route("/api/account/settings", settings, methods=["POST"]),
        Route("/api/account/claim", claim, methods=["POST"]),
        Route("/api/account/seat", seat, methods=["POST"]),
        Route("/api/account/games", my_games),
        Route("/api/account/result/{table}", my_result),
        Route("/api/account/ratings/{table}", table_ratings),
        Route("/api/profile/{name}", profile),
        Route("/api/leaderboard/{game}", leaderboard),
    ]
    return [Route(r.path, _answering(r.endpoint), methods=r.methods) for r in routes]
