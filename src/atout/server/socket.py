"""The table's socket protocol: one connection record, one handler per message type.

Why a module of its own: the protocol is the server's largest surface for a
stranger's input, and its rules (what a connection may do before joining, as a
spectator, after its seat was handed over) read best in one place, each message
type beside its handler, rather than as branches of one long closure in
:mod:`.app`.

A socket (``WS /ws/{table}``) sends JSON text frames, first
``{"type": "join", "key": ..., "lang": "fr"}`` (a spectator: ``{"watch":
token-or-true}`` instead of the key; ``"living": true`` asks for presence events,
the chat and clock refreshes, :mod:`.living`), then any of :data:`HANDLERS`:
``act`` ``{"action": "play B7", "n": 12}``, ``name``, ``chat``, ``back``,
``rematch``, ``ping``.

* A :class:`Connection` is everything one socket is: its outbox (every message it
  is sent is queued there, so a table never waits on it), its rate limit, its
  language, and once joined its table, seat and the key it joined with.  The
  connection itself is what a table knows of the socket (a
  :data:`~.tables.Sender`: calling it queues a message).
* :class:`Sockets` accepts a socket (at most ``limits.max_sockets`` per address),
  reads its frames, refuses what is not a small JSON object, and hands each message
  to the handler of its ``type``.
* A refusal is ``{"type": "error", "code", "message"}`` in the socket's language;
  a rules engine's refusal adds ``reason`` (its key and parameters as data).  A
  move is judged once, by the engine applying it (:meth:`.TableManager.act`): the
  engine's refusal, data, is what the socket is sent, and the table is unchanged.
* A seat handed over to a bot (``left``) is told so and its socket closed (4001).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..core.reason import Reason, reason
from . import lessons
from .chat import check_plain
from .languages import LANGUAGES, pick_language
from .limits import Limits, TokenBucket, client_of
from .living import Living
from .messages import ReasonContext, localize
from .outbox import Outbox, SlowSocket
from .roomsync import SPECTATOR
from .tables import LEFT_WHY, LiveTable, TableError, TableManager, hash_key

log = logging.getLogger("atout.server")

#: Largest socket message or request body accepted (bytes).
MAX_MESSAGE = 4096
#: Per-connection rate limit: a bucket of BURST messages refilled at RATE per second.
RATE = 10.0
BURST = 30
#: Close code of a socket whose seat was handed over (after its ``left`` message).
LEFT_CODE = 4001


def parse_json(raw: str | bytes) -> Any:
    """``json.loads``, with nesting too deep for the parser a ``ValueError`` like any bad JSON."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def table_context(table: LiveTable) -> ReasonContext:
    """What the messages about ``table`` are rendered with: its game and seat names."""
    return ReasonContext(game=table.game.name, names=tuple(table.seat_names()))


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(eq=False)  # compared and hashed by identity: tables keep it in sets
class Connection:
    """One socket: how to reach it, its limits and language, and what it joined.

    Calling it sends a message (queued: never waits), which makes the connection
    itself the :data:`~.tables.Sender` a table keeps for it, the same object from
    join to close.
    """

    ws: WebSocket
    outbox: Outbox
    limiter: TokenBucket
    #: The language of this socket's messages: the page's, until the join message says.
    lang: str
    table: LiveTable | None = None
    seat: int = SPECTATOR
    #: A spectator's name for the chat (checked when it is used).
    spectator_name: object = None
    context: ReasonContext | None = None
    #: The key this socket joined with: its seat must still have it at every action.
    key_hash: str | None = None

    async def __call__(self, message: dict[str, Any]) -> None:
        """Queue ``message``; :class:`SlowSocket` once the socket is dropped or closed."""
        if self.ws.application_state != WebSocketState.CONNECTED:
            raise SlowSocket("closed")
        if message.get("type") == "left":  # the seat was handed over: say so, then close
            message = {**message, "message": localize(LEFT_WHY, self.lang, self.context)}
            self.outbox.put(encode(message), close=LEFT_CODE)
            return
        self.outbox.put(encode(message))

    async def refuse(self, code: str, message: str | Reason, why: Reason | None = None) -> None:
        """An error message in this socket's language.

        Rendered here, by the server's one renderer (it knows the seats' names and
        the cards'); a rules engine's refusal (``why``) is sent as data too (its key
        and parameters) for a client that wants them.
        """
        log.debug("socket %s: refused (%s)", self.name, code)
        text = localize(message, self.lang, self.context)
        if why is None:
            await self({"type": "error", "code": code, "message": text})
            return
        await self({"type": "error", "code": code, "message": text, "reason": why.to_dict()})

    @property
    def name(self) -> str:
        """This socket in the server's log: its address and a number telling it from the others."""
        return f"{self.outbox.name}#{id(self) % 100000:05d}"

    def joined(self) -> LiveTable:
        """The table this socket joined (its seat names refreshed: players sit down); else refused."""
        if self.table is None:
            raise TableError("not_joined", reason("server.join_first"))
        self.context = table_context(self.table)
        return self.table

    def player(self) -> LiveTable:
        """The table, for a message only a seat's player may send (not a spectator)."""
        table = self.joined()
        if self.seat == SPECTATOR:
            raise TableError("spectator", reason("server.spectators_cannot_play"))
        return table


class Sockets:
    """The socket endpoint of one app: its tables, living rooms and limits."""

    def __init__(
        self, manager: TableManager, living: Living, limits: Limits, rate: float = RATE, burst: int = BURST
    ) -> None:
        self.manager = manager
        self.living = living
        self.limits = limits
        self.rate = rate
        self.burst = burst
        #: Sockets open per client address (at most ``limits.max_sockets`` each).
        self.open: dict[str, int] = {}

    async def endpoint(self, ws: WebSocket) -> None:
        """The route: a socket over its address's bound is closed (1008, with the reason)."""
        client = client_of(ws.scope)
        if self.open.get(client, 0) >= self.limits.max_sockets:
            # Accepted, then closed with 1008 and the reason: refused at the handshake, a
            # browser would see only code 1006 and no reason, and retry as if the network failed.
            await ws.accept()
            await ws.close(code=1008, reason="too many connections from this address")
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.serve(ws)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def serve(self, ws: WebSocket) -> None:
        """Read the socket's messages until it closes, each one handled in turn."""
        await ws.accept()
        conn = Connection(
            ws, Outbox(ws, name=client_of(ws.scope)), TokenBucket(self.rate, self.burst), pick_language(ws)
        )
        conn.outbox.start()
        log.debug("socket %s: open", conn.name)
        try:
            while True:
                frame = await conn.outbox.receive()
                if frame["type"] == "websocket.disconnect":
                    log.debug("socket %s: closed (%s)", conn.name, frame.get("code"))
                    break
                data = await self.read(conn, frame.get("text"))
                if data is not None and not await self.handle(conn, data):
                    break
        except (WebSocketDisconnect, SlowSocket):
            pass
        except Exception:
            log.exception("socket error")
            with contextlib.suppress(Exception):
                await conn.refuse("internal", reason("server.internal"))
                conn.outbox.put(None, close=1011, reason="internal error")
        finally:
            if conn.table is not None:
                self.living.detach(conn.table, conn.seat, conn)
            await conn.outbox.stop()

    async def read(self, conn: Connection, text: object) -> dict[str, Any] | None:
        """The frame's message, or ``None`` once it is refused (rate, type, size, JSON)."""
        if not conn.limiter.allow():
            await conn.refuse("rate_limited", reason("server.too_many_messages"))
        elif not isinstance(text, str):
            await conn.refuse("bad_request", reason("server.text_frames"))
        elif len(text.encode("utf-8", "replace")) > MAX_MESSAGE:
            await conn.refuse("too_large", reason("server.message_too_large", n=MAX_MESSAGE))
        else:
            try:
                data = parse_json(text)
            except ValueError:
                data = None
            if isinstance(data, dict):
                return data
            await conn.refuse("bad_request", reason("server.message_object"))
        return None

    async def handle(self, conn: Connection, data: dict[str, Any]) -> bool:
        """Run the handler of ``data``'s type; False when the socket must close (its seat was handed over)."""
        kind = data.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if log.isEnabledFor(logging.DEBUG):  # (`atout serve --log-level debug`: the tests' servers)
            table = f" table {conn.table.id} seat {conn.seat} at {conn.table.n}" if conn.table else ""
            move = f" {str(data.get('action'))[:40]!r} at {str(data.get('n'))[:12]}" if kind == "act" else ""
            log.debug("socket %s: %s%s%s", conn.name, str(kind)[:20], move, table)
        try:
            if handler is None:
                raise TableError("bad_request", reason("server.unknown_type"))
            await handler(self, conn, data)
        except TableError as exc:
            if exc.code == "left" and conn.table is not None:
                left = {"type": "left", "table": conn.table.id, "seat": conn.seat, "code": "left"}
                await conn({**left, "message": exc.message})
                return False
            await conn.refuse(exc.code, exc.message, exc.reason)
        return True


# -- one handler per message type ---------------------------------------------------------


async def on_join(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """Join a seat with its key, or watch (``watch``: the watch link's token, or true at a public table)."""
    if data.get("lang") in LANGUAGES:
        conn.lang = data["lang"]
    if conn.table is not None:
        raise TableError("bad_request", reason("server.already_joined"))
    table = await sockets.manager.get(conn.ws.path_params["table"])
    conn.context = table_context(table)
    if "watch" in data and data.get("key") is None:
        sockets.living.watch_allowed(table, data.get("watch"))
        conn.seat = SPECTATOR
    else:
        conn.seat = sockets.manager.seat_for_key(table, data.get("key"))
        conn.key_hash = hash_key(data["key"])
    conn.spectator_name = data.get("name")
    try:
        await sockets.living.attach(
            table, conn.seat, conn, living=data.get("living") is True, key_hash=conn.key_hash
        )
    except SlowSocket:  # dropped while joining: forget it as if it had joined
        sockets.living.detach(table, conn.seat, conn)
        raise
    conn.table = table


async def on_act(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """Play an action (its text) for the seat; ``n``, the move count it was chosen at, refuses it if stale."""
    table = conn.player()
    TableManager.check_holder(table, conn.seat, conn.key_hash)
    lessons.judge(table, conn.seat, data.get("action"))  # a lesson's learner plays its script
    await sockets.living.play(  # back from away, if they were
        table,
        conn.seat,
        lambda: sockets.manager.act(table, conn.seat, data.get("action"), data.get("n"), conn.key_hash),
    )


async def on_name(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """Rename the seat (plain text only)."""
    table = conn.player()
    if isinstance(data.get("name"), str):
        check_plain(data["name"], name=True)
    await sockets.manager.rename(table, conn.seat, data.get("name"), conn.key_hash)


async def on_chat(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """A chat line (a spectator's too, where the table allows it); each speaker has a rate limit."""
    table = conn.joined()
    speaker = conn.seat if conn.seat >= 0 else id(conn)
    await sockets.living.say(table, conn.seat, speaker, data.get("text"), conn.spectator_name)


async def on_back(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """The player takes their seat back from the away bot."""
    table = conn.player()
    TableManager.check_holder(table, conn.seat, conn.key_hash)
    await sockets.living.back(table, conn.seat)


async def on_rematch(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    """A vote for another game at the same seats (the game must be over)."""
    await sockets.living.rematch(conn.player(), conn.seat)


async def on_ping(sockets: Sockets, conn: Connection, data: dict[str, Any]) -> None:
    await conn({"type": "pong"})


Handler = Callable[[Sockets, Connection, dict[str, Any]], Awaitable[None]]

#: The handler of each message type a socket may send.
HANDLERS: dict[str, Handler] = {
    "join": on_join,
    "act": on_act,
    "name": on_name,
    "chat": on_chat,
    "back": on_back,
    "rematch": on_rematch,
    "ping": on_ping,
}
