"""The lessons in a real browser (issue 50, item 10), from the home page's "Learn to play" to the
deal's end (Wizard; Sticheln, whose hand ends in free play): at each of the learner's steps the coach says the step's words beside the part it
points at (which glows) and leaves the table's buttons and cards clickable; a legal move off the
script is refused with the lesson's reason, a card the rules forbid with the rule's, each with a
coaching line; the end offers a real game.  Wizard on a laptop in English and a phone in French,
Sticheln on a laptop in German (screenshots in artifacts/)."""

from __future__ import annotations

from typing import Any

import pytest

from atout.server.lessons import ANY, LESSONS, words

from .conftest import Server
from .test_browser import ARTIFACTS, FAST_CARDS, board, browser, play_one, wait_my_turn_or_end  # noqa: F401

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


#: A legal move off the script at each lesson's first step (the lesson refuses it).
OFF_SCRIPT = {"wizard": "bid 3", "sticheln": "pain B2"}
#: A word of the rule's reason, for the moves the coach says the rules refuse (Wizard's follow suit).
RULE_WORDS = {"en": "follow", "fr": "fournir"}
#: How the lesson's own refusal begins (reasons.json server.lesson_move), in each language tested.
LESSON_SAYS = {"en": "this lesson asks", "fr": "cette leçon demande", "de": "diese Lektion verlangt"}


def click_move(page: Any, move: str) -> None:
    """Click the move as a player would: a bid's button, a card's visible corner."""
    verb, arg = move.split(" ", 1)
    if verb in ("play", "pain"):
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


def refusal(page: Any) -> str:
    page.wait_for_selector("#coach .coach-refused")
    text: str = page.inner_text("#coach .coach-refused")
    return text


@pytest.mark.parametrize(
    ("game", "locale", "size"),
    [("wizard", "en-US", "laptop"), ("wizard", "fr-FR", "phone"), ("sticheln", "de-DE", "laptop")],
)
def test_a_lesson_from_the_home_page(server: Server, browser: Any, game: str, locale: str, size: str) -> None:  # noqa: F811
    lesson = LESSONS[game]
    lang = locale[:2]
    said = words(lang)
    context = browser.new_context(locale=locale, **(LAPTOP if size == "laptop" else PHONE))
    context.add_init_script(FAST_CARDS)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    ARTIFACTS.mkdir(exist_ok=True)

    def shot(what: str) -> None:
        page.screenshot(path=str(ARTIFACTS / f"lesson-{game}-{what}-{size}-{lang}.png"))

    try:
        page.goto(server.url + "/")
        page.locator(f'.game-card[data-game="{game}"] a.learn-link').click()
        page.wait_for_selector("#board[data-n]")
        assert f"lesson={game}" in page.url
        assert page.locator("#name-ask").count() == 0  # the learner is "You": no name asked
        for step in lesson.steps:
            if step.expect is None:
                continue
            coach_at(page, step.n)
            assert board(page)["toAct"] == str(lesson.seat)
            assert page.inner_text("#coach .coach-say") == said[step.say]
            assert page.locator(".coach-target").count() >= 1
            if step.expect == ANY:  # free play to the end: the coach stays, the table takes any move
                while board(page)["over"] != "true":
                    assert page.inner_text("#coach .coach-say") == said[step.say]
                    play_one(page)
                    wait_my_turn_or_end(page, lesson.seat)
                break
            if step.point.startswith("card:"):
                assert page.locator(".coach-target").first.get_attribute("data-card") == step.point[5:]
            if step.n == 0:  # a legal move the lesson does not ask for: the lesson's refusal
                click_move(page, OFF_SCRIPT[game])
                said_then = refusal(page)
                assert said_then.startswith(LESSON_SAYS[lang]) and said["lesson_try_again"] in said_then
            for wrong in step.refused:  # the rules refuse it: the rule's reason, the coaching line
                click_move(page, wrong)
                said_then = refusal(page)
                assert RULE_WORDS[lang] in said_then and said["lesson_try_again"] in said_then, said_then
                shot("refused")
            if step.n == 3:
                shot("step")
            click_move(page, step.expect)
        last = lesson.steps[-1]
        page.wait_for_function(
            "n => { const c = document.getElementById('coach'); return c && c.dataset.n === String(n); }",
            arg=last.n,
        )
        assert board(page)["over"] == "true"
        assert page.inner_text("#coach .coach-say") == said[last.say]
        assert page.locator("#coach a.coach-link").first.get_attribute("href") == "/"
        shot("end")
        assert errors == []
    finally:
        context.close()
