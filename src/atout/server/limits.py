"""Limits on what a stranger can make the server do: requests, tables, bots.

Everything here is keyed by the *client address* (``scope["client"]``; behind a
reverse proxy uvicorn's ``--forwarded-allow-ips`` makes that the address the
proxy saw, docs/deploy.md): a small token bucket per address and per kind of
request, kept in a bounded LRU so that many addresses cannot grow memory
either.  One process keeps its own buckets: with several processes behind one
address each enforces the limits on the requests it serves (the effective
limit is at most the number of processes times the configured one).

:class:`Limits` gathers every knob so that ``create_app(limits=...)`` and the
``atout serve`` flags set them in one place; tests use tiny or huge values.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots.review import REVIEW_PLAYOUTS
from ..core.reason import reason

#: The refusal of a request over the limit, as data (the app renders it in the reader's
#: language) and in English (a socket's close reason, read by no person).
TOO_MANY_REQUESTS_WHY = reason("server.too_many_requests")
TOO_MANY_REQUESTS = str(TOO_MANY_REQUESTS_WHY)


@dataclass(frozen=True)
class Limits:
    """Every bound of one server process (defaults: a family server on a small machine)."""

    #: Any HTTP request or socket connection, per client address: sustained per second, burst.
    http_rate: float = 20.0
    http_burst: int = 200
    #: Record and replay downloads per client address (each replays the table).
    download_rate: float = 2.0
    download_burst: int = 30
    #: Tables created per client address: sustained per minute, burst.
    create_per_minute: float = 6.0
    create_burst: int = 10
    #: Unfinished tables this process holds at most (a creation beyond is refused).
    max_live_tables: int = 500
    #: Finished tables kept in memory when nobody watches them (older ones reload on demand).
    max_finished: int = 200
    #: Sockets open at once per client address.
    max_sockets: int = 64
    #: Bots thinking at once in this process's threads (cheap bots); search bots are
    #: bounded by the worker processes (``bot_workers``).
    max_thinking: int = 4
    #: Seconds an operator's bot (``--allow-bot py:/cmd:``) may think over one move; past
    #: it the table's fallback bot plays that move and the table is told.
    bot_move_time: float = 10.0
    #: Worker processes for search bots (hard, expert, search:N); 0: think in threads.
    bot_workers: int = 1
    #: Client addresses remembered per bucket kind (least recently seen forgotten first).
    max_clients: int = 10_000
    #: Playouts the search spends on each decision of a game review and on each hint: a
    #: slow machine may spend fewer (weaker advice, sooner).
    review_playouts: int = REVIEW_PLAYOUTS


class TokenBucket:
    """``burst`` tokens, refilled at ``rate`` per second; one token per request."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until the next token (for the ``Retry-After`` header)."""
        return 0.0 if self.tokens >= 1 or self.rate <= 0 else (1 - self.tokens) / self.rate


class ClientBuckets:
    """One :class:`TokenBucket` per client address, at most ``max_clients`` of them."""

    def __init__(self, rate: float, burst: int, max_clients: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, client: str) -> TokenBucket:
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = TokenBucket(self.rate, self.burst)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(client)
        return bucket

    def allow(self, client: str) -> bool:
        return self.bucket(client).allow()


def client_of(scope: Any) -> str:
    """The client's address as the ASGI server reports it (``"?"`` when it does not)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


#: Paths whose requests also take a token from the download bucket.
DOWNLOAD_SUFFIXES = ("/record", "/replay")


class RateLimit:
    """ASGI middleware: every HTTP request and socket connection takes a token of its client.

    A request over the limit gets ``429`` with a JSON error and ``Retry-After``;
    a socket connection over it is accepted and then closed with code 1008 (policy
    violation) and the reason, as the per-address socket limit does: refused at the
    handshake, a browser would see only code 1006 and no reason, and retry as if the
    network had failed.  Record and replay downloads take from their own,
    smaller bucket as well.
    """

    def __init__(self, app: Any, limits: Limits, say: Callable[[Any], str] | None = None) -> None:
        self.app = app
        #: The refusal in the request's language (the app passes its translator).
        self.say = say or (lambda _scope: TOO_MANY_REQUESTS)
        self.requests = ClientBuckets(limits.http_rate, limits.http_burst, limits.max_clients)
        self.downloads = ClientBuckets(limits.download_rate, limits.download_burst, limits.max_clients)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        bucket = self.requests.bucket(client)
        allowed = bucket.allow()
        path = str(scope.get("path", ""))
        if (
            allowed
            and kind == "http"
            and path.startswith("/api/tables/")
            and path.endswith(DOWNLOAD_SUFFIXES)
        ):
            bucket = self.downloads.bucket(client)
            allowed = bucket.allow()
        if allowed:
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            connect = await receive()  # the ASGI order: the connect event, then accept
            if connect.get("type") == "websocket.connect":
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": 1008, "reason": TOO_MANY_REQUESTS})
            return
        message = self.say(scope)
        body = json.dumps({"type": "error", "code": "rate_limited", "message": message}).encode()
        wait = max(1, round(bucket.retry_after() + 0.5))
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", str(wait).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
