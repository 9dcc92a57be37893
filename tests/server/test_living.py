"""The living table (issue 18): lobby and free seats, spectators, presence, the turn clock
and the away bot, chat, rematch, and every refusal of bad input, on the in-process app.

The turn clock is driven by hand: the app runs without its ticker (``clock_tick=0``),
the tests swap the room's clock for a number they move and call ``Living.tick()``
through the test client's portal, so nothing here sleeps or depends on speed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.core.registry import game_class
from atout.server import create_app
from atout.server.chat import CHAT_BURST, MAX_CHAT

from .conftest import game_names, send, short_options
from .test_storage import db_url  # noqa: F401  (the SQLite / PostgreSQL fixture)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


def app_client(db_path: str, clock: Clock, bot_delay: float = 0) -> TestClient:
    app = create_app(db_path, bot_delay=bot_delay, rate=1000.0, burst=1000, clock_tick=0)
    app.state.living.now = clock
    return TestClient(app)


@pytest.fixture
def living_client(db_path: str, clock: Clock) -> Iterator[TestClient]:
    with app_client(db_path, clock) as c:
        yield c


def make(
    client: TestClient,
    game: str = "wizard",
    seats: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    n = len(seats) if seats else game_class(game).min_players
    seats = seats or [{"name": f"P{i}"} for i in range(n)]
    r = client.post(
        "/api/tables",
        json={"game": game, "players": len(seats), "options": short_options(game), "seats": seats, **extra},
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    data["keys"] = {s["seat"]: s["key"] for s in data["seats"]}
    return data


def join(ws: Any, **fields: Any) -> dict[str, Any]:
    """Join with the living protocol; returns the first state message (the chat log follows)."""
    send(ws, {"type": "join", "living": True, **fields})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def until(ws: Any, test: Callable[[dict[str, Any]], bool], limit: int = 200) -> dict[str, Any]:
    """Read messages until one passes ``test`` (the server sent it: nothing waits on time)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if test(msg):
            return msg
    raise AssertionError("the expected message never came")


def tick(client: TestClient) -> None:
    living: Any = client.app.state.living  # type: ignore[attr-defined]
    assert client.portal is not None
    client.portal.call(living.tick)


def live(client: TestClient, table: str) -> Any:
    return client.app.state.manager.tables[table]  # type: ignore[attr-defined]


# -- the lobby and free seats ------------------------------------------------------------


def test_the_lobby_lists_public_tables_and_a_newcomer_takes_a_free_seat(living_client: TestClient) -> None:
    c = living_client
    public = make(
        c, seats=[{"name": "Ann"}, {"name": "", "open": True}, {"name": "Bot", "bot": "random"}], public=True
    )
    private = make(c)
    assert set(public["keys"]) == {0}  # the open seat has no key until someone takes it
    tables = c.get("/api/tables").json()["tables"]
    assert [t["table"] for t in tables] == [public["table"]] and private["table"] not in json.dumps(tables)
    entry = tables[0]
    assert entry["game"] == "wizard" and entry["status"] == "open"
    assert entry["moves"] == live(c, public["table"]).n  # the bot may have moved already
    assert [(s["name"], s["bot"], s["free"], s["connected"]) for s in entry["seats"]] == [
        ("Ann", None, False, False),
        ("Seat 2", None, True, False),
        ("Bot", "random", False, False),
    ]
    assert "key" not in json.dumps(entry) and "watch" not in entry
    r = c.post(f"/api/tables/{public['table']}/join", json={"seat": 1, "name": "  Zoé  "})
    assert r.status_code == 200, r.text
    key = r.json()["key"]
    assert r.json()["url"].endswith(f"/table/{public['table']}#key={key}")
    with c.websocket_connect(f"/ws/{public['table']}") as ws:
        msg = join(ws, key=key)
        assert msg["seat"] == 1 and msg["seats"][1]["name"] == "Zoé" and not msg["seats"][1]["free"]
    entry = c.get("/api/tables").json()["tables"][0]
    assert entry["status"] == "running" and not any(s["free"] for s in entry["seats"])


def test_a_free_seat_is_played_by_a_stand_in_bot_with_no_clock_until_someone_sits(
    living_client: TestClient, clock: Clock
) -> None:
    """Issue 29: a public table's free seat had a running clock and everyone waited for it.
    Now a stand-in bot plays it from the first move (no clock, no "away" for it), and whoever
    takes the seat plays it from the next move on, with the clock."""
    c = living_client
    t = make(
        c,
        seats=[{"name": "Ann"}, {"name": "", "open": True}, {"name": "Bot", "bot": "random"}],
        public=True,
        turn_time=30,
    )
    table = live(c, t["table"])
    assert 1 in table.bots and table.seats[1].key_hash is None
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        msg = join(ws, key=t["keys"][0])
        for _ in range(60):
            if msg["to_act"] != 0 and not msg["over"]:
                msg = until(ws, lambda m: m["type"] == "state" and (m["over"] or m["to_act"] == 0))
            if msg["over"] or _movers(table).count(1) >= 2:
                break
            send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
            msg = {"to_act": -1, "over": False}
        movers = _movers(table)
        assert 1 in movers  # the stand-in played seat 1
        # The free seat is never given a clock, even when it is its turn.
        facts = table.room.facts(
            [{"bot": None, "free": True}, {"bot": None, "free": True}, {"bot": "random"}], {}, 1, table.n
        )
        assert facts["clock"] is None
    # Two rounds of three: seat 1 has five decisions; the stand-in made at least two of them
    # (its bot may take the next one before this line runs) and left some to whoever sits.
    assert not table.state.is_terminal and 2 <= _movers(table).count(1) < 5
    r = c.post(f"/api/tables/{t['table']}/join", json={"seat": 1, "name": "Zoé"})
    assert r.status_code == 200, r.text
    assert 1 not in table.bots  # Zoé plays it now
    stood_in = _movers(table).count(1)  # (the stand-in may have moved once more before she sat)
    with c.websocket_connect(f"/ws/{t['table']}") as ws0, c.websocket_connect(f"/ws/{t['table']}") as ws1:
        msg = join(ws0, key=t["keys"][0])
        join(ws1, key=r.json()["key"])
        for _ in range(40):
            if msg["to_act"] not in (0, 1):
                msg = until(ws0, lambda m: m["type"] == "state" and m["to_act"] in (0, 1))
            if msg["to_act"] == 1:
                break
            send(ws0, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
            msg = {"to_act": -1}
        assert msg["to_act"] == 1
        n = table.n
        for _ in range(5):
            c.portal.call(_settle)  # type: ignore[union-attr]
        assert table.n == n and table.state.current_player == 1  # the table waits for Zoé
        assert table.message(1)["room"]["clock"]["seat"] == 1  # with her clock
        assert _movers(table).count(1) == stood_in  # nobody played for her


def _movers(table: Any) -> list[int]:
    """The seats that made the table's player actions, in order (replayed from the seed)."""
    state = table.game.new_state(table.seed)
    movers = []
    for action in table.actions:
        movers.append(state.current_player)
        state.apply(action)
    return movers


def test_joining_a_taken_seat_or_with_markup_is_refused_and_changes_nothing(
    living_client: TestClient,
) -> None:
    c = living_client
    t = make(c, seats=[{"name": "Ann"}, {"name": "", "open": True}, {"name": "", "open": True}], public=True)
    url = f"/api/tables/{t['table']}/join"
    for body, code in [
        ({"seat": 0, "name": "Eve"}, "taken"),
        ({"seat": 1, "name": "<img src=x onerror=alert(1)>"}, "markup"),
        ({"seat": 1, "name": "Bob &lt;"}, "markup"),
        ({"seat": 1, "name": "   "}, "bad_request"),
        ({"seat": 9, "name": "Eve"}, "bad_request"),
        ({"seat": True, "name": "Eve"}, "bad_request"),
    ]:
        r = c.post(url, json=body)
        assert r.status_code == 400 and r.json()["code"] == code, (body, r.text)
    r = c.post(url, json={"seat": 1, "name": "Eve"}, headers={"Accept-Language": "fr"})
    assert r.status_code == 200
    r = c.post(url, json={"seat": 1, "name": "Mallory"}, headers={"Accept-Language": "fr"})
    assert r.json() == {
        "type": "error",
        "code": "taken",
        "message": "cette place est prise : choisissez une place libre",
    }
    assert live(c, t["table"]).seats[1].name == "Eve"
    # A private table's free seats need its watch link to be taken.
    p = make(c, seats=[{"name": "Ann"}, {"name": "", "open": True}, {"name": "", "open": True}])
    r = c.post(f"/api/tables/{p['table']}/join", json={"seat": 1, "name": "Eve"})
    assert r.json()["code"] == "private"
    r = c.post(f"/api/tables/{p['table']}/join", json={"seat": 1, "name": "Eve", "watch": p["watch"]})
    assert r.status_code == 200


def test_markup_in_a_name_at_creation_or_rename_is_refused(living_client: TestClient) -> None:
    c = living_client
    r = c.post(
        "/api/tables",
        json={"game": "wizard", "players": 3, "seats": [{"name": "<b>x</b>"}, {"name": "a"}, {"name": "b"}]},
    )
    assert r.status_code == 400 and r.json()["code"] == "markup"
    t = make(c)
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        join(ws, key=t["keys"][0])
        send(ws, {"type": "name", "name": "<script>alert(1)</script>"})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "markup"
    assert live(c, t["table"]).seats[0].name == "P0"


def test_bad_creation_settings_are_refused(living_client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"public": "yes"}, "bad_request"),
        ({"turn_time": 45}, "bad_request"),
        ({"turn_time": True}, "bad_request"),
        ({"away_level": "cmd:rm -rf"}, "bad_request"),
        ({"spectator_chat": 1}, "bad_request"),
    ]
    for extra, code in cases:
        seats = [{"name": f"P{i}"} for i in range(3)]
        r = living_client.post("/api/tables", json={"game": "wizard", "players": 3, "seats": seats, **extra})
        assert r.status_code == 400 and r.json()["code"] == code, extra


# -- spectators ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", game_names())
def test_a_spectator_sees_the_public_view_of_a_whole_game(db_path: str, clock: Clock, game: str) -> None:
    """Every message a spectator receives from the first move to the last, against the true state.

    The seats are played through the manager (random legal moves), so the spectator,
    who joins before the first, receives one message per move of the whole game.
    """
    import random

    with app_client(db_path, clock) as c:
        n = game_class(game).min_players
        t = make(c, game, public=True)
        manager = c.app.state.manager  # type: ignore[attr-defined]
        table = live(c, t["table"])
        rng = random.Random(5)
        with c.websocket_connect(f"/ws/{t['table']}") as ws:
            msg = join(ws, watch=True)
            ns: list[int] = []
            while True:
                if msg["type"] == "state":
                    assert msg["seat"] == -1 and msg["spectator"] is True and msg["legal"] == []
                    state = manager.state_at(table, msg["n"])
                    assert msg["view"] == state.public_view().to_dict()
                    assert not msg["view"]["hand"]
                    hidden = {str(card) for s in range(n) for card in state.view(s).to_dict()["hand"]}
                    shown = json.dumps(msg["view"].get("seen_hands"))
                    assert not any(f'"{card}"' in shown for card in hidden)
                    if not ns or ns[-1] != msg["n"]:
                        ns.append(msg["n"])
                    if msg["over"]:
                        break
                    if msg["n"] == table.n:
                        state = table.state
                        text = state.action_to_text(rng.choice(state.legal_actions()))
                        c.portal.call(manager.act, table, state.current_player, text)  # type: ignore[union-attr]
                msg = ws.receive_json()
            assert ns == list(range(table.n + 1))  # every position of the whole game
            send(ws, {"type": "act", "action": "pass", "n": msg["n"]})
            assert until(ws, lambda m: m["type"] == "error")["code"] == "spectator"


def test_watching_a_private_table_needs_its_watch_link(living_client: TestClient) -> None:
    c = living_client
    t = make(c)
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        send(ws, {"type": "join", "watch": True, "lang": "fr"})
        reply = ws.receive_json()
        assert reply["code"] == "private" and "lien de spectateur" in reply["message"]
        send(ws, {"type": "join", "watch": t["watch"][:-2] + "xx"})
        assert ws.receive_json()["code"] == "private"
        msg = join(ws, watch=t["watch"])
        assert msg["spectator"] is True and msg["view"]["hand"] == []
        for kind in (
            {"type": "act", "action": "bid 0", "n": 0},
            {"type": "name", "name": "Eve"},
            {"type": "rematch"},
        ):
            send(ws, kind)
            err = until(ws, lambda m: m["type"] == "error")
            assert err["code"] == "spectator", kind
        send(ws, {"type": "chat", "text": "hello"})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "spectator_chat"
    assert live(c, t["table"]).n == 0 and live(c, t["table"]).room.chat == []


def test_spectator_count_and_presence_are_announced(living_client: TestClient) -> None:
    c = living_client
    t = make(c, public=True)
    with c.websocket_connect(f"/ws/{t['table']}") as a:
        first = join(a, key=t["keys"][0])
        assert first["seats"][0]["connected"] is True and first["seats"][1]["connected"] is False
        with c.websocket_connect(f"/ws/{t['table']}") as b:
            join(b, key=t["keys"][1])
            ev = until(a, lambda m: m["type"] == "event" and m["seat"] == 1)
            assert ev == {"type": "event", "event": "joined", "seat": 1, "name": "P1"}
            st = until(a, lambda m: m["type"] == "state")
            assert st["seats"][1]["connected"] is True
            with c.websocket_connect(f"/ws/{t['table']}") as w:
                join(w, watch=True)
                st = until(a, lambda m: m["type"] == "state" and m["room"]["spectators"] == 1)
                assert st["room"]["spectators"] == 1
        ev = until(a, lambda m: m["type"] == "event" and m["event"] == "left")
        assert ev["seat"] == 1
        st = until(a, lambda m: m["type"] == "state" and not m["seats"][1]["connected"])
        assert st["room"]["spectators"] == 0


# -- the turn clock and the away bot --------------------------------------------------------


def test_a_bot_plays_for_whoever_runs_out_of_time_until_they_come_back(
    living_client: TestClient, clock: Clock
) -> None:
    c = living_client
    t = make(c, turn_time=30)
    table = live(c, t["table"])
    with c.websocket_connect(f"/ws/{t['table']}") as ws0, c.websocket_connect(f"/ws/{t['table']}") as ws1:
        msg = join(ws0, key=t["keys"][0])
        join(ws1, key=t["keys"][1])
        seat = msg["to_act"]
        assert msg["room"]["turn_time"] == 30
        clock.t += 29.9
        tick(c)
        assert table.n == 0 and not table.room.away  # nothing is played before the time is up
        assert table.message(0)["room"]["clock"] == {"seat": seat, "left": 0.1, "total": 30}
        clock.t += 0.1
        tick(c)
        assert table.room.away == {seat}
        ev = until(ws0, lambda m: m["type"] == "event" and m["event"] == "away")
        assert ev["seat"] == seat
        until(ws0, lambda m: m["type"] == "state" and m["n"] >= 1)  # the bot played for the seat
        assert c.app.state.storage.load(t["table"]).actions  # type: ignore[attr-defined]
    # Everyone is gone now: the seats are due at their turn (gone longer than the turn time).
    clock.t += 31
    for _ in range(12):
        tick(c)
        c.portal.call(_settle)  # type: ignore[union-attr]
        if table.state.is_terminal:
            break
    assert table.room.away
    away = sorted(table.room.away)[0]
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        join(ws, key=t["keys"][away])
        ev = until(ws, lambda m: m["type"] == "event" and m["event"] == "back")
        assert ev["seat"] == away
    assert away not in table.room.away and away not in table.bots


async def _settle() -> None:
    import asyncio

    for _ in range(20):
        await asyncio.sleep(0)


def test_a_connected_player_gets_the_whole_time_and_back_takes_the_seat(
    living_client: TestClient, clock: Clock
) -> None:
    c = living_client
    # Three humans: whoever the (random) seed makes act first is a human with a link.
    t = make(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], turn_time=60)
    table = live(c, t["table"])
    seat = table.state.current_player
    assert seat in t["keys"], (seat, t["keys"])
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        join(ws, key=t["keys"][seat])
        clock.t += 59
        tick(c)
        assert not table.room.away
        clock.t += 1
        tick(c)
        assert table.room.away == {seat}
        until(ws, lambda m: m["type"] == "event" and m["event"] == "away")
        send(ws, {"type": "back"})
        until(ws, lambda m: m["type"] == "event" and m["event"] == "back")
        assert not table.room.away and seat not in table.bots


def test_away_seats_clock_settings_and_chat_survive_a_restart(db_url: str, clock: Clock) -> None:  # noqa: F811
    """On SQLite and PostgreSQL: the room's rows, a seat taken from the lobby, the chat."""
    db_path = db_url
    with app_client(db_path, clock, bot_delay=3600) as c:
        seats: list[dict[str, Any]] = [{"name": "P0"}, {"name": "P1"}, {"name": "", "open": True}]
        t = make(c, seats=seats, turn_time=60, public=True, spectator_chat=True)
        r = c.post(f"/api/tables/{t['table']}/join", json={"seat": 2, "name": "Zoé"})
        t["keys"][2] = r.json()["key"]
        table = live(c, t["table"])
        seat = table.state.current_player
        with c.websocket_connect(f"/ws/{t['table']}") as ws:
            join(ws, key=t["keys"][(seat + 1) % 3])
            send(ws, {"type": "chat", "text": "hello <3 all"})
            until(ws, lambda m: m["type"] == "chat")
        clock.t += 61
        tick(c)
        assert table.room.away == {seat}
    with app_client(db_path, clock, bot_delay=3600) as c:
        table = live(c, t["table"])  # rebuilt at start-up (unfinished)
        assert table.room.away == {seat} and seat in table.bots
        assert table.room.public and table.room.spectator_chat and table.room.clock.turn_time == 60
        assert [line.text for line in table.room.chat] == ["hello <3 all"]
        assert table.seats[2].name == "Zoé" and table.seats[2].key_hash is not None
        assert [x["table"] for x in c.get("/api/tables").json()["tables"]] == [t["table"]]
        with c.websocket_connect(f"/ws/{t['table']}") as ws:
            join(ws, watch=True)
            log = until(ws, lambda m: m["type"] == "chat_log")
            assert [x["text"] for x in log["lines"]] == ["hello <3 all"]


# -- chat ----------------------------------------------------------------------------------


def test_chat_round_trips_is_bounded_and_refuses_markup(living_client: TestClient, clock: Clock) -> None:
    c = living_client
    t = make(c, public=True, spectator_chat=True)
    with c.websocket_connect(f"/ws/{t['table']}") as a, c.websocket_connect(f"/ws/{t['table']}") as w:
        join(a, key=t["keys"][0])
        join(w, watch=True, name="Watcher")
        until(w, lambda m: m["type"] == "chat_log")
        send(a, {"type": "chat", "text": "  bonne   chance\n"})
        line = until(w, lambda m: m["type"] == "chat")["line"]
        assert line == {"idx": 0, "seat": 0, "name": "P0", "text": "bonne chance", "n": 0}
        send(w, {"type": "chat", "text": "👍"})
        assert (
            until(a, lambda m: m["type"] == "chat" and m["line"]["seat"] == -1)["line"]["name"] == "Watcher"
        )
        for text, code in [
            ("x" * (MAX_CHAT + 1), "too_long"),
            ("<b>hi</b>", "markup"),
            ("a\x07b", "markup"),
            ("   ", "bad_request"),
            (17, "bad_request"),
        ]:
            send(a, {"type": "chat", "text": text})
            assert until(a, lambda m: m["type"] == "error")["code"] == code, text
        for _ in range(CHAT_BURST - 1):  # one line said already
            send(a, {"type": "chat", "text": "spam"})
            until(a, lambda m: m["type"] == "chat")
        send(a, {"type": "chat", "text": "spam"})
        assert until(a, lambda m: m["type"] == "error")["code"] == "chat_flood"
        clock.t += 2.0  # one line more after CHAT_EVERY seconds
        send(a, {"type": "chat", "text": "later"})
        assert until(a, lambda m: m["type"] == "chat")["line"]["text"] == "later"
    table = live(c, t["table"])
    texts = [x.text for x in table.room.chat]
    assert texts == ["bonne chance", "👍", *["spam"] * (CHAT_BURST - 1), "later"]


# -- rematch ---------------------------------------------------------------------------------


def play_out(ws: Any, seat: int, first: dict[str, Any]) -> dict[str, Any]:
    msg = first
    while True:
        if msg["type"] == "state":
            if msg["over"]:
                return msg
            if msg["to_act"] == seat and msg["legal"]:
                send(ws, {"type": "act", "action": msg["legal"][0], "n": msg["n"]})
        msg = ws.receive_json()


def test_rematch_starts_game_two_with_the_same_seats_and_keys(living_client: TestClient) -> None:
    c = living_client
    t = make(
        c,
        seats=[{"name": "Ann"}, {"name": "Bot", "bot": "random"}, {"name": "Cid", "bot": "random"}],
        public=True,
    )
    old = live(c, t["table"])
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        send(ws, {"type": "rematch"})
        first = join(ws, key=t["keys"][0])
        over = play_out(ws, 0, first)
        assert over["over"]
        send(ws, {"type": "rematch"})
        new_id = until(ws, lambda m: m["type"] == "rematch")["table"]
    assert new_id != t["table"]
    new = live(c, new_id)
    assert [(s.name, s.bot) for s in new.seats] == [(s.name, s.bot) for s in old.seats]
    assert new.seed != old.seed and new.room.public and new.room.prev_table == t["table"]
    first_old = old.game.new_state(old.seed).public_view().to_dict()["dealer"]
    assert new.game.new_state(new.seed).public_view().to_dict()["dealer"] == (first_old + 1) % 3
    with c.websocket_connect(f"/ws/{new_id}") as ws:
        msg = join(ws, key=t["keys"][0])  # the same link's key, at the new table
        assert msg["seat"] == 0 and msg["table"] == new_id
    with c.websocket_connect(f"/ws/{t['table']}") as ws:
        msg = join(ws, key=t["keys"][0])
        assert msg["room"]["rematch"]["next"] == new_id  # the old page is sent on


def test_a_rematch_before_the_end_is_refused(living_client: TestClient) -> None:
    t = make(living_client)
    with living_client.websocket_connect(f"/ws/{t['table']}") as ws:
        join(ws, key=t["keys"][0])
        send(ws, {"type": "rematch", "lang": "fr"})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "not_over"


def test_a_script_without_the_living_flag_keeps_the_plain_protocol(living_client: TestClient) -> None:
    c = living_client
    t = make(c)
    with c.websocket_connect(f"/ws/{t['table']}") as a:
        send(a, {"type": "join", "key": t["keys"][0]})
        assert a.receive_json()["type"] == "state"
        with c.websocket_connect(f"/ws/{t['table']}") as b:
            send(b, {"type": "join", "key": t["keys"][1]})
            b.receive_json()
        send(a, {"type": "ping"})
        assert a.receive_json() == {"type": "pong"}  # no presence message came in between


def test_db_path_fixture_is_a_file(db_path: str) -> None:
    assert Path(db_path).suffix == ".sqlite3"


def test_turn_clock_arithmetic() -> None:
    from atout.server.clock import TurnClock, default_turn_time

    assert default_turn_time(1) == 0 and default_turn_time(2) == 180
    assert TurnClock(0).deadline(0) is None  # off: nobody is ever replaced
    c = TurnClock(30)
    c.observe(0, 1, 100.0)
    assert c.deadline(1) == 130.0 and not c.due(1, 129.9) and c.due(1, 130.0)
    c.observe(0, 1, 120.0)  # the same turn: its time does not start again
    assert c.deadline(1) == 130.0
    c.gone[1] = 95.0  # gone during the turn: due 30 s after leaving
    assert c.deadline(1) == 125.0
    c.gone[1] = 10.0  # gone long before the turn: due at once
    assert c.due(1, 100.0) and c.left(1, 100.0) == 0.0
    c.observe(1, 2, 140.0)  # the next seat's turn starts its own time
    assert c.deadline(2) == 170.0
