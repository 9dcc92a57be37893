"""End to end in a real browser: Playwright driving Debian's chromium against
``atout serve`` running in a subprocess on a loopback port.

Playwright cannot download browsers here: .ci/run installs ``chromium`` with apt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from atout.core.registry import game_class

from .conftest import SHORT_OPTIONS, Server, game_names, short_options

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
#: Upper bound on the human's moves in one short game (a guard against a stuck loop).
MAX_MOVES = 400

if not os.path.exists(CHROMIUM):  # .ci/run installs it; say so rather than fail obscurely
    pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)", allow_module_level=True)

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="en-US")
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert errors == [], "JavaScript errors on the page"


def new_table(
    server: Server, game: str, humans: int, players: int | None = None, options: dict[str, Any] | None = None
) -> list[str]:
    """Create a table through the API: the first ``humans`` seats human, bots elsewhere."""
    n = players or game_class(game).min_players
    seats: list[dict[str, Any]] = [
        {"name": f"Human {i}" if i < humans else f"Bot {i}", "bot": None if i < humans else "random"}
        for i in range(n)
    ]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": game,
            "players": n,
            "options": {**short_options(game), **(options or {})},
            "seats": seats,
        },
    )
    assert r.status_code == 200, r.text
    return [s["url"] for s in r.json()["seats"]]


def board(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector("#board", "b => ({...b.dataset})")
    return data


def wait_my_turn_or_end(page: Page, seat: int) -> None:
    try:
        page.wait_for_function(
            "seat => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === String(seat); }",
            arg=seat,
        )
    except PlaywrightError as exc:
        raise AssertionError(f"{exc}; board {board(page)}; notice {page.inner_text('#notice')!r}") from None


def play_one(page: Page) -> None:
    """Click the first legal move (a highlighted card or an action button), wait for the table to move."""
    n = int(board(page)["n"])
    page.locator("button.card.legal, button.action").first.click()
    page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)


def play_to_the_end(page: Page, seat: int = 0, stop_after: int | None = None) -> int:
    moves = 0
    while moves < MAX_MOVES and (stop_after is None or moves < stop_after):
        wait_my_turn_or_end(page, seat)
        if board(page)["over"] == "true":
            break
        play_one(page)
        moves += 1
    return moves


@pytest.mark.parametrize("game", game_names())
def test_a_human_plays_a_whole_short_game_against_bots(server: Server, page: Page, game: str) -> None:
    cls = game_class(game)
    page.goto(server.url + "/")
    page.select_option("#game", game)
    page.fill("#players", str(cls.min_players))
    page.press("#players", "Tab")  # a real change event rebuilds the seats
    page.fill("input[name=name0]", "Alice")
    for name, value in SHORT_OPTIONS.items():
        field = page.locator(f"[name=opt_{name}]")
        if field.count():
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value))
    page.click("#create-button")
    page.locator("a[data-seat='0']").click()
    page.wait_for_selector("#board[data-n]")
    assert "Alice" in page.inner_text("#title")
    refused = False
    moves = 0
    while moves < MAX_MOVES:
        wait_my_turn_or_end(page, 0)
        if board(page)["over"] == "true":
            break
        illegal = page.locator("button.card.illegal")
        if not refused and illegal.count():
            n = board(page)["n"]
            illegal.first.click()
            page.wait_for_selector("#notice.error")
            assert "Refused" in page.inner_text("#notice")
            assert board(page)["n"] == n
            refused = True
        play_one(page)
        moves += 1
    assert board(page)["over"] == "true", f"{game}: not over after {moves} moves"
    assert "Game over" in page.inner_text("#status")
    # The record can be downloaded, and the game replayed move by move.
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename.endswith(".atout")
    page.click("#prev")
    page.wait_for_function("document.getElementById('step-label').textContent.length > 0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"table-{game}-over.png"), full_page=True)


def test_two_browsers_share_a_table(server: Server, browser: Browser) -> None:
    urls = new_table(server, "wizard", humans=2)
    contexts = [browser.new_context(locale="en-US"), browser.new_context(locale="fr-FR")]
    try:
        pages = [c.new_page() for c in contexts]
        for pg, url in zip(pages, urls, strict=True):
            pg.set_default_timeout(20_000)
            pg.goto(url)
            pg.wait_for_selector("#board[data-n]")
        # The French browser gets the French interface.
        assert pages[1].locator("html").get_attribute("lang") == "fr"
        assert pages[1].inner_text("#status") in ("À vous de jouer", "On attend Human 0", "On attend Bot 2")
        # Sitting down: the second player names the seat, the first one sees it.
        pages[1].fill("#name", "Bob")
        pages[1].click("#rename button")
        pages[0].wait_for_function("document.getElementById('board').textContent.includes('Bob')")
        for _ in range(6):
            to_act = board(pages[0])["toAct"]
            if to_act not in ("0", "1"):
                pages[0].wait_for_function("document.getElementById('board').dataset.toAct !== '2'")
                continue
            actor, watcher = pages[int(to_act)], pages[1 - int(to_act)]
            n = int(board(actor)["n"])
            play_one(actor)
            watcher.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
        ARTIFACTS.mkdir(exist_ok=True)
        pages[0].screenshot(path=str(ARTIFACTS / "table-wizard.png"), full_page=True)
    finally:
        for c in contexts:
            c.close()


#: Each game's own renderer (static/games/<game>.js): extra options, and an element it draws.
RENDERERS: dict[str, tuple[dict[str, Any], str, int]] = {
    "malin": ({"fun": True}, ".malin-table .removed .card", 1),
    "sticheln": ({}, "table.seats td.pains", 3),
    "nain-jaune": ({}, "svg.nj-board .nj-box", 5),
}


@pytest.mark.parametrize("game", sorted(RENDERERS))
def test_a_game_has_its_own_table(server: Server, page: Page, game: str) -> None:
    options, selector, count = RENDERERS[game]
    urls = new_table(server, game, humans=1, options=options)
    page.goto(urls[0])
    page.wait_for_selector("#board[data-n]")
    play_to_the_end(page, 0, stop_after=2)
    wait_my_turn_or_end(page, 0)
    page.wait_for_selector(f"#board {selector}")
    assert page.locator(f"#board {selector}").count() == count
    assert page.locator("#board .generic").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{game}-table.png"), full_page=True)


def test_a_reload_restores_the_table(server: Server, page: Page) -> None:
    urls = new_table(server, "wizard", humans=1)
    page.goto(urls[0])
    page.wait_for_selector("#board[data-n]")
    play_to_the_end(page, 0, stop_after=2)
    wait_my_turn_or_end(page, 0)
    before = (board(page), page.inner_text("#board"))
    page.reload()
    page.wait_for_selector("#board[data-n]")
    wait_my_turn_or_end(page, 0)
    assert (board(page), page.inner_text("#board")) == before


def test_a_killed_server_resumes_the_game(server: Server, page: Page) -> None:
    urls = new_table(server, "wizard", humans=1)
    page.goto(urls[0])
    page.wait_for_selector("#board[data-n]")
    play_to_the_end(page, 0, stop_after=2)
    wait_my_turn_or_end(page, 0)
    before = (board(page), page.inner_text("#board"))
    server.kill()  # SIGKILL: no shutdown code runs
    page.wait_for_selector("#notice.error")  # "connection lost"
    server.start()  # same database, same port: the page reconnects by itself
    page.wait_for_function("document.getElementById('notice').textContent === ''")
    assert (board(page), page.inner_text("#board")) == before
    play_to_the_end(page, 0)
    assert board(page)["over"] == "true"


def test_the_language_can_be_switched(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    assert page.inner_text("h2 >> nth=1") == "New table"
    page.click("button[data-lang=fr]")
    page.wait_for_selector("html[lang=fr]")
    page.wait_for_function("document.querySelectorAll('h2')[1].textContent === 'Nouvelle table'")
    page.reload()  # the choice is remembered (a cookie)
    page.wait_for_function("document.querySelectorAll('h2')[1].textContent === 'Nouvelle table'")
