"""Le Malin's Malheur choice on a 360×740 phone: the window's buttons and the whole hand in view.

The server's second deal (``deal_seed`` 2026, a first table made before) brings the viewer
Malheur windows of seven and eight moves plus Pass in a 4-player French game (666 and Belzébuth
on every card of the trick): their sentences took four rows and the hand ended at 785 px in the
740 px window, the player scrolling to see their cards.  At 6 seats Le Malin's fifteen moves
did the same on a laptop.  Same set-up as test_browser.py (Debian's chromium, ``atout serve`` in a
subprocess).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import Server, screenshot
from .test_browser import (
    MAX_MOVES,
    MY_TURN_OR_END,
    TURN_STATE,
    give_name,
    open_table,
    play_one,
    wait_my_turn_or_end,
    wait_then_read,
)
from .test_browser_table import LAPTOP, PHONE, new_table, options_for

DEVICES = {"phone": PHONE, "laptop": LAPTOP}

#: In the page, scrolled to its top (Playwright scrolls a button it clicks into view): the
#: window's size, the hand's cards' and the moves' buttons' boxes (top,
#: bottom, left, right), the Malheur buttons' count.
BOXES = """() => {
  scrollTo(0, 0);
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right]; };
  return {
    height: innerHeight, width: innerWidth,
    cards: [...document.querySelectorAll('#board .hand .card')].map(box),
    buttons: [...document.querySelectorAll('#board .moves button')].map(box),
    malheur: document.querySelectorAll('#board .moves .group-malheur button').length,
  };
}"""


#: In the page, at the player's turn: the board's state (test_browser.TURN_STATE), then BOXES.
TURN_BOXES = f"() => ({{ state: ({TURN_STATE})(), boxes: ({BOXES})() }})"


def outside(seen: dict[str, Any]) -> list[list[float]]:
    """The boxes of ``seen`` (BOXES) not wholly inside the window."""
    return [
        b
        for b in seen["cards"] + seen["buttons"]
        if b[0] < 0 or b[1] > seen["height"] or b[2] < 0 or b[3] > seen["width"]
    ]


def test_a_malheur_choice_of_eight_moves_on_a_phone_leaves_the_hand_in_view(
    server: Server, browser: Browser
) -> None:
    """Le Malin at 4 seats in French on the phone, the server's second deal, the first legal move
    played each turn: at every Malheur window (the largest offers eight moves plus Pass) each
    button and each of the hand's cards lies inside the 360×740 window, the page at its top."""
    new_table(server, "malin", 4, options_for("malin"))  # the server's first deal, not played
    url = new_table(server, "malin", 4, options_for("malin"))
    page = open_table(browser, url, "fr-FR", reduced_motion="reduce", **PHONE)
    try:
        give_name(page, "Zoé")
        most = 0
        for _ in range(MAX_MOVES):
            # The turn, its board and its boxes in one round trip (test_browser.wait_then_read).
            turn = wait_then_read(page, MY_TURN_OR_END, TURN_BOXES, 0)
            if turn["state"]["board"]["over"] == "true":
                break
            seen = turn["boxes"]
            if seen["malheur"]:
                if seen["malheur"] > most:
                    most = seen["malheur"]
                    screenshot(page, "malheur-phone-fr.png")
                assert outside(seen) == [], (turn["state"]["board"]["n"], seen)
            play_one(page, turn["state"]["target"])
        assert most >= 8, most  # the deal's largest window was met
    finally:
        page.context.close()


@pytest.mark.parametrize(("device", "lang"), [("phone", "de"), ("laptop", "en")])
def test_le_malins_fifteen_moves_at_six_seats_leave_the_hand_in_view(
    server: Server, browser: Browser, device: str, lang: str
) -> None:
    """Le Malin at 6 seats, the server's first deal: its first Malheur window (before the
    contracts) offers Le Malin on each one or two of the five others, fifteen moves plus Pass.
    Their sentences took seven rows of the phone (in German, its longest words) and four of the
    laptop, the hand ending at 852 px in the laptop's 800: every button and card now lies in the
    window, the phone's buttons a finger's height."""
    url = new_table(server, "malin", 6, options_for("malin"))
    page = open_table(browser, url, f"{lang}-{lang.upper()}", reduced_motion="reduce", **DEVICES[device])
    try:
        give_name(page, "Zoé")
        wait_my_turn_or_end(page, 0)
        page.wait_for_selector("#board .moves .group-malheur button")
        seen = page.evaluate(BOXES)
        screenshot(page, f"malheur-six-seats-{device}-{lang}.png")
        assert seen["malheur"] == 15, seen
        assert outside(seen) == [], seen
        if device == "phone":
            assert min(b[1] - b[0] for b in seen["buttons"]) >= 44, seen
    finally:
        page.context.close()
