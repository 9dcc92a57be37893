"""The operator's own bots at the web table (``atout serve --allow-bot``); web users name no others."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from atout.cli.main import app
from atout.core.errors import AtoutError
from atout.server import create_app
from atout.server.tables import check_allowed_bots

from .test_socket import live_state, wait_until

MINE = "py:tests.bots.outside:FirstLegal"
OTHER = "py:tests.bots.outside:Unnamed"


def _create(client: TestClient, bots: list[str | None]) -> Any:
    seats = [{"name": f"P{i}", "bot": b} for i, b in enumerate(bots)]
    return client.post(
        "/api/tables", json={"game": "wizard", "players": len(bots), "options": {"rounds": 2}, "seats": seats}
    )


def test_an_allowed_bot_is_offered_and_plays(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0, allowed_bots=(MINE,))) as client:
        games = client.get("/api/games").json()["games"]
        wizard = next(g for g in games if g["name"] == "wizard")
        # Offered by name: the spec (a module path, a program's file) is not shown to visitors.
        assert "FirstLegal" in wizard["bots"] and MINE not in str(games) and "Unnamed" not in wizard["bots"]
        assert {"name": "FirstLegal", "label": "FirstLegal", "help": ""} in wizard["levels"]
        assert _create(client, [None, "FirstLegal", "random"]).status_code == 200
        r = _create(client, [None, MINE, MINE])
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert [type(b).__name__ for b in client.app.state.manager.tables[table].bots.values()] == [  # type: ignore[attr-defined]
            "FirstLegal",
            "FirstLegal",
        ]
        # Never an import path or a program the operator did not name.
        for bot in (OTHER, "cmd:/bin/sh -c 'touch /tmp/pwned'", "py:os:system"):
            r = _create(client, [None, bot, "random"])
            assert r.status_code == 400 and "no bot" in r.json()["message"], bot
        # Bots play their seats (the human is seat 0: wait for the bots' turns to pass).
        wait_until(lambda: live_state(client, table).current_player in (0, -4))


def test_without_allow_bot_py_and_cmd_bots_are_refused(client: TestClient) -> None:
    for bot in (MINE, "cmd:python examples/mybot.py"):
        r = _create(client, [None, bot, "random"])
        assert r.status_code == 400 and "no bot" in r.json()["message"]


def test_a_stored_table_whose_bot_is_no_longer_allowed(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=3600, allowed_bots=(MINE,))) as client:
        table = _create(client, [None, None, MINE]).json()["table"]
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        r = client.post(f"/api/tables/{table}/seat", json={"key": "x"})
        assert r.status_code == 400
        assert "not allowed on this server" in r.json()["message"]


@pytest.mark.parametrize(
    ("spec", "message"),
    [("heuristic", "give a py:MODULE:NAME"), ("py:tests.bots.outside:Nope", "has no 'Nope'")],
)
def test_allowed_bots_are_checked_when_the_server_starts(spec: str, message: str) -> None:
    with pytest.raises(AtoutError, match=message):
        check_allowed_bots([spec])
    result = CliRunner().invoke(app, ["serve", "--allow-bot", spec, "--db", "/nonexistent/never/used.db"])
    assert result.exit_code == 2 and message in result.output
