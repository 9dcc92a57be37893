"""Outside agents: ``py:`` bots, ``serve-bot`` over JSON lines, OpenSpiel bots and PettingZoo policies."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import atout
from atout.bots import CallableBot, make_bot, serve_jsonlines
from atout.bots.external import ExternalBot
from atout.cli.main import app
from atout.core.errors import OptionError
from atout.envs.openspiel_bot import OpenSpielBot, spiel_game
from atout.envs.policy_bot import PolicyBot, observe
from atout.match import BotError, play_match
from atout.tournament import run_local, schedule

OUTSIDE = "py:tests.bots.outside"
ROOT = Path(__file__).resolve().parents[2]
SERVE = f"cmd:{sys.executable} -m atout serve-bot"
runner = CliRunner()


def game() -> atout.Game:
    return atout.load("wizard", 3, rounds=2)


# -- py: names -------------------------------------------------------------------------------


def test_a_bot_class_a_function_and_a_file_by_import_path(tmp_path: Path) -> None:
    g = game()
    first = make_bot(f"{OUTSIDE}:FirstLegal", g, seed=1)
    assert first.name == "first-legal" and type(first).__name__ == "FirstLegal"
    unnamed = make_bot(f"{OUTSIDE}:Unnamed", g, seed=1)
    assert unnamed.name == f"{OUTSIDE}:Unnamed"  # known by its spec
    function = make_bot(f"{OUTSIDE}:last_text", g, seed=1)
    assert isinstance(function, CallableBot)
    path = tmp_path / "my_bot.py"
    path.write_text(
        "import atout\n\nclass Low(atout.Bot):\n    def choose(self, view):\n        return min(view.legal_actions)\n"
    )
    from_file = make_bot(f"py:{path}:Low", g, seed=1)
    result = play_match(g, [first, function, from_file], seed=3)
    assert result.state.is_terminal
    # The function answered notation; the bots played what they say they play.
    state = g.new_state(3)
    bots = [
        make_bot(f"{OUTSIDE}:FirstLegal", g),
        make_bot(f"{OUTSIDE}:last_text", g),
        make_bot(f"py:{path}:Low", g),
    ]
    while not state.is_terminal:
        view = state.view(state.current_player)
        expected = [view.legal_actions[0], view.legal_actions[-1], min(view.legal_actions)][view.seat]
        assert bots[view.seat].choose(view) == expected
        state.apply(expected)
    assert state.scores() == result.state.scores()


def test_seeded_py_bots_are_reproducible_and_a_seedless_constructor_is_seeded_for_it() -> None:
    g = game()

    def play(spec: str) -> list[int]:
        bots = [make_bot(spec, g, seed=s) for s in range(3)]
        return play_match(g, bots, seed=8).state.history

    assert play(f"{OUTSIDE}:Unnamed") == play(f"{OUTSIDE}:Unnamed")
    assert play(f"{OUTSIDE}:NoSeed") == play(f"{OUTSIDE}:NoSeed")
    assert play(f"{OUTSIDE}:NoSeed") == play(f"{OUTSIDE}:Unnamed")  # both seeded by make_bot


def test_the_current_directory_is_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "here_bot_mod.py").write_text(
        "import atout\n\nclass Here(atout.Bot):\n    def choose(self, view):\n        return view.legal_actions[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "here_bot_mod", raising=False)
    assert type(make_bot("py:here_bot_mod:Here", game())).__name__ == "Here"
    assert str(tmp_path) in sys.path


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:nocolon", r"write py:MODULE:NAME"),
        ("py:no_such_module_xyz:Bot", r"no module named 'no_such_module_xyz'"),
        (f"{OUTSIDE}:Nope", r"tests\.bots\.outside has no 'Nope' \(it has: .*FirstLegal"),
        (f"{OUTSIDE}:NotABot", r"NotABot is a class but not an atout\.Bot subclass"),
        (f"{OUTSIDE}:Abstract", r"Abstract is abstract: it does not implement choose"),
        (f"{OUTSIDE}:INSTANCE", r"INSTANCE is a bot instance; name its class"),
        (f"{OUTSIDE}:NUMBER", r"NUMBER is int, not an atout\.Bot subclass nor a view -> action callable"),
        ("py:no/such/file.py:Bot", r"no file no/such/file\.py"),
    ],
)
def test_py_names_that_do_not_give_a_bot_say_why(spec: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_bot(spec, game())


def test_a_file_that_fails_and_a_constructor_that_fails(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("1 / 0\n")
    with pytest.raises(OptionError, match=r"running .*broken\.py failed: ZeroDivisionError"):
        make_bot(f"py:{broken}:Bot", game())
    picky = tmp_path / "picky.py"
    picky.write_text(
        "import atout\n\nclass Picky(atout.Bot):\n    def __init__(self, seed=None):\n"
        "        raise RuntimeError('needs a GPU')\n    def choose(self, view):\n        return 0\n"
    )
    with pytest.raises(OptionError, match=r"building Picky failed: RuntimeError: needs a GPU"):
        make_bot(f"py:{picky}:Picky", game())


def test_a_callable_answering_nonsense_is_the_bots_fault() -> None:
    g = game()
    bots = [make_bot(f"{OUTSIDE}:cheat", g), make_bot("random", g, 1), make_bot("random", g, 2)]
    with pytest.raises(BotError, match=r"answered -5, which is illegal"):
        play_match(g, bots, seed=1)
    bots[0] = make_bot(f"{OUTSIDE}:factory", g)
    with pytest.raises(BotError, match=r"returned a bot: .* name its class"):
        play_match(g, bots, seed=1)


def test_cli_commands_take_py_bots(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "wizard", "-p", "3", "-n", "2", "--rounds", "2", "--json",
              "--bots", f"{OUTSIDE}:FirstLegal,random,{OUTSIDE}:last_text"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    seats = json.loads(result.output)["seats"]
    assert [s["bot"] for s in seats] == ["first-legal", "random", f"{OUTSIDE}:last_text"]
    result = runner.invoke(app, ["simulate", "wizard", "-p", "3", "-n", "1", "--bots", f"{OUTSIDE}:Nope"])
    assert result.exit_code == 2 and "has no 'Nope'" in result.output
    # play: the human quits at once; the bots were built from their py: names.
    save = tmp_path / "g.atout"
    result = runner.invoke(
        app, ["play", "wizard", "-p", "3", "--rounds", "1", "--seed", "2", "--save", str(save),
              "--bots", f"{OUTSIDE}:FirstLegal"],
        input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "(first-legal)" in save.read_text()  # the seat's name says which bot played it
    # A bot that fails its move stops the game with why, saved; no traceback.
    result = runner.invoke(
        app, ["play", "wizard", "-p", "3", "--rounds", "1", "--seed", "2", "--save", str(save), "--seat", "2",
              "--bots", f"{OUTSIDE}:cheat"],
        input="quit\n",
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert re.search(rf"bot '{OUTSIDE}:cheat' at seat [01] answered -5, which is illegal", result.output)
    assert "play --resume" in result.output and isinstance(result.exception, SystemExit)


# -- tournaments with py:, served and OpenSpiel bots ------------------------------------------------


def _scores(specs: list[str], g: atout.Game, deals: int = 1) -> list[tuple[tuple[str, ...], list[int]]]:
    outcomes = run_local(schedule(g, specs, deals=deals, seed=5))
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes]
    return [(o.seats, o.scores) for o in outcomes]


def test_tournament_command_with_a_py_bot(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(
        app, ["tournament", "wizard", "--bots", f"{OUTSIDE}:FirstLegal,heuristic", "--players", "3",
              "--deals", "2", "--seed", "4", "--out", str(out), "-o", "rounds=2", "--no-plot"],
        env={"COLUMNS": "200"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads((out / "results.json").read_text())
    assert data["matches_scored"] == 6 and data["aborted"] == []
    assert {b["bot"] for b in data["bots"]} == {f"{OUTSIDE}:FirstLegal", "heuristic"}


def test_the_twenty_line_example_plays_a_tournament_from_its_file() -> None:
    g = atout.load("wizard", 4, rounds=4)
    example = f"py:{ROOT / 'examples' / 'greedy.py'}:Greedy"
    outcomes = run_local(schedule(g, [example, "random"], deals=2, seed=1))
    assert len(outcomes) == 8 and all(o.error is None and o.rounds == 4 for o in outcomes)
    # It plays its plan: bids its Wizards and queens or better.
    bot = make_bot(example, g)
    state = g.new_state(9)
    while state.view(state.current_player).to_dict()["phase"] != "bid":
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    strong = sum(c == "Z" or (c not in ("Z", "N") and int(c[1:]) >= 12) for c in view.to_dict()["hand"])
    assert view.text(bot.choose(view)) == f"bid {strong}"


def test_a_bot_served_over_json_lines_plays_as_it_does_in_process() -> None:
    """``cmd:atout serve-bot`` end to end in a tournament: the same moves as the bot itself."""
    g = game()
    served = _scores([f"{SERVE} tests.bots.outside:FirstLegal", "heuristic"], g)
    direct = _scores([f"{OUTSIDE}:FirstLegal", "heuristic"], g)
    assert [s for _, s in served] == [s for _, s in direct]
    assert len(served) == 3 and all(len(s) == 3 for _, s in served)


def test_serve_bot_reports_a_bad_path_and_a_bot_that_fails(tmp_path: Path) -> None:
    result = runner.invoke(app, ["serve-bot", "tests.bots.outside:Nope"])
    assert result.exit_code == 2 and "has no 'Nope'" in result.output
    g = game()
    bot = ExternalBot(f"{sys.executable} -m atout serve-bot tests.bots.outside:cheat_loudly_missing")
    with pytest.raises(BotError, match="exited"):
        play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=1)
    bot.close()


class _Raises(atout.Bot):
    def choose(self, view: atout.View) -> int:
        raise RuntimeError("out of ideas")


def _start(g: atout.Game, seat: int = 0, seed: int | None = 4) -> str:
    message = {"type": "start", "protocol": 1, "game": g.name, "players": g.players,
               "options": dict(g.options), "seat": seat, "seed": seed}  # fmt: skip
    return json.dumps(message)


def test_serve_jsonlines_answers_every_act_once() -> None:
    g = game()
    state = g.new_state(2)
    view = state.view(state.current_player)
    act = json.dumps({"type": "act", "view": view.to_dict(), "legal": []})
    lines = [
        act,  # before any start
        "{oops",
        _start(g, seat=view.seat),
        json.dumps({"type": "hello"}),  # unknown types are ignored
        act,
        json.dumps({"type": "act", "view": {**view.to_dict(), "hand": ["X1"]}}),
        json.dumps({**json.loads(_start(g)), "game": "chess"}),
        act,  # answered with why the start failed
    ]
    out = io.StringIO()
    answered = serve_jsonlines(
        make_bot(f"{OUTSIDE}:FirstLegal", g), io.StringIO("\n".join(lines) + "\n"), out
    )
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answered == 1
    assert answers[0] == {"error": "line 1: 'act' before any 'start'"}
    assert answers[1]["error"].startswith("line 2: not JSON")
    assert answers[2] == {"action": view.legal_actions[0]}
    assert answers[3]["error"].startswith("view.hand[0]: 'X1'")
    # The start's seed seeds the bot: a seeded random bot answers as one seeded here would.
    out = io.StringIO()
    serve_jsonlines(
        make_bot(f"{OUTSIDE}:Unnamed", g, seed=99), io.StringIO(_start(g, view.seat) + "\n" + act), out
    )
    assert json.loads(out.getvalue()) == {"action": random.Random(4).choice(view.legal_actions)}
    assert "chess" in answers[4]["error"]
    assert len(answers) == 5


def test_a_bot_that_raises_gives_up_with_its_reason() -> None:
    g = game()
    out = io.StringIO()
    state = g.new_state(2)
    view = state.view(state.current_player)
    lines = [_start(g, seat=view.seat), json.dumps({"type": "act", "view": view.to_dict()})]
    serve_jsonlines(_Raises(), io.StringIO("\n".join(lines) + "\n"), out)
    assert json.loads(out.getvalue()) == {"error": "RuntimeError: out of ideas"}


def test_external_bots_may_give_up_with_a_reason(tmp_path: Path) -> None:
    script = tmp_path / "quit.py"
    script.write_text(
        "import json, sys\nfor line in sys.stdin:\n    if json.loads(line)['type'] == 'act':\n"
        "        print(json.dumps({'error': 'no model file'}), flush=True)\n"
    )
    g = game()
    bot = ExternalBot(f"{sys.executable} {script}")
    try:
        with pytest.raises(BotError, match="gave up: no model file"):
            play_match(g, [bot, make_bot("random", g, 1), make_bot("random", g, 2)], seed=1)
    finally:
        bot.close()


def test_a_wrapped_openspiel_bot_plays_a_tournament() -> None:
    g = game()
    mcts = _scores([f"{OUTSIDE}:MCTS", "heuristic", "py:atout.envs.openspiel_bot:UniformRandom"], g)
    assert len(mcts) == 3
    # Seeded: the same tournament twice is the same tournament.
    assert mcts == _scores([f"{OUTSIDE}:MCTS", "heuristic", "py:atout.envs.openspiel_bot:UniformRandom"], g)
    ismcts = _scores([f"{OUTSIDE}:ISMCTS", "random"], g)
    assert len(ismcts) == 3


def test_the_openspiel_bot_is_shown_a_world_consistent_with_its_view_only() -> None:
    g = atout.load("wizard", 4, rounds=3)
    seen: list[tuple[atout.View, Any, list[str]]] = []

    class Spy:
        def step(self, world: Any) -> int:
            seen.append((view, world, state.view(1).to_dict()["hand"]))  # and the real hand of seat 1 now
            return int(world.legal_actions()[0])

    bot = OpenSpielBot(lambda spiel, seat, seed: Spy(), seed=3)
    state = g.new_state(6)
    bot.start(g, 0)
    while not state.is_terminal and len(seen) < 12:
        view = state.view(state.current_player)
        action = bot.choose(view) if view.seat == 0 else view.legal_actions[-1]
        state.apply(action)
    assert seen
    for view, world, _ in seen:
        atout_world = world.atout_state
        assert atout_world.view(0) == view  # the seat's view, exactly
        assert world.history() == [] and atout_world.history == []  # no past
        assert world.current_player() == 0
    # The other hands are sampled, not copied: some differ from the real ones.
    assert any(w.atout_state.view(1).to_dict()["hand"] != real for _, w, real in seen)
    assert spiel_game(g).get_type().short_name == "python_atout_wizard"


def test_a_policy_sees_what_the_aec_environment_shows() -> None:
    from atout.envs import pettingzoo_env

    env = pettingzoo_env("wizard", 3, rounds=2)
    env.reset(seed=4)
    checked = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.unwrapped.state
        obs = observe(state.view(state.current_player))
        expected = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert np.array_equal(obs["observation"], expected["observation"])
        assert np.array_equal(obs["action_mask"], expected["action_mask"])
        env.step(int(np.flatnonzero(expected["action_mask"])[-1]))
        checked += 1
    assert checked > 5


def test_a_pettingzoo_policy_plays_a_tournament() -> None:
    g = game()
    assert len(_scores([f"{OUTSIDE}:FirstInMask", "random"], g)) == 3
    # A policy as a plain function, and one answering outside the mask.
    bots = [PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[0])), make_bot("random", g, 1),
            PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]))]  # fmt: skip
    with pytest.raises(BotError, match=r"seat 2.*illegal"):
        play_match(g, bots, seed=2)
