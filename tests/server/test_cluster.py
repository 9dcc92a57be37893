"""Several ``atout serve`` processes on one PostgreSQL, and PostgreSQL going away (issue 17).

* Three processes, clients on two of them at one table with bots: a move accepted by
  one process is broadcast by all; ``kill -9`` of the process driving the bots in the
  middle of the game; another takes the bots over; every client sees every move once
  and the database holds the whole game, no move lost or stored twice.
* A private PostgreSQL (initdb in a temporary directory, never the shared cluster)
  stopped for 5 s in the middle of games: every table resumes by itself.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from atout.server.storage import Storage
from atout.server.tables import rebuild

from .conftest import Server, free_port, private_schema

PG_ENV = "ATOUT_TEST_POSTGRES_URL"
PG_BIN = Path("/usr/lib/postgresql/15/bin")

pytestmark = pytest.mark.slow


def start_servers(url: str, tmp: Path, count: int, bot_delay: float) -> list[Server]:
    servers = []
    for i in range(count):
        srv = Server(url, bot_delay=bot_delay)
        srv.log = str(tmp / f"server{i}.log")
        servers.append(srv)
    for srv in servers:
        srv.start()
    return servers


class Player(threading.Thread):
    """A human at one seat, on one server: plays a random legal move whenever it is its turn.

    Records the ``n`` of every state it is sent; retries its move after a refusal
    that changed nothing (the database was away).
    """

    def __init__(self, port: int, table: str, key: str, seat: int, seed: int) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{port}/ws/{table}"
        self.key = key
        self.seat = seat
        self.rng = random.Random(seed)
        self.seen: list[int] = []
        self.errors: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            with connect(self.url) as ws:
                ws.send(json.dumps({"type": "join", "key": self.key}))
                while True:
                    msg = json.loads(ws.recv(timeout=45))
                    if msg["type"] == "error":
                        self.errors.append(msg)
                        assert msg["code"] in ("unavailable", "stale", "conflict", "not_your_turn"), msg
                        time.sleep(0.3)
                        msg = self.last
                    else:
                        assert msg["type"] == "state", msg
                        self.seen.append(msg["n"])
                        self.last = msg
                    if msg["over"]:
                        return
                    if msg["to_act"] == self.seat:
                        move = {"type": "act", "action": self.rng.choice(msg["legal"]), "n": msg["n"]}
                        ws.send(json.dumps(move))
        except BaseException as exc:  # reported by the test
            self.failure = exc


def create(server: Server, seats: list[str | None], rounds: int) -> tuple[str, dict[int, str]]:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "wizard",
            "players": len(seats),
            "options": {"rounds": rounds},
            "seats": [{"name": f"S{i}", "bot": b} for i, b in enumerate(seats)],
        },
        timeout=20,
    )
    assert r.status_code == 200, r.text
    return r.json()["table"], {s["seat"]: s["key"] for s in r.json()["seats"]}


def assert_whole_game(url: str, table: str, players: list[Player]) -> None:
    """Stored: a finished game; each player saw each move once, the last as stored."""
    storage = Storage(url)
    try:
        stored = storage.load(table)
    finally:
        storage.close()
    assert stored is not None and stored.finished
    _, state, _ = rebuild(stored)
    assert state.is_terminal
    for p in players:
        assert p.failure is None, p.failure
        first = p.seen[0]
        assert p.seen == list(range(first, len(stored.actions) + 1)), p.seen
        assert p.last["view"] == state.view(p.seat).to_dict()


def wait_for(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_three_processes_one_table_and_a_kill_9(tmp_path: Path) -> None:
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    with private_schema(base) as url:
        servers = start_servers(url, tmp_path, 3, bot_delay=0.05)
        try:
            # Created on server 0: it takes the bots' lease, so it is the one driving them.
            table, keys = create(servers[0], [None, None, "random", "random"], rounds=3)
            players = [
                Player(servers[1].port, table, keys[0], 0, seed=1),
                Player(servers[2].port, table, keys[1], 1, seed=2),
            ]
            for p in players:
                p.start()
            wait_for(lambda: all(p.seen and p.seen[-1] >= 10 for p in players), 30, "ten moves")
            killed_at = max(p.seen[-1] for p in players)
            servers[0].kill()
            for p in players:
                p.join(60)
                assert not p.is_alive(), "the game did not finish after the kill"
            assert_whole_game(url, table, players)
            assert players[0].seen[-1] > killed_at + 4  # the bots played on after the kill
        finally:
            for srv in servers:
                srv.stop()
            for i, srv in enumerate(servers):
                print(f"--- server {i}\n{srv.output()[-3000:]}")


# -- PostgreSQL stopped for 5 s ------------------------------------------------------------


def _as_postgres(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, text=True, timeout=60
    )


@contextmanager
def private_postgres() -> Iterator[tuple[str, Any, Any]]:
    """A throw-away PostgreSQL cluster on a free port: (url, stop(), start())."""
    initdb, pg_ctl = PG_BIN / "initdb", PG_BIN / "pg_ctl"
    if not (initdb.exists() and pg_ctl.exists() and shutil.which("runuser")):
        pytest.skip(f"a private PostgreSQL needs {initdb}, {pg_ctl} and runuser")
    if os.geteuid() != 0:
        pytest.skip("a private PostgreSQL is started as the postgres user: the tests must run as root")
    root = Path(tempfile.mkdtemp(prefix="atout-pg-"))
    shutil.chown(root, "postgres")
    data, log = root / "data", root / "log"
    port = free_port()
    opts = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    try:
        _as_postgres(str(initdb), "-D", str(data), "-U", "atout", "--auth=trust", "-E", "UTF8")

        def start() -> None:
            _as_postgres(str(pg_ctl), "-D", str(data), "-l", str(log), "-o", opts, "-w", "start")

        def stop() -> None:
            _as_postgres(str(pg_ctl), "-D", str(data), "-m", "fast", "-w", "stop")

        start()
        yield f"postgresql://atout@127.0.0.1:{port}/postgres", stop, start
    finally:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(pg_ctl), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
        )
        shutil.rmtree(root, ignore_errors=True)


def stored_counts(url: str, tables: list[str]) -> dict[str, tuple[int, bool]]:
    storage = Storage(url)
    try:
        out = {}
        for t in tables:
            stored = storage.load(t)
            assert stored is not None
            out[t] = (len(stored.actions), stored.finished)
        return out
    finally:
        storage.close()


def test_every_table_resumes_after_postgresql_was_away(tmp_path: Path) -> None:
    with private_postgres() as (url, stop, start):
        servers = start_servers(url, tmp_path, 2, bot_delay=0.1)
        try:
            bot_tables = [create(servers[i % 2], ["random"] * 3, rounds=4)[0] for i in range(3)]
            human_table, keys = create(servers[0], [None, "random", "random"], rounds=4)
            player = Player(servers[1].port, human_table, keys[0], 0, seed=3)
            player.start()
            tables = [*bot_tables, human_table]
            wait_for(lambda: all(n >= 4 for n, _ in stored_counts(url, tables).values()), 30, "moves")
            before = stored_counts(url, tables)
            assert not any(done for _, done in before.values()), "a game ended before the outage"
            stop()
            time.sleep(5)
            start()
            player.join(60)
            assert not player.is_alive(), "the human's table did not resume"
            wait_for(lambda: all(done for _, done in stored_counts(url, tables).values()), 60, "every game")
            assert_whole_game(url, human_table, [player])
            for t in bot_tables:
                assert stored_counts(url, [t])[t][0] > before[t][0]
        finally:
            for srv in servers:
                srv.stop()
            for i, srv in enumerate(servers):
                print(f"--- server {i}\n{srv.output()[-3000:]}")
