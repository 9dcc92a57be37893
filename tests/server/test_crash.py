"""SIGKILL the real server while bots are moving: nothing anybody was told is lost."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from .conftest import Server


def receive(ws: ClientConnection) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return msg


def test_a_server_killed_while_bots_play_loses_nothing(server: Server) -> None:
    seats = [{"name": "Human", "bot": None}, *({"name": f"Bot {i}", "bot": "random"} for i in (1, 2, 3))]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "wizard", "players": 4, "options": {"rounds": 3}, "seats": seats},
    )
    table, key = r.json()["table"], r.json()["seats"][0]["key"]
    ws_url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    rng = random.Random(2)
    seen: dict[int, dict[str, Any]] = {}
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "join", "key": key}))
        msg = receive(ws)
        seen[msg["n"]] = msg["view"]
        acted = 0
        while acted < 3:
            if msg["to_act"] == 0:
                ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]}))
                acted += 1
            msg = receive(ws)
            seen[msg["n"]] = msg["view"]
        # The bots are now playing their turns (0.05 s apart): kill the server in the middle.
        msg = receive(ws)
        seen[msg["n"]] = msg["view"]
        server.kill()
    last_seen = max(seen)
    server.start()
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "join", "key": key}))
        msg = receive(ws)
        assert msg["n"] >= last_seen  # every announced action was stored
        if msg["n"] == last_seen:
            assert msg["view"] == seen[last_seen]
        while not msg["over"]:
            if msg["to_act"] == 0:
                ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]}))
            msg = receive(ws)
            assert msg["type"] == "state", msg
    assert msg["result"]["scores"] == msg["view"]["scores"]
