"""bench/ismcts.py: a candidate against OpenSpiel's ISMCTS at a CPU budget, as a ladder log."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

import atout
from atout.bots import make_bot
from atout.match import play_match
from atout.tournament.matchlog import read_outcomes
from tests.benchscripts import bench_script

pytest.importorskip("open_spiel")


def ismcts() -> ModuleType:
    return bench_script("ismcts")


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_the_ismcts_spends_its_cpu_budget_and_plays_legally(rollout: str) -> None:
    module = ismcts()
    game = atout.load("wizard", 3, rounds=2)
    cls = getattr(module, f"ismcts_{rollout}_30")  # the name a tournament gives it
    bot = cls(5)
    spent: list[float] = []
    inner = bot.choose

    def choose(view: atout.View) -> int:
        start = time.process_time()
        action: int = inner(view)
        if len(view.legal_actions) > 1:
            spent.append(time.process_time() - start)
        return action

    bot.choose = choose
    result = play_match(game, [bot, make_bot("heuristic", game, 1), make_bot("heuristic", game, 2)], 9)
    assert result.state.is_terminal  # every answer legal (an illegal one aborts the match)
    assert spent and min(spent) >= 0.03  # the budget is spent at every decision with a choice
    with pytest.raises(AttributeError):
        module.ismcts_greedy_30  # noqa: B018 - an unknown rollout is no bot


def test_a_tournament_writes_a_ladder_log_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["ismcts.py", "--candidate", "heuristic", "--players", "3", "-o", "rounds=1"]
    argv += ["--deals", "2", "--budget-ms", "5", "--log", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", argv)
    ismcts().main()
    out = capsys.readouterr().out
    assert "heuristic vs three ISMCTS (random rollouts, 5 ms CPU a decision), 2 deals × 3:" in out
    (log,) = tmp_path.iterdir()
    outcomes = read_outcomes(log)
    assert len(outcomes) == 6 and all(o.error is None and o.seed is not None for o in outcomes)
    ismcts().main()  # resumed: nothing left to play, the same figure
    assert read_outcomes(log) == outcomes
    figure = re.compile(r"2 deals × 3: [+-][\d.]+ ± [\d.]+ a round")
    first, again = figure.search(out), figure.search(capsys.readouterr().out)
    assert first and again and first.group() == again.group()
