"""No socket can freeze a table (issue 28): over real loopback sockets, a spectator that
never reads and a flood of spectator sockets opening and closing do not delay a human.

The stuck spectator is a raw socket with a tiny receive buffer that sends its join
and never reads again: the server's writes to it stop completing once the kernel's
and the transport's buffers are full.  Before per-socket outboxes the table's
broadcast awaited that write under the table's lock, and the human's next update
waited with it (50 s in the issue's measurement).
"""

from __future__ import annotations

import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from atout.server import create_app
from atout.server.limits import Limits

#: The most a human may wait between two updates of a table whose bots move every 0.05 s
#: (generous: the machine running the tests may be busy).
BOUND = 2.0
#: How long the stuck reader and the flood run.
DURATION = 10.0


def masked_frame(text: str) -> bytes:
    """One client-to-server text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    header = bytearray([0x81])
    if len(payload) < 126:
        header.append(0x80 | len(payload))
    else:
        header.append(0x80 | 126)
        header += len(payload).to_bytes(2, "big")
    return bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def stuck_reader(port: int, table: str, watch: str) -> socket.socket:
    """A spectator that joins and then never reads (its receive buffer is tiny)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # before connect: a small window
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/{table} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    sock.sendall(masked_frame(json.dumps({"type": "join", "watch": watch, "living": True})))
    return sock  # never read again


def flood(port: int, table: str, watch: str, stop: threading.Event) -> None:
    """Spectator sockets opened and closed as fast as the server allows (about 12 a second)."""
    while not stop.is_set():
        try:
            with connect(f"ws://127.0.0.1:{port}/ws/{table}", open_timeout=5) as ws:
                ws.send(json.dumps({"type": "join", "watch": watch, "living": True}))
                ws.recv(timeout=5)
        except Exception:
            pass
        stop.wait(1 / 12)


class Served:
    """The app under uvicorn in a thread, on a loopback socket whose send buffer is small.

    Linux gives accepted sockets the listening socket's buffer sizes, and a size set by
    hand turns the kernel's autotuning off: a peer that does not read then blocks the
    server's writes after kilobytes instead of megabytes, so the test needs seconds of
    traffic, not minutes, to get there.
    """

    def __init__(self, db: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(db, bot_delay=0.02, limits=Limits(bot_workers=0))
        config = uvicorn.Config(app, log_level="warning", ws_max_size=16384, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started, "uvicorn did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with Served(str(tmp_path / "slow.sqlite3")) as srv:
        yield srv


@pytest.fixture
def table(served: Served) -> tuple[str, str, str]:
    seats = [{"name": "Human", "bot": None}, {"name": "B1", "bot": "random"}, {"name": "B2", "bot": "random"}]
    r = httpx.post(
        f"{served.url}/api/tables",
        json={"game": "wizard", "players": 3, "options": {}, "seats": seats, "bot_pace": "fast"},
    )
    assert r.status_code == 200, r.text
    data = r.json()
    return data["table"], data["seats"][0]["key"], data["watch"]


def receive(ws: ClientConnection, timeout: float) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def test_a_stuck_spectator_and_a_flood_do_not_delay_the_human(
    served: Served, table: tuple[str, str, str]
) -> None:
    table_id, key, watch = table
    stop = threading.Event()
    stuck = [stuck_reader(served.port, table_id, watch) for _ in range(2)]
    flooder = threading.Thread(target=flood, args=(served.port, table_id, watch, stop), daemon=True)
    worst = 0.0
    moves = 0
    try:
        with connect(f"ws://127.0.0.1:{served.port}/ws/{table_id}") as ws:
            ws.send(json.dumps({"type": "join", "key": key, "living": True}))
            flooder.start()
            end = time.monotonic() + DURATION
            last = time.monotonic()
            while time.monotonic() < end:
                try:
                    msg = receive(ws, BOUND)
                except TimeoutError:
                    pytest.fail(f"the human received nothing for {BOUND} s (after {moves} moves)")
                now = time.monotonic()
                worst = max(worst, now - last)
                last = now
                if msg.get("type") != "state":
                    continue
                moves = msg["n"]
                if msg["over"]:
                    break
                if msg["to_act"] == 0:
                    ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "n": msg["n"]}))
            assert moves > 50, "the table should have moved on all along"
            # The stuck readers were dropped: only the human and the flood's sockets remain.
            stop.set()
            flooder.join(10)
            deadline = time.monotonic() + 15
            spectators = None
            while time.monotonic() < deadline:
                ws.send(json.dumps({"type": "ping"}))
                msg = receive(ws, BOUND)
                if msg.get("type") == "state":
                    spectators = msg["room"]["spectators"]
                    if spectators == 0:
                        break
                    if msg["to_act"] == 0 and not msg["over"]:
                        ws.send(json.dumps({"type": "act", "action": msg["legal"][0], "n": msg["n"]}))
            assert spectators == 0, f"{spectators} spectators still counted: the stuck readers were kept"
    finally:
        stop.set()
        for s in stuck:
            s.close()
    print(f"worst gap between two updates: {worst:.3f} s over {moves} moves")
