"""SIGKILL the real server with a living table: the lobby, a seat taken from it, the
room's settings, the away bot's seat and the chat all come back (issue 18, point 8)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .conftest import Server


def until(ws: ClientConnection, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(500):
        msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if test(msg):
            return msg
    raise AssertionError("the expected message never came")


def test_a_killed_server_restores_the_living_table(server: Server) -> None:
    seats = [{"name": "Ann"}, {"name": "", "open": True}, {"name": "Bot", "bot": "random"}]
    data = server.create_table(
        game="wizard",
        players=3,
        options={"rounds": 2},
        seats=seats,
        public=True,
        turn_time=30,
        spectator_chat=True,
    )
    table, ann = data["table"], data["seats"][0]["key"]
    zoe = httpx.post(f"{server.url}/api/tables/{table}/join", json={"seat": 1, "name": "Zoé"}).json()["key"]
    ws_url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "join", "key": ann, "living": True}))
        until(ws, lambda m: m["type"] == "chat_log")
        ws.send(json.dumps({"type": "chat", "text": "before the crash"}))
        until(ws, lambda m: m["type"] == "chat")
    server.kill()
    server.start()
    lobby = httpx.get(f"{server.url}/api/tables").json()["tables"]
    entry = next(t for t in lobby if t["table"] == table)
    assert [s["name"] for s in entry["seats"]] == ["Ann", "Zoé", "Bot"] and entry["turn_time"] == 30
    assert not any(s["free"] for s in entry["seats"]) and not any(s["connected"] for s in entry["seats"])
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "join", "key": zoe, "living": True}))
        msg = until(ws, lambda m: m["type"] == "state")
        assert msg["seat"] == 1 and msg["room"]["spectator_chat"] is True and msg["room"]["public"] is True
        log = until(ws, lambda m: m["type"] == "chat_log")
        assert [(line["name"], line["text"]) for line in log["lines"]] == [("Ann", "before the crash")]
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "join", "watch": True, "living": True}))
        assert until(ws, lambda m: m["type"] == "state")["spectator"] is True
