"""The tests' servers are forked ready from a fork server (conftest.Zygote): here the real
``atout serve`` command, started as a player starts it, a new Python process, serves a table; and a
forked one is handled as a process is (it ends when told, its end is seen)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Forked, Server


def seat_state(srv: Server, table: dict[str, Any]) -> dict[str, Any]:
    """The first seat's state as the server gives it (``POST /api/tables/{id}/seat``)."""
    r = httpx.post(f"{srv.url}/api/tables/{table['table']}/seat", json={"key": table["seats"][0]["key"]})
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    return state


def test_the_real_command_starts_and_serves(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "real.sqlite3"), real=True)
    srv.start()
    try:
        assert isinstance(srv.proc, subprocess.Popen)
        assert httpx.get(f"{srv.url}/").status_code == 200
        table = srv.create_table(
            game="wizard", players=3, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}]
        )
        assert seat_state(srv, table)["game"] == "wizard"
    finally:
        srv.stop()
    assert srv.proc.poll() == -signal.SIGTERM  # (uvicorn's orderly shutdown ends on the signal it caught)


def test_a_forked_server_serves_stops_and_restarts(tmp_path: Path) -> None:
    srv = Server(str(tmp_path / "forked.sqlite3"))
    srv.start()
    assert isinstance(srv.proc, Forked)
    first = srv.proc.pid
    table = srv.create_table(
        game="wizard", players=3, seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}]
    )
    srv.kill()  # as a crash: the same port and database serve the table again after a restart
    assert srv.proc.poll() == -signal.SIGKILL
    srv.start()
    try:
        assert srv.proc.pid != first
        assert seat_state(srv, table)["game"] == "wizard"
    finally:
        srv.stop()
    assert srv.proc.poll() == -signal.SIGTERM  # as the real process ends
    assert "atout web table: http://127.0.0.1:" in srv.output()


def test_a_server_that_does_not_come_up_is_not_left_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the 30 s a server has to listen, the test fails and the process is stopped (a loaded
    machine's orphans used to play on for the rest of the run)."""
    srv = Server(str(tmp_path / "never.sqlite3"))
    never = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], text=True)  # no port
    srv.proc = never
    clock = iter([0.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock, 31.0))  # 31 s at once
    with pytest.raises(RuntimeError, match="did not start"):
        srv.wait_ready()
    monkeypatch.undo()
    assert never.poll() == -signal.SIGTERM
