"""Each socket's outgoing messages: a bounded queue and one task that writes them.

Why: a table tells its sockets of every change one after another, under the
table's lock.  Awaiting each socket's write there lets one peer that does not
read (its TCP window full, the server's write buffer above its high-water mark)
hold the lock, and with it the whole table, for as long as it likes (issue 28: a
spectator that never read froze a human's table for 50 s).  So a table never
writes to a socket: it *puts* the message in the socket's :class:`Outbox`, which
never waits, and the socket's own task writes it.

A socket that falls behind is dropped, never waited for:

* more than :data:`QUEUE_LIMIT` messages waiting (it has not drained what was
  sent before them): :meth:`Outbox.put` raises :class:`SlowSocket` (the table
  forgets that socket, as it forgets a closed one);
* one write that does not finish within :data:`SEND_TIMEOUT` seconds: the same.

Either way the socket is closed with code 1008 and :data:`SLOW` as its reason when
the close frame can still be written (a peer that reads slowly will see it); the
handler stops reading it (:meth:`Outbox.receive` returns a disconnect).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any, Protocol

log = logging.getLogger("atout.server")

#: Messages one socket may have waiting; a reader keeping up has none or one.
QUEUE_LIMIT = 128
#: Seconds one write may take before the socket counts as not reading.
SEND_TIMEOUT = 5.0
#: Seconds given to the close frame of a socket dropped as too slow.
CLOSE_TIMEOUT = 1.0
#: Close code and reason of a socket that did not read its messages.
SLOW_CODE = 1008
SLOW = "this connection did not read its messages in time: closed"


class SlowSocket(Exception):
    """The socket is closed or being closed: nothing more is sent to it."""


class Writable(Protocol):
    """What the outbox needs of a socket (Starlette's ``WebSocket`` has it)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...

    async def receive(self) -> Any: ...


class Outbox:
    """The messages waiting for one socket, written in order by :meth:`run`'s task."""

    def __init__(
        self, ws: Writable, limit: int = QUEUE_LIMIT, timeout: float = SEND_TIMEOUT, name: str = ""
    ) -> None:
        self.ws = ws
        self.limit = limit
        self.timeout = timeout
        self.name = name
        #: Each entry: the text to send, and the close code to send after it (None: none).
        self._queue: deque[tuple[str | None, int | None, str]] = deque()
        self._ready = asyncio.Event()
        #: Set once the socket is dropped (too slow) or closed by the server.
        self.closed = asyncio.Event()
        #: Why it was dropped, if it was (``None``: closed normally or still open).
        self.dropped: str | None = None
        self._task: asyncio.Task[None] | None = None
        #: A close frame is queued: :meth:`stop` lets it be written (bounded).
        self._closing = False

    def start(self) -> None:
        self._task = asyncio.create_task(self.run())

    def put(self, text: str | None, close: int | None = None, reason: str = "") -> None:
        """Queue ``text`` (then a close frame with code ``close``; no text: the close alone); never waits.

        :class:`SlowSocket` when the socket is closed or has :attr:`limit` messages
        waiting already: it is then dropped (closed with :data:`SLOW_CODE`).
        """
        if self.closed.is_set():
            raise SlowSocket(self.dropped or "closed")
        if len(self._queue) >= self.limit:
            self._drop(f"{len(self._queue)} messages waiting")
            raise SlowSocket(SLOW)
        self._queue.append((text, close, reason))
        self._closing = self._closing or close is not None
        self._ready.set()

    def _drop(self, why: str) -> None:
        if self.closed.is_set():
            return
        log.warning("socket %s dropped: it does not read its messages (%s)", self.name, why)
        self.dropped = SLOW
        self._queue.clear()
        self.closed.set()
        self._ready.set()

    async def run(self) -> None:
        """Write the queued messages in order; on a dropped socket, try its close frame."""
        try:
            while not self.closed.is_set():
                if not self._queue:
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                text, close, reason = self._queue.popleft()
                try:
                    if text is not None:
                        await asyncio.wait_for(self.ws.send_text(text), self.timeout)
                except TimeoutError:
                    self._drop(f"a write took over {self.timeout:g} s")
                    break
                if close is not None:
                    self.closed.set()
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.ws.close(close, reason), CLOSE_TIMEOUT)
                    return
            if self.dropped is not None:
                # The close frame waits behind what the peer has not read: bounded, so a
                # peer that never reads costs this task one second, and nobody else anything.
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(SLOW_CODE, SLOW), CLOSE_TIMEOUT)
        except Exception:  # the peer went away: the handler sees its disconnect
            self.closed.set()

    async def receive(self) -> Any:
        """The socket's next frame, or a disconnect as soon as the socket is dropped."""
        if self.closed.is_set():
            return {"type": "websocket.disconnect", "code": SLOW_CODE}
        frame = asyncio.ensure_future(self.ws.receive())
        gone = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({frame, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
        if frame.done():
            return frame.result()
        frame.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await frame
        return {"type": "websocket.disconnect", "code": SLOW_CODE}

    async def stop(self) -> None:
        """Stop writing (the handler ends).

        A queued close (and what precedes it: the ``left`` message) or the close frame
        of a dropped socket is given its bounded time; other queued messages are not sent.
        """
        if self._task is not None:
            if self._closing or self.dropped is not None:
                await asyncio.wait({self._task}, timeout=self.timeout + CLOSE_TIMEOUT)
            self.closed.set()
            self._ready.set()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
