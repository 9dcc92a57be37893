"""The command line: play, simulate, replay, games — and its refusals of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import atout
from atout.bots import make_bot
from atout.cli.main import app
from atout.match import derive_seed
from atout.records import load_record

runner = CliRunner()


def human_moves(players: int, rounds: int, seed: int, seat: int) -> list[str]:
    """The moves a heuristic bot would make at ``seat`` in the CLI's game (same seeds)."""
    game = atout.load("wizard", players, rounds=rounds)
    bots = [make_bot("heuristic", game, derive_seed(seed, "bot", s)) for s in range(players)]
    state = game.new_state(seed)
    moves = []
    while not state.is_terminal:
        actor = state.current_player
        action = bots[actor].choose(state.view(actor))
        if actor == seat:
            moves.append(state.action_to_text(action))
        state.apply(action)
    return moves


def test_play_a_whole_game(tmp_path: Path) -> None:
    moves = human_moves(3, 3, seed=5, seat=1)
    record = tmp_path / "g.atout"
    script = "\n".join(["bid 9", "play Q1", *moves]) + "\n"
    result = runner.invoke(
        app,
        ["play", "wizard", "-p", "3", "-o", "rounds=3", "--seed", "5", "--seat", "1", "--save", str(record)],
        input=script,
    )
    assert result.exit_code == 0, result.output
    assert "Refused: a bid is 0 to 1 in round 1" in result.output
    assert "not a Wizard card" in result.output
    assert "Game over." in result.output
    assert "Score sheet" in result.output
    state = load_record(record).replay()
    assert state.is_terminal


def test_quit_saves_and_resume_continues(tmp_path: Path) -> None:
    moves = human_moves(4, 2, seed=8, seat=0)
    record = tmp_path / "g.atout"
    args = ["play", "wizard", "-p", "4", "-o", "rounds=2", "--seed", "8", "--save", str(record)]
    first = runner.invoke(app, args, input=f"{moves[0]}\nquit\n")
    assert first.exit_code == 0, first.output
    assert "--resume" in first.output
    partial = load_record(record)
    assert partial.result is None
    rest = runner.invoke(app, ["play", "wizard", "--resume", str(record)], input="\n".join(moves[1:]) + "\n")
    assert rest.exit_code == 0, rest.output
    assert "Game over." in rest.output
    final = load_record(record)
    assert final.result is not None
    # The resumed game is the game the seed deals: same record as an uninterrupted one.
    whole = tmp_path / "whole.atout"
    runner.invoke(app, [*args[:-1], str(whole)], input="\n".join(moves) + "\n")
    assert [m.text for m in load_record(whole).moves] == [m.text for m in final.moves]


def test_end_of_input_saves(tmp_path: Path) -> None:
    record = tmp_path / "g.atout"
    result = runner.invoke(app, ["play", "wizard", "--seed", "1", "--save", str(record)], input="")
    assert result.exit_code == 0
    assert load_record(record).replay().round == 1


def test_simulate_json_and_save(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "wizard", "-p", "5", "-n", "3", "--seed", "7", "--json", "--save", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 3 and len(data["seats"]) == 5
    assert abs(sum(s["win_share"] for s in data["seats"]) - 1.0) < 1e-9
    files = sorted(tmp_path.iterdir())
    assert len(files) == 3
    means = [0.0] * 5
    for f in files:
        scores = load_record(f).replay().scores()
        means = [m + s / 3 for m, s in zip(means, scores, strict=True)]
    assert [round(s["mean"], 6) for s in data["seats"]] == [round(m, 6) for m in means]
    again = runner.invoke(app, ["simulate", "wizard", "-p", "5", "-n", "3", "--seed", "7", "--json"])
    assert [s["mean"] for s in json.loads(again.output)["seats"]] == [s["mean"] for s in data["seats"]]


def test_simulate_table() -> None:
    result = runner.invoke(
        app, ["simulate", "wizard", "-p", "3", "-n", "2", "--bots", "random,heuristic,random"]
    )
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "heuristic" in result.output


def test_replay_ok_and_illegal(tmp_path: Path) -> None:
    runner.invoke(
        app, ["simulate", "wizard", "-p", "3", "-n", "1", "-o", "rounds=4", "--save", str(tmp_path)]
    )
    path = next(tmp_path.iterdir())
    ok = runner.invoke(app, ["replay", str(path), "--json"])
    assert ok.exit_code == 0
    assert json.loads(ok.output)["finished"] is True
    lines = path.read_text().splitlines()
    i = max(i for i, line in enumerate(lines) if line.startswith("round "))
    j = next(k for k in range(i, len(lines)) if ": bid " in lines[k])
    lines[j] = lines[j].split(": ")[0] + ": bid 99"
    bad = tmp_path / "bad.atout"
    bad.write_text("\n".join(lines) + "\n")
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 3
    assert f"line {j + 1}" in result.output and "bid 99" in result.output
    as_json = runner.invoke(app, ["replay", str(bad), "--json"])
    assert as_json.exit_code == 3 and json.loads(as_json.output)["ok"] is False


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "wizard", "-p", "9"], "3 to 6 players, not 9"),
        (["play", "wizard", "-o", "foo=1"], "no option 'foo'"),
        (["play", "wizard", "-o", "bids=maybe"], "bids='maybe' is not allowed"),
        (["play", "wizard", "-o", "plus_minus_one=true", "-o", "bids=hidden_until_end"], "needs open bids"),
        (["simulate", "wizard", "--bots", "genius"], "no bot 'genius'"),
        (["replay", "/nonexistent/game.atout"], "cannot read"),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_games_lists_options() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "wizard" in result.output and "plus_minus_one" in result.output


def test_console_script_runs(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "atout"
    result = subprocess.run([str(exe), "replay", str(tmp_path / "x.atout")], capture_output=True, text=True)
    assert result.returncode == 2
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_secret_bids_of_bots_are_not_echoed(tmp_path: Path) -> None:
    record = tmp_path / "g.atout"
    args = ["play", "wizard", "-p", "3", "-o", "bids=hidden_until_end", "-o", "first_dealer=0", "--seed", "2"]
    result = runner.invoke(app, [*args, "--seat", "0", "--save", str(record)], input="quit\n")
    assert result.exit_code == 0, result.output
    # Seats 1 and 2 bid before seat 0 (the dealer): their bids are secret.
    assert "bid ?" in result.output
    echoed = [line for line in result.output.splitlines() if line.startswith("  heuristic")]
    assert echoed and all(line.endswith("bid ?") for line in echoed)


def test_game_options_as_flags() -> None:
    result = runner.invoke(
        app, ["simulate", "wizard", "-p", "3", "-n", "2", "--json", "--rounds", "2", "--plus-minus-one"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["options"] == "plus_minus_one=true rounds=2"
    negated = runner.invoke(app, ["simulate", "wizard", "-p", "3", "-n", "1", "--json", "--no-clairvoyance"])
    assert json.loads(negated.output)["options"] == ""
    bad = runner.invoke(app, ["simulate", "wizard", "--colour", "red"])
    assert bad.exit_code == 2 and "no option 'colour'" in bad.output
    stray = runner.invoke(app, ["simulate", "wizard", "stray"])
    assert stray.exit_code == 2 and "unexpected argument 'stray'" in stray.output
