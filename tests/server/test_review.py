"""The web table's game review: only once over, queued and bounded, the bot review's own figures, cached."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.bots.review import review_game
from atout.core.registry import load
from atout.server import create_app
from atout.server.botpool import game_spec
from atout.server.limits import ClientBuckets
from atout.server.review import (
    REVIEW_SEED,
    Reviewer,
    ReviewJob,
    assemble_review,
    count_decisions,
    load_review,
    review_in_worker,
    review_part_in_worker,
)

from .conftest import create_table, join, send, short_options


def finish(client: TestClient, game: str) -> tuple[str, dict[int, str], int]:
    """A short game with a human at seat 0 (random moves) and random bots: its id, keys and players."""
    players = 3 if game != "nain-jaune" else 2
    players = load(game, players, **short_options(game)).players
    table, keys = create_table(client, game, players, bots={s: "random" for s in range(1, players)})
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[0])
        while not msg["over"]:
            if msg["type"] == "state" and msg["to_act"] == 0:
                send(ws, {"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]})
            msg = ws.receive_json()
    return table, keys, players


def ask(client: TestClient, table: str, key: str, seat: int) -> dict[str, Any]:
    """Ask for a review until it is done (the queue answers at once: the search runs behind)."""
    deadline = time.monotonic() + 120
    while True:
        r = client.post(f"/api/tables/{table}/review", json={"key": key, "as_seat": seat})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        if data["status"] == "done":
            return data
        assert data["status"] == "queued" and data["ahead"] >= 0
        assert time.monotonic() < deadline
        time.sleep(0.1)


@pytest.mark.parametrize("game", ["wizard", "nain-jaune"])
def test_a_finished_game_is_reviewed_with_the_bots_figures_and_cached(client: TestClient, game: str) -> None:
    table, keys, _ = finish(client, game)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    reviewer: Reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
    data = ask(client, table, keys[0], 1)["review"]
    live = manager.tables[table].state
    expected = review_game(live, seats=[1], playouts=reviewer.playouts, seed=REVIEW_SEED).to_dict()
    assert data == expected  # the stored JSON is the bots' review, decision for decision
    assert data["decisions"] and all(d["seat"] == 1 for d in data["decisions"])
    # Cached with the table: stored, and read back without a new job.
    assert load_review(manager.storage, table, 1, reviewer.playouts) == expected
    r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": 1})
    assert r.json() == {"status": "done", "review": expected} and not reviewer.jobs


def test_an_unfinished_game_is_not_reviewed(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    r = client.post(f"/api/tables/{table}/review", json={"key": keys[0]})
    assert r.status_code == 400 and r.json()["code"] == "forbidden"
    r = client.post(f"/api/tables/{table}/review", json={"key": "forged"})
    assert r.status_code == 403


def test_bad_seats_are_refused(client: TestClient) -> None:
    table, keys, players = finish(client, "wizard")
    for seat in (players, -1, True, "1"):
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": seat})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", seat


def test_the_queue_is_bounded_and_starts_are_limited_per_address(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0, rate=1000.0, burst=1000)) as client:
        reviewer: Reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
        table, keys, _ = finish(client, "wizard")
        blocker = table, keys
        other, other_keys, _ = finish(client, "wizard")
        reviewer.max_jobs = 1
        # Hold the single job open: the first review waits, the next one finds the queue full.
        reviewer.jobs[("held", 0, reviewer.playouts)] = None  # type: ignore[assignment]
        r = client.post(f"/api/tables/{blocker[0]}/review", json={"key": blocker[1][0], "as_seat": 0})
        assert r.status_code == 503 and r.json()["code"] == "busy"
        del reviewer.jobs[("held", 0, reviewer.playouts)]
        reviewer.max_jobs = 8
        # Starts per address: the burst, then refused (asking about a queued one is free).
        reviewer.starts = ClientBuckets(0.0, 1)  # one start per address, never refilled
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": 0})
        assert r.json()["status"] == "queued"
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": 0})
        assert r.status_code == 200  # the same review: no new start
        r = client.post(f"/api/tables/{other}/review", json={"key": other_keys[0], "as_seat": 0})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"


def test_a_failed_review_is_reported_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import atout.server.review as module

    def broken(*args: Any) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(module, "review_in_worker", broken)
    reviewer: Reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
    reviewer.pool = None  # in a thread, where the patched function is the one called
    table, keys, _ = finish(client, "wizard")
    first = client.post(f"/api/tables/{table}/review", json={"key": keys[0]})
    assert first.json()["status"] == "queued"
    deadline = time.monotonic() + 30
    while True:
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0]})
        if r.status_code != 200:
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert r.status_code == 503 and r.json()["code"] == "unavailable"
    assert "boom" not in r.text  # no internal detail reaches the client
    r = client.post(f"/api/tables/{table}/review", json={"key": keys[0]})
    assert r.json()["status"] == "queued"  # reported once: asking again tries again


def test_a_running_review_says_how_far_it_is(client: TestClient) -> None:
    """While a review runs, the status route gives the decisions done and in all (the page's bar)."""
    table, keys, _ = finish(client, "wizard")
    reviewer: Reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
    key = (table, 0, reviewer.playouts)
    reviewer.jobs[key] = None  # type: ignore[assignment]  # held: the job is "running"
    try:
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": 0})
        assert r.json() == {"status": "queued", "ahead": 0}  # not started searching: no figures yet
        reviewer.progress[key] = (3, 10)
        r = client.post(f"/api/tables/{table}/review", json={"key": keys[0], "as_seat": 0})
        assert r.json() == {"status": "queued", "ahead": 0, "done": 3, "total": 10}
    finally:
        del reviewer.jobs[key]
        reviewer.progress.pop(key, None)


def test_a_review_searched_in_parts_is_the_whole_review(client: TestClient) -> None:
    """The pool's reviewer searches a few decisions per task: together they are the one-piece review."""
    # A game whose seat 1 has more than two decisions, so that the parts of two are several: the
    # server deals at random, and a short Wizard game's cards are often forced (one legal card).
    for _ in range(8):
        table, _, _ = finish(client, "wizard")
        live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
        job = ReviewJob(game_spec(live.game), live.seed, list(live.actions), 1, 20, REVIEW_SEED)
        if count_decisions(job) > 2:
            break
    calls: list[tuple[int, int]] = []
    whole = review_in_worker(job, lambda d, t: calls.append((d, t)))
    total = count_decisions(job)
    assert total == len(whole["decisions"]) > 2 and calls[-1] == (total, total)
    parts = [d for start in range(0, total, 2) for d in review_part_in_worker(job, start, start + 2)]
    assert assemble_review(job, parts) == whole
