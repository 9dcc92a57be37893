"""The lessons in a real browser (issue 50, item 10), from the home page's "Learn to play" to the
deal's end, every game: at each of the learner's steps the coach says the step's words beside the
part it points at (which glows), never over the prompt line, the learner's own plate or what it
points at (bounding boxes), and leaves the table's buttons and cards clickable; at a step the bots
play through the table waits for the coach's "Continue"; a legal move off the script is refused
with the lesson's reason, a card the rules forbid with the rule's, each with a coaching line; the
end offers a real game.  Laptops (1280×800) in English and German, phones (360×740) in French
(screenshots of every step in artifacts/ with ATOUT_SCREENSHOTS=1).  A game's lesson is played in
all its languages and sizes at once by one test, in turns (:func:`~.conftest.play_together`):
the lessons mostly wait for the table, and wait together (the 13 lessons: 157 s of wall instead
of 271 s, one after another, on the loaded machine).

Wizard's lessons play with the cards in motion (flights, gathered tricks: the coach's checks
meet the table as most players see it); the other games' ask for reduced motion, a setting
players have that the table honours (the same steps, the same holds, no flights): a card's
flight and a trick's gathering were three fifths of a lesson's time (Sticheln's: 46 s, 19 s
without)."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import atout
from atout.server.lessons import ANY, LESSONS, words

from .conftest import Server, play_together, screenshot
from .test_browser import (
    FAST_CARDS,
    MOTION_GAMES,
    MY_TURN_OR_END,
    TURN_STATE,
    board,
    play_one,
    wait_then_read,
)

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


#: A legal move off the script at a step of each lesson, by move count (the lesson refuses it).
OFF_SCRIPT = {
    "wizard": (0, "bid 3"),
    "sticheln": (0, "pain B2"),
    "malin": (3, "bid 3"),
    "nain-jaune": (0, "play 10C"),
}
#: A word of the rule's reason, for the moves the coach says the rules refuse (Wizard's follow
#: suit, Le Nain Jaune's next rank).
RULE_WORDS = {
    "wizard": {"en": "follow", "fr": "fournir", "de": "bedienen"},
    "nain-jaune": {"en": "needs", "fr": "demande", "de": "braucht"},
}
#: How the lesson's own refusal begins (reasons.json server.lesson_move), in each language tested.
LESSON_SAYS = {"en": "this lesson asks", "fr": "cette leçon demande", "de": "diese Lektion verlangt"}


def win_lines(game: str, lang: str, you: str) -> tuple[list[str], list[str]]:
    """How the felt's line under the trick begins when the learner's card is winning: the
    ``_you`` forms ("You are winning with"), and the other seats' form with the learner's name
    put in ("You is winning with", "Vous remporte", "Du liegt"), which must never show."""
    path = Path(atout.__file__).parent / "i18n" / lang / f"{game}.json"
    said: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    keys = [k for k in said if f"{k}_you" in said]
    right = [said[f"{k}_you"].split("{")[0] for k in keys]
    wrong = [said[k].split("{card}")[0].replace("{name}", you) for k in keys]
    if "mal_w_after_card" in said:  # Le Malin's window "after You's card": "after your card"
        wrong.append(said["mal_w_after_card"].replace("{name}", you))
    return right, wrong


def click_move(page: Any, move: str) -> None:
    """Click the move as a player would: a bid's or a pass's button, a card's visible corner (and
    the value of a card that asks for one: Le Malin's Twin and Wish, in the chooser)."""
    verb, _, arg = move.partition(" ")
    if verb in ("play", "pain"):
        card = arg.split(" ")[0]
        page.locator(f'#board .hand button.card[data-card="{card}"]').click(position={"x": 8, "y": 24})
        if " " in arg:
            page.locator(f'#chooser:not([hidden]) button[data-action="{move}"]').click()
    else:
        page.locator(f'#board .moves button[data-action="{move}"]').click()


#: In the page: the moments (ms) the board drew a new move count.
DRAWN = """window.__drawn = []; window.__arrived = {};
new MutationObserver(() => {
  const n = document.getElementById('board')?.dataset.n;
  if (n !== undefined && n !== window.__drawnN) { window.__drawnN = n; window.__drawn.push({ n, at: performance.now() }); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-n'] });
const Socket = window.WebSocket;
window.WebSocket = class extends Socket {
  constructor(...args) {
    super(...args);
    this.addEventListener('message', (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'state' && !(m.n in window.__arrived)) window.__arrived[m.n] = performance.now();
    });
  }
};"""
#: The least pause between two of the bots' moves drawn after a "Continue" (ms) when the second
#: was already waiting as the first was drawn: made while the learner read, they come one at a
#: time at the bots' pace (table.js BOT_PACE.swift, 150, the tests' card speed, less the
#: timers' slack), never all at once.  (A move the server makes later comes when it comes.)
PACED = 120


def paced(page: Any, after: int) -> None:
    """The moves drawn since the ``after``-th drawing that had arrived before the one drawn
    before them were drawn at least PACED ms after it."""
    paced_seen(page.evaluate("i => window.__drawn.slice(i)", after), page.evaluate("window.__arrived"))


def paced_seen(drawn: list[dict[str, Any]], arrived: dict[str, float]) -> None:
    """:func:`paced`'s check of what the page said: ``drawn`` (the drawings since the one
    counted), ``arrived`` (when each move came)."""
    waited = [(a, b) for a, b in pairwise(drawn) if arrived.get(b["n"], float("inf")) <= a["at"]]
    gaps = [round(b["at"] - a["at"]) for a, b in waited]
    assert all(g >= PACED for g in gaps), f"moves held back drawn {gaps} ms apart after Continue"


def coach_at(page: Any, n: int, held: Any = None) -> Generator[None, None, dict[str, Any]]:
    """Wait until the table shows move count ``n`` and the coach has drawn it, reading on (its
    "Continue") through the steps the bots play meanwhile (``held(step)`` first: a screenshot),
    the moves held back drawn at the bots' pace.  Yields after each "Continue" (the table is the
    bots' until the next step: :func:`~.conftest.play_together` plays another lesson meanwhile).
    Returns what the page showed at the step (COACH_SEEN)."""
    after: int | None = None
    while True:
        # The wait and everything read once it is over, in one round trip (the coach holds the
        # table until its "Continue": what is read stays as it is until the click).
        seen: dict[str, Any] = wait_then_read(page, COACH_READY, COACH_SEEN, {"n": n, "after": after})
        if after is not None:
            paced_seen(seen["drawn"], seen["arrived"])
            after = None
        if not seen["go"]:
            return seen
        if held is not None:
            held(seen["step"], seen)
        coach_clear(seen["boxes"], "a step the bots play")
        after = seen["count"]
        page.locator("#coach .coach-continue").click()
        yield


#: In the page: the bounding box of the first visible element matching each selector.
BOXES = (
    "ss => ss.map((s) => { for (const e of document.querySelectorAll(s)) { const r = e.getBoundingClientRect();"
    " if (r.width && r.height && getComputedStyle(e).visibility !== 'hidden')"
    " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; } return null; })"
)


def boxes(page: Any, selectors: list[str]) -> list[dict[str, float] | None]:
    """The bounding box of the first visible element matching each selector (None: none shown),
    all read in one round trip to the page (and so at one moment)."""
    found: list[dict[str, float] | None] = page.evaluate(BOXES, selectors)
    return found


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """How many square pixels two boxes share."""
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


#: What the coach must never cover (see :func:`coach_keeps_clear`).
NEEDED = [
    "#prompt:not(:empty)",
    "#board .seat.me",
    "#board .moves button",
    ".coach-target",
    "#board .trick-why",
]


def coach_keeps_clear(page: Any, where: str) -> None:
    """The coach over nothing the learner needs: the prompt line (when it says something), the
    learner's own plate, the moves, the glowing part it points at, the line under the felt saying
    who wins the trick (the words the coach speaks of: it hid half of it on a German laptop)."""
    coach_clear(boxes(page, ["#coach:not([hidden])", *NEEDED]), where)


def coach_clear(found: list[dict[str, float] | None], where: str) -> None:
    """:func:`coach_keeps_clear`'s check of ``found``: the coach's box, then each of NEEDED's."""
    coach, *others = found
    assert coach is not None
    for what, other in zip(NEEDED, others, strict=True):
        if other is not None:
            assert overlap(coach, other) == 0, f"{where}: the coach {coach} covers {what} {other}"


#: What a step shows, read in one round trip: whose turn the board says, the coach's words, how
#: many parts glow and the first one's card.
STEP_SEEN = """() => {
  const targets = document.querySelectorAll('.coach-target');
  return { toAct: document.getElementById('board').dataset.toAct,
           say: document.querySelector('#coach .coach-say').innerText,
           targets: targets.length, card: targets.length ? targets[0].getAttribute('data-card') : null };
}"""


#: In the page, at the learner's turn in free play: the board's state (test_browser.TURN_STATE)
#: and the coach's words, read in one round trip with the wait for the turn.
COACH_TURN = (
    f"() => ({{ state: ({TURN_STATE})(), say: document.querySelector('#coach .coach-say').innerText }})"
)


#: In the page: the line under the trick (null: none) and the prompt's words.
TRICK_LINE = "() => [document.querySelector('.trick-why')?.innerText ?? null, document.getElementById('prompt').innerText]"
#: In the page: the coach has drawn move count ``n``, or offers its "Continue" (a step the bots play).
COACH_READY = (
    "({ n }) => { const b = document.getElementById('board'), c = document.getElementById('coach');"
    " return c && !c.hidden && (c.querySelector('.coach-continue')"
    " || b.dataset.n === String(n) && c.dataset.n === String(n)); }"
)
#: In the page, once COACH_READY: what coach_at's checks read (the moves drawn since the
#: ``after``-th drawing and when each arrived, for :func:`paced_seen`; the "Continue" offered, the
#: coach's step, the trick's line, the coach's and NEEDED's boxes, the drawings so far), and
#: what the learner's step checks then (STEP_SEEN, and COACH_TURN for free play).
COACH_SEEN = f"""({{ after }}) => ({{
  drawn: after === null ? null : window.__drawn.slice(after), arrived: after === null ? null : window.__arrived,
  go: document.querySelectorAll('#coach .coach-continue').length,
  step: document.getElementById('coach').getAttribute('data-step'),
  line: ({TRICK_LINE})(), boxes: ({BOXES})({json.dumps(["#coach:not([hidden])", *NEEDED])}),
  count: window.__drawn.length, step_seen: ({STEP_SEEN})(), turn: ({COACH_TURN})(),
}})"""


def refusal(page: Any) -> str:
    page.wait_for_selector("#coach .coach-refused")
    text: str = page.inner_text("#coach .coach-refused")
    return text


#: Each game's lesson in the languages and sizes it is played in, all at once in one test
#: (:func:`~.conftest.play_together`): a lesson mostly waits (the bots' pace, the holds, the
#: coach's steps), and the same lesson in another language waits meanwhile, not after it.
CASES: dict[str, list[tuple[str, str]]] = {
    "wizard": [("en-US", "laptop"), ("fr-FR", "phone"), ("de-DE", "laptop"), ("de-DE", "phone")],
    "sticheln": [("en-US", "laptop"), ("fr-FR", "phone"), ("de-DE", "laptop")],
    "malin": [("en-US", "laptop"), ("fr-FR", "phone"), ("de-DE", "laptop")],
    "nain-jaune": [("en-US", "laptop"), ("fr-FR", "phone"), ("de-DE", "laptop")],
}


def test_the_cases_cover_every_lesson_in_every_language_on_both_devices() -> None:
    assert set(CASES) == set(LESSONS)
    for cases in CASES.values():
        assert {locale for locale, _ in cases} == {"en-US", "fr-FR", "de-DE"}
        assert {size for _, size in cases} == {"laptop", "phone"}


@pytest.mark.parametrize("game", list(CASES))
def test_a_lesson_from_the_home_page(server: Server, browser: Any, game: str) -> None:
    """The game's lesson in each of its CASES, played at once (each case named in a failure)."""
    contexts = []
    try:
        walks = {}
        for locale, size in CASES[game]:
            context = browser.new_context(locale=locale, **(LAPTOP if size == "laptop" else PHONE))
            contexts.append(context)
            walks[f"the {game} lesson, {locale} {size}"] = lesson_walk(server, context, game, locale, size)
        play_together(walks)
    finally:
        for context in contexts:
            context.close()


def lesson_walk(server: Server, context: Any, game: str, locale: str, size: str) -> Iterator[None]:
    """The learner's walk through ``game``'s lesson in a page of ``context``, every step checked;
    yields each time the table is the bots' (a move made, a "Continue" clicked)."""
    lesson = LESSONS[game]
    lang = locale[:2]
    said = words(lang)
    context.add_init_script(FAST_CARDS)
    context.add_init_script(DRAWN)
    page = context.new_page()
    if game not in MOTION_GAMES:  # Wizard's lessons play with the cards in motion, the others not
        page.emulate_media(reduced_motion="reduce")
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def shot(what: str) -> None:
        screenshot(page, f"lesson-{game}-{what}-{size}-{lang}.png")

    right, never = win_lines(game, lang, said["lesson_you"])
    you_win_seen = False

    def trick_line(line: list[Any] | None = None) -> None:
        """The line under the trick and the prompt never say "You is winning", "after You's card"
        (``line``: the page's TRICK_LINE, when read with other things)."""
        nonlocal you_win_seen
        why, prompt = page.evaluate(TRICK_LINE) if line is None else line
        if why is not None:
            assert not any(why.startswith(w) for w in never), why
            you_win_seen = you_win_seen or any(why.startswith(r) for r in right)
        assert not any(w in prompt for w in never), prompt

    def held(step: str, seen: dict[str, Any]) -> None:
        trick_line(seen["line"])
        coach_clear(seen["boxes"], f"step {step}, the bots playing")
        shot(f"step{int(step):02d}-watch")

    page.goto(server.url + "/")
    page.locator(f'.game-card[data-game="{game}"] a.learn-link').click()
    page.wait_for_selector("#board[data-n]")
    assert f"lesson={game}" in page.url
    assert page.locator("#name-ask").count() == 0  # the learner is "You": no name asked
    for i, step in enumerate(lesson.steps):
        if step.expect is None:
            continue
        at = yield from coach_at(page, step.n, held)
        trick_line(at["line"])
        seen = at["step_seen"]
        assert seen["toAct"] == str(lesson.seat)
        assert seen["say"] == said[step.say]
        assert seen["targets"] >= 1
        shot(f"step{i:02d}")
        coach_clear(at["boxes"], f"step {i}")
        if step.expect == ANY:  # free play to the end: the coach stays, the table takes any move
            seen = at["turn"]
            while seen["state"]["board"]["over"] != "true":
                assert seen["say"] == said[step.say]
                play_one(page, seen["state"]["target"])
                yield
                seen = wait_then_read(page, MY_TURN_OR_END, COACH_TURN, lesson.seat, settle=False)
            break
        if step.point.startswith("card:"):
            assert seen["card"] == step.point[5:]
        if step.n == OFF_SCRIPT[game][0]:  # a legal move the lesson does not ask for: the lesson's refusal
            click_move(page, OFF_SCRIPT[game][1])
            said_then = refusal(page)
            assert said_then.startswith(LESSON_SAYS[lang]) and said["lesson_try_again"] in said_then
            # The hint agrees with the coach: the lesson's move, said as the coach's.
            page.locator("#hint-button").click()
            page.wait_for_selector("#hint .hint-says")
            assert page.inner_text("#hint .hint-says").startswith(said["hint_lesson"].split("{")[0])
            shot("hint")
            coach_keeps_clear(page, "the hint said")
        for wrong in step.refused:  # the rules refuse it: the rule's reason, the coaching line
            click_move(page, wrong)
            said_then = refusal(page)
            assert RULE_WORDS[game][lang] in said_then and said["lesson_try_again"] in said_then, said_then
            shot("refused")
        click_move(page, step.expect)
        yield
    last = lesson.steps[-1]
    yield from coach_at(page, last.n)
    assert board(page)["over"] == "true"
    assert page.inner_text("#coach .coach-say") == said[last.say]
    assert page.locator("#coach a.coach-link").first.get_attribute("href") == "/"
    shot("end")
    # The Wizard lesson's third trick is the learner's green 12 winning so far.
    assert you_win_seen or game != "wizard"
    assert errors == []


@pytest.mark.parametrize(("locale", "size"), [("en-US", "laptop"), ("fr-FR", "phone")])
def test_every_game_s_lesson_is_one_click_from_home_and_its_rules(
    server: Server,
    browser: Any,
    locale: str,
    size: str,
) -> None:
    """Each game's card on the home page and each rules page show "Learn to play", in sight."""
    lang = locale[:2]
    context = browser.new_context(locale=locale, **(LAPTOP if size == "laptop" else PHONE))
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(server.url + "/")
        for game in LESSONS:
            link = page.locator(f'.game-card[data-game="{game}"] a.learn-link')
            assert link.inner_text() == words(lang)["home_learn"]
            assert link.get_attribute("href") == f"/learn/{game}"
            link.scroll_into_view_if_needed()
            assert link.is_visible()
        screenshot(page, f"lesson-home-{size}-{lang}.png", full_page=True)
        for game in LESSONS:
            page.goto(f"{server.url}/rules/{game}")
            link = page.locator("a.rules-learn")
            assert link.is_visible() and link.get_attribute("href") == f"/learn/{game}"
        screenshot(page, f"lesson-rules-{size}-{lang}.png")
    finally:
        context.close()
