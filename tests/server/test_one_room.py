"""Three ``atout serve`` processes on one PostgreSQL are one room (issue 28).

Players and a spectator on different processes, with no sticky routing: presence,
chat, the turn clock and the away bot, ``back`` and the rematch (one table whatever
process each vote lands on) reach every socket; ``kill -9`` of the process driving
a table loses nothing, and its clock and bots go on from another process within
seconds; the issue's repro (a table made on A, its humans on B, playing at once)
never has a seat played by the away bot.

The clocks are short: ``ATOUT_CLOCK_SCALE=10`` makes a 30 s turn last 3 s.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient
from websockets.sync.client import connect

from atout.server import create_app
from atout.server.limits import Limits
from atout.server.storage import Storage, url_for
from atout.server.tables import TableManager, rebuild

from .conftest import Server, create_table, private_schema

PG_ENV = "ATOUT_TEST_POSTGRES_URL"
#: The turn clock runs this many times faster in the servers of these tests.
SCALE = 10

pytestmark = pytest.mark.slow

Message = dict[str, Any]


@contextmanager
def cluster(tmp: Path, count: int = 3, bot_delay: float = 0.05) -> Iterator[tuple[str, list[Server]]]:
    """``count`` servers on a fresh schema of the test PostgreSQL, their clocks ``SCALE`` times faster."""
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    with private_schema(base) as url:
        servers = []
        old = os.environ.get("ATOUT_CLOCK_SCALE")
        os.environ["ATOUT_CLOCK_SCALE"] = str(SCALE)
        try:
            for i in range(count):
                srv = Server(url, bot_delay=bot_delay)
                srv.log = str(tmp / f"server{i}.log")
                srv.start()
                servers.append(srv)
        finally:
            if old is None:
                os.environ.pop("ATOUT_CLOCK_SCALE", None)
            else:
                os.environ["ATOUT_CLOCK_SCALE"] = old
        try:
            yield url, servers
        finally:
            for srv in servers:
                srv.stop()
            for i, srv in enumerate(servers):
                print(f"--- server {i}\n{srv.output()[-4000:]}")


class Socket(threading.Thread):
    """A living page's socket on one server: keeps every message; may play at once when it is its turn."""

    def __init__(
        self, server: Server, table: str, auto: bool = False, seed: int = 0, think: float = 0.0, **join: Any
    ) -> None:
        super().__init__(daemon=True)
        self.ws = ExitStack().enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/{table}"))
        self.ws.send(json.dumps({"type": "join", "living": True, **join}))
        self.messages: list[Message] = []
        self.cond = threading.Condition()
        self.auto = auto
        #: Seconds an automatic player takes over a move.
        self.think = think
        self.rng = random.Random(seed)
        self.closed = False
        #: The move count this socket last played at: a state sent again (presence, clock)
        #: must not make it play twice.
        self.played_at = -1
        #: Moves this socket sent.
        self.sent = 0
        self.start()

    def run(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.recv())
                with self.cond:
                    self.messages.append(msg)
                    self.cond.notify_all()
                if (
                    self.auto
                    and msg["type"] == "state"
                    and not msg["over"]
                    and msg["to_act"] == msg["seat"]
                    and msg["n"] != self.played_at
                ):
                    self.played_at = msg["n"]
                    self.sent += 1
                    time.sleep(self.think)
                    self.send({"type": "act", "action": self.rng.choice(msg["legal"]), "n": msg["n"]})
        except Exception:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def wait(
        self, test: Callable[[Message], bool], timeout: float, what: str, fresh: bool = False
    ) -> Message:
        """The first message passing ``test`` (``fresh``: among those from now on); fails after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        with self.cond:
            start = len(self.messages) if fresh else 0
            while True:
                for msg in self.messages[start:]:
                    if test(msg):
                        return msg
                left = deadline - time.monotonic()
                assert left > 0 and not self.closed, f"timed out waiting for {what}"
                self.cond.wait(left)

    def last_state(self) -> Message:
        with self.cond:
            return next(m for m in reversed(self.messages) if m["type"] == "state")

    def events(self, name: str) -> list[Message]:
        with self.cond:
            return [m for m in self.messages if m["type"] == "event" and m["event"] == name]

    def close(self) -> None:
        self.ws.close()


def event(name: str, seat: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "event" and m["event"] == name and m["seat"] == seat


def create(server: Server, seats: list[str | None], rounds: int, **extra: Any) -> tuple[str, dict[int, str]]:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "wizard",
            "players": len(seats),
            "options": {"rounds": rounds},
            "seats": [{"name": f"S{i}", "bot": b} for i, b in enumerate(seats)],
            **extra,
        },
        timeout=20,
    )
    assert r.status_code == 200, r.text
    return r.json()["table"], {s["seat"]: s["key"] for s in r.json()["seats"]}


def stored_actions(url: str, table: str) -> tuple[list[int], bool]:
    storage = Storage(url)
    try:
        stored = storage.load(table)
        assert stored is not None
        return list(stored.actions), stored.finished
    finally:
        storage.close()


def test_players_and_a_spectator_on_three_processes_are_one_room(tmp_path: Path) -> None:
    """Presence, chat, the clock, the away bot, back and the rematch reach every socket."""
    with cluster(tmp_path) as (url, (a, b, c)):
        created = time.monotonic()
        table, keys = create(a, [None, None, "random"], rounds=1, turn_time=30, public=True)
        p0 = Socket(b, table, key=keys[0])
        watcher = Socket(a, table, watch=True)
        for sock in (p0, watcher):
            sock.wait(lambda m: m["type"] == "chat_log", 10, "joined")
        p1 = Socket(c, table, key=keys[1])
        everyone = (p0, p1, watcher)
        # Presence: each process tells its sockets about the players on the others.
        p0.wait(event("joined", 1), 10, "p1 joined, seen on B")
        watcher.wait(event("joined", 1), 10, "p1 joined, seen on A")
        watcher.wait(
            lambda m: m["type"] == "state" and all(s["connected"] for s in m["seats"][:2]),
            10,
            "both players connected, seen on A (where neither is)",
        )
        # The spectator on A is counted on B and C (a second late at most: the heartbeat).
        for sock in (p0, p1):
            sock.wait(lambda m: m["type"] == "state" and m["room"]["spectators"] == 1, 10, "the spectator")
        # Chat said on B reaches C and A.
        p0.send({"type": "chat", "text": "hello from B"})
        for sock in everyone:
            sock.wait(
                lambda m: m["type"] == "chat" and m["line"]["text"] == "hello from B", 10, "the chat line"
            )
        # The clock: the seat to act does not play; the driving process hands it to the away
        # bot after its (scaled) 30 s, though its player is connected on another process.
        first = p0.last_state()["to_act"]
        assert first in (0, 1)
        for sock in everyone:
            sock.wait(event("away", first), 30 / SCALE + 8, "the away event")
        assert time.monotonic() - created > 30 / SCALE - 0.5  # not before the player's time was up
        mine = (p0, p1)[first]
        # back, sent on the player's own process, reaches all.
        mine.send({"type": "back"})
        for sock in everyone:
            sock.wait(event("back", first), 10, "the back event")
        # Play the game out (one round), then vote for a rematch on B and C at once.
        p0.auto = p1.auto = True
        for sock in (p0, p1):
            state = sock.last_state()
            if state["to_act"] == state["seat"]:
                sock.send({"type": "act", "action": state["legal"][0], "n": state["n"]})
        for sock in everyone:
            sock.wait(lambda m: m["type"] == "state" and m["over"], 30, "the end of the game")
        p0.send({"type": "rematch"})
        p1.send({"type": "rematch"})
        nexts = {sock.wait(lambda m: m["type"] == "rematch", 15, "the rematch")["table"] for sock in everyone}
        assert len(nexts) == 1 and table not in nexts
        engine = sa.create_engine(url_for(url))
        try:
            with engine.connect() as conn:
                made = conn.execute(sa.text("SELECT count(*) FROM atout_tables")).scalar()
        finally:
            engine.dispose()
        assert made == 2  # the game and exactly one rematch
        for sock in everyone:
            sock.close()


def test_kill_9_of_the_driving_process_loses_nothing_and_its_clock_goes_on(tmp_path: Path) -> None:
    """The creator (which drives the bots and the clock) dies mid-game: another takes over within seconds."""
    with cluster(tmp_path) as (url, (a, b, c)):
        table, keys = create(a, [None, None, "random", "random"], rounds=3, turn_time=30)
        p0 = Socket(b, table, auto=True, seed=1, key=keys[0])
        p1 = Socket(c, table, auto=True, seed=2, key=keys[1])
        p0.wait(lambda m: m["type"] == "state" and m["n"] >= 6, 20, "six moves")
        a.kill()
        killed = time.monotonic()
        before = len(stored_actions(url, table)[0])
        # The bots go on from B or C: moves keep coming.
        p0.wait(lambda m: m["type"] == "state" and m["n"] >= before + 4, 15, "moves after the kill")
        resumed = time.monotonic() - killed
        # The clock goes on too: p1 stops playing; its turn is handed to the away bot by the new driver.
        p1.auto = False
        state = p1.wait(
            lambda m: m["type"] == "state" and (m["over"] or m["to_act"] == 1), 20, "p1's turn", fresh=True
        )
        assert not state["over"], "the game ended before the clock could be seen after the kill"
        p1.wait(event("away", 1), 30 / SCALE + 10, "the away bot after the kill")
        p0.wait(event("away", 1), 10, "the away event on the other process")
        p1.auto = True
        p1.send({"type": "back"})
        for sock in (p0, p1):
            sock.wait(lambda m: m["type"] == "state" and m["over"], 60, "the end of the game")
        actions, finished = stored_actions(url, table)
        assert finished
        _, final, _ = rebuild_stored(url, table)
        for sock, seat in ((p0, 0), (p1, 1)):
            ns = [m["n"] for m in sock.messages if m["type"] == "state"]
            assert ns[-1] == len(actions)
            assert sorted(set(ns)) == list(range(ns[0], len(actions) + 1)), "a move was not shown"
            assert sock.last_state()["view"] == final.view(seat).to_dict()
        assert resumed < 10, f"the bots resumed {resumed:.1f} s after the kill"


def rebuild_stored(url: str, table: str) -> Any:
    storage = Storage(url)
    try:
        stored = storage.load(table)
        assert stored is not None
        return rebuild(stored)
    finally:
        storage.close()


def test_prompt_humans_on_another_process_are_never_played_by_the_away_bot(tmp_path: Path) -> None:
    """The issue's repro: created on A with a 30 s turn, both humans on B playing at once."""
    with cluster(tmp_path, count=2) as (url, (a, b)):
        started = time.monotonic()
        table, keys = create(a, [None, None, "random", "random"], rounds=3, turn_time=30)
        # Prompt, but not instantaneous: each turn lasts over a tick of the clock on A.
        players = [Socket(b, table, auto=True, seed=seat, think=0.3, key=keys[seat]) for seat in (0, 1)]
        for sock in players:
            sock.wait(lambda m: m["type"] == "state" and m["over"], 90, "the end of the game")
        lasted = time.monotonic() - started
        for sock in players:
            assert not sock.events("away"), sock.events("away")
            refused = [m for m in sock.messages if m["type"] == "error"]
            assert not refused, refused
        assert "IndexError" not in a.output() and "IndexError" not in b.output()
        _, finished = stored_actions(url, table)
        assert finished
        # Every move of the human seats was sent by its player: none by an away bot.
        engine = sa.create_engine(url_for(url))
        try:
            with engine.connect() as conn:
                settings = conn.execute(
                    sa.text("SELECT settings FROM atout_rooms WHERE table_id = :t"), {"t": table}
                ).scalar()
                by_seat: dict[int, int] = dict(
                    conn.execute(
                        sa.text("SELECT seat, count(*) FROM atout_actions WHERE table_id = :t GROUP BY seat"),
                        {"t": table},
                    ).all()
                )
        finally:
            engine.dispose()
        assert not (settings or {}).get("away"), settings
        assert [by_seat[0], by_seat[1]] == [players[0].sent, players[1].sent]
        # The game outlasted a turn's time: A's clock had every chance to be wrong.
        assert lasted > 30 / SCALE + 1


def test_a_bot_is_never_asked_for_a_seat_no_longer_to_act(
    db_path: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The issue's IndexError: the table moves (another process's move) while its driver waits its pace.

    The driver sleeps before a bot's move; meanwhile that move is stored by another
    writer and this process catches up.  Waking, the driver must look again, not ask
    the bot to choose for a seat that has no legal action.
    """
    app = create_app(db_path, bot_delay=0.4, limits=Limits(bot_workers=0))
    with TestClient(app) as client:
        portal = client.portal
        assert portal is not None
        for _ in range(20):  # a table whose first seat to act is a bot (the seed decides)
            table_id, _ = create_table(client, "wizard", 3, bots={1: "random", 2: "random"})
            manager: TableManager = app.state.manager
            table = portal.call(manager.get, table_id)
            if table.state.current_player in table.bots:
                break
        else:
            pytest.fail("no table began with a bot's turn")
        seat = table.state.current_player
        other = Storage(url_for(db_path))  # another process's writer
        try:
            other.append_action(table_id, 0, seat, table.state.legal_actions()[0], False)
        finally:
            other.close()
        with caplog.at_level(logging.WARNING, logger="atout.server"):
            portal.call(manager.refresh, table)
            assert table.state.current_player != seat and table.n == 1
            time.sleep(1.2)  # the driver wakes and goes on with the seats now to act
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
        assert table.n >= 2 or table.state.current_player not in table.bots


def test_a_notice_says_table_origin_and_what_changed() -> None:
    from atout.server.pubsub import notice_payload, parse_notice

    assert parse_notice(notice_payload("t1", "abc")) == ("t1", "abc", "")
    assert parse_notice(notice_payload("t1", "abc", "event sat 2")) == ("t1", "abc", "event sat 2")
    assert parse_notice("t1 abc room") == ("t1", "abc", "room")
