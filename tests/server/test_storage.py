"""Storage on SQLite always, and on PostgreSQL when ATOUT_TEST_POSTGRES_URL is set
(.ci/run sets it up: Debian's postgresql, a database, the variable)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from atout.core.registry import load
from atout.server import create_app
from atout.server.storage import ConflictError, SeatInfo, Storage
from atout.server.tables import hash_key, rebuild

from .conftest import create_table, join, private_schema, send

PG_ENV = "ATOUT_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a private schema in PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
        return
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    with private_schema(base) as url:
        yield url


def seats(n: int) -> list[SeatInfo]:
    return [
        SeatInfo(0, "Ann", None, hash_key("k0")),
        *(SeatInfo(i, f"bot {i}", "random", None) for i in range(1, n)),
    ]


def test_tables_round_trip(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table("t1", "wizard", 3, {"rounds": "2"}, 2**62 + 5, seats(3))
        game = load("wizard", 3, rounds=2)
        state = game.new_state(2**62 + 5)
        rng = random.Random(0)
        for idx in range(10):
            action = rng.choice(state.legal_actions())
            storage.append_action("t1", idx, state.current_player, action, finished=False)
            state.apply(action)
        stored = storage.load("t1")
        assert stored is not None
        assert stored.seed == 2**62 + 5 and stored.options == {"rounds": "2"}
        assert stored.seats == seats(3)
        _, rebuilt, _ = rebuild(stored)
        assert rebuilt.history == state.history
        assert storage.unfinished_ids() == ["t1"]
        assert storage.seat_for_key("t1", hash_key("k0")) == 0
        assert storage.seat_for_key("t1", hash_key("k1")) is None
        assert storage.load("nope") is None
    finally:
        storage.close()


def test_a_position_is_written_once(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table("t2", "wizard", 3, {}, 7, seats(3))
        storage.append_action("t2", 0, 0, 60, finished=False)
        with pytest.raises(ConflictError):
            storage.append_action("t2", 0, 1, 61, finished=True)
        stored = storage.load("t2")
        assert stored is not None and stored.actions == [60] and not stored.finished
        storage.append_action("t2", 1, 1, 61, finished=True)
        assert storage.unfinished_ids() == []
    finally:
        storage.close()


def test_seat_handover_to_a_bot(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table("t3", "wizard", 3, {}, 7, seats(3))
        storage.set_seat("t3", 0, "heuristic", None)
        stored = storage.load("t3")
        assert stored is not None and stored.seats[0] == SeatInfo(0, "Ann", "heuristic", None)
    finally:
        storage.close()


def test_a_game_survives_a_restart_on_each_database(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_delay=0)) as client:
        table, keys = create_table(
            client, "wizard", 3, options={"rounds": 2}, bots={1: "random", 2: "random"}
        )
        with client.websocket_connect(f"/ws/{table}") as ws:
            msg = join(ws, keys[0])
            while msg["to_act"] != 0:
                msg = ws.receive_json()
            send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
            msg = ws.receive_json()
            while msg["to_act"] != 0 and not msg["over"]:
                msg = ws.receive_json()
        seen = msg
    with (
        TestClient(create_app(db_url, bot_delay=0)) as client,
        client.websocket_connect(f"/ws/{table}") as ws,
    ):
        again = join(ws, keys[0])
        assert again["n"] == seen["n"] and again["view"] == seen["view"]
