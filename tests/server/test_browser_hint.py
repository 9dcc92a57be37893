"""The hint in a real browser (Wizard, two humans): told to every seat, asked on one's own turn,
once per decision, the other seat told but given no button."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import Server, screenshot, short_options
from .test_browser import board, open_table, play_one, wait_my_turn_or_end

#: One of the two humans is to act (seats 0 and 1), or the game is over.
HUMAN_TO_ACT = "() => { const b = document.getElementById('board'); return b.dataset.over === 'true' || ['0', '1'].includes(b.dataset.toAct); }"
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def hint_table(server: Server, hints: bool) -> list[str]:
    """Wizard, two humans (seats 0 and 1) and two random bots; the seats' links."""
    seats: list[dict[str, Any]] = [
        {"name": "Ann"},
        {"name": "Ben"},
        {"name": "Bot 2", "bot": "random"},
        {"name": "Bot 3", "bot": "random"},
    ]
    r = httpx.post(
        f"{server.url}/api/tables",
        json={
            "game": "wizard",
            "players": 4,
            "options": short_options("wizard"),
            "seats": seats,
            "hints": hints,
        },
    )
    assert r.status_code == 200, r.text
    return [s["url"] for s in r.json()["seats"]]


@pytest.mark.parametrize(
    # (Every game's hint, in French and German on both devices: test_browser_table.py's whole games.)
    ("locale", "size"),
    [("en-US", "laptop"), ("fr-FR", "phone")],
)
def test_the_hint_on_ones_turn(server: Server, browser: object, locale: str, size: str) -> None:
    urls = hint_table(server, hints=True)
    kw: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}} if size == "laptop" else PHONE
    pages = {s: open_table(browser, urls[s], locale=locale, **kw) for s in (0, 1)}  # type: ignore[arg-type]
    try:
        hinted = 0
        for _ in range(12):  # decisions of whoever of the two humans is to play, until two were hinted
            pages[0].wait_for_function(HUMAN_TO_ACT)
            if board(pages[0])["over"] == "true" or hinted == 2:
                break
            to_act = int(board(pages[0])["toAct"])
            page, other = pages[to_act], pages[1 - to_act]
            wait_my_turn_or_end(page, to_act)
            # Both seats are told hints are on; only the player to act, with a choice, has the button.
            page.wait_for_selector("#hint:not([hidden]) .hint-on")
            other.wait_for_selector("#hint:not([hidden]) .hint-on")
            assert other.locator("#hint-button").count() == 0
            if page.locator("#board button.card.legal, #board button.action").count() > 1:
                box = page.locator("#hint-button").bounding_box()
                height = page.viewport_size["height"]  # type: ignore[index]
                assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
                    box
                )  # in sight
                page.click("#hint-button")
                page.wait_for_selector("#hint .hint-says")
                says = page.inner_text("#hint .hint-says")
                assert "Suggestion" in says
                assert not any(w in says for w in ("play ", "bid ")), says  # named as the table names moves
                assert ("points espérés" if locale.startswith("fr") else "expected") in says
                assert page.locator("#hint-button").is_disabled()  # one hint a decision
                hinted += 1
                screenshot(page, f"hint-wizard-{size}-{locale[:2]}.png")
            else:
                assert page.locator("#hint-button").count() == 0  # a forced move needs no hint
            play_one(page)
        assert hinted == 2
        for page in pages.values():
            assert page.js_errors == []  # type: ignore[attr-defined]
    finally:
        for page in pages.values():
            page.context.close()


def test_no_hint_at_a_table_without_hints(server: Server, browser: object) -> None:
    urls = hint_table(server, hints=False)
    page = open_table(browser, urls[0])  # type: ignore[arg-type]
    try:
        page.wait_for_timeout(500)
        assert page.locator("#hint").is_hidden()
        assert page.locator("#hint-button").count() == 0
    finally:
        page.context.close()


def test_the_creation_form_turns_hints_on(server: Server, browser: object) -> None:
    """The home page's setting (off unless ticked) reaches the table, whose seats are told."""
    page = open_home(browser, server)
    try:
        assert not page.is_checked("#hints")
        page.check("#hints")
        page.locator("#hints").scroll_into_view_if_needed()
        screenshot(page, "hint-home-form.png")
        page.click("#create-button")
        page.locator("a[data-seat='0']").click()
        page.wait_for_selector("#board[data-n]")
        page.wait_for_selector("#hint:not([hidden]) .hint-on")
        assert page.js_errors == []
    finally:
        page.context.close()


def open_home(chromium: Any, server: Server) -> Any:
    """The home page in a fresh context, JavaScript errors collected."""
    context = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    page.wait_for_selector("#game option", state="attached")
    setattr(page, "js_errors", errors)  # noqa: B010 - read by the test
    return page
