"""The Wizard lesson in a real browser (issue 50, item 10), from the home page's "Learn to play" to
the deal's end: at each of the learner's steps the coach says the step's words beside the part it
points at (which glows) and leaves the table's buttons and cards clickable; a legal move off the
script is refused with the lesson's reason, a card the rules forbid with the rule's, each with a
coaching line; the end offers a real game.  Laptop in English, phone in French (screenshots in
artifacts/)."""

from __future__ import annotations

from typing import Any

import pytest

from atout.server.lessons import LESSONS, words

from .conftest import Server
from .test_browser import ARTIFACTS, FAST_CARDS, board, browser  # noqa: F401

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def click_move(page: Any, move: str) -> None:
    """Click the move as a player would: a bid's button, a card's visible corner."""
    verb, arg = move.split(" ", 1)
    if verb == "play":
        page.locator(f'#board .hand button.card[data-card="{arg}"]').click(position={"x": 8, "y": 24})
    else:
        page.locator(f'#board .moves button[data-action="{move}"]').click()


def coach_at(page: Any, n: int) -> None:
    """Wait until the table shows move count ``n``, the learner to play, and the coach has drawn it."""
    page.wait_for_function(
        "n => { const b = document.getElementById('board'), c = document.getElementById('coach');"
        " return b.dataset.n === String(n) && c && c.dataset.n === String(n) && !c.hidden; }",
        arg=n,
    )


@pytest.mark.parametrize(("locale", "size"), [("en-US", "laptop"), ("fr-FR", "phone")])
def test_the_wizard_lesson_from_the_home_page(server: Server, browser: Any, locale: str, size: str) -> None:  # noqa: F811
    lesson = LESSONS["wizard"]
    lang = locale[:2]
    said = words(lang)
    context = browser.new_context(locale=locale, **(LAPTOP if size == "laptop" else PHONE))
    context.add_init_script(FAST_CARDS)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(server.url + "/")
        page.locator('.game-card[data-game="wizard"] a.learn-link').click()
        page.wait_for_selector("#board[data-n]")
        assert "lesson=wizard" in page.url
        assert page.locator("#name-ask").count() == 0  # the learner is "You": no name asked
        for step in lesson.steps:
            if step.expect is None:
                continue
            coach_at(page, step.n)
            assert board(page)["toAct"] == str(lesson.seat)
            assert page.inner_text("#coach .coach-say") == said[step.say]
            glowing = page.locator(".coach-target")
            assert glowing.count() >= 1
            if step.point.startswith("card:"):
                assert glowing.first.get_attribute("data-card") == step.point[5:]
            if step.n == 0:  # a legal bid the lesson does not ask for
                click_move(page, "bid 3")
                page.wait_for_selector("#coach .coach-refused")
                refused = page.inner_text("#coach .coach-refused")
                assert ("leçon" if lang == "fr" else "lesson") in refused and said[
                    "lesson_try_again"
                ] in refused
            for wrong in step.refused:  # the rules refuse it: the rule's reason, the coaching line
                click_move(page, wrong)
                page.wait_for_selector("#coach .coach-refused")
                refused = page.inner_text("#coach .coach-refused")
                assert ("fournir" if lang == "fr" else "follow") in refused, refused
                assert said["lesson_try_again"] in refused
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"lesson-wizard-refused-{size}-{lang}.png"))
            if step.n == 3:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"lesson-wizard-step-{size}-{lang}.png"))
            click_move(page, step.expect)
        last = lesson.steps[-1]
        page.wait_for_function(
            "n => { const c = document.getElementById('coach'); return c && c.dataset.n === String(n); }",
            arg=last.n,
        )
        assert board(page)["over"] == "true"
        assert page.inner_text("#coach .coach-say") == said[last.say]
        assert page.locator("#coach a.coach-link").first.get_attribute("href") == "/"
        page.screenshot(path=str(ARTIFACTS / f"lesson-wizard-end-{size}-{lang}.png"))
        assert errors == []
    finally:
        context.close()
