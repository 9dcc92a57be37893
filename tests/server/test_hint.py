"""The table's hint: off by default, public when on, one per decision, from the seat's view only."""

from __future__ import annotations

import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.server.hint import Hints, suggest

from .conftest import short_options


def table_with(client: TestClient, hints: bool | None, game: str = "wizard") -> tuple[str, dict[int, str]]:
    """Three human seats: the table waits for them (no bot moves meanwhile), and a human is to act."""
    body: dict[str, Any] = {
        "game": game,
        "players": 3,
        "options": short_options(game),
        "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
    }
    if hints is not None:
        body["hints"] = hints
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    return data["table"], {s["seat"]: s["key"] for s in data["seats"]}


def test_hints_are_off_by_default(client: TestClient) -> None:
    table, keys = table_with(client, None)
    for key in keys.values():
        assert client.post(f"/api/tables/{table}/hint", json={"key": key}).json() == {"enabled": False}
    live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
    seat = live.state.current_player
    r = client.post(f"/api/tables/{table}/hint", json={"key": keys[seat], "n": live.n})
    assert r.status_code == 400 and r.json()["code"] == "forbidden"
    r = client.post(
        "/api/tables", json={"game": "wizard", "players": 3, "seats": [{}, {}, {}], "hints": "yes"}
    )
    assert r.status_code == 400


def test_a_hint_is_the_searchs_choice_once_per_decision(client: TestClient) -> None:
    table, keys = table_with(client, True)
    live = client.app.state.manager.tables[table]  # type: ignore[attr-defined]
    # Every seat is told (the page says hints are on to everyone at the table).
    for key in keys.values():
        assert client.post(f"/api/tables/{table}/hint", json={"key": key}).json() == {"enabled": True}
    seat = live.state.current_player
    other = (seat + 1) % 3
    r = client.post(f"/api/tables/{table}/hint", json={"key": keys[other], "n": live.n})
    assert r.status_code == 400 and "your own turn" in r.json()["message"]
    r = client.post(f"/api/tables/{table}/hint", json={"key": keys[seat], "n": live.n + 1})
    assert r.status_code == 400 and r.json()["code"] == "stale"
    r = client.post(f"/api/tables/{table}/hint", json={"key": keys[seat], "n": live.n})
    assert r.status_code == 200, r.text
    hint = r.json()
    view = live.state.view(seat)
    assert hint["action"] in [view.game.action_to_text(a) for a in view.legal_actions]
    assert hint["worlds"] >= 1 and hint["stderr"] >= 0
    # Asking again gives the same answer (no new search: the start bucket is not touched).
    again = client.post(f"/api/tables/{table}/hint", json={"key": keys[seat], "n": live.n}).json()
    assert again == hint


def test_the_hint_sees_the_seats_view_only() -> None:
    """Two games that differ in every card the seat cannot see get the same hint."""
    import atout

    game = atout.load("wizard", 4, rounds="3")
    state = game.new_state(seed=4)
    rng = random.Random(4)
    checked = differ = 0
    while not state.is_terminal and checked < 4:
        view = state.view(state.current_player)
        if len(view.legal_actions) > 1:
            other = game.sample_state(view, random.Random(checked))
            seat = view.seat
            assert other.view(seat).to_dict() == view.to_dict()
            differ += any(other.view(s).to_dict() != state.view(s).to_dict() for s in range(4) if s != seat)
            assert suggest(state.view(seat), 100, 7) == suggest(other.view(seat), 100, 7)
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked == 4 and differ >= 3  # the hidden hands really were other ones


def test_only_the_view_crosses_to_the_worker(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import atout.server.hint as module

    seen: list[Any] = []

    def spy(view: Any, playouts: int, seed: int) -> dict[str, Any]:
        seen.append(view)
        return {
            "action": view.game.action_to_text(view.legal_actions[0]),
            "mean": 0.0,
            "stderr": 0.0,
            "worlds": 1,
        }

    monkeypatch.setattr(module, "suggest", spy)
    table, keys = table_with(client, True)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    live = manager.tables[table]
    hints: Hints = client.app.state.hints  # type: ignore[attr-defined]
    hints.pool = None  # in a thread, where the spy is the function called
    seat = live.state.current_player
    r = client.post(f"/api/tables/{table}/hint", json={"key": keys[seat], "n": live.n})
    assert r.status_code == 200
    assert len(seen) == 1 and type(seen[0]).__name__.endswith("View")
    assert seen[0].to_dict() == live.state.view(seat).to_dict()


def test_every_reader_is_told_whether_the_table_gives_hints(client: TestClient) -> None:
    """The room's facts carry the setting to each seat and to a spectator (who has no key to ask
    with): nobody watches a game without knowing a seat may have been advised."""
    from .conftest import join, send

    for hints in (True, False):
        r = client.post(
            "/api/tables",
            json={
                "game": "wizard",
                "players": 3,
                "options": short_options("wizard"),
                "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                "hints": hints,
                "public": True,
            },
        )
        assert r.status_code == 200, r.text
        table, key = r.json()["table"], r.json()["seats"][0]["key"]
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert join(ws, key)["room"]["hints"] is hints
        with client.websocket_connect(f"/ws/{table}") as ws:
            send(ws, {"type": "join", "watch": True})
            msg = ws.receive_json()
            assert msg["spectator"] is True and msg["room"]["hints"] is hints
