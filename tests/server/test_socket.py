"""The table over WebSockets: judging, committing, telling; bad input; leaks; restarts."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.core.game import State
from atout.core.registry import load
from atout.records import parse_record
from atout.server import create_app

from .conftest import create_table, game_names, join, send, short_options


def wait_until(condition: Callable[[], bool], timeout: float = 30) -> None:
    """Wait for the server's background tasks (bots) to reach a point."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def stored_actions(client: TestClient, table: str) -> list[int]:
    storage = client.app.state.storage  # type: ignore[attr-defined]
    stored = storage.load(table)
    assert stored is not None
    actions: list[int] = stored.actions
    return actions


def live_state(client: TestClient, table: str) -> State:
    state: State = client.app.state.manager.tables[table].state  # type: ignore[attr-defined]
    return state


def test_join_sends_only_the_seats_view(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[1])
    state = live_state(client, table)
    assert msg["type"] == "state" and msg["seat"] == 1 and msg["n"] == 0
    assert msg["view"] == state.view(1).to_dict()
    assert msg["legal"] == [state.action_to_text(a) for a in state.view(1).legal_actions]
    assert "seed" not in json.dumps(msg)
    assert set(msg) == {
        "type",
        "table",
        "game",
        "title",
        "players",
        "options",
        "seat",
        "n",
        "seats",
        "view",
        "legal",
        "to_act",
        "over",
        "score_history",
        "room",  # presence, clock, spectators, rematch: public facts (issue 18)
    }


def test_an_action_is_stored_before_it_is_announced(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    state = live_state(client, table)
    seat = state.current_player
    with client.websocket_connect(f"/ws/{table}") as ws, client.websocket_connect(f"/ws/{table}") as other:
        msg = join(ws, keys[seat])
        join(other, keys[(seat + 1) % 3])
        send(ws, {"type": "act", "action": msg["legal"][0], "n": 0})
        mine = ws.receive_json()
        theirs = other.receive_json()
        assert mine["n"] == theirs["n"] == 1
        # Whoever hears of the move can find it in the database.
        assert len(stored_actions(client, table)) == 1
        assert theirs["view"] == live_state(client, table).view(theirs["seat"]).to_dict()


def test_refusals_carry_the_rules_reason_and_change_nothing(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3, options={"rounds": 3})
    # Bid for everyone until the first card is to be played.
    while live_state(client, table).view(0).to_dict()["phase"] != "play":
        state = live_state(client, table)
        with client.websocket_connect(f"/ws/{table}") as ws:
            msg = join(ws, keys[state.current_player])
            send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
            assert ws.receive_json()["n"] == msg["n"] + 1
    before = list(stored_actions(client, table))
    history = list(live_state(client, table).history)
    seat = live_state(client, table).current_player
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[seat])
        hand = set(msg["view"]["hand"])
        absent = next(f"play {c}" for c in ("B1", "B2", "G1", "R1", "Y1") if c not in hand)
        cases: list[tuple[Any, str, str]] = [
            ({"type": "act", "action": absent, "n": msg["n"]}, "illegal", "you do not hold"),
            ({"type": "act", "action": "bid 99", "n": msg["n"]}, "", ""),
            ({"type": "act", "action": "dance", "n": msg["n"]}, "notation", ""),
            ({"type": "act", "action": "", "n": msg["n"]}, "bad_request", ""),
            ({"type": "act", "action": ["play", "B7"], "n": msg["n"]}, "bad_request", ""),
            ({"type": "act", "action": msg["legal"][0], "n": msg["n"] - 1}, "stale", "moved on"),
            ({"type": "join", "key": keys[seat]}, "bad_request", "already joined"),
            ({"type": "hello"}, "bad_request", "unknown message type"),
            ("not json at all", "bad_request", "JSON object"),
            ("[1, 2, 3]", "bad_request", "JSON object"),
            (json.dumps({"type": "act", "action": "play " + "Z" * 5000}), "too_large", "at most"),
        ]
        for message, code, words in cases:
            send(ws, message)
            reply = ws.receive_json()
            assert reply["type"] == "error", message
            if code:
                assert reply["code"] == code, (message, reply)
            assert words in reply["message"]
            assert "Traceback" not in reply["message"]
        ws.send_bytes(b"\x00\x01binary")
        assert ws.receive_json()["code"] == "bad_request"
        send(ws, {"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    assert stored_actions(client, table) == before
    assert live_state(client, table).history == history


def test_out_of_turn_is_refused(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    state = live_state(client, table)
    idle = (state.current_player + 1) % 3
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[idle])
        assert msg["legal"] == []
        send(ws, {"type": "act", "action": "bid 0", "n": 0})
        reply = ws.receive_json()
        assert reply["code"] == "not_your_turn" and "P" in reply["message"]
        # Claiming another seat in the message does not help: the key decides the seat.
        send(ws, {"type": "act", "action": "bid 0", "n": 0, "seat": state.current_player})
        assert ws.receive_json()["code"] == "not_your_turn"
    assert stored_actions(client, table) == []


def test_acting_before_joining_and_forged_or_foreign_keys(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    _, other_keys = create_table(client, "wizard", 3)
    with client.websocket_connect(f"/ws/{table}") as ws:
        send(ws, {"type": "act", "action": "bid 0"})
        assert ws.receive_json()["code"] == "not_joined"
        for key in ("forged", other_keys[0], keys[0][:-1] + ("A" if keys[0][-1] != "A" else "B"), 7, None):
            send(ws, {"type": "join", "key": key})
            reply = ws.receive_json()
            assert reply["code"] == "bad_key", key
        send(ws, {"type": "act", "action": "bid 0"})
        assert ws.receive_json()["code"] == "not_joined"
    with client.websocket_connect("/ws/nosuchtable") as ws:
        send(ws, {"type": "join", "key": keys[0]})
        assert ws.receive_json()["code"] == "not_found"


def test_a_replayed_action_message_is_refused(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3, options={"rounds": 3})
    seat = live_state(client, table).current_player
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[seat])
        act = {"type": "act", "action": msg["legal"][0], "n": msg["n"]}
        send(ws, act)
        assert ws.receive_json()["n"] == 1
        send(ws, act)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] in {"stale", "not_your_turn"}
    assert len(stored_actions(client, table)) == 1


def test_rate_limit_per_connection(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0, rate=0.001, burst=5)) as client:
        table, keys = create_table(client)
        with client.websocket_connect(f"/ws/{table}") as ws:
            join(ws, keys[0])
            codes = []
            for _ in range(8):
                send(ws, {"type": "ping"})
                codes.append(ws.receive_json().get("code"))
            assert codes[:4] == [None] * 4
            assert codes[4:] == ["rate_limited"] * 4
        # Another connection has its own allowance.
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert join(ws, keys[0])["type"] == "state"


def play_whole_game(
    client: TestClient, game: str, players: int, rng: random.Random
) -> tuple[str, dict[int, list[dict[str, Any]]]]:
    """Humans at every seat, each on its own socket, playing random legal moves.

    Returns every message each seat received.
    """
    table, keys = create_table(client, game, players)
    received: dict[int, list[dict[str, Any]]] = {s: [] for s in range(players)}
    sockets = {s: client.websocket_connect(f"/ws/{table}") for s in range(players)}
    conns = {s: cm.__enter__() for s, cm in sockets.items()}
    try:
        for s, ws in conns.items():
            received[s].append(join(ws, keys[s]))
        last = received[0][-1]
        while not last["over"]:
            actor = last["to_act"]
            mine = received[actor][-1]
            assert mine["n"] == last["n"]
            send(conns[actor], {"type": "act", "action": rng.choice(mine["legal"]), "n": mine["n"]})
            for s, ws in conns.items():
                received[s].append(ws.receive_json())
            last = received[0][-1]
    finally:
        for cm in sockets.values():
            cm.__exit__(None, None, None)
    return table, received


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("game", game_names())
def test_no_message_leaks_another_seats_hidden_cards(client: TestClient, game: str) -> None:
    """Over a whole game: each message is exactly the seat's view at that point, and
    no card of another seat's hand that this seat cannot see appears in it."""
    players = load(game, 3 if game != "nain-jaune" else 2, **short_options(game)).players
    try:
        load(game, players, **short_options(game))
    except Exception:
        pytest.skip(f"{game} is not playable with {players} players")
    table, received = play_whole_game(client, game, players, random.Random(5))
    final = live_state(client, table)
    assert final.is_terminal
    replay = load(game, players, **short_options(game)).new_state(final.seed)
    actions = stored_actions(client, table)
    states: list[State] = []
    for a in [None, *actions]:
        if a is not None:
            replay.apply(a)
        states.append(replay.clone())
    checked = 0
    for seat, messages in received.items():
        for msg in messages:
            state = states[msg["n"]]
            own = state.view(seat).to_dict()
            assert msg["view"] == own
            assert msg["legal"] == [state.action_to_text(a) for a in state.view(seat).legal_actions]
            assert str(final.seed) not in json.dumps(msg)
            visible = strings_in(own)
            for other in range(players):
                if other == seat:
                    continue
                hidden = strings_in(state.view(other).to_dict().get("hand", [])) - visible
                leaked = hidden & strings_in(msg)
                assert not leaked, (seat, other, msg["n"], leaked)
                checked += len(hidden)
    assert checked > 0


@pytest.mark.parametrize("game", game_names())
def test_bots_finish_a_game_and_records_are_served(client: TestClient, game: str) -> None:
    cls_players = load(game, 3 if game != "nain-jaune" else 2, **short_options(game)).players
    table, keys = create_table(client, game, cls_players, bots={s: "random" for s in range(1, cls_players)})
    rng = random.Random(1)
    with client.websocket_connect(f"/ws/{table}") as ws:
        msg = join(ws, keys[0])
        # Before the end: seat 0's own export only, which cannot be replayed (hidden cards).
        rec = parse_record(client.post(f"/api/tables/{table}/record", json={"key": keys[0]}).text)
        assert rec.view == 0 and rec.seed is None
        while not msg["over"]:
            if msg["type"] == "state" and msg["to_act"] == 0:
                send(ws, {"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]})
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
    state = live_state(client, table)
    assert msg["score_history"][-1] == state.scores() and len(msg["score_history"]) >= 2
    text = client.post(f"/api/tables/{table}/record", json={"key": keys[0]}).text
    record = parse_record(text)
    assert record.view is None and record.result == state.scores()
    assert record.replay().history == state.history
    as_json = client.post(f"/api/tables/{table}/record", json={"key": keys[0], "format": "json"})
    assert parse_record(as_json.text).moves == record.moves
    # Replay move by move: any step, any seat, once over.
    n = len(stored_actions(client, table))
    for step in (0, n // 2, n):
        r = client.post(f"/api/tables/{table}/replay", json={"key": keys[0], "step": step, "as_seat": 1})
        assert r.status_code == 200 and r.json()["step"] == step
    assert client.post(f"/api/tables/{table}/replay", json={"key": keys[0], "step": n + 1}).status_code == 400


def test_replay_of_other_seats_waits_for_the_end(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    r = client.post(f"/api/tables/{table}/replay", json={"key": keys[0], "step": 0, "as_seat": 1})
    assert r.status_code == 400 and r.json()["code"] == "forbidden"
    r = client.post(f"/api/tables/{table}/replay", json={"key": keys[0], "step": 0})
    assert r.json()["view"] == live_state(client, table).view(0).to_dict()


def test_a_human_who_leaves_is_replaced_by_a_bot(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3, bots={1: "random", 2: "random"})
    r = client.post(f"/api/tables/{table}/leave", json={"key": keys[0], "bot": "heuristic"})
    assert r.status_code == 200
    wait_until(lambda: live_state(client, table).is_terminal)  # bots at delay 0 finish the game
    assert client.post(f"/api/tables/{table}/seat", json={"key": keys[0]}).status_code == 403


def test_restart_rebuilds_tables_from_the_database(db_path: str) -> None:
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        # Humans only: nothing moves unless the test moves it.
        table, keys = create_table(client, "wizard", 3, options={"rounds": 3})
        rng = random.Random(3)
        for _ in range(6):
            state = live_state(client, table)
            seat = state.current_player
            with client.websocket_connect(f"/ws/{table}") as ws:
                msg = join(ws, keys[seat])
                send(ws, {"type": "act", "action": rng.choice(msg["legal"]), "n": msg["n"]})
                assert ws.receive_json()["n"] == msg["n"] + 1
        before = live_state(client, table).clone()
        views = [before.view(s).to_dict() for s in range(3)]
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        after = live_state(client, table)
        assert after.history == before.history
        assert [after.view(s).to_dict() for s in range(3)] == views
        with client.websocket_connect(f"/ws/{table}") as ws:
            assert join(ws, keys[0])["view"] == views[0]


def test_bots_resume_after_a_restart(db_path: str) -> None:
    # A bot that would wait for ever: the server stops while the bot is to play.
    with TestClient(create_app(db_path, bot_delay=3600)) as client:
        table, keys = create_table(
            client, "wizard", 3, options={"rounds": 2}, bots={1: "random", 2: "random"}
        )
        state = live_state(client, table)
        assert state.current_player in (1, 2) or state.current_player == 0
        while live_state(client, table).current_player == 0:
            with client.websocket_connect(f"/ws/{table}") as ws:
                msg = join(ws, keys[0])
                send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
                ws.receive_json()
        stopped_at = len(stored_actions(client, table))
    with TestClient(create_app(db_path, bot_delay=0)) as client:
        wait_until(
            lambda: live_state(client, table).current_player == 0 or live_state(client, table).is_terminal
        )
        assert len(stored_actions(client, table)) > stopped_at


def test_internal_errors_reach_clients_without_details(db_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(db_path, bot_delay=0)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals /etc/passwd")

    with TestClient(app, raise_server_exceptions=False) as client:
        table, keys = create_table(client, "wizard", 3)
        monkeypatch.setattr("atout.server.app.game_catalogue", broken)
        r = client.get("/api/games")
        assert r.status_code == 500
        assert r.json() == {"type": "error", "code": "internal", "message": "internal error"}
        monkeypatch.setattr(app.state.manager, "act", broken)
        with client.websocket_connect(f"/ws/{table}") as ws:
            join(ws, keys[0])
            send(ws, {"type": "act", "action": "bid 0", "n": 0})
            reply = ws.receive_json()
            assert reply == {"type": "error", "code": "internal", "message": "internal error"}


def test_a_player_sitting_down_names_the_seat(client: TestClient) -> None:
    table, keys = create_table(client, "wizard", 3)
    with client.websocket_connect(f"/ws/{table}") as ws, client.websocket_connect(f"/ws/{table}") as other:
        join(ws, keys[0])
        join(other, keys[1])
        send(ws, {"type": "name", "name": "  Zoé   la\tjoueuse " + "x" * 100})
        for conn in (ws, other):
            msg = conn.receive_json()
            assert msg["seats"][0]["name"] == ("Zoé la joueuse " + "x" * 100)[:40]
        for bad in ("   ", None, 5):
            send(ws, {"type": "name", "name": bad})
            assert ws.receive_json()["code"] == "bad_request"
    stored = client.app.state.storage.load(table)  # type: ignore[attr-defined]
    assert stored.seats[0].name.startswith("Zoé la joueuse")
