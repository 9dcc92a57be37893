"""A table that never stalls and never serves a seat it should not (issue 17, points 1, 2, 3, 5).

Leaving cuts off the seat's sockets; storage errors and failing bots are survived
(retry with back-off, a safe bot); a conflict between two servers reloads the table
from the database; malformed input is a refusal with its reason, never a 500 or a
socket closed with 1011.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from atout.server import create_app
from atout.server.limits import TOO_MANY_REQUESTS_WHY, Limits
from atout.server.messages import ReasonContext, localize
from atout.server.tables import LEFT, LEFT_WHY, UNAVAILABLE, UNAVAILABLE_WHY, TableManager, rebuild

from .conftest import create_table, join, send
from .test_socket import live_state, stored_actions, wait_until
from .test_storage import db_url  # noqa: F401  (the sqlite / postgresql fixture)

#: Generous limits: these tests are about correctness, not about the limits (test_limits.py).
OPEN = Limits(http_burst=10_000, download_burst=10_000, create_burst=1000, bot_workers=0)


def manager_of(client: TestClient) -> TableManager:
    manager: TableManager = client.app.state.manager  # type: ignore[attr-defined]
    return manager


def play_until_over(ws: Any, msg: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """Play ``seat``'s turns at random until the game is over; returns the last state."""
    while not msg["over"]:
        if msg["type"] == "state" and msg["to_act"] == seat:
            send(ws, {"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]})
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
    return msg


def assert_replays(client: TestClient, table: str) -> None:
    """The database holds a whole game, and exactly the live table's moves."""
    stored = client.app.state.storage.load(table)  # type: ignore[attr-defined]
    _, state, _ = rebuild(stored)
    assert state.is_terminal and stored.finished
    assert state.history == live_state(client, table).history


# -- 1. leaving cuts off the sockets already joined ----------------------------------------


def test_leaving_cuts_off_the_seats_sockets(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0, limits=OPEN)) as client:
        table, keys = create_table(client, "wizard", 3)  # humans only
        with (
            client.websocket_connect(f"/ws/{table}") as before,
            client.websocket_connect(f"/ws/{table}") as other,
        ):
            join(before, keys[0])
            join(other, keys[1])
            r = client.post(f"/api/tables/{table}/leave", json={"key": keys[0], "bot": "random"})
            assert r.status_code == 200
            # The socket joined before is told, then closed: it never sees the bot's hand.
            msg = before.receive_json()
            assert msg["type"] == "left" and msg["seat"] == 0 and msg["message"] == LEFT
            with pytest.raises(WebSocketDisconnect):
                before.receive_json()
            # The other seats go on seeing the table, the bot now sitting at seat 0.
            assert other.receive_json()["seats"][0]["bot"] == "random"
        assert 0 not in manager_of(client).tables[table].sockets
        with client.websocket_connect(f"/ws/{table}") as again:
            assert join(again, keys[0])["code"] == "bad_key"


def test_a_move_of_a_handed_over_seat_is_refused_on_every_path(db_path: str) -> None:
    """The key is re-checked under the table's lock and in the move's own transaction."""
    with TestClient(create_app(db_path, bot_delay=3600, limits=OPEN)) as client:
        table, _ = create_table(client, "wizard", 3)
        manager = manager_of(client)
        live = manager.tables[table]
        to_act = live.state.current_player
        old = live.seats[to_act].key_hash
        assert old is not None
        legal = live.state.view(to_act).legal_actions
        text = live.state.action_to_text(legal[0])
        # The seat changes hands in the database only (as another process would do it).
        client.app.state.storage.set_seat(table, to_act, "random", None)  # type: ignore[attr-defined]
        with pytest.raises(Exception) as refused:
            client.portal.call(manager.act, live, to_act, text, 0, old)  # type: ignore[union-attr]
        assert getattr(refused.value, "code", None) == "left"
        assert stored_actions(client, table) == []
        assert live.seats[to_act].bot == "random"  # the table caught up with the database
        with pytest.raises(Exception) as again:  # and the in-memory check now refuses at once
            client.portal.call(manager.act, live, to_act, text, 0, old)  # type: ignore[union-attr]
        assert getattr(again.value, "code", None) == "left"


# -- 2. the bot driver survives storage errors and failing bots ------------------------------


def flaky(real: Callable[..., Any], failures: int, after_commit: bool = False) -> Callable[..., Any]:
    """``real``, failing its first ``failures`` calls as a database that went away does.

    ``after_commit``: the call is made, then fails (the answer was lost, not the write).
    """
    calls = {"n": 0}

    def call(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] <= failures:
            if after_commit:
                real(*args, **kwargs)
            raise OperationalError("INSERT INTO atout_actions", {}, Exception("database is locked"))
        return real(*args, **kwargs)

    return call


@pytest.mark.parametrize("after_commit", [False, True], ids=["write-lost", "answer-lost"])
def test_bots_survive_storage_errors(
    db_path: str, after_commit: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("atout.server.tables.BACKOFF", (0.01, 0.05))
    with TestClient(create_app(db_path, bot_delay=0, limits=OPEN)) as client:
        storage = client.app.state.storage  # type: ignore[attr-defined]
        monkeypatch.setattr(storage, "append_action", flaky(storage.append_action, 4, after_commit))
        with caplog.at_level(logging.WARNING, logger="atout.server"):
            table, _ = create_table(
                client, "wizard", 3, options={"rounds": 2}, bots=dict.fromkeys(range(3), "random")
            )
            wait_until(lambda: live_state(client, table).is_terminal)
        assert_replays(client, table)  # nothing lost, nothing stored twice
        retries = [r for r in caplog.records if "bot move not stored" in r.getMessage()]
        assert len(retries) == 4
        # A lost write is retried until stored; a lost answer is found stored on the reload.
        last = "attempt 4" if not after_commit else "attempt 1"
        assert last in retries[-1].getMessage()


def test_a_human_move_during_an_outage_is_refused_with_its_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, keys = create_table(client, "wizard", 3)
    storage = client.app.state.storage  # type: ignore[attr-defined]
    monkeypatch.setattr(storage, "append_action", flaky(storage.append_action, 1))
    seat = live_state(client, table).current_player
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[seat])
        send(ws, {"type": "act", "action": msg["legal"][0], "n": 0})
        assert ws.receive_json() == {"type": "error", "code": "unavailable", "message": UNAVAILABLE}
        send(ws, {"type": "act", "action": msg["legal"][0], "n": 0})  # the database is back
        assert ws.receive_json()["n"] == 1
    assert len(stored_actions(client, table)) == 1


@pytest.mark.parametrize("failure", ["raises", "illegal"])
def test_a_failing_bot_is_replaced_for_the_move_and_logged(
    db_path: str, failure: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from atout.bots.random import RandomBot

    real = RandomBot.choose
    calls = {"n": 0}

    def choose(self: RandomBot, view: Any) -> int:
        calls["n"] += 1
        if calls["n"] % 3 == 1:  # one decision in three fails
            if failure == "raises":
                raise RuntimeError("bot bug")
            return -1
        return real(self, view)

    monkeypatch.setattr(RandomBot, "choose", choose)
    with (
        caplog.at_level(logging.WARNING, logger="atout.server"),
        TestClient(create_app(db_path, bot_delay=0, limits=OPEN)) as client,
    ):
        table, _ = create_table(
            client, "wizard", 3, options={"rounds": 2}, bots=dict.fromkeys(range(3), "random")
        )
        wait_until(lambda: live_state(client, table).is_terminal)
        assert_replays(client, table)
    said = [r.getMessage() for r in caplog.records]
    assert any("played for random" in m for m in said)
    assert any(("failed" if failure == "raises" else "illegal action -1") in m for m in said)


# -- 3. a conflict between two servers reloads the table -----------------------------------


def test_the_loser_of_a_race_reloads_and_carries_on(db_url: str) -> None:  # noqa: F811
    with (
        TestClient(create_app(db_url, bot_delay=0, limits=OPEN)) as a,
        TestClient(create_app(db_url, bot_delay=0, limits=OPEN)) as b,
    ):
        table, keys = create_table(a, "wizard", 3)  # humans only: nothing moves by itself
        first = live_state(a, table).current_player
        with a.websocket_connect(f"/ws/{table}") as on_a:
            mine = join(on_a, keys[first])
            # The same seat moves on server b first.
            with b.websocket_connect(f"/ws/{table}") as on_b:
                theirs = join(on_b, keys[first])
                send(on_b, {"type": "act", "action": theirs["legal"][0], "n": 0})
                assert on_b.receive_json()["n"] == 1
            # Server a's copy is stale (SQLite: nobody tells it; PostgreSQL: maybe not
            # yet): its move is refused, and the table is reloaded and shown as stored.
            send(on_a, {"type": "act", "action": mine["legal"][-1], "n": 0})
            replies = [on_a.receive_json(), on_a.receive_json()]
            kinds = sorted(r["type"] for r in replies)
            assert kinds == ["error", "state"], replies
            error = next(r for r in replies if r["type"] == "error")
            fresh = next(r for r in replies if r["type"] == "state")
            assert error["code"] in ("conflict", "stale"), error
            assert fresh["n"] == 1 and fresh["view"] == live_state(b, table).view(first).to_dict()
        assert live_state(a, table).history == live_state(b, table).history
        # a carries on: the next seat plays there ...
        nxt = live_state(a, table).current_player
        with a.websocket_connect(f"/ws/{table}") as on_a:
            msg = join(on_a, keys[nxt])
            assert msg["n"] == 1 and msg["to_act"] == nxt
            send(on_a, {"type": "act", "action": msg["legal"][0], "n": 1})
            assert on_a.receive_json()["n"] == 2
        # ... and b, stale in turn, serves a page loaded now as stored, and plays on.
        third = live_state(a, table).current_player
        with b.websocket_connect(f"/ws/{table}") as on_b:
            msg = join(on_b, keys[third])
            assert msg["n"] == 2 and msg["to_act"] == third
            send(on_b, {"type": "act", "action": msg["legal"][0], "n": 2})
            assert on_b.receive_json()["n"] == 3
        assert len(stored_actions(b, table)) == 3


# -- 5. malformed input: a refusal with its reason, never a 500 or a 1011 -------------------


def test_nested_json_is_refused(client: TestClient) -> None:
    deep = "[" * 3000 + "]" * 3000  # within the size limit, beyond the parser's nesting
    assert len(deep) <= 8192
    r = client.post("/api/tables", content=deep[:4000], headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request"
    nested = "[" * 2000 + "]" * 2000
    r = client.post("/api/tables", content=nested, headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_request", r.text
    table, keys = create_table(client, "wizard", 3)
    with client.websocket_connect(f"/ws/{table}") as ws:
        send(ws, nested)
        assert ws.receive_json()["code"] == "bad_request"
        send(ws, '{"type": "join", "key": ' + "[" * 1500 + "]" * 1500 + "}")
        assert ws.receive_json()["code"] in ("bad_request", "bad_key")
        assert join(ws, keys[0])["type"] == "state"  # the socket is still open and works


@pytest.mark.parametrize("name", ["players", "name", "self", "game", "cls", "seed"])
def test_options_named_like_arguments_are_refused(client: TestClient, name: str) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "wizard", "players": 3, "options": {name: 3}, "seats": [{}, {}, {}]},
    )
    assert r.status_code == 400, r.text
    assert f"has no option '{name}'" in r.json()["message"]


def test_nul_and_unprintable_names_on_each_database(db_url: str) -> None:  # noqa: F811
    """A NUL, a control character or a lone surrogate in a name is refused with its reason, on
    either database (PostgreSQL cannot store a NUL: it once gave a 500), and nothing is stored."""
    with TestClient(create_app(db_url, bot_delay=0, limits=OPEN), raise_server_exceptions=False) as client:
        storage = client.app.state.storage  # type: ignore[attr-defined]
        before = set(storage.unfinished_ids())
        for bad in ("A\u0000nn", "\ud800Bob", "Bob\u0007", "\u0000"):
            body = {"game": "wizard", "players": 3, "seats": [{"name": bad}, {}, {}]}
            # ASCII escapes, as a browser's JSON.stringify sends a lone surrogate.
            r = client.post(
                "/api/tables", content=json.dumps(body), headers={"Content-Type": "application/json"}
            )
            assert r.status_code == 400, (bad, r.text)
            assert r.json()["code"] == "markup" and "plain text" in r.json()["message"]
        assert set(storage.unfinished_ids()) == before
        r = client.post(
            "/api/tables", json={"game": "wizard", "players": 3, "seats": [{"name": "Ann"}, {}, {}]}
        )
        assert r.status_code == 200, r.text
        table, key = r.json()["table"], r.json()["seats"][0]["key"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            join(ws, key)
            for bad in ("Zo\u0000\u00e9", "Zo\udfff", "\u0000\u0001"):
                ws.send_text(json.dumps({"type": "name", "name": bad}))
                assert ws.receive_json()["code"] == "markup"
            send(ws, json.dumps({"type": "act", "action": "bid \u0000", "n": 0}))
            assert ws.receive_json()["type"] == "error"
            send(ws, {"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
        assert storage.load(table).seats[0].name == "Ann"


def test_new_refusals_are_in_french() -> None:
    ctx = ReasonContext(game="wizard")
    for why, english in (
        (LEFT_WHY, LEFT),
        (UNAVAILABLE_WHY, UNAVAILABLE),
        (TOO_MANY_REQUESTS_WHY, "too many requests: slow down"),
    ):
        assert str(why) == english and localize(why, "fr", ctx) != english


def test_no_traceback_path_is_left_in_table_creation(client: TestClient, tmp_path: Path) -> None:
    """A small fuzz of creation bodies: every answer is 200 or a 4xx JSON error."""
    rng = random.Random(17)
    values: list[Any] = [None, True, 0, -1, 10**30, 1.5, "", "x" * 50, [], {}, [1], {"a": 1}, "\u0000"]
    for _ in range(150):
        body: dict[str, Any] = {
            "game": rng.choice(["wizard", "malin", "sticheln", "nain-jaune", *values]),
            "players": rng.choice([3, 4, *values]),
            "options": rng.choice(
                [{}, {rng.choice(["rounds", "start_tokens", "hands", "x"]): rng.choice(values)}]
            ),
            "seats": rng.choice(
                [[{}] * 3, [{"bot": rng.choice(values)}] * 4, values[-2], [{"name": rng.choice(values)}] * 3]
            ),
            "bot_pace": rng.choice(["normal", *values]),
        }
        r = client.post("/api/tables", json=body)
        assert r.status_code in (200, 400, 429), (body, r.text)
        assert r.headers["content-type"].startswith("application/json")


def test_servers_starting_together_on_an_empty_database(db_url: str) -> None:  # noqa: F811
    """Several processes started at once: one creates the schema, the others find it."""
    from concurrent.futures import ThreadPoolExecutor

    from atout.server.storage import Storage, table_row

    with ThreadPoolExecutor(4) as pool:
        storages = list(pool.map(lambda _: Storage(db_url), range(4)))
    try:
        storages[0].create_table(table_row("t", "wizard", 3, {}, 1, []))
        assert all(s.load("t") is not None for s in storages)
    finally:
        for s in storages:
            s.close()
