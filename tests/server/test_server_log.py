"""The served table's own log, as the browser tests read it when one fails: each socket's
messages and each stored move (``atout serve --log-level debug``), never a seat's key, and the
end of that log in a failed test's report (tests/server/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from websockets.sync.client import connect

from . import conftest
from .conftest import Server


def receive(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
    return msg


def test_the_server_logs_each_move_it_hears_and_stores_and_no_key(server: Server) -> None:
    seats = [
        {"name": "Human", "bot": None},
        {"name": "Bot", "bot": "random"},
        {"name": "Bot 2", "bot": "random"},
    ]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={"game": "wizard", "players": 3, "options": {"rounds": 1}, "seats": seats},
    )
    assert r.status_code == 200, r.text
    table, key = r.json()["table"], r.json()["seats"][0]["key"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/{table}") as ws:
        ws.send(json.dumps({"type": "join", "key": key}))
        msg = receive(ws)
        while msg["to_act"] != 0:
            msg = receive(ws)
        n, action = msg["n"], msg["legal"][0]
        ws.send(json.dumps({"type": "act", "action": action, "n": n - 1}))  # stale: refused
        assert receive(ws)["code"] == "stale"
        ws.send(json.dumps({"type": "act", "action": action, "n": n}))
        while msg["n"] <= n:
            msg = receive(ws)
    log = server.output()
    assert f": act {action!r} at {n - 1} table {table} seat 0 at {n}" in log, log
    assert ": refused (stale)" in log
    assert f": act {action!r} at {n} table {table} seat 0 at {n}" in log
    assert f"table {table}: move {n} stored (seat 0)" in log
    assert ": join" in log and ": open" in log
    assert " DEBUG atout.server: " in log  # each line with its time, level and logger
    assert key not in log


def test_a_failed_test_s_report_ends_with_the_server_s_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = Server(str(tmp_path / "t.sqlite3"))  # not started: its log is written here
    Path(srv.log).write_text("x" * conftest.LOG_TAIL + "atout.server: socket error\nTraceback …\n")
    monkeypatch.setattr(conftest, "SERVER_LOGS", tmp_path / "kept")
    monkeypatch.setattr(conftest, "SERVERS", [srv])

    def report(outcome: str) -> pytest.TestReport:
        made = conftest.pytest_runtest_makereport(cast(pytest.Item, Item()), cast(Any, None))
        next(made)
        rep = pytest.TestReport("tests/x.py::test_y[a/b]", ("x", 1, "y"), {}, outcome, None, "call")  # type: ignore[arg-type]
        with pytest.raises(StopIteration) as done:
            made.send(rep)
        finished: pytest.TestReport = done.value.value
        return finished

    failed = report("failed")
    (title, text), *_ = failed.sections
    assert title.startswith(f"atout serve log ({srv.url}")
    assert text.endswith("atout.server: socket error\nTraceback …\n") and len(text) == conftest.LOG_TAIL
    kept = list((tmp_path / "kept").iterdir())
    assert len(kept) == 1 and kept[0].read_text().endswith("Traceback …\n") and str(kept[0]) in title
    assert "/" not in kept[0].name
    assert report("passed").sections == []


class Item:
    nodeid = "tests/x.py::test_y[a/b]"
