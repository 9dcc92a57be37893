"""The terminal in French and German: a short game of every game, no English word left (issue 30).

``atout play GAME --lang fr`` (and ``de``) is played through the CLI as a person
would: 'help', a text that is no move, a move the rules refuse, then the moves of a
bot sitting in the human's seat, to the end (the score sheet, the final scores).
Every word of the output is then looked for among the *English* words: the words of
the terminal's and the messages' English strings that the language's own files
never use.  What is left out on purpose: the action notation (``play B7``, ``bid 2``:
what the terminal accepts, as the legal moves list it), the commands typed
(``help``, ``quit``, ``play --resume``), names and the record's path.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import atout
from atout import i18n
from atout.bots.factory import make_bot
from atout.cli.main import app
from atout.core.reason import REASONS_FILE
from atout.match import derive_seed

runner = CliRunner()
SEED = 3
#: Short games: one or two rounds (the score sheet is printed at each round's end).
OPTIONS: dict[str, dict[str, Any]] = {
    "wizard": {"rounds": 2},
    "malin": {"rounds": 1, "fun": True},
    "sticheln": {"hands": 1},
    "nain-jaune": {"max_deals": 1},
}
#: Texts the player types, shown as typed in every language.
COMMANDS = ("play --resume", "help, ?, h", "quit, q", "help", "quit")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    return []


def _words(lang: str) -> set[str]:
    """The words (3+ letters, case folded) of the terminal's and the messages' strings in ``lang``."""
    texts = _strings(i18n.read_json(lang, "terminal.json"))
    texts += _strings(i18n.read_json(lang, REASONS_FILE))
    return {w.casefold() for t in texts for w in re.findall(r"[^\W\d_]{3,}", t)}


def english_words(lang: str) -> set[str]:
    """Words the English strings use and the ``lang`` ones never do: an English word left."""
    return _words("en") - _words(lang)


def human_moves(game: atout.Game, seat: int) -> list[str]:
    """The moves a random bot makes at ``seat`` of the CLI's game (the same seeds as its bots)."""
    bots = [make_bot("random", game, derive_seed(SEED, "bot", s)) for s in range(game.players)]
    mine = make_bot("random", game, 99)
    state = game.new_state(SEED)
    moves = []
    while not state.is_terminal:
        actor = state.current_player
        if actor == seat:
            action = mine.choose(state.view(actor))
            moves.append(state.action_to_text(action))
        else:
            action = bots[actor].choose(state.view(actor))
        state.apply(action)
    return moves


def first_refused(game: atout.Game) -> str:
    """A move in notation that the rules refuse at the human's first decision (seat 0)."""
    state = game.new_state(SEED)
    bots = [make_bot("random", game, derive_seed(SEED, "bot", s)) for s in range(game.players)]
    while state.current_player != 0:
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    legal = set(state.legal_actions())
    return next(game.action_to_text(a) for a in range(game.num_actions) if a not in legal)


def play(name: str, lang: str, tmp_path: Path) -> tuple[str, atout.Game]:
    options = OPTIONS[name]
    cls = atout.game_class(name)
    game = atout.load(name, cls.min_players, **options)
    moves = human_moves(game, 0)
    script = ["help", "dance", first_refused(game), *moves]
    args = ["play", name, "-p", str(game.players), "--seed", str(SEED), "--bots", "random", "--lang", lang]
    args += [x for k, v in options.items() for x in ("-o", f"{k}={str(v).lower()}")]
    record = tmp_path / f"{name}.atout"
    result = runner.invoke(app, [*args, "--save", str(record)], input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    # The record's path is no word of the game's, wherever the terminal wrapped it (a longer
    # temporary path, as under pytest-xdist, wraps in its middle).
    path = r"\s*".join(re.escape(c) for c in str(record))
    return re.sub(path, " ", result.output), game


def left_english(output: str, game: atout.Game, lang: str) -> list[str]:
    text = output
    # The notation, longest first ("play TWIN 10" before "play TWIN 1").
    for _, notation in sorted(game.space.table(), key=lambda p: -len(p[1])):
        text = text.replace(notation, " ")
    for command in COMMANDS:
        text = text.replace(command, " ")
    english = english_words(lang)
    return sorted({w for w in re.findall(r"[^\W\d_]{3,}", text) if w.casefold() in english})


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("name", list(OPTIONS))
def test_the_terminal_speaks_the_language(name: str, lang: str, tmp_path: Path) -> None:
    output, game = play(name, lang, tmp_path)
    assert left_english(output, game, lang) == [], output
    # And it did say things: the help, a refusal, the sheet, the end.
    say = i18n.read_json(lang, "terminal.json")
    for key in ("term_legal", "term_game_over", "term_your_move"):
        assert say[key] in output, key
    assert say["term_refused"].split("{")[0] in output


def test_english_is_the_default_and_the_check_can_fail(tmp_path: Path) -> None:
    """Without --lang (and no ATOUT_LANG, LANG=C) the terminal speaks English, and the check
    above finds English words in it."""
    env = {"ATOUT_LANG": "", "LANG": "C"}
    cls = atout.game_class("wizard")
    game = atout.load("wizard", cls.min_players, rounds=2)
    moves = human_moves(game, 0)
    args = ["play", "wizard", "-p", "3", "--seed", str(SEED), "--bots", "random", "-o", "rounds=2"]
    result = runner.invoke(
        app, [*args, "--save", str(tmp_path / "w.atout")], input="\n".join(moves) + "\n", env=env
    )
    assert result.exit_code == 0, result.output
    assert "Your move:" in result.output and "Game over." in result.output
    assert {"your", "move", "trick"} <= {w.casefold() for w in left_english(result.output, game, "fr")}


def test_the_language_comes_from_the_environment(tmp_path: Path) -> None:
    args = ["play", "wizard", "--seed", "1", "--save", str(tmp_path / "w.atout")]
    german = runner.invoke(app, args, input="quit\n", env={"ATOUT_LANG": "", "LANG": "de_DE.UTF-8"})
    assert "Dein Zug:" in german.output
    french = runner.invoke(app, args, input="quit\n", env={"ATOUT_LANG": "fr", "LANG": "de_DE.UTF-8"})
    assert "À vous :" in french.output
    wrong = runner.invoke(app, [*args, "--lang", "xx"], input="quit\n")
    assert wrong.exit_code != 0 and "--lang" in wrong.output
