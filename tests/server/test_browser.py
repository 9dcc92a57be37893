"""End to end in a real browser: Playwright driving Debian's chromium against
``atout serve`` running in a subprocess on a loopback port.

Playwright cannot download browsers here: .ci/run installs ``chromium`` with apt.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from atout.core.registry import game_class
from atout.server.languages import LANGUAGES

from .conftest import (
    ARTIFACTS,
    CHROMIUM,
    SHORT_OPTIONS,
    Server,
    game_names,
    play_together,
    screenshot,
    short_options,
)

#: The language folders (src/atout/i18n/<lang>/), whose dictionaries the pages load.
I18N = Path(__file__).resolve().parents[2] / "src" / "atout" / "i18n"
#: Every language the table speaks but English, each played through a whole game below.
TRANSLATIONS = [lang for lang in LANGUAGES if lang != "en"]
#: The whole games played with the cards in motion (the others ask for reduced motion, which
#: the table honours: half the time, and test_browser_table.py's games ask for it too).  Wizard's
#: other tests here (the whole trick, the keyboard) play with motion as well.
MOTION_GAMES = ("wizard",)
#: Upper bound on the human's moves in one short game (a guard against a stuck loop).
MAX_MOVES = 400

if not os.path.exists(CHROMIUM):  # .ci/run installs it; say so rather than fail obscurely
    pytest.skip(
        f"{CHROMIUM} is missing: apt-get install -y chromium-headless-shell (.ci/run does)",
        allow_module_level=True,
    )

from playwright.sync_api import Browser, Page  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

#: The quickest card speed a player may choose in the table's settings ("swift"): a finished
#: trick stays 0.3 s instead of 1.7 s, a round's summary 1.5 s instead of 6, so whole games play
#: through in the time the suite has.
FAST_CARDS = "try { localStorage.setItem('atout.speed', 'swift'); } catch (e) {}"
#: How long a round's summary holds the table at that speed unless closed (table.js SUMMARY_HOLD).
FAST_SUMMARY_MS = 1500

#: Said on the page's console by FLIGHTS.
IN_FLIGHT = "in flight, taking the pointer:"
#: In the page, checked at every frame: a card in flight (dealt, played, gathered) lets the pointer
#: through.  Under it may be the button a player is pressing, and a click whose press and release
#: land on two elements is lost: the bid clicked while the new deal's cards flew over it.
FLIGHTS = """{
const said = new Set();
(function flights() {
  for (const a of document.getAnimations()) {
    if (a.constructor !== Animation || a.playState === 'finished' || !a.effect || !a.effect.target) continue;
    if (!a.effect.getKeyframes().some((k) => k.transform && k.transform !== 'none')) continue;
    const node = a.effect.target;
    const what = `@IN_FLIGHT@ ${node.className.baseVal ?? node.className}`;
    if (getComputedStyle(node).pointerEvents !== 'none' && !said.has(what)) { said.add(what); console.error(what); }
  }
  requestAnimationFrame(flights);
})();
}""".replace("@IN_FLIGHT@", IN_FLIGHT)


def watch_flights(pg: Page, errors: list[str]) -> None:
    """Count a card in flight that takes the pointer as an error of the page (see FLIGHTS)."""
    pg.on("console", lambda m: errors.append(m.text) if m.text.startswith(IN_FLIGHT) else None)


@contextmanager
def checked_page(browser: Browser) -> Iterator[Page]:
    """A page in a context of its own (English, the fast card speed), closed after the block,
    which fails on a JavaScript error on the page or a card in flight taking the pointer."""
    context = browser.new_context(locale="en-US")
    context.add_init_script(FAST_CARDS)
    context.add_init_script(FLIGHTS)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_flights(pg, errors)
    try:
        yield pg
    finally:
        context.close()
    assert errors == [], "JavaScript errors on the page, or a card in flight taking the pointer"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with checked_page(browser) as pg:
        yield pg


def new_table(
    server: Server, game: str, humans: int, players: int | None = None, options: dict[str, Any] | None = None
) -> list[str]:
    """Create a table through the API: the first ``humans`` seats human, bots elsewhere."""
    n = players or game_class(game).min_players
    seats: list[dict[str, Any]] = [
        {"name": f"Human {i}" if i < humans else f"Bot {i}", "bot": None if i < humans else "random"}
        for i in range(n)
    ]
    answer = server.create_table(
        game=game, players=n, options={**short_options(game), **(options or {})}, seats=seats
    )
    return [s["url"] for s in answer["seats"]]


def give_name(page: Page, name: str) -> None:
    """Answer the table's question for the player's name (and so take the seat)."""
    page.fill("#name-ask-input", name)
    page.locator("#name-ask button[type=submit]").click()


def board(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.eval_on_selector("#board", "b => ({...b.dataset})")
    return data


#: In the page: the board's seat ``seat`` to act, or the game over.
MY_TURN_OR_END = "seat => { const b = document.getElementById('board'); return b.dataset.over === 'true' || b.dataset.toAct === String(seat); }"


def wait_my_turn_or_end(page: Page, seat: int) -> None:
    try:
        page.wait_for_function(MY_TURN_OR_END, arg=seat)
    except PlaywrightError as exc:
        raise AssertionError(f"{exc}; board {board(page)}; notice {page.inner_text('#notice')!r}") from None


#: How long :func:`wait_then_read` waits (ms), as the pages' default timeout of the tests that use it.
READ_TIMEOUT = 30_000
#: In the page: wait (as Playwright's wait_for_function does: at each frame, and at least every
#: 100 ms) until ``check(arg)`` is true, then one frame on when ``settle`` asks (the frame drawn:
#: the felt's refit for it, a ResizeObserver's, is done, as it was once the test's next call
#: reached the page), and return ``read(arg)``; ``{timedOut: true}`` after ``timeout`` ms.
WAIT_THEN_READ = """async ([arg, settle, timeout]) => {
  const test = @CHECK@, look = @READ@;
  const deadline = performance.now() + timeout;
  const tick = () => new Promise((r) => { requestAnimationFrame(r); setTimeout(r, 100); });
  while (!test(arg)) {
    if (performance.now() > deadline) return { timedOut: true };
    await tick();
  }
  if (settle) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  return { value: look(arg) };
}"""


def wait_then_read(page: Page, check: str, read: str, arg: Any = None, settle: bool = True) -> Any:
    """Wait in the page until the JavaScript function ``check`` is true of ``arg``, then return
    what ``read`` reads of it: one round trip to the page instead of a wait and a read each (a
    Playwright call costs 50 to 200 ms on the loaded machine, and a whole game's turn made some
    fifteen of them: the round trips, not the table, were most of a browser test's time)."""
    # (Put in the script's text, not eval'd in the page: the table's Content-Security-Policy forbids eval.)
    script = WAIT_THEN_READ.replace("@CHECK@", check).replace("@READ@", read)
    seen: dict[str, Any] = page.evaluate(script, [arg, settle, READ_TIMEOUT])
    if seen.get("timedOut"):
        raise AssertionError(
            f"timed out ({READ_TIMEOUT} ms) waiting for {check} ({arg!r}); board {board(page)}; "
            f"notice {page.inner_text('#notice')!r}"
        )
    return seen["value"]


#: In the page, what :func:`play_one` needs before its click: the move count, and whether the
#: first legal move is a card (its corner is clicked) or a button.
TARGET = """() => {
  const target = document.querySelector('#board button.card.legal, #board button.action');
  return { n: Number(document.getElementById('board').dataset.n), card: (target?.getAttribute('class') || '').includes('card') };
}"""
#: In the page: the move count past ``n``, or the chooser of a card's value open.
MOVED_OR_CHOOSER = "n => Number(document.getElementById('board').dataset.n) > n || !document.getElementById('chooser').hidden"


#: In the page, at a player's turn: the board's data, whether a round's summary is up, the moves
#: offered (legal cards and buttons), the cards refused, and what play_one needs (TARGET's).
TURN_STATE = """() => {
  const o = document.getElementById('overlay');
  const board = { ...document.getElementById('board').dataset };
  const offered = document.querySelectorAll('#board button.card.legal, #board button.action');
  return { board, summary: !o.hidden && o.dataset.kind === 'summary', choices: offered.length,
           illegal: document.querySelectorAll('#board button.card.illegal').length,
           target: { n: Number(board.n), card: (offered[0]?.getAttribute('class') || '').includes('card') } };
}"""


def play_one(page: Page, target: dict[str, Any] | None = None) -> None:
    """Click the first legal move (a highlighted card or a move button), wait for the table to move.

    A card with a value to choose (Le Malin's Twin and Wish) opens the chooser: take its first value.
    ``target``: the page's :data:`TARGET` when the caller has just read it (a round trip saved).
    """
    seen = target if target is not None else page.evaluate(TARGET)
    n = int(seen["n"])
    locator = page.locator("#board button.card.legal, #board button.action").first
    if seen["card"]:
        # A hand fans its cards over one another: a person taps the part that shows, the corner.
        locator.click(position={"x": 8, "y": 24})
    else:
        locator.click()
    try:
        after = wait_then_read(
            page,
            MOVED_OR_CHOOSER,
            "n => ({ moved: Number(document.getElementById('board').dataset.n) > n,"
            " choosers: document.querySelectorAll('#chooser:not([hidden]) button.action').length })",
            n,
            settle=False,
        )
    except AssertionError:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "stuck.png"))
        raise
    if after["choosers"]:
        page.locator("#chooser:not([hidden]) button.action").first.click()
    if after["choosers"] or not after["moved"]:
        page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)


def my_turn_or_end(page: Page, seat: int) -> dict[str, Any]:
    """Wait for the seat's turn or the game's end (:func:`wait_my_turn_or_end`), and return the
    page's :data:`TURN_STATE` then, in the same round trip."""
    seen: dict[str, Any] = wait_then_read(page, MY_TURN_OR_END, TURN_STATE, seat, settle=False)
    return seen


def play_to_the_end(page: Page, seat: int = 0, stop_after: int | None = None) -> int:
    moves = 0
    while moves < MAX_MOVES and (stop_after is None or moves < stop_after):
        seen = my_turn_or_end(page, seat)
        if seen["board"]["over"] == "true":
            break
        play_one(page, seen["target"])
        moves += 1
    return moves


def test_a_human_plays_a_whole_short_game_against_bots(
    servers: Callable[[], Server], browser: Browser
) -> None:
    """Every game played whole from the home page's form, all at once (conftest.play_together:
    they mostly wait for the bots and the holds, and wait together), each on a server of its own
    (the deals it has always been played with) and in a page of its own; a failure names its game."""
    with ExitStack() as pages:
        play_together(
            {
                f"the whole {game}": whole_short_game(
                    servers(), pages.enter_context(checked_page(browser)), game
                )
                for game in game_names()
            }
        )


def whole_short_game(server: Server, page: Page, game: str) -> Iterator[None]:
    """A human's whole short game of ``game`` against bots, from the home page's form to the
    record, the replay and the review; yields at each of the human's moves (the bots' turn)."""
    cls = game_class(game)
    if game not in MOTION_GAMES:  # the cards fly in Wizard's whole game only
        page.emulate_media(reduced_motion="reduce")
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
        seen = my_turn_or_end(page, 0)
        if seen["board"]["over"] == "true":
            break
        target = seen["target"]
        if not refused and seen["illegal"]:
            n = seen["board"]["n"]
            page.locator("#board button.card.illegal").first.click(position={"x": 8, "y": 24})
            page.wait_for_selector("#notice.error")
            assert "Refused" in page.inner_text("#notice")
            assert board(page)["n"] == n
            refused = True
            target = None
        play_one(page, target)
        moves += 1
        yield  # (the bots' turn: the other games play meanwhile)
    assert board(page)["over"] == "true", f"{game}: not over after {moves} moves"
    assert "Game over" in page.inner_text("#status")
    # The record can be downloaded, and the game replayed move by move.
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename.endswith(".atout")
    page.click("#prev")
    page.wait_for_function("() => document.getElementById('step-label').textContent.length > 0")
    screenshot(page, f"table-{game}-over.png", full_page=True)
    # The review of the game, asked for from the replay; a second reader pays nothing: it is
    # stored with the table.
    review_on_page(page, game, f"{game}-laptop-en")
    table, key = page.url.split("/table/")[1].split("#key=")
    r = httpx.post(f"{server.url}/api/tables/{table}/review", json={"key": key, "as_seat": 0})
    assert r.status_code == 200 and r.json()["status"] == "done", r.text


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
        pages[1].click(".seat-menu summary")  # the seat's settings: name, card speed, leave
        pages[1].fill("#name", "Bob")
        pages[1].click("#rename button")
        pages[0].wait_for_function("() => document.getElementById('board').textContent.includes('Bob')")
        for _ in range(6):
            to_act = board(pages[0])["toAct"]
            if to_act not in ("0", "1"):
                pages[0].wait_for_function("() => document.getElementById('board').dataset.toAct !== '2'")
                continue
            actor, watcher = pages[int(to_act)], pages[1 - int(to_act)]
            n = int(board(actor)["n"])
            play_one(actor)
            watcher.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
        screenshot(pages[0], "table-wizard.png", full_page=True)
    finally:
        for c in contexts:
            c.close()


#: Each game's own module (static/games/<game>.js): extra options, and an element it draws.
RENDERERS: dict[str, tuple[dict[str, Any], str, int]] = {
    "wizard": ({}, ".felt-info .chip .card", 1),  # the turned-up card beside trump
    "malin": ({"fun": True}, ".felt-info .chip .card", 1),  # the card put aside
    "sticheln": ({}, ".felt .seat .st-pains", 3),  # each seat's handicap card(s)
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
    assert board(page)["module"] == game  # not the generic table
    screenshot(page, f"{game}-table.png", full_page=True)


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
    page.wait_for_function("() => document.getElementById('notice').textContent === ''")
    assert (board(page), page.inner_text("#board")) == before
    # A move clicked while the server is away is not lost: it goes once the table is back.
    n = int(board(page)["n"])
    server.kill()
    page.wait_for_selector("#notice.error")
    page.locator("#board button.card.legal, #board button.action").first.click(position={"x": 8, "y": 24})
    server.start()
    page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
    play_to_the_end(page, 0)
    assert board(page)["over"] == "true"


#: In the page: the next move sent is lost with its socket (the frame never leaves, the socket
#: closes), as when a connection dies between a click and its answer.
LOSE_NEXT_MOVE = """
window.__loseMove = false;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (window.__loseMove && String(data).includes('"type":"act"')) { window.__loseMove = false; this.close(); return; }
  return send.call(this, data);
};
"""


def test_a_move_lost_with_its_socket_is_sent_again_once_the_table_is_back(server: Server, page: Page) -> None:
    """A click went unanswered in CI (n unchanged, nothing refused): a move sent on a socket that
    closes before the table answers is sent again on the new socket, and played once."""
    page.context.add_init_script(LOSE_NEXT_MOVE)
    urls = new_table(server, "nain-jaune", humans=1)
    page.goto(urls[0])
    page.wait_for_selector("#board[data-n]")
    wait_my_turn_or_end(page, 0)
    n = int(board(page)["n"])
    page.evaluate("() => { window.__loseMove = true; }")
    page.locator("#board button.card.legal, #board button.action").first.click(position={"x": 8, "y": 24})
    page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
    assert page.evaluate("window.__loseMove") is False  # the move was lost once, then sent again
    # Sent again once only: a second copy would be refused as stale, in the notice.
    page.wait_for_timeout(500)
    assert page.inner_text("#notice") == ""
    play_to_the_end(page, 0, stop_after=3)


def test_the_same_position_told_again_keeps_the_moves_a_click_may_be_on(server: Server, page: Page) -> None:
    """A click went unanswered in CI a third time, the server's log showing no move received:
    a same-position message (here a rename) redrew the moves, and a button replaced between the
    press and the release gets no click.  The moves and the hand are kept when unchanged."""
    urls = new_table(server, "wizard", humans=1)
    page.goto(urls[0])
    page.wait_for_selector("#board[data-n]")
    wait_my_turn_or_end(page, 0)
    page.wait_for_selector("#board .moves button.action")
    page.evaluate(
        "() => { for (const p of document.querySelectorAll('#board .moves, #board .hand-zone')) p.marked = true; }"
    )
    n = int(board(page)["n"])
    page.click(".seat-menu summary")  # the same position, told again with the new name
    page.fill("#name", "Renamed")
    page.click("#rename button")
    page.wait_for_function("() => document.getElementById('board').textContent.includes('Renamed')")
    assert board(page)["n"] == str(n)
    assert page.evaluate(
        "() => [...document.querySelectorAll('#board .moves, #board .hand-zone')].every((p) => p.marked)"
    )
    page.locator("#board .moves button.action").first.click()  # a kept button plays as a new one
    page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)


def test_the_language_can_be_switched(server: Server, page: Page) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    assert page.inner_text("#create-title") == "New table"
    page.click("button[data-lang=fr]")
    page.wait_for_selector("html[lang=fr]")
    page.wait_for_function("() => document.getElementById('create-title').textContent === 'Nouvelle table'")
    page.reload()  # the choice is remembered (a cookie)
    page.wait_for_function("() => document.getElementById('create-title').textContent === 'Nouvelle table'")


def test_every_spoken_language_is_offered_and_remembered(server: Server, page: Page) -> None:
    """The switch lists every language the table speaks (from its files), German included."""
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    offered = page.locator(".langs button").evaluate_all("bs => bs.map(b => b.dataset.lang)")
    assert offered == ["en", *TRANSLATIONS] and "de" in offered
    page.click("button[data-lang=de]")
    page.wait_for_selector("html[lang=de]")
    page.wait_for_function("() => document.getElementById('create-title').textContent === 'Neuer Tisch'")
    page.reload()  # the choice is remembered (a cookie)
    page.wait_for_function("() => document.getElementById('create-title').textContent === 'Neuer Tisch'")
    assert page.locator("button[data-lang=de]").is_disabled()


# ---- the card table ------------------------------------------------------------------------

#: Records, in the page, every moment the felt showed a whole trick (one card per seat): which
#: seats' cards, whether the winner was crowned, and how long it stayed.
WATCH_TRICKS = """
window.__tricks = [];
new MutationObserver(() => {
  const cards = document.querySelectorAll('#board .trick .played');
  const n = document.querySelectorAll('#board .felt .seat').length;
  const open = window.__open;
  if (n && cards.length === n) {
    if (!open) window.__open = { seats: [...cards].map((c) => Number(c.dataset.seat)), cards: [...cards].map((c) => c.dataset.card),
      crowned: document.querySelectorAll('#board .trick .played.winning').length, since: performance.now() };
  } else if (open) {
    open.shown = performance.now() - open.since; window.__tricks.push(open); window.__open = null;
  }
}).observe(document, { subtree: true, childList: true });
"""


def open_table(
    browser: Browser,
    url: str,
    locale: str = "en-US",
    fast: bool = True,
    scripts: Sequence[str] = (),
    **kw: Any,
) -> Page:
    """A seat's page in a context of its own (``kw``: the context's settings), the table drawn.

    ``fast``: cards land at once; ``scripts``: the test's watchers, run in the page before its own.
    """
    context = browser.new_context(locale=locale, **kw)
    for script in ([FAST_CARDS] if fast else []) + list(scripts):
        context.add_init_script(script)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(url)
    pg.wait_for_selector("#board[data-n]")
    setattr(pg, "js_errors", errors)  # noqa: B010 - checked by the tests that open it
    return pg


def test_a_finished_trick_stays_whole_on_the_table_then_the_last_trick_shows_it(
    server: Server, browser: Browser
) -> None:
    urls = new_table(server, "wizard", humans=1, players=3, options={"rounds": 3})
    context = browser.new_context(locale="en-US")  # the default card speed: 1.7 s
    context.add_init_script(WATCH_TRICKS)
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(urls[0])
        page.wait_for_selector("#board[data-n]")
        # Round 1 has one trick; play on until round 2 is on the table.
        while board(page).get("round") == "r1":
            wait_my_turn_or_end(page, 0)
            if board(page).get("round") != "r1":
                break
            play_one(page)
        page.wait_for_function("() => window.__tricks.length >= 1")
        first = page.evaluate("window.__tricks[0]")
        assert sorted(first["seats"]) == [0, 1, 2], first  # every seat's card, in front of its seat
        assert first["crowned"] == 1, first  # the card that won is marked
        assert first["shown"] >= 1500, first  # long enough to read
        # Round 1's trick is still one click away in round 2.
        page.click("#btn-last")
        page.wait_for_selector("#overlay:not([hidden]) .last-trick")
        shown = page.eval_on_selector_all(
            "#overlay .last-trick figure",
            "fs => fs.map((f) => [Number(f.dataset.seat), f.querySelector('.card').dataset.card])",
        )
        assert sorted(map(tuple, shown)) == sorted(zip(first["seats"], first["cards"], strict=True))
        assert "takes the trick" in page.inner_text("#overlay")
        page.keyboard.press("Escape")
        page.wait_for_selector("#overlay", state="hidden")
    finally:
        context.close()


def test_the_seats_sit_around_the_table_with_the_viewer_at_the_bottom(
    server: Server, browser: Browser
) -> None:
    urls = new_table(server, "wizard", humans=1, players=5)
    page = open_table(browser, urls[0])
    try:
        felt = page.locator("#board .felt").bounding_box()
        assert felt is not None
        boxes = {
            int(s.get_attribute("data-seat") or -1): s.bounding_box()
            for s in page.locator("#board .felt .seat").all()
        }
        assert sorted(boxes) == [0, 1, 2, 3, 4]
        centre_y = {s: b["y"] + b["height"] / 2 for s, b in boxes.items() if b}
        assert max(centre_y, key=lambda s: centre_y[s]) == 0  # the viewer is the lowest seat
        for b in boxes.values():  # every plate is on the felt
            assert (
                b is not None
                and felt["x"] - 1 <= b["x"]
                and b["x"] + b["width"] <= felt["x"] + felt["width"] + 1
            )
        assert page.locator("#board .seat .dealer").count() == 1
        assert page.locator("#board .seat.to-act").count() == 1
    finally:
        page.context.close()


def test_the_title_and_the_favicon_tell_whose_turn_it_is(server: Server, browser: Browser) -> None:
    urls = new_table(server, "wizard", humans=2, players=3)
    pages = [open_table(browser, u) for u in urls]
    try:
        for _ in range(4):
            state = board(pages[0])
            to_act = state["toAct"]
            if to_act not in ("0", "1"):
                pages[0].wait_for_function("() => document.getElementById('board').dataset.toAct !== '2'")
                continue
            actor, other = pages[int(to_act)], pages[1 - int(to_act)]
            # Both pages drawn at the same state (its number n): a page sets its title in the same render
            # that sets the board's data, so neither title may lag the state the test reads.
            for p in pages:
                p.wait_for_function(f"() => document.getElementById('board').dataset.n === '{state['n']}'")
            assert actor.title().startswith("● Your turn"), actor.title()
            assert not other.title().startswith("●"), other.title()
            icons = [p.get_attribute("#favicon", "href") for p in (actor, other)]
            assert icons[0] != icons[1]
            play_one(actor)
    finally:
        for p in pages:
            p.context.close()


def test_keyboard_only_play_finishes_a_wizard_round(server: Server, browser: Browser) -> None:
    urls = new_table(server, "wizard", humans=1, players=3, options={"rounds": 2})
    page = open_table(browser, urls[0])
    try:
        for _ in range(MAX_MOVES):
            wait_my_turn_or_end(page, 0)
            if board(page)["over"] == "true":
                break
            n = int(board(page)["n"])
            bid = page.locator("#board .moves button[data-key]")
            if bid.count():
                page.keyboard.type(bid.first.get_attribute("data-key") or "")
            else:
                for _ in range(20):  # arrows to a playable card, Enter plays it
                    page.keyboard.press("ArrowRight")
                    if page.evaluate("document.activeElement.matches('#board .hand button.card.legal')"):
                        break
                page.keyboard.press("Enter")
            page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
        assert board(page)["over"] == "true"
        assert page.js_errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


LAYOUT = """() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
  // Words longer than their box (German ones are): a bar button or a seat's plate whose text
  // overflows it, or which sticks out of the screen. The status pill may end in an ellipsis.
  const spills = [...document.querySelectorAll('header.bar button, header.bar a, #board .plate')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && (e.scrollWidth > e.clientWidth + 1 || r.left < -1 || r.right > innerWidth + 1);
  }).map((e) => e.textContent.trim().slice(0, 40));
  return { width: document.documentElement.scrollWidth, felt: box('#board .felt'), hand: box('#board .hand'),
           bar: document.querySelector('header.bar').getBoundingClientRect().height, spills,
           // Settled cards only: a card still flying in from the deal is drawn small on purpose.
           cards: [...document.querySelectorAll('#board .hand .card')].filter((c) => !c.getAnimations({ subtree: true }).length
             && !(c.closest('.hand') && c.closest('.hand').getAnimations({ subtree: false }).length))
             .map((c) => c.getBoundingClientRect().width) };
}"""


def english_only_words(lang: str = "fr") -> set[str]:
    """Words of the English dictionaries that no ``lang`` one uses: one of them on a page in
    ``lang`` is a string left untranslated (computed from the files, so a new string is checked too)."""

    def words(code: str) -> set[str]:
        found: set[str] = set()
        # The pages' dictionaries (the messages' templates, reasons.json, are test_reasons.py's).
        for path in (p for p in (I18N / code).glob("*.json") if p.name != "reasons.json"):
            found |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", path.read_text(encoding="utf-8"))}
        return found

    return words("en") - words(lang)


#: What a reader is shown: the page's text, and the names and tips of its controls.
VISIBLE_TEXT = """() => [document.body.innerText, document.title,
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((e) =>
     [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')])].filter(Boolean).join('\\n')"""


def assert_translated(page: Page, english: set[str], where: str, lang: str = "fr") -> None:
    """No English word on the page (``english``: :func:`english_only_words` of ``lang``)."""
    assert_text_translated(page.evaluate(VISIBLE_TEXT), english, where, lang)


def assert_text_translated(text: str, english: set[str], where: str, lang: str = "fr") -> None:
    """No English word in ``text``, a page's :data:`VISIBLE_TEXT` (see :func:`assert_translated`)."""
    left = sorted({w for w in re.findall(r"[A-Za-z]{3,}", text) if w.lower() in english})
    assert not left, f"{where}: English words on a page in {lang}: {left}\n{text[:3000]}"


def refusal_prefix(lang: str) -> str:
    """How the table opens a refusal in ``lang`` ("Refusé :", "Abgelehnt:"), from its dictionary."""
    core = json.loads((I18N / lang / "table.json").read_text(encoding="utf-8"))
    prefix: str = core["refused"].split("{reason}")[0].strip()
    return prefix


#: What a game calls its rounds where it does not say "round" (its module's roundUnit).
ROUND_UNITS = {"sticheln": "hand", "nain-jaune": "deal"}


#: In the page: each review option's label as [its text, how many lines it takes (its pieces'
#: distinct tops), its right edge, the window's width, how many lines its unbreakable piece takes
#: (review.js ``oneLine``'s span; 1 when it has none)].
LABEL_LINES = """() => [...document.querySelectorAll('#review .review-options td.rv-label')].map((td) => {
  const lines = (node) => {
    const range = document.createRange(); range.selectNodeContents(node);
    return [new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size,
            range.getBoundingClientRect().right];
  };
  const [count, right] = lines(td);
  const piece = td.querySelector('.rv-nowrap');
  return [td.textContent, count, right, innerWidth, piece ? lines(piece)[0] : 1]; })"""


def misfit_labels(lines: list[list[Any]]) -> list[list[Any]]:
    """The labels of :data:`LABEL_LINES` that break review.js's design: past the window's edge; a short
    one (a card, a bid: 18 characters at most, ``oneLine``) on more than one line (a phone split
    "Annoncer" / "0"); a longer one, which may wrap (a Malheur's "Belzébuth sur la carte de
    Bartholomé : 19 → 9,5" on a phone), on more than two, or its unbreakable piece (the value's
    change) cut."""
    return [x for x in lines if x[2] > x[3] or x[1] > (1 if len(x[0]) <= 18 else 2) or x[4] != 1]


def review_on_page(page: Page, game: str, shot: str) -> None:
    """Ask for the review of the viewer's seat on a finished table's page and check what it shows:
    the summary, the chart of points lost (one bar per round), and at a decision the options with
    their expected points, the move played and the best one marked, the options named as the
    table names them (card names, not the record's notation), all in the page's language."""
    assert isinstance(page, Page)
    lang = page.locator("html").get_attribute("lang") or "en"
    said = json.loads((I18N / lang / "review.json").read_text(encoding="utf-8"))
    page.locator("#review-start").scroll_into_view_if_needed()
    page.click("#review-start")
    page.wait_for_selector("#review .review-summary", timeout=120_000)
    assert page.locator("#review-start").is_hidden()
    bars = page.locator("#review .review-chart g.review-bar")
    assert bars.count() >= 1
    # The first bar goes to the first reviewed decision of its round: the options are shown there.
    bars.first.click()
    page.wait_for_selector("#review .review-decision")
    rows = page.locator("#review .review-options tbody tr")
    assert rows.count() >= 2  # a reviewed decision had a choice
    assert page.locator("#review .review-options tr.rv-played").count() == 1
    assert page.locator("#review .review-options tr.rv-best").count() == 1
    labels = [rows.nth(i).locator("td").first.inner_text() for i in range(rows.count())]
    # Each option's label laid out as review.js means it (see misfit_labels).
    lines = page.evaluate(LABEL_LINES)
    assert misfit_labels(lines) == [], lines
    values = [rows.nth(i).locator("td.num").inner_text() for i in range(rows.count())]
    assert all("±" in v for v in values), values
    # Cards are named as the table names them (the record's notation is the fallback only).
    if game in ("wizard", "sticheln", "nain-jaune") and any(t.startswith("play ") for t in labels):
        raise AssertionError(f"{game}: options shown in notation {labels}")
    text = page.inner_text("#review")
    # A round named as the table names it (Sticheln's hands, Le Nain Jaune's deals): the review
    # said "Round 1" under a felt saying "Deal 1 of 1".
    unit = ROUND_UNITS.get(game, "round")
    chart_key = "review_chart" if unit == "round" else f"review_chart_{unit}"
    assert said[chart_key] in text and said["review_expected"] in text, text
    explain = "review_explain" if unit == "round" else f"review_explain_{unit}"  # "the rest of the deal"
    assert said[explain].split("{playouts}")[0] in text, text
    heading = page.inner_text("#review .review-verdict strong")
    assert said[f"review_{unit}"].split("{round}")[0] in heading, (heading, unit)
    # A bid headed with the game's own word when it has one (Le Malin's contracts: "your bid"
    # over options "Contract 3"); no zero written "−0.0".
    words = json.loads((I18N / lang / f"{game}.json").read_text(encoding="utf-8"))
    if "mal_contract" in words and re.fullmatch(words["mal_bid"].replace("{n}", r"\d+"), labels[0]):
        assert words["mal_contract"].lower() in heading.lower(), heading
    assert not [v for v in values if re.match(r"[−-]0[.,]0 ", v)], values
    # The step the replay shows is the decision's: the step label moved with the click.
    assert page.inner_text("#step-label")
    page.locator("#review").scroll_into_view_if_needed()
    screenshot(page, f"review-{shot}.png", full_page=False)
    screenshot(page.locator("#after .replay-area"), f"review-{shot}-area.png")
