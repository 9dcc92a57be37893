"""External JSON-lines bots: a working one, and crashing, hanging and lying ones."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import atout
from atout.bots import make_bot
from atout.bots.external import ExternalBot
from atout.match import BotError, play_match

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "mybot.py"
PY = sys.executable


def game() -> atout.Game:
    return atout.load("wizard", 3, rounds=3)


def test_example_bot_plays_whole_matches() -> None:
    g = game()
    bot = make_bot(f"cmd:{PY} {EXAMPLE}", g)
    try:
        result = play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=4)
        assert result.state.is_terminal
        result = play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=5)
        assert result.state.is_terminal
    finally:
        bot.close()


def _script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text("import sys, json, time\n" + body)
    return f"{PY} {path}"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("sys.exit(3)\n", "exited"),
        ("for line in sys.stdin:\n    time.sleep(30)\n", "did not answer within"),
        (
            "for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'act': print('{oops', flush=True)\n",
            "malformed JSON",
        ),
        (
            "for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'act': print('castle kingside', flush=True)\n",
            "not a Wizard action",
        ),
        (
            "for line in sys.stdin:\n    m = json.loads(line)\n    if m['type'] == 'act': print(json.dumps({'action': 'bid 3'}), flush=True)\n",
            "illegal",
        ),
    ],
)
def test_faulty_bots_abort_the_match_with_a_clear_error(tmp_path: Path, body: str, message: str) -> None:
    g = game()
    bot = ExternalBot(_script(tmp_path, body), timeout=1.0)
    try:
        with pytest.raises(BotError, match=message) as info:
            play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=4)
        assert info.value.seat == 0
    finally:
        bot.close()


def test_unstartable_program() -> None:
    g = game()
    bot = ExternalBot("/nonexistent/program")
    with pytest.raises(BotError, match="cannot start"):
        play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=4)
