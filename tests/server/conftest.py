"""Fixtures for the web table: an app on a temporary SQLite file, socket helpers,
and a real ``atout serve`` process for the browser and crash tests."""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

# Starlette 1.x suggests httpx2 for its test client; httpx works and is what we ship.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from atout.core.registry import game_class, names  # noqa: E402
from atout.server import create_app  # noqa: E402
from atout.server.storage import url_for  # noqa: E402

#: Options that make a game short, applied to every game that has them.
SHORT_OPTIONS: dict[str, Any] = {"rounds": 2, "hands": 1, "max_deals": 1, "start_score": 6}


def short_options(game: str) -> dict[str, Any]:
    specs = {s.name for s in game_class(game).option_specs}
    return {k: v for k, v in SHORT_OPTIONS.items() if k in specs}


def game_names() -> list[str]:
    return names()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    # Whole games are played here as fast as the machine allows (a Malin seat may
    # answer dozens of reaction windows a second): the per-connection rate limit
    # would make them depend on the machine's speed.  It has its own test
    # (test_socket.py::test_rate_limit_per_connection) with its own app.
    with TestClient(create_app(db_path, bot_delay=0, rate=1000.0, burst=1000)) as c:
        yield c


def create_table(
    client: TestClient,
    game: str = "wizard",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
) -> tuple[str, dict[int, str]]:
    """Create a table (humans everywhere but ``bots``); returns its id and seat keys."""
    cls = game_class(game)
    n = players or cls.min_players
    bots = bots or {}
    seats = [{"name": f"P{i}", "bot": bots.get(i)} for i in range(n)]
    r = client.post(
        "/api/tables",
        json={
            "game": game,
            "players": n,
            "options": short_options(game) if options is None else options,
            "seats": seats,
        },
    )
    assert r.status_code == 200, r.text
    data = r.json()
    return data["table"], {s["seat"]: s["key"] for s in data["seats"]}


def send(ws: Any, data: Any) -> None:
    ws.send_text(data if isinstance(data, str) else json.dumps(data))


def join(ws: Any, key: str) -> dict[str, Any]:
    send(ws, {"type": "join", "key": key})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``atout serve`` in a subprocess on a loopback port (restartable on the same port)."""

    def __init__(
        self,
        db: str,
        bot_delay: float = 0.0,
        deal_seed: int | None = None,
        review_playouts: int | None = None,
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.deal_seed = deal_seed
        self.review_playouts = review_playouts
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.log = db + ".log"

    def start(self) -> None:
        cmd = [
            sys.executable, "-c", "from atout.cli.main import app; app()", "serve",
            "--db", self.db, "--port", str(self.port), "--bot-delay", str(self.bot_delay),
        ]  # fmt: skip
        if self.deal_seed is not None:
            cmd += ["--deal-seed", str(self.deal_seed)]
        if self.review_playouts is not None:
            cmd += ["--review-playouts", str(self.review_playouts)]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("ATOUT_DATABASE_URL", None)
        # The server's output goes to a file: a pipe nobody reads could fill up and block it.
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"the server did not start: {self.output()}")
        assert f"http://127.0.0.1:{self.port}/" in self.output()

    def output(self) -> str:
        return Path(self.log).read_text(errors="replace") if Path(self.log).exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A served table for the browser tests: its deals drawn from a fixed seed (a failure
    replays with the same cards), a small review and hint budget (the pages are checked,
    not the advice: tests/server/test_review.py checks the figures)."""
    srv = Server(str(tmp_path / "served.sqlite3"), bot_delay=0.05, deal_seed=2026, review_playouts=40)
    srv.start()
    yield srv
    srv.stop()
    print(srv.output()[-5000:])  # shown by pytest when the test failed


@contextmanager
def private_schema(base: str) -> Iterator[str]:
    """A fresh schema in the PostgreSQL database ``base``, dropped afterwards; yields its URL.

    The URL sets ``search_path`` through libpq's ``options``, so every connection (and
    every ``atout serve`` process given it) works in the schema alone.
    """
    schema = f"atout_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(url_for(base))
    with admin.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
