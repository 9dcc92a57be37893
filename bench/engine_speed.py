"""The single-state engine's speed, per game at 4 players, beside OpenSpiel's oh_hell.

Prints, for each game (the median of several interleaved runs, each of a fixed seeded
workload, so two builds or two commits compare on the same work):

* (a) **play**: random whole matches, ``legal_actions`` + ``apply`` at every step
  (chance included), as ``bench/wizard_throughput.py`` does: decisions (player
  actions) per second;
* (a') **loop**: the same random play driven by compiled code,
  ``atout.core.playout.random_playout`` (like OpenSpiel's C++ loop, which is what it
  compares with): decisions per second of seeded whole matches, each round dealt from
  its one shuffle, where oh_hell's loop plays one 12-trick round and deals it card by
  card (``bench/loop_speed.py`` prints Wizard's loop in both shapes beside it);
* (b) **view**: ``state.view(seat)`` for the seat to act at every decision of
  those matches: views per second;
* (c) **sample**: ``game.sample_state(view, rng)`` at those decisions: worlds per second;
* (d) **hard**: the ``hard`` search (``make_bot("hard", caps=False)``: its playouts,
  no wall-clock cap) on the first decisions of a seeded match: decisions and
  playouts per second;
* (e) **review**: ``review_game`` of one seat (``--review-seats`` more) of a seeded
  random whole match (what ``atout review`` does), in seconds.

and OpenSpiel's oh_hell (4 players, 12 tricks) driven from Python and through its
C++ loop when pyspiel is installed.  The machine may be shared: compare figures of
one run, or count instructions (``valgrind --tool=callgrind`` over ``--workload``).

Run: ``.venv/bin/python bench/engine_speed.py [--runs 3] [--games wizard,malin]
[--skip review]`` or one workload once, for a profiler:
``... bench/engine_speed.py --workload play --games malin``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import atout
from atout.bots import make_bot
from atout.bots.review import review_game
from atout.core.game import Game, State, View
from atout.core.playout import random_playout
from batch import openspiel_runners

GAMES = ("wizard", "malin", "sticheln", "nain-jaune")
PLAYERS = 4
#: Matches per run of (a)-(c), decisions searched per run of (d).
MATCHES = 3
HARD_DECISIONS = 6
#: What the workloads are timed with: wall-clock, or this process's CPU time (``--cpu``, for a
#: machine others share: A/B comparisons there are less blurred by waiting for a core).
clock = time.perf_counter


def _matches(game: Game, seed: int) -> list[State]:
    """Seeded random whole matches, as finished states (their histories replay them)."""
    rng = random.Random(seed)
    states = []
    for m in range(MATCHES):
        state = game.new_state(seed=seed * 100 + m)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def _decision_views(game: Game, seed: int) -> list[View]:
    views: list[View] = []
    for finished in _matches(game, seed):
        replay = game.new_state(None)
        for action in finished.history:
            if replay.current_player >= 0:
                views.append(replay.view(replay.current_player))
            replay.apply(action)
    return views


def play(game: Game, seed: int) -> tuple[int, float]:
    """(a): decisions of random play, and seconds."""
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for m in range(MATCHES):
        state = game.new_state(seed=seed * 100 + m)
        while not state.is_terminal:
            if state.current_player >= 0:
                decisions += 1
            state.apply(rng.choice(state.legal_actions()))
    return decisions, clock() - start


def loop(game: Game, seed: int) -> tuple[int, float]:
    """(a'): (a)'s matches played by the compiled loop (the same moves from the same draws)."""
    rng = random.Random(seed)
    decisions = 0
    start = clock()
    for m in range(MATCHES):
        decisions += random_playout(game.new_state(seed=seed * 100 + m), rng)
    return decisions, clock() - start


def views(game: Game, seed: int) -> tuple[int, float]:
    """(b): ``view(seat)`` at every decision of the seeded matches (their replay is not timed)."""
    finished = _matches(game, seed)
    count, elapsed = 0, 0.0
    for match in finished:
        replay = game.new_state(None)
        for action in match.history:
            actor = replay.current_player
            if actor >= 0:
                start = clock()
                replay.view(actor)
                elapsed += clock() - start
                count += 1
            replay.apply(action)
    return count, elapsed


def samples(game: Game, seed: int) -> tuple[int, float]:
    """(c): one world sampled at every decision of the seeded matches."""
    decision_views = _decision_views(game, seed)
    rng = random.Random(seed)
    start = clock()
    for view in decision_views:
        game.sample_state(view, rng)
    return len(decision_views), clock() - start


def hard(game: Game, seed: int) -> tuple[int, float, int]:
    """(d): the hard search at decisions with a choice spread over a seeded match: (decisions, seconds, playouts)."""
    choices = [
        v
        for v in _decision_views(game, seed)[: len(_matches(game, seed)[0].history)]
        if len(v.legal_actions) > 1
    ]
    picked = choices[:: max(1, len(choices) // HARD_DECISIONS)][:HARD_DECISIONS]
    bots = [make_bot("hard", game, seed * 10 + s, caps=False) for s in range(PLAYERS)]
    for s, bot in enumerate(bots):
        bot.start(game, s)
    start = clock()
    for view in picked:
        bots[view.seat].choose(view)
    playouts = sum(getattr(bot, "simulations", 0) for bot in bots)
    return len(picked), clock() - start, playouts


def review(game: Game, seed: int, seats: int) -> tuple[int, float]:
    """(e): ``review_game`` of ``seats`` seats of a seeded random whole match: (decisions, seconds)."""
    finished = _matches(game, seed)[0]
    start = clock()
    result = review_game(finished, seats=range(seats), seed=0)
    return len(result.decisions), clock() - start


def openspiel(seed: int) -> tuple[float, float] | None:
    """oh_hell 4p, 12 tricks (``bench/batch.py``'s runners): decisions/s from Python and of the C++ loop."""
    runners = openspiel_runners(PLAYERS, random.Random(seed))
    if runners is None:
        return None
    cpp, python, _ = runners
    # Timed here with this bench's clock (the runners' own is wall-clock): with --cpu, both
    # engines' figures are CPU time of this process, comparable on a shared machine.
    start = clock()
    d_py = python(1.0)[0]
    s_py = clock() - start
    start = clock()
    d_cpp = cpp(1.0)[0]
    s_cpp = clock() - start
    return d_py / s_py, d_cpp / s_cpp


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per workload (median)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--skip", default="", help="comma-separated workloads to skip (play,view,...)")
    parser.add_argument("--review-seats", type=int, default=1, help="seats the review covers (4: whole)")
    parser.add_argument("--workload", default="", help="run this workload once per game, print nothing else")
    parser.add_argument("--cpu", action="store_true", help="time the workloads in CPU time (OpenSpiel's too)")
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    games = [atout.load(name, players=PLAYERS) for name in args.games.split(",")]
    if not args.workload:
        print(f"engine build: {atout._build.BUILD}", flush=True)  # compiled, or pure and why
    work: dict[str, Callable[[Game, int], tuple[float, ...]]] = {
        "play": play,
        "loop": loop,
        "view": views,
        "sample": samples,
        "hard": hard,
        "review": lambda game, seed: review(game, seed, args.review_seats),
    }
    if args.workload:
        for game in games:
            work[args.workload](game, 1)
        return
    skip = set(args.skip.split(",")) - {""}
    for game in games:
        figures: dict[str, list[tuple[float, ...]]] = {name: [] for name in work if name not in skip}
        for run in range(args.runs):
            for name in figures:
                if name == "review" and run > 0:
                    continue  # one review a game: it is long and seeded
                figures[name].append(work[name](game, run + 1))
        line = [f"{game.name:>10} 4p"]
        for name, results in figures.items():
            if name == "hard":
                rate = statistics.median(d / s for d, s, _ in results)
                per_s = statistics.median(p / s for _, s, p in results)
                line.append(f"hard {rate:6.2f} dec/s ({per_s:6.0f} playouts/s)")
            elif name == "review":
                count, seconds = results[0]
                line.append(f"review {args.review_seats} seat(s) {seconds:5.1f} s ({count:.0f} decisions)")
            elif name == "loop":
                line.append(f"play, compiled loop {statistics.median(c / s for c, s in results):9.0f}/s")
            else:
                line.append(f"{name} {statistics.median(c / s for c, s in results):9.0f}/s")
        print("  ".join(line), flush=True)
    if "openspiel" not in skip:
        spiel = [openspiel(run) for run in range(args.runs)]
        if spiel[0] is None:
            print("openspiel: pyspiel not installed (pip install -e '.[openspiel]'): no figure beside")
        else:
            python = statistics.median(f[0] for f in spiel if f is not None)
            cpp_loop = statistics.median(f[1] for f in spiel if f is not None)
            print(
                f"{'oh_hell':>10} 4p  openspiel decisions/s: {python:9.0f} from Python, {cpp_loop:9.0f} C++ loop"
                " (one 12-trick round a game: 52 decisions, 51 chance nodes dealt card by card)"
            )


if __name__ == "__main__":
    main()
