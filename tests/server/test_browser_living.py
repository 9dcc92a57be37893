"""The living table in real Chromium (issue 18): two humans and a spectator at one table,
chat and its replay, rematch; the lobby and a newcomer taking a free seat; a human who
closes the tab, the bot that plays for them, and their return.

Same set-up as test_browser.py (Debian's chromium through Playwright, ``atout serve``
in a subprocess).  The away-bot test runs its server with ``ATOUT_CLOCK_SCALE=10`` (the
turn clock ten times faster: a 60 s turn is 6 s), so it waits seconds, not minutes; it
asserts what happened, never how long it took.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from .conftest import Server, short_options
from .test_browser import FAST_CARDS, FLIGHTS, MAX_MOVES, TARGET, board, play_one, watch_flights


def create(server: Server, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "wizard",
            "players": len(seats),
            "options": short_options("wizard"),
            "seats": seats,
            **extra,
        },
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def open_page(context: BrowserContext, url: str) -> Page:
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.errors = errors  # type: ignore[attr-defined]
    watch_flights(pg, errors)
    pg.goto(url)
    pg.wait_for_selector("#board[data-n]")
    return pg


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    for locale in ("en-US", "fr-FR", "en-US"):
        c = browser.new_context(locale=locale)
        c.add_init_script(FAST_CARDS)
        c.add_init_script(FLIGHTS)
        made.append(c)
    yield made
    for c in made:
        c.close()


#: In the page: whether it is the seat's turn, its away banner hidden (the seat is the player's,
#: not a bot's meanwhile), and what play_one needs then (test_browser.TARGET), in one round trip.
MINE = f"""seat => {{
  const b = document.getElementById('board').dataset;
  const mine = b.over !== 'true' && b.toAct === String(seat) && document.querySelectorAll('#away-banner[hidden]').length === 1;
  return {{ mine, target: mine ? ({TARGET})() : null }};
}}"""


def mine(pg: Page, seat: int) -> dict[str, Any] | None:
    """play_one's target when it is the seat's turn at ``pg`` (:data:`MINE`), else None."""
    seen: dict[str, Any] = pg.evaluate(MINE, seat)
    return seen["target"] if seen["mine"] else None


def test_two_humans_a_spectator_chat_replay_and_rematch(
    server: Server, contexts: list[BrowserContext]
) -> None:
    data = create(
        server,
        [{"name": "Alice"}, {"name": "Bruno"}, {"name": "Bot", "bot": "random"}],
        public=True,
        turn_time=0,
    )
    alice = open_page(contexts[0], data["seats"][0]["url"])
    bruno = open_page(contexts[1], data["seats"][1]["url"])
    frames: list[dict[str, Any]] = []
    watcher = contexts[2].new_page()
    watcher.set_default_timeout(20_000)
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(json.loads(f))))
    watcher.goto(data["watch_url"])
    watcher.wait_for_selector("#board[data-n]")
    # The spectator holds nothing and is counted; the players are shown connected.
    assert watcher.locator("#board .hand .card").count() == 0
    assert "Watching" in watcher.inner_text("#title")
    alice.wait_for_function("() => document.getElementById('spectators').textContent.includes('1')")
    assert alice.locator(".seat[data-seat='1'] .presence.online").count() == 1
    # Chat: Alice writes, Bruno (French page) and the spectator read it; markup stays text.
    alice.fill("#chat-input", "<b>bonne</b> chance")
    alice.press("#chat-input", "Enter")
    alice.wait_for_selector("#notice.error")  # markup is refused, with the reason
    alice.fill("#chat-input", "bonne chance à tous")
    alice.press("#chat-input", "Enter")
    for pg in (bruno, watcher):
        pg.wait_for_function(
            "() => document.getElementById('chat-log').textContent.includes('bonne chance à tous')"
        )
    assert watcher.locator(".chat.read-only").count() == 1  # spectators may not write here
    assert "rejoint" in bruno.inner_text("#chat-log")  # presence announced, in French
    # Both humans play the whole game; the spectator never sees a hand.
    moves = 0
    while board(alice)["over"] != "true" and moves < MAX_MOVES:
        for pg, seat in ((alice, 0), (bruno, 1)):
            if (target := mine(pg, seat)) is not None:
                play_one(pg, target)
                moves += 1
        alice.wait_for_timeout(30)
    assert board(alice)["over"] == "true"
    states = [f for f in frames if f.get("type") == "state"]
    assert states and all(f["seat"] == -1 and f["view"]["hand"] == [] and f["legal"] == [] for f in states)
    assert watcher.locator("#board .hand .card").count() == 0
    # The chat is in the replay, at the step it was said (Bruno's page, in French).
    bruno.locator("#overlay .close").click()
    bruno.click("#prev")
    bruno.wait_for_function("() => document.querySelector('#replay-board .replay-chat') !== null")
    assert "bonne chance à tous" in bruno.inner_text("#replay-board .replay-chat")
    # Rematch: both accept; both pages and the spectator's move to game 2, same seats.
    old_path = alice.evaluate("() => location.pathname")
    alice.locator("#overlay #rematch").click()
    bruno.wait_for_function("() => document.getElementById('rematch-note').textContent.includes('1')")
    bruno.click("#rematch-after")
    for pg in (alice, bruno, watcher):
        pg.wait_for_function("old => location.pathname !== old", arg=old_path)
        pg.wait_for_selector("#board[data-n]")
    assert alice.url.split("#")[1] == data["seats"][0]["url"].split("#")[1]  # the same key
    assert "Alice" in alice.inner_text("#title") and "Bruno" in bruno.inner_text("#title")
    assert board(alice)["over"] == "false"
    for pg in (alice, bruno):
        assert pg.errors == []  # type: ignore[attr-defined]


def test_the_lobby_shows_a_free_seat_and_a_newcomer_takes_it(
    server: Server, contexts: list[BrowserContext]
) -> None:
    data = create(
        server, [{"name": "Alice"}, {"name": "", "open": True}, {"name": "Bot", "bot": "random"}], public=True
    )
    home = contexts[2].new_page()
    home.set_default_timeout(20_000)
    home.goto(server.url + "/")
    card = home.locator(f".lobby-table[data-table='{data['table']}']")
    card.wait_for()
    # Issue 29: "Free seat 2 free" said it twice; the seat, then what becomes of it meanwhile.
    seat = card.locator(".lobby-seat[data-seat='1']").inner_text()
    assert seat == "Seat 2 free: a bot plays it until someone sits", seat
    card.locator(".lobby-join-btn").click()
    card.locator(".lobby-name").fill("Zoé")
    card.locator(".lobby-join button[type=submit]").click()
    home.wait_for_selector("#board[data-n]")
    assert "#key=" in home.url and "Zoé" in home.inner_text("#title")
    # Alice's page shows the newcomer, and the lobby no longer offers the seat.
    alice = open_page(contexts[0], data["seats"][0]["url"])
    alice.wait_for_function(
        "() => document.querySelector(\".seat[data-seat='1'] .name\").textContent === 'Zoé'"
    )
    listing = httpx.get(f"{server.url}/api/tables").json()["tables"]
    entry = next(t for t in listing if t["table"] == data["table"])
    assert not any(s["free"] for s in entry["seats"]) and entry["status"] == "running"


@pytest.fixture
def fast_clock_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    monkeypatch.setenv("ATOUT_CLOCK_SCALE", "10")
    srv = Server(str(tmp_path / "clock.sqlite3"), bot_delay=0.05)
    srv.start()
    yield srv
    srv.stop()
    print(srv.output()[-5000:])


def test_a_bot_plays_for_a_human_who_closed_the_tab_until_they_come_back(
    fast_clock_server: Server, contexts: list[BrowserContext]
) -> None:
    server = fast_clock_server
    data = create(
        server,
        [{"name": "Alice"}, {"name": "Bot 1", "bot": "random"}, {"name": "Bot 2", "bot": "random"}],
        public=True,
        turn_time=60,  # 6 s at ten times the speed
    )
    alice = open_page(contexts[0], data["seats"][0]["url"])
    watcher = open_page(contexts[2], data["watch_url"])
    alice.close()  # the tab is closed: nobody plays seat 0
    watcher.wait_for_function("() => document.getElementById('chat-log').textContent.includes('Alice left')")
    watcher.wait_for_selector(".seat[data-seat='0'] .presence.away-bot", timeout=30_000)
    assert "Bot playing for Alice" in watcher.inner_text(".seat[data-seat='0']")
    n_away = int(board(watcher)["n"])
    watcher.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n_away)
    # Alice comes back through her link: the seat is hers again and she plays on.
    alice = open_page(contexts[0], data["seats"][0]["url"])
    watcher.wait_for_function(
        "() => document.getElementById('chat-log').textContent.includes('Alice is back')"
    )
    # Alice's own page learns it from its own socket, maybe after the watcher: wait for it there.
    alice.wait_for_selector("#away-banner[hidden]", state="attached", timeout=10_000)
    assert alice.locator("#away-banner[hidden]").count() == 1
    alice.wait_for_function(
        "() => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === '0'; }",
        timeout=30_000,
    )
    if board(alice)["over"] != "true":
        n = int(board(alice)["n"])
        play_one(alice)
        assert int(board(alice)["n"]) > n
    assert alice.errors == []  # type: ignore[attr-defined]
