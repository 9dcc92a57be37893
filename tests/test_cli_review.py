"""``atout review``: a record written by another process, reviewed by another process, as the bots review it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from atout.bots.review import review_game
from atout.cli.review import LANGS, WORDED, move_words
from atout.cli.review import Words as ReviewWords
from atout.core.registry import game_class, load, names
from atout.records import load_record


def atout(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, on this checkout's sources."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src"), "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, "-m", "atout", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300
    )


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short Wizard game written by ``atout simulate --save`` (another process)."""
    where = tmp_path_factory.mktemp("records")
    done = atout(
        "simulate", "wizard", "-p", "4", "-n", "1", "--seed", "3", "--rounds", "4", "--save", "out", cwd=where
    )
    assert done.returncode == 0, done.stderr
    (path,) = (where / "out").iterdir()
    return path


def test_the_review_of_a_record_is_the_bots_review(record: Path) -> None:
    done = atout(
        "review", str(record), "--seat", "2", "--json", "--playouts", "80", "--seed", "5", cwd=record.parent
    )
    assert done.returncode == 0, done.stderr
    got: dict[str, Any] = json.loads(done.stdout)
    expected = review_game(load_record(record).replay(), seats=[2], playouts=80, seed=5).to_dict()
    assert {k: v for k, v in got.items() if k not in ("names", "seconds")} == expected
    assert got["names"][2] == "normal 2" and got["decisions"]
    for d in got["decisions"]:
        assert d["seat"] == 2 and d["cost"] >= 0
        assert d["chosen"] in [o["action"] for o in d["options"]]
    assert [r["round"] for r in got["rounds"]] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", ["Review of normal 0 (seat 0)", "Points lost by round", "★ best", "◀ played"]),
     ("fr", ["Analyse de la partie pour normal 0 (place 0)", "Points perdus par manche", "★ meilleur", "◀ joué"]),
     ("de", ["Analyse von normal 0 (Platz 0)", "Verlorene Punkte je Runde", "★ beste", "◀ gespielt"])],
)  # fmt: skip
def test_the_text_review_reads_in_both_languages(record: Path, lang: str, words: list[str]) -> None:
    done = atout("review", str(record), "--seat", "0", "--playouts", "40", "--lang", lang, cwd=record.parent)
    assert done.returncode == 0, done.stderr
    for word in words:
        assert word in done.stdout, (word, done.stdout[:2000])
    # The moves in the reader's words (French left "bid 0": issue 50).
    bid = {"en": "bid ", "fr": "annonce ", "de": "Ansage "}[lang]
    assert bid in done.stdout and (lang == "en" or "bid " not in done.stdout), done.stdout[:2000]


def test_bad_input_is_refused_with_a_clear_error(record: Path, tmp_path: Path) -> None:
    done = atout("review", str(record), "--seat", "4", cwd=tmp_path)
    assert done.returncode == 2 and "--seat is 0..3" in done.stderr
    done = atout("review", str(tmp_path / "missing.atout"), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    done = atout("review", str(record), "--lang", "xx", cwd=tmp_path)
    assert done.returncode == 2 and f"--lang is one of: {', '.join(LANGS)}" in done.stderr
    broken = tmp_path / "broken.atout"
    broken.write_text(record.read_text().replace("0: bid", "0: bid 9 bid", 1))
    done = atout("review", str(broken), cwd=tmp_path)
    assert done.returncode in (2, 3) and "Traceback" not in done.stderr


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_move_of_every_game_is_worded_in_the_readers_language(lang: str) -> None:
    """The text review words each move's verb in the reader's language, for every kind of move
    of the four games (issue 50 found "bid 0" in French; Wizard's trump, Le Malin's wish and
    Malheur cards, Sticheln's handicap and Le Nain Jaune's claim were left in English too)."""
    say = ReviewWords(lang)
    left: dict[str, str] = {}
    for name in names():
        cls = game_class(name)
        fun = {"fun": True} if "fun" in {spec.name for spec in cls.option_specs} else {}
        game = load(name, players=cls.min_players, **fun)
        for action in range(game.num_actions):
            text = game.space.text(action)
            worded = move_words(text, say)
            # Its verb has a wording (French keeps "malheur", the game's own word), "on" is not left.
            if text.split(" ")[0] not in WORDED or " on " in f" {worded} ":
                left[text] = worded
    assert not left, dict(list(left.items())[:10])
