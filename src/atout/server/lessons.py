"""A first game that teaches (issue 50, item 10): a guided deal at a normal web table.

A lesson is data (:class:`Lesson`): a game, its player count and options, a deal seed
chosen so that the lesson's points come up (in Wizard a bid, following suit, a trump, a
Wizard and a Jester), the learner's seat, and the :class:`Step` s: at a move count, what
the coach says (a key of ``i18n/<lang>/tutorial.json``), which part of the table it points
at, and the learner's move it asks for.  The deal is scripted without any new machinery:
the deal comes from the seed (``game.new_state(seed)``, as at every table), the bots
are the ``normal`` level, whose play is a pure function of their view (no random
draw: tests/server/test_lessons.py plays each script through the engine with bots
seeded differently and meets the same moves), and the learner's moves are the script's,
the server refusing any other (:func:`judge`).  At a step of the script the hint answers
the script's move (:func:`scripted`, read by hint.py): a search may prefer another move, which
the table would refuse.  The page's coach (static/lesson.js) holds the table at each step the
bots play through until the learner has read it ("Continue"), and asks every move of the
script, Le Malin's forced passes too (its table passes for nobody at a lesson).

A lesson table is an ordinary table (stored, counted in the server's limits, its
creations rate-limited like the form's), private, with the hints on; its room settings
carry ``"lesson": <game>``, which the rating side reads to keep it out of every account's
games and ratings (accounts.claim refuses it).  A rematch of a lesson is a normal game.

Routes (:func:`lesson_routes`, hooked into ``create_app`` with one line)::

    GET  /learn/{game}          the page that sets the lesson's table up and opens it
    POST /api/lessons/{game}    create the lesson's table: {table, seat, key, url}
    GET  /api/lessons/{game}    the lesson's script for the page (steps, in the reader's language)
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import i18n
from ..core.errors import AtoutError
from ..core.reason import reason
from .languages import LANGUAGES, pick_language
from .limits import ClientBuckets, client_of
from .living import Living
from .tables import LiveTable, SeatSpec, TableError, TableManager

#: The file of a language's folder holding the lessons' words (the page loads it as the
#: table loads its own dictionaries).
TUTORIAL_FILE = "tutorial.json"

#: The names of the lesson's bots: names, the same in every language.
BOT_NAMES = ("Ada", "Bert", "Cleo", "Dan", "Eve")


#: A step's ``expect`` letting the learner play any legal move from then on.
ANY = "*"


@dataclass(frozen=True)
class Step:
    """What the coach says from move count ``n`` on (until the next step's ``n``).

    ``expect``: the learner's move at ``n`` (its notation, ``"bid 2"``), or ``None`` while
    the bots play (the coach explains what happens), or :data:`ANY`: from ``n`` on the
    learner plays freely (the rest of a long deal, which no later step may script).  ``point``: the part of the table the
    coach points at (:data:`POINTS`).  ``refused``: moves the engine refuses here (the
    coaching says why): the script's test checks they are refused, so the words stay true.
    """

    n: int
    say: str
    point: str = ""
    expect: str | None = None
    refused: tuple[str, ...] = ()

    def to_dict(self, words: dict[str, str]) -> dict[str, Any]:
        return {"n": self.n, "say": words.get(self.say, self.say), "point": self.point, "expect": self.expect}


#: Where the coach may point: a part of the table page (lesson.js maps each to its element).
#: ``card:<notation>`` points at that card of the learner's hand.  Beside the parts every
#: table has, a game's own: Le Nain Jaune's ``board`` (the five boxes) and ``run`` (the run in
#: progress), Le Malin's ``contracts`` (those chosen so far, on the felt).
POINTS = (
    "",
    "moves",
    "hand",
    "trick",
    "trump",
    "seats",
    "sheet",
    "ranking",
    "hint",
    "board",
    "run",
    "contracts",
)


@dataclass(frozen=True)
class Lesson:
    game: str
    players: int
    seed: int
    seat: int
    steps: tuple[Step, ...]
    options: dict[str, Any] = field(default_factory=dict)
    #: The bots' level: ``normal`` plays the same moves for the same view (no draw).
    bot: str = "normal"
    #: The bots' pace (tables.BOT_PACES): slow, so the coach's words can be read.
    pace: str = "slow"

    def step_at(self, n: int) -> Step | None:
        """The step the coach is at after ``n`` moves: the last one starting at or before ``n``."""
        current = None
        for step in self.steps:
            if step.n <= n:
                current = step
        return current

    def expected(self, n: int) -> str | None:
        """The learner's move the script asks for at move count ``n``: a move, :data:`ANY`
        (free play), or None (not the learner's turn)."""
        for step in self.steps:
            if step.n == n and step.expect is not None:
                return step.expect
        current = self.step_at(n)
        return ANY if current is not None and current.expect == ANY else None


#: The lessons' files: one JSON object a game, ``static/lessons/<game>.json`` (package data):
#: ``about`` (the deal and what it teaches, for the reader of the file), ``game``, ``players``,
#: ``options``, ``seed``, ``seat``, ``bot``, ``pace``, and ``steps``, each
#: ``[n, say, point, expect?, refused?]``.
LESSON_FILES = resources.files("atout.server") / "static" / "lessons"


def read_lesson(text: str) -> Lesson:
    """A lesson from its file's text (a wrong file fails here, at import: the files are ours)."""
    data = json.loads(text)
    steps = tuple(
        Step(
            n=int(row[0]),
            say=str(row[1]),
            point=str(row[2]),
            expect=row[3] if len(row) > 3 else None,
            refused=tuple(row[4]) if len(row) > 4 else (),
        )
        for row in data["steps"]
    )
    return Lesson(
        game=data["game"],
        players=int(data["players"]),
        options=dict(data["options"]),
        seed=int(data["seed"]),
        seat=int(data["seat"]),
        steps=steps,
        bot=data.get("bot", "normal"),
        pace=data.get("pace", "slow"),
    )


#: The lessons, by game name.
LESSONS: dict[str, Lesson] = {
    lesson.game: lesson
    for lesson in (
        read_lesson(f.read_text(encoding="utf-8"))
        for f in sorted(LESSON_FILES.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".json")
    )
}


@cache
def words(lang: str) -> dict[str, str]:
    """The lessons' words in ``lang`` (English for a language without the file)."""
    if lang not in LANGUAGES or not i18n.path(lang, TUTORIAL_FILE).is_file():
        lang = i18n.ENGLISH
    data: dict[str, str] = i18n.read_json(lang, TUTORIAL_FILE)
    return data


def learn_link(game: str, lang: str) -> str:
    """The rules page's "Learn to play" link to the game's lesson, as HTML ("" without a lesson).

    Built from a game's registered name (never a reader's text) and our own words, escaped.
    """
    if game not in LESSONS:
        return ""
    label = html.escape(words(lang).get("home_learn", "Learn to play"))
    return f'<a class="rules-learn" href="/learn/{html.escape(game)}">{label}</a>'


def scripted(table: LiveTable, seat: int) -> str | None:
    """The move the lesson asks of ``seat`` now (its notation), or None: no lesson, not the
    learner, not their turn, or free play.

    The hint answers it at a scripted step (issue 50): a search's suggestion there could
    contradict the coach, and the table would then refuse the move the hint proposed.
    """
    lesson = LESSONS.get(table.room.lesson or "")
    if lesson is None or seat != lesson.seat or table.state.current_player != seat:
        return None
    expected = lesson.expected(table.n)
    return None if expected in (None, ANY) else expected


def judge(table: LiveTable, seat: int, text: object) -> None:
    """Refuse a legal move the lesson does not ask for (the script would stop holding).

    Anything else goes on to the table as it is: a move the rules refuse is refused there,
    with the rule's reason, which teaches more than "not this one"; a move at a table that
    is no lesson, or not the learner's turn, is the table's business.
    """
    lesson = LESSONS.get(table.room.lesson or "")
    if lesson is None or seat != lesson.seat or not isinstance(text, str):
        return
    expected = lesson.expected(table.n)
    if expected in (None, ANY) or table.state.current_player != seat:
        return
    state = table.state
    try:
        action = state.parse(text)
        if action == state.parse(expected):
            return
        state.clone().apply(action)
    except AtoutError:
        return  # not a move, or one the rules refuse: the table says why
    raise TableError("illegal", reason("server.lesson_move"))


def lesson_routes(
    manager: TableManager, living: Living, creations: ClientBuckets, page: Callable[[str, Request], Response]
) -> list[Route]:
    """The lessons' routes (``creations``: the table creations' rate limit, shared with the form)."""

    def lesson_of(request: Request) -> Lesson:
        lesson = LESSONS.get(request.path_params["game"])
        if lesson is None:
            raise TableError("not_found", reason("server.no_lesson"))
        return lesson

    async def learn_page(request: Request) -> Response:
        lesson_of(request)
        return page("learn.html", request)

    async def script(request: Request) -> Response:
        lesson = lesson_of(request)
        lang = request.query_params.get("lang", "")
        said = words(lang if lang in LANGUAGES else pick_language(request))
        return JSONResponse(
            {
                "game": lesson.game,
                "seat": lesson.seat,
                "title": said.get(f"lesson_title_{lesson.game}", ""),
                "steps": [step.to_dict(said) for step in lesson.steps],
            }
        )

    async def start(request: Request) -> Response:
        lesson = lesson_of(request)
        if not creations.allow(client_of(request.scope)):
            raise TableError("rate_limited", reason("server.too_many_tables"))
        you = words(pick_language(request)).get("lesson_you", "You")
        names = iter(BOT_NAMES)
        seats = [
            SeatSpec(name=you) if i == lesson.seat else SeatSpec(name=next(names), bot=lesson.bot)
            for i in range(lesson.players)
        ]
        table_id, keys = await manager.create(
            manager.plan(
                lesson.game, lesson.players, lesson.options, seats, bot_pace=lesson.pace, seed=lesson.seed
            )
        )
        # Private, hints on, no clock (the learner takes their time), marked as a lesson.
        settings, _ = living.creation_settings(False, 0, False, None)
        settings.update(hints=True, lesson=lesson.game)
        await living.created(await manager.get(table_id), False, settings)
        key = keys[lesson.seat]
        return JSONResponse(
            {
                "table": table_id,
                "seat": lesson.seat,
                "key": key,
                "url": f"/table/{table_id}#key={key}&lesson={lesson.game}",
            }
        )

    return [
        Route("/learn/{game}", learn_page),
        Route("/api/lessons/{game}", script, methods=["GET"]),
        Route("/api/lessons/{game}", start, methods=["POST"]),
    ]


__all__ = [
    "LESSONS",
    "POINTS",
    "TUTORIAL_FILE",
    "Lesson",
    "Step",
    "judge",
    "learn_link",
    "lesson_routes",
    "scripted",
    "words",
]
