"""The two races issue 28 left: a quick reconnect, and the away notice behind a move.

Each is made to happen, not waited for: the tests hold one step of the server
(an attach, a presence write, the reading of another process's notices) at the
point where the race bites, run the other side through it, then let go.  The
turn clock is a number the tests move (``clock_tick=0``, ``Living.tick`` called
by hand).

1. *A reload*: the page's new socket joins while the old one's close is still
   being handled.  The seat must not count as gone (no ``left`` announced, no
   leftover time of absence that would hand its next turn to the away bot at
   once); with several processes, this process's presence row must say it holds
   the socket (the old socket's "none here" must not be written after the new
   one's "one here").
2. *The away notice first*: a process learning from the database that a seat
   went to the away bot and that the bot then moved tells its sockets ``away``
   before the move; a player's move refused because the bot had moved comes
   after the ``away`` notice; a move the player makes on a process that has not
   heard yet brings the seat back instead of leaving it to the bot.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from atout.server import create_app, roomstore
from atout.server.limits import Limits

from .conftest import private_schema
from .test_living import Clock, make

PG_ENV = "ATOUT_TEST_POSTGRES_URL"
OPEN = Limits(create_per_minute=10_000, create_burst=10_000)


class Box:
    """A socket as a table knows it: it keeps what it is sent."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []

    async def __call__(self, message: dict[str, Any]) -> None:
        self.got.append(message)

    def events(self, seat: int) -> list[str]:
        return [m["event"] for m in self.got if m.get("type") == "event" and m.get("seat") == seat]


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


def client(url: str, clock: Clock, bot_delay: float = 0) -> TestClient:
    app = create_app(url, bot_delay=bot_delay, rate=1000.0, burst=1000, clock_tick=0, limits=OPEN)
    app.state.living.now = clock
    return TestClient(app)


@pytest.fixture
def pg_url() -> Iterator[str]:
    base = os.environ.get(PG_ENV)
    if not base:
        pytest.skip(f"{PG_ENV} is not set (.ci/run sets it)")
    with private_schema(base) as url:
        yield url


# -- 1. a quick reconnect ----------------------------------------------------------------------


def test_a_reload_whose_old_socket_closes_during_the_new_join_is_not_a_departure(db_path: str) -> None:
    clock = Clock()
    with client(db_path, clock) as c:
        t = make(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], turn_time=60)
        app: Any = c.app
        manager, living = app.state.manager, app.state.living
        table = manager.tables[t["table"]]
        first = table.state.current_player
        probe = table.state.clone()
        move = probe.legal_actions()[0]
        probe.apply(move)
        seat = probe.current_player  # the seat that reloads: it acts after the first move
        assert seat != first
        old, new = Box(), Box()

        async def reload() -> None:
            await living.tick()  # the first turn's clock starts now
            await living.attach(table, seat, old, living=True)
            entered, release = asyncio.Event(), asyncio.Event()
            attach = manager.attach

            async def held_attach(*args: Any, **kwargs: Any) -> None:
                entered.set()
                await release.wait()
                await attach(*args, **kwargs)

            manager.attach = held_attach
            try:
                joining = asyncio.create_task(living.attach(table, seat, new, living=True))
                await entered.wait()
                living.detach(table, seat, old)  # the old page's close, handled mid-join
                release.set()
                await joining
            finally:
                manager.attach = attach
            await settle()

        assert c.portal is not None
        c.portal.call(reload)
        assert living.connected(table, seat)
        assert seat not in table.room.clock.gone  # present: no time of absence runs
        assert "left" not in new.events(seat), new.events(seat)
        # Long after, the seat before it plays; the reloaded seat has its whole turn.
        clock.t += 61
        c.portal.call(manager.act, table, first, table.state.action_to_text(move))
        c.portal.call(living.tick)
        assert table.state.current_player == seat and not table.room.away
        clock.t += 59
        c.portal.call(living.tick)
        assert not table.room.away
        clock.t += 1
        c.portal.call(living.tick)
        assert table.room.away == {seat}  # and the clock still runs out as it should


def test_a_reload_never_leaves_the_presence_row_saying_no_socket(pg_url: str) -> None:
    """The old socket's "none here" is held in its thread until the new socket's "one here"
    was asked for: the row must end up saying one socket."""
    clock = Clock()
    with client(pg_url, clock) as c:
        t = make(c, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}])
        app: Any = c.app
        manager, living, storage = app.state.manager, app.state.living, app.state.storage
        assert living.shared
        table = manager.tables[t["table"]]
        old, new = Box(), Box()
        entered, release = threading.Event(), threading.Event()
        write = roomstore.set_present

        def held_write(storage: Any, table_id: str, seat: int, origin: str, sockets: int) -> None:
            if sockets == 0 and not release.is_set():
                entered.set()
                release.wait(10)
            write(storage, table_id, seat, origin, sockets)

        async def reload() -> None:
            assert living._presence is not None
            living._presence.cancel()  # no heartbeat: it would mend the row a second later
            await living.attach(table, 0, old, living=True)
            roomstore.set_present = held_write
            try:
                living.detach(table, 0, old)
                while not entered.is_set():  # the old socket's write has begun, and waits
                    await asyncio.sleep(0.01)
                joining = asyncio.create_task(living.attach(table, 0, new, living=True))
                await asyncio.sleep(0.3)  # the new socket's write may run now (it must not win)
                release.set()
                await joining
                while living._tasks:
                    await asyncio.sleep(0.01)
            finally:
                roomstore.set_present = write

        assert c.portal is not None
        c.portal.call(reload)
        seen = roomstore.present_elsewhere(storage, [table.id], "another process")
        assert seen[table.id].get(0) == 1, seen


# -- 2. the away notice before the move ----------------------------------------------------------


def two_processes(url: str, clock: Clock, bot_delay: float) -> tuple[TestClient, TestClient]:
    return client(url, clock, bot_delay), client(url, clock, bot_delay)


def test_the_away_notice_reaches_the_players_before_the_bots_move(pg_url: str) -> None:
    clock = Clock()
    a, b = two_processes(pg_url, clock, bot_delay=0)
    with a, b:
        t = make(a, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], turn_time=30)
        la: Any = a.app
        lb: Any = b.app
        on_a = la.state.manager.tables[t["table"]]
        assert la.state.manager.leases.holds(t["table"])  # the creator drives the table
        seat = on_a.state.current_player
        on_b = b.portal.call(lb.state.manager.get, t["table"])  # type: ignore[union-attr]
        page = Box()
        held = asyncio.Event()
        follow = lb.state.living._follow

        async def slow_follow(table: Any, what: str) -> None:
            if what.startswith("room"):  # B reads the room's notice late
                await held.wait()
            await follow(table, what)

        lb.state.living._follow = slow_follow
        assert b.portal is not None and a.portal is not None
        b.portal.call(lambda: lb.state.living.attach(on_b, seat, page, living=True))
        a.portal.call(la.state.living.tick)
        clock.t += 30
        a.portal.call(la.state.living.tick)  # A hands the seat to its away bot, which plays
        assert on_a.room.away == {seat}
        for _ in range(500):
            if on_b.n >= 1:
                break
            b.portal.call(asyncio.sleep, 0.01)
        assert on_b.n >= 1
        kinds = [
            ("away" if m.get("event") == "away" else f"n={m['n']}")
            for m in page.got
            if m.get("event") == "away" or (m.get("type") == "state" and m["n"] >= 1)
        ]
        assert kinds and kinds[0] == "away", kinds
        b.portal.call(held.set)
        b.portal.call(settle)
        assert page.events(seat).count("away") == 1, page.events(seat)


class Unheard:
    """A table created on process A, its first seat's player on process B, which hears
    nothing from A (its notices are dropped); A's clock hands the seat to its away bot."""

    def __init__(
        self, a: TestClient, b: TestClient, ws: Any, table: str, seat: int, first: dict[str, Any]
    ) -> None:
        self.a, self.b, self.ws, self.table, self.seat, self.first = a, b, ws, table, seat, first

    def play(self) -> None:
        """The seat's first legal move, sent with the move count it was shown (0)."""
        self.ws.send_json({"type": "act", "action": self.first["legal"][0], "n": 0})

    def answers(self, until: str) -> list[str]:
        """The events (but ``joined``) and refusal codes the page is sent, up to the first
        ``until`` message: ``"error"``, or ``"state"`` with the move counted (then a refusal fails)."""
        seen: list[str] = []
        while True:
            m = self.ws.receive_json()
            if m["type"] == "event" and m["event"] != "joined":
                seen.append(m["event"])
            elif m["type"] == "error":
                assert until == "error", m
                seen.append(m["code"])
                return seen
            elif m["type"] == "state" and until == "state" and m["n"] == 1:
                return seen

    def live(self, side: TestClient) -> Any:
        return side.app.state.manager.tables[self.table]  # type: ignore[attr-defined]


@contextmanager
def unheard_away(url: str, bot_delay: float) -> Iterator[Unheard]:
    clock = Clock()
    a, b = two_processes(url, clock, bot_delay)
    with a, b:
        t = make(a, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], turn_time=30)
        la: Any = a.app
        lb: Any = b.app
        seat = la.state.manager.tables[t["table"]].state.current_player
        assert a.portal is not None and b.portal is not None
        lb.state.manager._listener.on_change = lambda *args: None  # B hears nothing from A
        with b.websocket_connect(f"/ws/{t['table']}") as ws:
            ws.send_json({"type": "join", "key": t["keys"][seat], "living": True})
            first = ws.receive_json()
            a.portal.call(la.state.living.tick)
            clock.t += 30
            a.portal.call(la.state.living.tick)
            assert la.state.manager.tables[t["table"]].room.away == {seat}
            yield Unheard(a, b, ws, t["table"], seat, first)


def test_a_move_refused_because_the_bot_moved_comes_after_the_away_notice(pg_url: str) -> None:
    with unheard_away(pg_url, bot_delay=0) as u:
        on_a = u.live(u.a)
        assert u.a.portal is not None
        for _ in range(500):  # A's away bot plays the seat's move
            if on_a.n >= 1:
                break
            u.a.portal.call(asyncio.sleep, 0.01)
        assert on_a.n == 1
        u.play()
        seen = u.answers(until="error")
        assert seen[0] == "away" and seen[-1] in ("conflict", "stale"), seen
        assert u.live(u.b).n == 1


def test_a_move_made_before_hearing_of_the_away_bot_brings_the_seat_back(pg_url: str) -> None:
    with unheard_away(pg_url, bot_delay=3600) as u:  # A's away bot would wait an hour
        assert u.live(u.a).n == 0
        u.play()
        seen = u.answers(until="state")
        assert seen == ["away", "back"], seen
        _, settings = roomstore.load_room(u.a.app.state.storage, u.table)  # type: ignore[attr-defined]
        assert u.seat not in (settings.get("away") or [])
        on_b = u.live(u.b)
        assert on_b.n == 1 and u.seat not in on_b.room.away and u.seat not in on_b.bots


# -- 3. a move stored while a process starts listening or a socket joins ---------------------------
# CI (stop 58): a client joined a table on a process just started; the two bot moves made on
# another process at once were never told to it, and the table waited for 30 s.


def test_a_process_on_postgresql_listens_before_it_serves(pg_url: str) -> None:
    """A notice sent before the LISTEN is lost: the server's start waits for it."""
    with client(pg_url, Clock()) as c:
        listener = c.app.state.manager._listener  # type: ignore[attr-defined]
        assert listener is not None and listener.listening.is_set()


@pytest.mark.parametrize("step", ["join", "load"])
def test_a_move_stored_while_a_socket_joins_is_told_to_it(pg_url: str, step: str) -> None:
    """Process A stores a move right after process B read the table, and B hears the notice
    before anyone there watches the table: ``join``, the read of a socket's attach (the socket
    must be sent the move); ``load``, B's first read of the table (a page's record, no socket:
    B's next read of the table must have the move)."""
    clock = Clock()
    a, b = two_processes(pg_url, clock, bot_delay=0)
    with a, b:
        la: Any = a.app
        lb: Any = b.app
        manager, storage = lb.state.manager, lb.state.manager.storage
        # B's lease loop loads the tables other processes created every third second: held
        # back (its first look, at B's start, found none), the test's read is B's first.
        manager.leases.interval = 3600
        t = make(a, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}])
        on_a = la.state.manager.tables[t["table"]]
        seat = on_a.state.current_player
        move = on_a.state.action_to_text(on_a.state.legal_actions()[0])
        assert a.portal is not None and b.portal is not None
        if step == "join":
            b.portal.call(manager.get, t["table"])
        name = "changes" if step == "join" else "load"
        read = getattr(storage, name)
        done, heard = threading.Event(), threading.Event()
        hear = manager._listener.on_change

        def hear_and_note(table_id: str, origin: str, what: str) -> None:
            hear(table_id, origin, what)
            if table_id == t["table"] and not what:
                heard.set()

        manager._listener.on_change = hear_and_note

        def read_then_move(*args: Any) -> Any:
            found = read(*args)
            if not done.is_set():
                done.set()
                a.portal.call(la.state.manager.act, on_a, seat, move)  # type: ignore[union-attr]
                assert heard.wait(10)  # B's loop has taken A's notice, before this read returns
            return found

        setattr(storage, name, read_then_move)
        page = Box()

        async def join() -> Any:
            table = await manager.get(t["table"])
            if step == "join":  # nothing reads the table again: the notice must have done it
                await manager.attach(table, (seat + 1) % 3, page)
                await settle()
                return table
            return await manager.get(t["table"])

        try:
            on_b = b.portal.call(join)
        finally:
            setattr(storage, name, read)
        assert done.is_set(), "B read the table before the test did"
        assert on_a.n == 1
        assert on_b.n == 1
        if step == "join":
            states = [m["n"] for m in page.got if m.get("type") == "state"]
            assert states == [0, 1], states
