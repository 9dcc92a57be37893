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
  no wall-clock cap) on decisions spread over a seeded match: decisions and
  playouts per second;
* (d') **expert**: the same with ``expert`` (10 or 20 times hard's playouts a
  decision, with the game's model of strong play where it has one) on the first
  ``--expert-decisions`` of those decisions;
* (e) **review**: ``review_game`` of one seat (``--review-seats`` more) of a seeded
  random whole match (what ``atout review`` does), in seconds.

and OpenSpiel's oh_hell (4 players, 12 tricks) driven from Python and through its
C++ loop when pyspiel is installed.  The machine may be shared: compare figures of
one run, or count instructions (``valgrind --tool=callgrind`` over ``--workload``).

Run: ``.venv/bin/python bench/engine_speed.py [--runs 3] [--games wizard,malin]
[--skip review]`` or one workload once, for a profiler:
``... bench/engine_speed.py --workload play --games malin``.

Several builds in one run (issue 48's targets are ratios to the tree before it):
``--build LABEL=SRC[:pure]`` (repeatable, as in ``bench/aec.py``) runs every workload of
a game in a process of its own per build, SRC first on its ``sys.path`` (``:pure``:
``ATOUT_PURE=1``), the builds interleaved (a run of each build, then the next run), and
prints each build's row with its ratios to the last build named::

    .venv/bin/python bench/engine_speed.py --cpu --skip review,openspiel \\
        --build compiled=src --build pure=src:pure --build old=/tmp/old/src:pure

(the tree before issue 48: ``git archive bb08163^ src | tar -x -C /tmp/old``).  The worker
adapts to an older tree's API (no compiled loop there: that column is empty), never the
tree to the bench.  Each row says which build ran (``atout.compiled()``), so a stale
compiled build, which silently runs the pure modules, shows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import atout
from atout.bots import make_bot
from atout.bots.review import review_game
from atout.core.game import Game, State, View

GAMES = ("wizard", "malin", "sticheln", "nain-jaune")
PLAYERS = 4
#: Matches per run of (a)-(c), decisions searched per run of (d).
MATCHES = 3
HARD_DECISIONS = 6
#: Decisions of (d') per run (the first of (d)'s): an expert decision is 10-20 hard ones.
EXPERT_DECISIONS = 2
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
    # Imported here: a tree from before the compiled loop (an --build old=...) has none.
    from atout.core.playout import random_playout

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


def hard(
    game: Game, seed: int, level: str = "hard", decisions: int = HARD_DECISIONS
) -> tuple[int, float, int]:
    """(d): the hard search at decisions with a choice spread over a seeded match: (decisions, seconds, playouts).

    (d'): ``level`` "expert" at the first ``decisions`` of those.
    """
    choices = [
        v
        for v in _decision_views(game, seed)[: len(_matches(game, seed)[0].history)]
        if len(v.legal_actions) > 1
    ]
    picked = choices[:: max(1, len(choices) // HARD_DECISIONS)][:HARD_DECISIONS][:decisions]
    bots = [make_bot(level, game, seed * 10 + s, caps=False) for s in range(PLAYERS)]
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
    from batch import openspiel_runners  # bench/batch.py (imported here: it needs this tree's atout.batch)

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


def workloads(
    review_seats: int, expert_decisions: int
) -> dict[str, Callable[[Game, int], tuple[float, ...]]]:
    """The workloads by name, each ``(game, seed) -> figures`` (the order of the table's columns)."""
    return {
        "play": play,
        "loop": loop,
        "view": views,
        "sample": samples,
        "hard": hard,
        "expert": lambda game, seed: hard(game, seed, "expert", expert_decisions),
        "review": lambda game, seed: review(game, seed, review_seats),
    }


def rate(name: str, results: list[tuple[float, ...]]) -> tuple[float, ...]:
    """A workload's figures over its runs: the medians of its rates (review: its one run)."""
    if name in ("hard", "expert"):
        return (
            statistics.median(d / s for d, s, _ in results),
            statistics.median(p / s for _, s, p in results),
        )
    if name == "review":
        count, seconds = results[0]
        return seconds, count
    return (statistics.median(c / s for c, s in results),)


def describe(name: str, figures: tuple[float, ...], review_seats: int) -> str:
    if name in ("hard", "expert"):
        return f"{name} {figures[0]:6.2f} dec/s ({figures[1]:6.0f} playouts/s)"
    if name == "review":
        return f"review {review_seats} seat(s) {figures[0]:5.1f} s ({figures[1]:.0f} decisions)"
    if name == "loop":
        return f"play, compiled loop {figures[0]:9.0f}/s"
    return f"{name} {figures[0]:9.0f}/s"


def build_label() -> str:
    """Which build this process runs: compiled, pure (and why), or pre-48 (no compiled build yet)."""
    build = getattr(atout, "_build", None)
    return str(build.BUILD) if build is not None and hasattr(build, "BUILD") else "pre-48"


def worker(game_name: str, names: list[str], seed: int, review_seats: int, expert_decisions: int) -> None:
    """One run of ``names`` on one game in this process's build: one JSON line.

    A workload this tree cannot run (the compiled loop in a tree from before it) is null.
    """
    game = atout.load(game_name, players=PLAYERS)
    work = workloads(review_seats, expert_decisions)
    results: dict[str, list[float] | None] = {}
    for name in names:
        try:
            results[name] = list(work[name](game, seed))
        except ImportError:
            results[name] = None
    print(json.dumps({"build": build_label(), "results": results}))


def compare(args: argparse.Namespace, names: list[str], games: list[str]) -> None:
    """``--build``: each build's workloads in its own processes, interleaved runs, ratios to the last build."""
    builds: list[tuple[str, str, bool]] = []
    for spec in args.build:
        label, _, rest = spec.partition("=")
        src, _, flag = rest.partition(":")
        if not label or not src or flag not in ("", "pure"):
            raise SystemExit(f"--build {spec!r}: expected LABEL=SRC or LABEL=SRC:pure")
        builds.append((label, str(Path(src).resolve()), flag == "pure"))
    bench_dir = str(Path(__file__).resolve().parent)
    runs: dict[tuple[str, str], dict[str, list[tuple[float, ...]]]] = {}
    ran: dict[tuple[str, str], set[str]] = {}
    for run in range(args.runs):
        for game in games:
            for label, src, pure in builds:
                env = dict(os.environ)
                env["PYTHONPATH"] = os.pathsep.join([src, bench_dir])
                env.pop("ATOUT_PURE", None)
                if pure:
                    env["ATOUT_PURE"] = "1"
                # The review runs once a game (it is long and seeded), in the first run.
                todo = [n for n in names if n != "review" or run == 0]
                command = [sys.executable, __file__, "--worker", game, ",".join(todo), str(run + 1)]
                command += [
                    "--review-seats",
                    str(args.review_seats),
                    "--expert-decisions",
                    str(args.expert_decisions),
                ]
                if args.cpu:
                    command.append("--cpu")
                out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
                answer = json.loads(out.strip().splitlines()[-1])
                ran.setdefault((game, label), set()).add(answer["build"])
                figures = runs.setdefault((game, label), {})
                for name, result in answer["results"].items():
                    if result is not None:
                        figures.setdefault(name, []).append(tuple(result))
    base = builds[-1][0]
    clock_name = "CPU time" if args.cpu else "wall-clock"
    print(
        f"{PLAYERS} players, medians of {args.runs} interleaved runs ({clock_name}), per second; "
        f"ratios against {base}"
    )
    for game in games:
        reference = {n: rate(n, r) for n, r in runs[(game, base)].items()}
        for label, _, _ in builds:
            line = [f"{game:>10} {label:>9} ({'/'.join(sorted(ran[(game, label)]))})"]
            for name in names:
                results = runs[(game, label)].get(name)
                if not results:
                    line.append(f"{name} -")
                    continue
                medians = rate(name, results)
                text = describe(name, medians, args.review_seats)
                if name in reference and label != base:
                    # The review is seconds (lower is better): its ratio is the speed-up too.
                    ratio = (
                        reference[name][0] / medians[0]
                        if name == "review"
                        else medians[0] / reference[name][0]
                    )
                    text += f" {ratio:5.2f}x"
                line.append(text)
            print("  ".join(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per workload (median)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--skip", default="", help="comma-separated workloads to skip (play,view,...)")
    parser.add_argument("--review-seats", type=int, default=1, help="seats the review covers (4: whole)")
    parser.add_argument(
        "--expert-decisions",
        type=int,
        default=EXPERT_DECISIONS,
        help="decisions of the expert workload a run",
    )
    parser.add_argument("--workload", default="", help="run this workload once per game, print nothing else")
    parser.add_argument("--cpu", action="store_true", help="time the workloads in CPU time (OpenSpiel's too)")
    parser.add_argument("--build", action="append", help="LABEL=SRC[:pure]: compare builds (repeatable)")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu:
        global clock
        clock = time.process_time
    if args.worker:
        game_name, names, seed = args.worker
        worker(game_name, names.split(","), int(seed), args.review_seats, args.expert_decisions)
        return
    skip = set(args.skip.split(",")) - {""}
    work = workloads(args.review_seats, args.expert_decisions)
    if args.build:
        compare(args, [n for n in work if n not in skip], args.games.split(","))
        if "openspiel" not in skip:
            print("openspiel: not run with --build (run without --build for OpenSpiel's figures)")
        return
    games = [atout.load(name, players=PLAYERS) for name in args.games.split(",")]
    if not args.workload:
        print(f"engine build: {build_label()}", flush=True)  # compiled, or pure and why
    if args.workload:
        for game in games:
            work[args.workload](game, 1)
        return
    for game in games:
        figures: dict[str, list[tuple[float, ...]]] = {name: [] for name in work if name not in skip}
        for run in range(args.runs):
            for name in figures:
                if name == "review" and run > 0:
                    continue  # one review a game: it is long and seeded
                figures[name].append(work[name](game, run + 1))
        line = [f"{game.name:>10} 4p"]
        for name, results in figures.items():
            line.append(describe(name, rate(name, results), args.review_seats))
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
