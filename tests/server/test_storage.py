"""Storage on SQLite always, and on PostgreSQL when ATOUT_TEST_POSTGRES_URL is set
(.ci/run sets it up: Debian's postgresql, a database, the variable)."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from atout.core.registry import load
from atout.server import create_app, roomstore
from atout.server.pubsub import CHANNEL, Leases, libpq_url, parse_notice
from atout.server.storage import ConflictError, SeatInfo, SeatTaken, Storage, Unseen, table_row
from atout.server.tables import hash_key, rebuild

from .conftest import create_table, join, private_schema, send, short_options

PG_ENV = "ATOUT_TEST_POSTGRES_URL"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a private schema in PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
        return
    with private_schema(pg_base()) as url:
        yield url


def pg_base() -> str:
    """The test database's URL; the test is skipped without one."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    return base


def seats(n: int) -> list[SeatInfo]:
    return [
        SeatInfo(0, "Ann", None, hash_key("k0")),
        *(SeatInfo(i, f"bot {i}", "random", None) for i in range(1, n)),
    ]


def test_tables_round_trip(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        storage.create_table(table_row("t1", "wizard", 3, {"rounds": "2"}, 2**62 + 5, seats(3)))
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
        storage.create_table(table_row("t2", "wizard", 3, {}, 7, seats(3)))
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
        storage.create_table(table_row("t3", "wizard", 3, {}, 7, seats(3)))
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


def test_a_human_move_is_refused_once_its_seat_is_handed_over(db_url: str) -> None:
    """The seat's key is checked in the move's own transaction: a stale key stores nothing."""
    storage = Storage(db_url)
    try:
        storage.create_table(table_row("t4", "wizard", 3, {}, 7, seats(3)))
        storage.append_action("t4", 0, 0, 60, finished=False, key_hash=hash_key("k0"))
        with pytest.raises(SeatTaken):
            storage.append_action("t4", 1, 0, 61, finished=False, key_hash=hash_key("not the key"))
        storage.set_seat("t4", 0, "heuristic", None)
        with pytest.raises(SeatTaken):
            storage.append_action("t4", 1, 0, 61, finished=True, key_hash=hash_key("k0"))
        stored = storage.load("t4")
        assert stored is not None and stored.actions == [60] and not stored.finished
        storage.append_action("t4", 1, 0, 61, finished=True)  # the bot's move now
        assert storage.unfinished_ids() == []
    finally:
        storage.close()


@pytest.fixture
def pg() -> Iterator[Storage]:
    """Storage on PostgreSQL alone (notices, move guards, leases): a private schema."""
    with private_schema(pg_base()) as url:
        storage = Storage(url)
        try:
            yield storage
        finally:
            storage.close()


def notices(listener: psycopg.Connection[Any], storage: Storage) -> list[str]:
    """The payloads of ``storage``'s notices ``listener`` has received by now (a short wait for the last).

    Only those from ``storage`` (its origin): a channel is the database's, and tests running
    beside this one (``pytest -n``) announce their own tables on it.
    """
    received = [n.payload for n in listener.notifies(timeout=0.5, stop_after=None)]
    return [p for p in received if parse_notice(p)[1] == storage.origin]


def test_a_move_is_one_statement_whose_notice_goes_only_with_it(pg: Storage) -> None:
    """PostgreSQL: stored, the move is announced once; refused (seat handed over, position
    taken), it stores nothing and announces nothing; the last move marks the table finished."""
    pg.create_table(table_row("t5", "wizard", 3, {}, 7, seats(3)))
    with psycopg.connect(libpq_url(pg.url), autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        pg.append_action("t5", 0, 0, 60, finished=False, key_hash=hash_key("k0"))
        assert notices(listener, pg) == [f"t5 {pg.origin}"]
        with pytest.raises(SeatTaken):
            pg.append_action("t5", 1, 0, 61, finished=False, key_hash=hash_key("k9"))
        with pytest.raises(ConflictError):
            pg.append_action("t5", 0, 1, 61, finished=True)
        assert notices(listener, pg) == []
        pg.append_action("t5", 1, 1, 61, finished=True)
        assert notices(listener, pg) == [f"t5 {pg.origin}"]
    stored = pg.load("t5")
    assert stored is not None and stored.actions == [60, 61] and stored.finished


def test_a_human_move_of_a_seat_stored_away_is_unseen(pg: Storage) -> None:
    """Another process handed the seat to the away bot (notice not read yet): the player's
    move is refused as Unseen and stores nothing; the away bot's move (no key) is stored;
    once the seat is back the player's move is."""
    roomstore.ensure_tables(pg)
    assert pg.move_guards == (roomstore.NOT_AWAY,)
    roomstore.ensure_tables(pg)  # once only
    assert pg.move_guards == (roomstore.NOT_AWAY,)
    pg.create_table(table_row("t6", "wizard", 3, {}, 7, seats(3)))
    pg.append_action("t6", 0, 0, 60, finished=False, key_hash=hash_key("k0"))  # no room row yet
    roomstore.save_room(pg, "t6", False, {})
    assert roomstore.set_away(pg, "t6", 2, True)  # another seat away: no matter
    pg.append_action("t6", 1, 0, 61, finished=False, key_hash=hash_key("k0"))
    assert roomstore.set_away(pg, "t6", 0, True)
    with pytest.raises(Unseen):
        pg.append_action("t6", 2, 0, 62, finished=False, key_hash=hash_key("k0"))
    stored = pg.load("t6")
    assert stored is not None and stored.actions == [60, 61]
    pg.append_action("t6", 2, 0, 62, finished=False)  # the away bot plays the seat
    assert roomstore.set_away(pg, "t6", 0, False)
    pg.append_action("t6", 3, 0, 63, finished=False, key_hash=hash_key("k0"))
    stored = pg.load("t6")
    assert stored is not None and stored.actions == [60, 61, 62, 63]


def test_leases_are_tried_together_and_held_by_one_process(pg: Storage) -> None:
    """Two processes' leases on one database: each table's lease is held by one only, the
    ones nobody holds are taken in one statement, and a released lease passes on."""
    first, second = Leases(pg.url), Leases(pg.url)
    try:
        assert first.acquire(["a", "b", "a"]) == {"a", "b"}
        assert second.acquire(["a", "b", "c"]) == {"c"}
        assert first.holds("a") and not second.holds("a") and second.holds("c")
        assert first.acquire(["a", "b", "c"]) == {"a", "b"}  # held ones kept, c is taken
        first.release("a")
        assert not first.holds("a")
        assert second.acquire(["a"]) == {"a", "c"}
        assert second.acquire([]) == {"a", "c"}  # nothing to try: the session is still checked
    finally:
        first.close()
        second.close()


def test_a_move_made_unaware_of_its_seat_stored_away_brings_it_back_first() -> None:
    """The seat was handed to the away bot by a process whose notice is not read here (made
    here under this process's own name, whose notices it skips): the player's move is refused
    by its statement, the room is read, ``away`` then ``back`` are told, and the move is stored."""
    with private_schema(pg_base()) as url, TestClient(create_app(url, bot_delay=0)) as client:
        table, keys = create_table(client, "wizard", 3, bots={1: "random", 2: "random"})
        storage = client.app.state.manager.storage  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{table}") as ws:
            send(ws, {"type": "join", "key": keys[0], "living": True})
            msg = ws.receive_json()
            while msg.get("type") != "state" or msg["to_act"] != 0:
                msg = ws.receive_json()
            n, move = msg["n"], msg["legal"][0]
            assert roomstore.set_away(storage, table, 0, True)
            send(ws, {"type": "act", "action": move, "n": n})
            told: list[str] = []
            while True:
                msg = ws.receive_json()
                if msg["type"] == "event":
                    told.append(msg["event"])
                elif msg["type"] == "error":
                    raise AssertionError(msg)
                elif msg["type"] == "state" and msg["n"] > n:
                    break
        assert [e for e in told if e in ("away", "back")] == ["away", "back"], told
        assert roomstore.load_room(storage, table)[1].get("away") == []
        stored = storage.load(table)
        assert stored is not None and len(stored.actions) > n
        state = load("wizard", 3, **short_options("wizard")).new_state(stored.seed)
        for action in stored.actions[:n]:
            state.apply(action)
        assert stored.actions[n] == state.parse(move)
