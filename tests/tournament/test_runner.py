"""Duplicate scheduling, determinism and faulty bots in tournaments."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

import atout
from atout.bots import make_bot
from atout.games.wizard.game import WizardState
from atout.match import play_match
from atout.tournament import lineup, run_local, run_match, schedule, summarize
from atout.tournament.runner import MatchOutcome

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mybot.py"


def short_wizard(players: int = 4) -> atout.Game:
    return atout.load("wizard", players, rounds=2)


def test_every_deal_is_played_once_per_rotation_with_each_bot_in_each_seat() -> None:
    game = short_wizard()
    bots = ["expert", "hard", "heuristic", "random"]
    specs = schedule(game, bots, deals=5, seed=3)
    assert len(specs) == 5 * 4
    assert Counter((s.deal, s.rotation) for s in specs) == {(d, r): 1 for d in range(5) for r in range(4)}
    for deal in range(5):
        rotations = [s for s in specs if s.deal == deal]
        assert len({s.seed for s in rotations}) == 1  # the same cards in every rotation
        for seat in range(4):
            assert sorted(s.seats[seat] for s in rotations) == sorted(bots)  # each bot in each seat
        for s in rotations:
            assert sorted(s.seats) == sorted(bots)  # everyone at the table every time
    assert len({s.seed for s in specs}) == 5  # different deals, different cards
    assert schedule(game, bots, deals=5, seed=3) == specs
    assert schedule(game, bots, deals=5, seed=4) != specs


def test_lineup_fills_the_table_with_the_last_bot() -> None:
    assert lineup(["hard", "heuristic"], 4) == ["hard", "heuristic", "heuristic", "heuristic"]
    assert lineup(["a", "b", "c"], 3) == ["a", "b", "c"]
    with pytest.raises(ValueError, match="at most 3"):
        lineup(["a", "b", "c", "d"], 3)
    with pytest.raises(ValueError):
        lineup([" "], 3)
    with pytest.raises(ValueError):
        schedule(short_wizard(), ["random"], deals=0, seed=1)


def _results(outcomes: list[MatchOutcome]) -> list[tuple[int, int, tuple[str, ...], list[int]]]:
    return [(o.deal, o.rotation, o.seats, o.scores) for o in outcomes]


def test_a_seed_gives_the_same_tournament_in_one_or_two_processes() -> None:
    game = short_wizard(3)
    specs = schedule(game, ["search:6", "heuristic", "random"], deals=3, seed=11)
    seen: list[MatchOutcome] = []
    one = run_local(specs, jobs=1, on_done=seen.append)
    assert len(seen) == len(specs)
    two = run_local(specs, jobs=2)
    assert _results(one) == _results(two)
    assert [b.to_dict() | {"decision_times": None} for b in summarize(one)] == [
        b.to_dict() | {"decision_times": None} for b in summarize(two)
    ]
    other = run_local(schedule(game, ["search:6", "heuristic", "random"], deals=3, seed=12))
    assert _results(other) != _results(one)


def test_outcomes_carry_scores_contracts_and_decision_times() -> None:
    game = short_wizard()
    spec = schedule(game, ["heuristic", "random"], deals=1, seed=2)[0]
    o = run_match(spec)
    assert o.error is None and o.rounds == 2 and len(o.scores) == 4
    assert o.contracts is not None and all(played == 2 for _, played in o.contracts)
    # Per round, tricks minus bid, as the final score sheet shows them.
    bots = [make_bot(name, game, seed) for name, seed in zip(spec.seats, spec.bot_seeds, strict=True)]
    state = play_match(game, bots, spec.seed).state
    assert isinstance(state, WizardState) and state.scores() == o.scores  # the same match again
    assert o.overtricks == [[tricks[s] - bids[s] for bids, tricks, _ in state.sheet] for s in range(4)]
    assert o.bids == [[bids[s] for bids, _, _ in state.sheet] for s in range(4)]
    assert [made for made, _ in o.contracts] == [row.count(0) for row in o.overtricks]
    assert [len(t) for t in o.times] == [len(c) for c in o.choice]
    assert all(len(t) >= 2 for t in o.times)  # at least a bid and a card per round


def test_external_bots_enter_tournaments(tmp_path: Path) -> None:
    game = short_wizard(3)
    specs = schedule(game, [f"cmd:{sys.executable} {EXAMPLE}", "random"], deals=1, seed=5)
    outcomes = run_local(specs)
    assert all(o.error is None for o in outcomes)
    assert {b.bot for b in summarize(outcomes)} == {f"cmd:{sys.executable} {EXAMPLE}", "random"}


def test_a_failing_bot_aborts_its_match_and_its_deal_is_not_scored(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text(
        "import json, sys\n"
        "seat = None\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start': seat = m['seat']\n"
        "    elif seat == 0 and m['view']['round'] == 2: sys.exit(1)\n"
        "    else: print(json.dumps({'action': m['legal'][0]['id']}), flush=True)\n"
    )
    game = short_wizard(3)
    faulty = f"cmd:{sys.executable} {crash}"
    specs = schedule(game, [faulty, "random"], deals=2, seed=5)
    outcomes = run_local(specs)
    aborted = [o for o in outcomes if o.error is not None]
    assert [(o.deal, o.seats[0]) for o in aborted] == [(0, faulty), (1, faulty)]  # one match per deal
    for o in aborted:  # the error names the bot, its seat and the fault
        assert o.error is not None and o.error.startswith(f"bot {faulty!r} at seat 0: "), o.error
    assert all(o.scores == [] for o in aborted)  # nothing scored, nothing substituted
    assert all(o.scores for o in outcomes if o.error is None)  # the other rotations were played...
    assert summarize(outcomes) == []  # ...but their deals are incomplete: not scored
    good = run_local(schedule(game, ["heuristic", "random"], deals=2, seed=5))
    assert sum(b.seat_matches for b in summarize(good)) == 2 * 3 * 3
