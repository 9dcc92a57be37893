"""Every screen as a new player sees it (issue 50's last look): what a player met playing the four
games whole in Chromium on the laptop (EN), the phone (FR) and in German, each checked here in
real Chromium, as test_browser.py does (Debian's chromium, ``atout serve`` in a subprocess).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import Server
from .test_browser import browser as browser  # the fixture, re-exported
from .test_browser import new_table, open_table, wait_my_turn_or_end


def test_the_page_stays_where_the_player_scrolled_it_when_the_table_is_redrawn(
    server: Server, browser: Browser
) -> None:
    """A player who picked a card (by a click or the arrows) and then scrolled up to watch the
    felt stays there while the table is redrawn: the focus kept on the hand across a redraw does
    not drag the page down to it (Chromium scrolls to an element focused out of view, and the
    round's summary box was cut at the window's top when the next deal's buttons pushed the hand
    down: Le Malin, laptop)."""
    urls = new_table(server, "wizard", 1, players=3, options={"rounds": 2})
    page = open_table(browser, urls[0], viewport={"width": 1280, "height": 520})
    try:
        page.emulate_media(reduced_motion="reduce")
        page.fill("#name-ask-input", "Alice")
        page.locator("#name-ask button[type=submit]").click()
        wait_my_turn_or_end(page, 0)
        page.wait_for_selector("#board .moves button[data-key='0']")
        page.keyboard.press("ArrowRight")  # a card of the hand takes the focus (the page follows it)
        assert page.evaluate("() => document.activeElement.matches('#board .hand .card')")
        page.evaluate("window.scrollTo(0, 0)")  # back up, to watch the felt
        # The hand is out of view (at least in part): Chromium would scroll to it on a focus().
        assert page.evaluate(
            "() => document.querySelector('#board .hand .card').getBoundingClientRect().bottom > innerHeight"
        )
        n = int(page.eval_on_selector("#board", "b => b.dataset.n"))
        page.keyboard.press("0")  # the bid, by its digit: the table is redrawn
        page.wait_for_function("n => Number(document.getElementById('board').dataset.n) > n", arg=n)
        page.wait_for_timeout(300)
        assert page.evaluate("() => document.activeElement.matches('#board .hand .card')"), "focus lost"
        assert page.evaluate("window.scrollY") == 0
    finally:
        page.context.close()
