"""The game review in a real browser, on every game: asked for from the replay, drawn beside it.

Each game is played to the end by a human seat (the first legal move each time) against
random bots; the review of the human's seat is asked for with the button in the replay, and
the page must show the summary, the chart of points lost (one bar per round), and at a
decision the options with their expected points, the move played and the best one marked —
the options named as the table names them (card names, not the record's notation).
Screenshots: laptop and phone, English, French and German (artifacts/review-*.png).
"""

from __future__ import annotations

import httpx
import pytest

from .conftest import Server, game_names
from .test_browser import (  # noqa: F401
    ARTIFACTS,
    assert_translated,
    browser,
    english_only_words,
    new_table,
    open_table,
    play_to_the_end,
)

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def review_on_page(page: object, game: str, shot: str) -> None:
    """Ask for the review of the viewer's seat on a finished table's page and check what it shows."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
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
    values = [rows.nth(i).locator("td.num").inner_text() for i in range(rows.count())]
    assert all("±" in v for v in values), values
    # Cards are named as the table names them (the record's notation is the fallback only).
    if game in ("wizard", "sticheln", "nain-jaune") and any(t.startswith("play ") for t in labels):
        raise AssertionError(f"{game}: options shown in notation {labels}")
    # The step the replay shows is the decision's: the step label moved with the click.
    assert page.inner_text("#step-label")
    page.locator("#review").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{shot}.png"), full_page=False)
    page.locator("#after .replay-area").screenshot(path=str(ARTIFACTS / f"review-{shot}-area.png"))
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", game_names())
def test_the_review_of_a_finished_game(server: Server, browser: object, game: str) -> None:  # noqa: F811
    urls = new_table(server, game, humans=1, players=4 if game != "nain-jaune" else 3)
    page = open_table(browser, urls[0], viewport=LAPTOP)  # type: ignore[arg-type]
    try:
        play_to_the_end(page)
        assert page.eval_on_selector("#board", "b => b.dataset.over") == "true"
        review_on_page(page, game, f"{game}-laptop-en")
        # A second reader pays nothing: the review is stored with the table.
        key = urls[0].split("#key=")[1]
        table = urls[0].split("/table/")[1].split("#")[0]
        r = httpx.post(f"{server.url}/api/tables/{table}/review", json={"key": key, "as_seat": 0})
        assert r.status_code == 200 and r.json()["status"] == "done"
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("locale", "size", "name"),
    [
        ("de-DE", "laptop", "de"),
        ("fr-FR", "phone", "fr"),
    ],
)
def test_the_review_reads_on_a_phone_and_in_every_language(
    server: Server,
    browser: object,  # noqa: F811
    locale: str,
    size: str,
    name: str,
) -> None:
    urls = new_table(server, "wizard", humans=1, players=4)
    kw = {"viewport": LAPTOP} if size == "laptop" else PHONE
    page = open_table(browser, urls[0], locale=locale, **kw)  # type: ignore[arg-type]
    try:
        play_to_the_end(page)
        review_on_page(page, "wizard", f"wizard-{size}-{name}")
        text = page.inner_text("#review")
        words = {
            "en": ("Points lost by round", "Expected points"),
            "fr": ("Points perdus par manche", "Points espérés"),
            "de": ("Verlorene Punkte je Runde", "Erwartete Punkte"),
        }[name]
        assert all(w in text for w in words), text
        if name != "en":  # no English word left on the page with the review open
            assert_translated(page, english_only_words(name), "review", name)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], width  # type: ignore[index]
    finally:
        page.context.close()
