"""The first games that teach (issue 50, item 10; server/lessons.py).

A lesson's script must hold: played through the engine with its seed, the bots' moves
are the same whoever seeds the bots (the lesson's level draws nothing), every move the
script asks of the learner is legal where it asks it and every learner's turn is asked
for, every move the coach says is refused is refused, every card the coach points at is
in the learner's hand, and the deal ends where the last step says.  Then the server: a
lesson is an ordinary private table with hints, its learner refused a legal move off the
script (with the lesson's reason) and an illegal one with the rule's, its seat never an
account's; reachable from the games' list and the rules page, in every language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

import atout
from atout import i18n
from atout.bots.factory import make_bot
from atout.core.bot import Bot
from atout.core.errors import IllegalAction
from atout.core.game import State
from atout.server.languages import LANGUAGES
from atout.server.lessons import ANY, LESSONS, POINTS, TUTORIAL_FILE, Lesson, words

from .conftest import send


def play_through(lesson: Lesson, bot_seed: int) -> tuple[State, list[tuple[int, int, str]]]:
    """The lesson's deal played to its end: the learner's moves from the script, the bots' from
    bots seeded with ``bot_seed``; checks each step as it is met.  Returns the final state and
    every move (move count, seat, text)."""
    game = atout.load(lesson.game, lesson.players, **lesson.options)
    state = game.new_state(lesson.seed)
    bots = {}
    for seat in range(lesson.players):
        if seat != lesson.seat:
            bots[seat] = make_bot(lesson.bot, game, bot_seed * 10 + seat)
            bots[seat].start(game, seat)
    steps = {step.n: step for step in lesson.steps}
    learner: Bot | None = None
    moves: list[tuple[int, int, str]] = []
    while not state.is_terminal:
        n = len(moves)
        seat = state.current_player
        view = state.view(seat)
        step = steps.get(n)
        if step is not None and step.point.startswith("card:"):
            assert step.point[5:] in state.view(lesson.seat).to_dict()["hand"], (n, step)
        if seat == lesson.seat and lesson.expected(n) == ANY:  # free play: a fixed learner stands in
            if learner is None:
                learner = make_bot(lesson.bot, game, bot_seed)
                learner.start(game, seat)
            action = learner.choose(view)
        elif seat == lesson.seat:
            assert step is not None and step.expect is not None, (
                f"move {n}: the learner's turn, no step asks a move"
            )
            for wrong in step.refused:
                with pytest.raises(IllegalAction):
                    state.clone().apply(state.parse(wrong))
            action = state.parse(step.expect)
            assert action in view.legal_actions, (n, step.expect)
        else:
            assert step is None or step.expect is None, (
                f"move {n}: the script asks the learner at a bot's turn"
            )
            action = bots[seat].choose(view)
        moves.append((n, seat, view.text(action)))
        state.apply(action)
    return state, moves


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_script_holds_through_the_engine(name: str) -> None:
    lesson = LESSONS[name]
    _, moves = play_through(lesson, bot_seed=1)
    _, again = play_through(lesson, bot_seed=987654)
    assert moves == again, "the bots' moves depend on their seed: the script would not hold"
    ns = [step.n for step in lesson.steps]
    assert ns == sorted(set(ns)) and ns[0] == 0
    assert ns[-1] == len(moves), "the last step speaks at the deal's end"
    for step in lesson.steps:
        assert step.point in POINTS or step.point.startswith("card:"), step
    free = [step.n for step in lesson.steps if step.expect == ANY]
    if free:  # once free play begins, no step may script a move or point at a card
        later = [step for step in lesson.steps if step.n > free[0]]
        assert all(step.expect in (None, ANY) and not step.point.startswith("card:") for step in later)


def test_the_wizard_lesson_teaches_its_points() -> None:
    """A bid, a Jester, following suit (a card refused), a trump, a Wizard; the bid is made."""
    lesson = LESSONS["wizard"]
    final, moves = play_through(lesson, bot_seed=1)
    learner = [text for _, seat, text in moves if seat == lesson.seat]
    assert learner == ["bid 2", "play N", "play B6", "play G12", "play Z"]
    view = final.view(lesson.seat).to_dict()
    assert view["bids"][lesson.seat] == view["tricks_won"][lesson.seat] == 2
    assert final.scores()[lesson.seat] == 40  # as the last step says


def test_the_le_malin_lesson_teaches_its_points() -> None:
    """A Malheur window passed, a contract, the 666 on the learner's own card at the trick's
    last window (17 → 71 takes the trick), a Twin at 20, low cards and the Wish at −100 under
    the others: the contract of 2 made, Bert's 4 missed by one, as the last step says."""
    lesson = LESSONS["malin"]
    final, moves = play_through(lesson, bot_seed=1)
    learner = [text for _, seat, text in moves if seat == lesson.seat]
    assert learner[:7] == ["pass", "bid 2", "play 17", "pass", "pass", "malheur 666 on 1", "play TWIN 20"]
    assert learner[-1] == "play WISH -100" and "pass" not in learner[6:]  # no Malheur card left: not asked
    view = final.view(lesson.seat).to_dict()
    assert view["sheet"][0]["bids"] == [0, 2, 4] and view["sheet"][0]["tricks"] == [0, 2, 5]
    assert final.scores() == [10, 10, 9]


def test_the_nain_jaune_lesson_teaches_its_points() -> None:
    """Three boxes in one run, two Kings ending runs, six without seven, the Nain Jaune won by
    Ada, ranks nobody holds skipped to Bert's K♥, Bert out: what the last step counts."""
    lesson = LESSONS["nain-jaune"]
    final, moves = play_through(lesson, bot_seed=1)
    learner = [text for _, seat, text in moves if seat == lesson.seat]
    assert learner[:5] == ["play 9D", "play 10D", "play JC", "play QS", "play KC"]
    assert [text for n, _, text in moves if n in (11, 24, 27)] == ["play 7C", "play 7D", "play KH"]
    view = final.view(lesson.seat).to_dict()
    deal = view["sheet"][0]
    assert deal["winner"] == 2 and deal["owed"] == [2, 4, 0] and deal["kept"] == [[], [], []]
    assert deal["tokens"] == [98, 99, 103] and deal["boxes"] == [0, 0, 0, 0, 0]
    assert sorted(view["hand_sizes"]) == [0, 1, 2]


def test_the_hint_at_a_scripted_step_is_the_coach_s_move(client: TestClient) -> None:
    """The hint never contradicts the script: at a step it answers the scripted move (no search)."""
    lesson = LESSONS["wizard"]
    data = start(client)
    table = client.app.state.manager.tables[data["table"]]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{data['table']}") as ws:
        send(ws, {"type": "join", "key": data["key"], "lang": "en"})
        until_mine(ws, 0)
        r = client.post(f"/api/tables/{data['table']}/hint", json={"key": data["key"], "n": table.n})
        assert r.status_code == 200, r.text
        assert r.json() == {"enabled": True, "n": 0, "action": lesson.steps[0].expect, "lesson": True}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_has_its_words_in_every_language(lang: str) -> None:
    said = i18n.read_json(lang, TUTORIAL_FILE)
    for lesson in LESSONS.values():
        assert f"lesson_title_{lesson.game}" in said
        for step in lesson.steps:
            assert said.get(step.say, "").strip(), (lang, step.say)
    english = i18n.read_json("en", TUTORIAL_FILE)
    for key, text in english.items():
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", said[key])), key


def start(client: TestClient, game: str = "wizard", lang: str = "en") -> dict[str, Any]:
    r = client.post(f"/api/lessons/{game}", json={}, headers={"Accept-Language": lang})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def until_mine(ws: Any, n: int) -> dict[str, Any]:
    """The state messages until the learner is to play at move count ``n`` (the bots play at once)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg.get("type") == "state" and msg["n"] == n and (msg["over"] or msg["to_act"] == msg["seat"]):
            return msg


def test_a_lesson_is_a_private_table_with_hints_and_refuses_off_script_moves(client: TestClient) -> None:
    lesson = LESSONS["wizard"]
    data = start(client, lang="fr")
    table = client.app.state.manager.tables[data["table"]]  # type: ignore[attr-defined]
    assert table.seed == lesson.seed and table.room.lesson == "wizard" and table.room.hints
    assert not table.room.public and table.seats[lesson.seat].name == "Vous"
    assert data["url"] == f"/table/{data['table']}#key={data['key']}&lesson=wizard"
    with client.websocket_connect(f"/ws/{data['table']}") as ws:
        send(ws, {"type": "join", "key": data["key"], "lang": "en"})
        assert until_mine(ws, 0)["legal"][:3] == ["bid 0", "bid 1", "bid 2"]
        send(ws, {"type": "act", "action": "bid 3", "n": 0})  # legal, but not the lesson's
        refused = ws.receive_json()
        assert refused["code"] == "illegal" and "lesson asks for another move" in refused["message"]
        for step in (s for s in lesson.steps if s.expect):
            if step.n:
                until_mine(ws, step.n)
            for wrong in step.refused:  # the rules refuse it, with the rule's reason
                send(ws, {"type": "act", "action": wrong, "n": step.n})
                refused = ws.receive_json()
                assert refused["code"] == "illegal" and "follow" in refused["message"], refused
                assert "lesson" not in refused["message"]
            send(ws, {"type": "act", "action": step.expect, "n": step.n})
        final = until_mine(ws, lesson.steps[-1].n)
        assert final["over"] and final["result"]["scores"][lesson.seat] == 40


def test_a_lesson_is_never_an_account_s_game(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": "Learner", "password": "a long password 1"})
    assert r.status_code == 200, r.text
    data = start(client)
    r = client.post("/api/account/claim", json={"table": data["table"], "key": data["key"]})
    assert r.status_code == 400 and "rating" in r.json()["message"]
    assert client.get("/api/account/games").json()["games"] == []


def test_the_lesson_s_pages_and_script(client: TestClient) -> None:
    assert client.get("/learn/wizard").status_code == 200
    assert client.get("/learn/nosuchgame").status_code == 404
    assert client.post("/api/lessons/nosuchgame", json={}).status_code == 404
    script = client.get("/api/lessons/wizard?lang=de").json()
    assert script["title"] == "Wizard lernen" and script["seat"] == LESSONS["wizard"].seat
    assert [s["say"] for s in script["steps"]] == [words("de")[s.say] for s in LESSONS["wizard"].steps]
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["wizard"]["lesson"] is True
    assert set(LESSONS) == set(atout.names())  # every game has its first game that teaches
    for name in LESSONS:  # reachable from each rules page, in every language
        assert client.get(f"/learn/{name}").status_code == 200
        for lang, label in (("en", "Learn to play"), ("fr", "Apprendre à jouer"), ("de", "Spielen lernen")):
            page = client.get(f"/rules/{name}", headers={"Accept-Language": lang}).text
            assert f'<a class="rules-learn" href="/learn/{name}">{label}</a>' in page
    for name, g in games.items():
        assert g["lesson"] == (name in LESSONS)
