"""Anything a stranger can start is bounded (issue 17, point 4): requests, downloads, table
creation per client and per server, option values, bots thinking at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from atout.core.registry import game_class, names
from atout.server import create_app
from atout.server.limits import ClientBuckets, Limits, TokenBucket

from .conftest import create_table, join
from .test_socket import live_state, wait_until

#: Limits of these tests: one kind tight, the others out of the way.
ROOMY = {"http_burst": 10_000, "download_burst": 10_000, "create_burst": 1000, "bot_workers": 0}


def app_with(db_path: str, **limits: Any) -> TestClient:
    return TestClient(create_app(db_path, bot_delay=0, limits=Limits(**{**ROOMY, **limits})))


def test_a_token_bucket_allows_its_burst_then_its_rate() -> None:
    bucket = TokenBucket(rate=0.0, burst=3)
    assert [bucket.allow() for _ in range(5)] == [True, True, True, False, False]
    buckets = ClientBuckets(rate=0.0, burst=1, max_clients=2)
    assert buckets.allow("a") and not buckets.allow("a") and buckets.allow("b")
    assert buckets.allow("c")  # a third address: the least recently seen ("a") is forgotten
    assert buckets.allow("a")  # so "a" starts afresh (and "b" is forgotten in turn)
    assert not buckets.allow("c")


def test_the_client_bucket_map_stays_bounded() -> None:
    buckets = ClientBuckets(rate=1.0, burst=1, max_clients=100)
    for i in range(1000):
        buckets.allow(f"10.0.{i // 256}.{i % 256}")
    assert len(buckets._buckets) == 100


def test_every_http_request_is_rate_limited_per_client(db_path: str) -> None:
    with app_with(db_path, http_rate=0.0, http_burst=5) as client:
        codes = [client.get("/api/games").status_code for _ in range(5)]
        assert codes == [200] * 5
        r = client.get("/static/app.css")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert r.headers["x-frame-options"] == "DENY"  # the security headers still go out
        r = client.get("/api/games", headers={"Accept-Language": "fr"})
        assert r.status_code == 429 and r.json()["message"] == "trop de requêtes : ralentissez"
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/abc") as ws:
            ws.receive_json()
        # Accepted, then closed with the reason (not HTTP 403 at the handshake).
        assert closed.value.code == 1008 and closed.value.reason == "too many requests: slow down"


def test_record_and_replay_downloads_are_rate_limited(db_path: str) -> None:
    with app_with(db_path, download_rate=0.0, download_burst=4) as client:
        table, keys = create_table(client, "wizard", 3)
        body = {"key": keys[0], "step": 0}
        codes = [client.post(f"/api/tables/{table}/replay", json=body).status_code for _ in range(3)]
        codes.append(client.post(f"/api/tables/{table}/record", json={"key": keys[0]}).status_code)
        assert codes == [200] * 4
        for path in ("record", "replay"):
            r = client.post(f"/api/tables/{table}/{path}", json=body)
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        # Other requests are not downloads: they still go through.
        assert client.post(f"/api/tables/{table}/seat", json={"key": keys[0]}).status_code == 200


def test_table_creation_is_limited_per_client(db_path: str) -> None:
    with app_with(db_path, create_per_minute=0.0, create_burst=3) as client:
        for _ in range(3):
            create_table(client, "wizard", 3)
        r = client.post("/api/tables", json={"game": "wizard", "players": 3, "seats": [{}, {}, {}]})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "too many tables" in r.json()["message"]
        assert len(client.app.state.manager.tables) == 3  # type: ignore[attr-defined]


def test_a_server_holds_at_most_its_live_tables(db_path: str) -> None:
    with app_with(db_path, max_live_tables=2) as client:
        create_table(client, "wizard", 3)
        create_table(client, "wizard", 3)
        r = client.post("/api/tables", json={"game": "wizard", "players": 3, "seats": [{}, {}, {}]})
        assert r.status_code == 503 and r.json()["code"] == "busy"
        assert len(client.app.state.manager.tables) == 2  # type: ignore[attr-defined]


def test_a_finished_table_frees_its_place(db_path: str) -> None:
    with app_with(db_path, max_live_tables=1) as client:
        table, _ = create_table(
            client, "wizard", 3, options={"rounds": 1}, bots=dict.fromkeys(range(3), "random")
        )
        wait_until(lambda: live_state(client, table).is_terminal)
        create_table(client, "wizard", 3)


def test_every_integer_option_has_a_range() -> None:
    for name in names():
        for spec in game_class(name).option_specs:
            if spec.kind is int and spec.choices is None:
                assert spec.minimum is not None and spec.maximum is not None, f"{name} {spec.name}"
                assert spec.maximum <= 10_000, f"{name} {spec.name}: {spec.maximum}"


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        ("nain-jaune", "start_tokens", 10**18),
        ("nain-jaune", "max_deals", 10**6),
        ("nain-jaune", "stake_unit", 10**9),
    ],
)
def test_huge_option_values_are_refused(client: TestClient, game: str, option: str, value: int) -> None:
    r = client.post(
        "/api/tables", json={"game": game, "players": 3, "options": {option: value}, "seats": [{}] * 3}
    )
    assert r.status_code == 400 and option in r.json()["message"], r.text


def test_bots_thinking_at_once_are_bounded(db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from atout.bots.random import RandomBot

    real = RandomBot.choose
    now = {"thinking": 0, "most": 0}
    lock = threading.Lock()

    def choose(self: RandomBot, view: Any) -> int:
        with lock:
            now["thinking"] += 1
            now["most"] = max(now["most"], now["thinking"])
        time.sleep(0.002)  # long enough for the tables' decisions to overlap if allowed to
        with lock:
            now["thinking"] -= 1
        return real(self, view)

    monkeypatch.setattr(RandomBot, "choose", choose)
    with app_with(db_path, max_thinking=2) as client:
        tables = [
            create_table(client, "wizard", 3, options={"rounds": 1}, bots=dict.fromkeys(range(3), "random"))[
                0
            ]
            for _ in range(6)
        ]
        wait_until(lambda: all(live_state(client, t).is_terminal for t in tables))
    assert 1 <= now["most"] <= 2


def test_a_joined_socket_is_still_served_after_many_refusals(db_path: str) -> None:
    """Per-connection limit of socket messages still applies (and is not a close)."""
    with TestClient(create_app(db_path, bot_delay=0, rate=0.0, burst=2, limits=Limits(**ROOMY))) as client:
        table, keys = create_table(client, "wizard", 3)
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert join(ws, keys[0])["type"] == "state"
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["code"] == "rate_limited"


def test_sockets_per_client_are_bounded(db_path: str) -> None:
    with app_with(db_path, max_sockets=2) as client:
        table, keys = create_table(client, "wizard", 3)
        with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
            assert join(a, keys[0])["type"] == join(b, keys[1])["type"] == "state"
            with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{table}") as c:
                c.receive_json()
            assert closed.value.code == 1008
        with client.websocket_connect(f"/ws/{table}") as again:  # closed ones no longer count
            assert join(again, keys[2])["type"] == "state"


def test_finished_tables_nobody_watches_are_forgotten_and_reload(db_path: str) -> None:
    with app_with(db_path, max_finished=1) as client:
        done = []
        for _ in range(3):
            table, _ = create_table(
                client, "wizard", 3, options={"rounds": 1}, bots=dict.fromkeys(range(3), "random")
            )
            wait_until(lambda t=table: live_state(client, t).is_terminal)  # type: ignore[misc]
            done.append(table)
        create_table(client, "wizard", 3)
        held = client.app.state.manager.tables  # type: ignore[attr-defined]
        assert sum(1 for t in done if t in held) <= 1
        r = client.post(f"/api/tables/{done[0]}/seat", json={"key": "x" * 10})
        assert r.status_code == 403  # found again in the database (a wrong key, not "no such table")


def test_a_rate_limited_socket_is_accepted_then_closed_with_1008_by_a_real_server(db_path: str) -> None:
    """Through uvicorn, not the test client: the handshake succeeds (no HTTP 403), the close says why."""
    import uvicorn
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from .conftest import free_port

    limits = Limits(**{**ROOMY, "http_burst": 1}, http_rate=0.0)
    app = create_app(db_path, bot_delay=0, limits=limits)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_until(lambda: server.started, 20)
        with connect(f"ws://127.0.0.1:{port}/ws/abc") as first:  # the only token
            first.send('{"type": "ping"}')
            assert first.recv(timeout=5) == '{"type":"pong"}'
        with pytest.raises(ConnectionClosed) as closed, connect(f"ws://127.0.0.1:{port}/ws/abc") as ws:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many requests: slow down")
    finally:
        server.should_exit = True
        thread.join(10)
