"""Issue 28's smaller bounds: a hung outside bot, numbers in other digits, direction
overrides in names and chat, the per-address socket limit's close code."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from atout.core.errors import NotationError
from atout.records import Record
from atout.records.format import ReplayError
from atout.server import create_app
from atout.server.limits import Limits
from atout.server.tables import public_bot_name
from tests.bots import outside

from .conftest import create_table, join, send
from .test_socket import live_state

HANGS = "py:tests.bots.outside:Hangs"


@pytest.fixture
def hung_client(db_path: str) -> Iterator[TestClient]:
    outside.RELEASE.clear()
    limits = Limits(bot_move_time=0.3, bot_workers=0)
    with TestClient(create_app(db_path, bot_delay=0, limits=limits, allowed_bots=(HANGS,))) as c:
        yield c
    outside.RELEASE.set()


def test_a_hung_outside_bot_is_replaced_for_the_move_and_the_table_is_told(hung_client: TestClient) -> None:
    seats = [{"name": "Ann", "bot": None}, {"name": "Stuck", "bot": "Hangs"}, {"name": "R", "bot": "random"}]
    r = hung_client.post(
        "/api/tables", json={"game": "wizard", "players": 3, "options": {"rounds": 2}, "seats": seats}
    )
    assert r.status_code == 200, r.text
    table, key = r.json()["table"], r.json()["seats"][0]["key"]
    with hung_client.websocket_connect(f"/ws/{table}") as ws:
        send(ws, {"type": "join", "key": key, "living": True})
        started = time.monotonic()
        events = []
        # The hung bot's seat moves on (the fallback plays legal moves) and the table is told once.
        while True:
            msg = ws.receive_json()
            if msg["type"] == "event":
                events.append(msg)
            if msg["type"] == "state" and msg["n"] >= 6:
                break
            if msg["type"] == "state" and msg["to_act"] == 0:
                send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
        assert time.monotonic() - started < 20
        slow = [e for e in events if e["event"] == "bot_slow"]
        assert len(slow) == 1 and slow[0]["name"] == "Stuck" and slow[0]["seat"] == 1
        # Visitors see the bot's name, never its spec.
        assert msg["seats"][1]["bot"] == "Hangs" and HANGS not in str(msg)
    assert live_state(hung_client, table).history  # the game went on


def test_public_bot_names_hide_paths() -> None:
    assert public_bot_name("py:pkg.mod:MyBot") == "MyBot"
    assert public_bot_name("cmd:/opt/bots/mine --deep") == "mine"
    assert public_bot_name("normal") == "normal" and public_bot_name(None) is None


def test_other_digits_are_refused_live_and_in_records(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    state = live_state(client, table)
    seat = state.current_player
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[seat])
        send(ws, {"type": "act", "action": "bid ١", "n": msg["n"]})
        refused = ws.receive_json()
        assert refused["code"] == "notation" and "0-9" in refused["message"], refused
    with pytest.raises(NotationError, match="0-9"):
        state.parse("bid ١")
    text = Record.from_state(state).to_text()
    text = "\n".join(line for line in text.splitlines() if "MoveCount" not in line and "Digest" not in line)
    with pytest.raises(ReplayError, match="0-9"):
        Record.parse(f"{text}\n{seat}: bid ١\n").replay()


@pytest.mark.parametrize("text", ["Ann\u202egnp.exe", "a\u2066b"])
def test_direction_overrides_are_refused_in_names_and_chat(client: TestClient, text: str) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "wizard", "players": 3, "seats": [{"name": text}, {"name": "B"}, {"name": "C"}]},
    )
    assert r.status_code == 400 and r.json()["code"] == "markup" and "direction" in r.json()["message"]
    table, keys = create_table(client, "wizard", 3)
    with client.websocket_connect(f"/ws/{table}") as ws:
        join(ws, keys[0])
        for message in ({"type": "name", "name": text}, {"type": "chat", "text": text}):
            send(ws, message)
            while (answer := ws.receive_json())["type"] != "error":
                pass
            assert answer["code"] == "markup" and "direction" in answer["message"], answer


def test_a_socket_over_the_address_limit_is_closed_with_1008_and_a_reason(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0, limits=Limits(max_sockets=1))) as client:
        table, keys = create_table(client, "wizard", 3)
        with client.websocket_connect(f"/ws/{table}") as a:
            assert join(a, keys[0])["type"] == "state"
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{table}") as b:
                b.receive_json()
            assert closed.value.code == 1008 and "too many connections" in closed.value.reason
