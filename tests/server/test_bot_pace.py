"""The bots' pace, a table setting: chosen at creation, stored with the table (a JSON
``settings`` column that older databases gain at start-up), scaled from the server's
``--bot-delay``."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from atout.core.registry import load
from atout.server import create_app
from atout.server.storage import Storage, url_for
from atout.server.tables import BOT_PACES, TableManager

from .conftest import create_table
from .test_storage import db_url  # noqa: F401  (the SQLite / PostgreSQL fixture)


def old_schema(url: str) -> None:
    """The tables as the previous version created them: no ``settings`` column."""
    meta = sa.MetaData()
    sa.Table(
        "atout_tables", meta,
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
    )  # fmt: skip
    sa.Table(
        "atout_seats", meta,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("atout_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.Column("key_hash", sa.String(64), nullable=True, index=True),
    )  # fmt: skip
    sa.Table(
        "atout_actions", meta,
        sa.Column("table_id", sa.String(32), sa.ForeignKey("atout_tables.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("action", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
    )  # fmt: skip
    engine = sa.create_engine(url_for(url))
    meta.create_all(engine)
    game = load("wizard", 3, rounds=2)
    state = game.new_state(77)
    first = state.legal_actions()[0]
    with engine.begin() as conn:
        conn.execute(
            meta.tables["atout_tables"].insert(),
            [{"id": "old1", "game": "wizard", "players": 3, "options": {"rounds": "2"}, "seed": 77,
              "created": dt.datetime.now(dt.UTC), "finished": False}],
        )  # fmt: skip
        conn.execute(
            meta.tables["atout_seats"].insert(),
            [
                {"table_id": "old1", "seat": s, "name": f"P{s}", "bot": "random", "key_hash": None}
                for s in range(3)
            ],
        )
        conn.execute(
            meta.tables["atout_actions"].insert(),
            [{"table_id": "old1", "idx": 0, "action": first, "seat": state.current_player}],
        )
    engine.dispose()


def columns(url: str) -> set[str]:
    engine = sa.create_engine(url_for(url))
    try:
        return {c["name"] for c in sa.inspect(engine).get_columns("atout_tables")}
    finally:
        engine.dispose()


def test_an_old_database_gains_the_settings_column(db_url: str) -> None:  # noqa: F811
    old_schema(db_url)
    assert "settings" not in columns(db_url)
    storage = Storage(db_url)
    try:
        assert "settings" in columns(db_url)
        assert storage.migrate() == []  # once is enough; a second start changes nothing
        stored = storage.load("old1")
        assert stored is not None and stored.settings == {} and len(stored.actions) == 1
    finally:
        storage.close()
    # The old table is served, at the default pace; new tables store theirs.
    with TestClient(create_app(db_url, bot_delay=3600)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        table = manager.tables["old1"]
        assert table.bot_pace == "normal" and table.n == 1
        new, _ = create_table(client, "wizard", 3, bots={1: "random"})
        assert client.app.state.storage.load(new).settings == {"bot_pace": "normal"}  # type: ignore[attr-defined]


def test_a_sqlite_file_of_the_old_schema_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old_schema(str(path))
    Storage(str(path)).close()
    assert "settings" in columns(str(path))
    Storage(str(path)).close()  # and opens again


@pytest.mark.parametrize(
    ("delay", "expected"), [(0.8, [1.5, 0.8, 0.3]), (0.05, [0.09375, 0.05, 0.01875]), (0, [0, 0, 0])]
)
def test_the_server_s_delay_is_the_normal_pace(tmp_path: Path, delay: float, expected: list[float]) -> None:
    storage = Storage(str(tmp_path / "t.sqlite3"))
    try:
        manager = TableManager(storage, bot_delay=delay)
        assert [manager.pace_delay(p) for p in ("slow", "normal", "fast")] == pytest.approx(expected)
    finally:
        storage.close()


def test_api_games_lists_the_paces_in_seconds(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0.8)) as client:
        data = client.get("/api/games").json()
    assert data["default_pace"] == "normal"
    assert data["bot_paces"] == [
        {"name": "slow", "seconds": 1.5},
        {"name": "normal", "seconds": 0.8},
        {"name": "fast", "seconds": 0.3},
    ]


def test_a_table_keeps_its_pace_across_a_restart(db_path: str) -> None:
    seats = [{"name": "Ann", "bot": None}, {"name": "B", "bot": "random"}, {"name": "C", "bot": "random"}]
    body: dict[str, Any] = {"game": "wizard", "players": 3, "options": {"rounds": 1}, "seats": seats}
    with TestClient(create_app(db_path, bot_delay=3600)) as client:
        r = client.post("/api/tables", json={**body, "bot_pace": "fast"})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert client.app.state.storage.load(table).settings == {"bot_pace": "fast"}  # type: ignore[attr-defined]
    with TestClient(create_app(db_path, bot_delay=3600)) as client:
        assert client.app.state.manager.tables[table].bot_pace == "fast"  # type: ignore[attr-defined]


@pytest.mark.parametrize("pace", ["warp", 3, None, ""])
def test_other_paces_are_refused(client: TestClient, pace: Any) -> None:
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}]
    r = client.post("/api/tables", json={"game": "wizard", "players": 3, "seats": seats, "bot_pace": pace})
    assert r.status_code == 400
    assert r.json() == {
        "type": "error",
        "code": "bad_request",
        "message": f"bot_pace must be one of: {', '.join(BOT_PACES)}",
    }


def test_the_bots_wait_their_table_s_pace(db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def pace_delay(self: TableManager, pace: str) -> float:
        asked.append(pace)
        return 0.0

    monkeypatch.setattr(TableManager, "pace_delay", pace_delay)
    seats = [{"name": f"B{i}", "bot": "random"} for i in range(3)]
    with TestClient(create_app(db_path, bot_delay=1)) as client:
        for pace in ("slow", "fast"):
            r = client.post(
                "/api/tables",
                json={
                    "game": "wizard",
                    "players": 3,
                    "options": {"rounds": 1},
                    "seats": seats,
                    "bot_pace": pace,
                },
            )
            table = client.app.state.manager.tables[r.json()["table"]]  # type: ignore[attr-defined]
            deadline = dt.datetime.now() + dt.timedelta(seconds=20)
            while not table.state.is_terminal and dt.datetime.now() < deadline:
                time.sleep(0.01)  # the app's event loop runs the bots meanwhile
            assert table.state.is_terminal
            assert set(asked) == {pace} and len(asked) >= table.n
            asked.clear()


def test_a_forced_move_is_played_without_the_pace(db_path: str) -> None:
    """Issue 29: in Le Malin with Malheur cards most bot moves are Malheur-window passes by a
    seat with nothing playable, each at the bot pace (half the game spent waiting).  A bot
    with a single legal action plays it at once; any real choice keeps the table's pace."""
    manager = TableManager(Storage(url_for(db_path)), bot_delay=0.8)
    game = load("malin", 4, fun=True)
    state = game.new_state(3)
    forced_passes = choices = 0
    table = type("T", (), {"bot_pace": "slow", "state": state})()
    while not state.is_terminal and (forced_passes < 5 or choices < 5):
        legal = state.legal_actions()
        wait = manager.bot_wait(table)
        if len(legal) == 1:
            assert wait == 0.0
            forced_passes += state.action_to_text(legal[0]) == "pass"
        else:
            assert wait == manager.pace_delay("slow") == pytest.approx(1.5)
            choices += 1
        state.apply(legal[-1])
    assert forced_passes >= 5 and choices >= 5
