"""Issue 48's two engine targets in one run: Wizard's loop beside OpenSpiel's C++ loop, and today against before.

Issue 48 asks for "Wizard 4p engine decisions/s >= 1.0x OpenSpiel's C++ loop" and ">= 4x
today's in every game" (today: the tree before issue 48, pure Python, driven by a Python
loop).  This prints both, each figure the median of ``--runs`` interleaved runs, each run
its own process (a build is a source tree: two cannot share one interpreter), timed in
that process's CPU time after a warm-up match (on a shared machine the wall clock counts
the other jobs' turns too).

What a row counts, so that unlike things are not compared unawares:

* a **decision** is a seat's action (a bid, a trump choice, a card played), in every row;
  chance outcomes (cards dealt, turned up, the first dealer drawn) are counted nowhere,
  but their cost is in every row's time;
* OpenSpiel's ``oh_hell`` (4 players, 12 tricks: ``bench/batch.py``'s runner) plays **one
  round** of 12 tricks a game: 52 decisions (4 bids, 48 cards) and 51 chance nodes (the
  trick count, the dealer, 48 cards dealt one at a time, the trump card), each drawn by
  ``evaluate_bots`` from the state's ``ChanceOutcomes()`` list, with C++ uniform random
  bots; the loop is C++ (Python starts each game);
* Wizard's rows play with :func:`atout.core.playout.random_playout` (compiled):
  ``match, seeded`` a whole 15-round match (540 decisions and about 495 chance outcomes),
  a seeded state dealing a round from its one shuffle (``game.new_state(seed)``);
  ``match, card by card`` the same from a state without a seed: every card a chance node
  drawn by the loop from ``chance_outcomes()`` (OpenSpiel's way); ``12-trick round``
  (``start_round=12, rounds=1``) the round oh_hell plays, 52 decisions, seeded or card
  by card.  The like-for-like row is the 12-trick round card by card;
* ``Python loop``: ``state.apply(rng.choice(state.legal_actions()))`` at every step of
  seeded whole matches (``bench/engine_speed.py``'s ``play``): the only loop the old tree
  has, so the "4x today's" ratio is this tree's compiled loop over the old tree's
  Python loop, both on seeded whole matches of 4 players.

Run (the old tree: ``git archive bb08163^ src | tar -x -C /tmp/old``)::

    .venv/bin/python bench/loop_speed.py --old /tmp/old/src [--seconds 2] [--runs 3] [--games wizard,malin]

Each row says which build ran it (``atout.compiled()``): a stale compiled build, which
silently runs the pure modules, shows in the table.

``--base SRC`` adds Wizard's compiled-loop rows of another tree (a branch's base, its
compiled build), run in the same runs, so that a change is measured against its base in one
window (on a shared machine two windows differ by more than many a change: the same build
measured 0.95x and 1.02x of oh_hell's loop ten minutes apart)::

    .venv/bin/python bench/loop_speed.py --games wizard --base /work/main/src --runs 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from workers import run_json  # bench/workers.py

GAMES = ("wizard", "malin", "sticheln", "nain-jaune")
PLAYERS = 4
HERE = Path(__file__).resolve().parent.parent / "src"


def _workload(kind: str, game_name: str, seed: int) -> Callable[[], int]:
    """One match (or round) of the row ``kind``, as a function returning its decisions."""
    import atout

    options = {"start_round": 12, "rounds": 1} if kind.startswith("round12") else {}
    game = atout.load(game_name, players=PLAYERS, **options)
    rng = random.Random(seed)
    seeds = iter(range(seed * 100_000, seed * 100_000 + 10**9))
    if kind == "python":

        def python_loop() -> int:
            state = game.new_state(seed=next(seeds))
            decisions = 0
            while not state.is_terminal:
                if state.current_player >= 0:
                    decisions += 1
                state.apply(rng.choice(state.legal_actions()))
            return decisions

        return python_loop
    from atout.core.playout import random_playout

    seeded = not kind.endswith("unseeded")

    def compiled_loop() -> int:
        return random_playout(game.new_state(seed=next(seeds) if seeded else None), rng)

    return compiled_loop


def worker(kind: str, game_name: str, seconds: float, seed: int) -> None:
    """Play the row's matches for ``seconds`` of CPU time; print one JSON line."""
    if kind == "openspiel":
        from batch import openspiel_runners  # bench/batch.py: oh_hell 4p, 12 tricks

        runners = openspiel_runners(PLAYERS, random.Random(seed))
        if runners is None:
            print(json.dumps({"decisions": 0, "cpu": 0.0, "build": "no pyspiel"}))
            return
        cpp = runners[0]
        cpp(0.05)  # warm-up
        start = time.process_time()
        decisions = cpp(seconds)[0]  # (its own clock is the wall clock: timed here in CPU time)
        print(json.dumps({"decisions": decisions, "cpu": time.process_time() - start, "build": "C++"}))
        return
    import atout

    match = _workload(kind, game_name, seed)
    match()  # warm-up: first-call costs (imports, caches) are not the rate
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += match()
    cpu = time.process_time() - start
    compiled = getattr(atout, "compiled", None)
    build = ("compiled" if compiled() else "pure") if compiled is not None else "pre-48"
    print(json.dumps({"decisions": decisions, "cpu": cpu, "build": build}))


def run_worker(src: Path, kind: str, game: str, seconds: float, seed: int) -> dict[str, object]:
    """The row's figures from a worker process running the tree ``src`` (its default build)."""
    return run_json(__file__, str(src), False, [kind, game, str(seconds), str(seed)])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--old", default="", help="src/ of the tree before issue 48 (empty: no such rows)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument(
        "--base", default="", help="src/ of a tree whose Wizard loop rows run beside (empty: none)"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of one run")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per row (median)")
    args = parser.parse_args()
    if args.worker:
        kind, game, seconds, seed = args.worker
        worker(kind, game, float(seconds), int(seed))
        return
    games = args.games.split(",")
    # (game, label, tree, kind): the rows, run in this order in each run.
    rows: list[tuple[str, str, Path, str]] = []
    for game in games:
        if args.old:
            rows.append((game, "old tree, Python loop", Path(args.old).resolve(), "python"))
        rows.append((game, "Python loop", HERE, "python"))
        rows.append((game, "match, seeded", HERE, "loop"))
        if game == "wizard":
            rows.append((game, "match, card by card", HERE, "unseeded"))
            rows.append((game, "12-trick round, seeded", HERE, "round12"))
            rows.append((game, "12-trick round, card by card", HERE, "round12-unseeded"))
            if args.base:
                base = Path(args.base).resolve()
                rows.append((game, "base tree: match, seeded", base, "loop"))
                rows.append((game, "base tree: match, card by card", base, "unseeded"))
                rows.append((game, "base tree: 12-trick round, seeded", base, "round12"))
                rows.append((game, "base tree: 12-trick round, card by card", base, "round12-unseeded"))
    rows.append(("oh_hell", "OpenSpiel C++ loop, 12-trick round", HERE, "openspiel"))
    rates: dict[int, list[float]] = {i: [] for i in range(len(rows))}
    builds: dict[int, set[str]] = {i: set() for i in range(len(rows))}
    for run in range(args.runs):
        for i, (game, _, tree, kind) in enumerate(rows):
            r = run_worker(tree, kind, game, args.seconds, seed=run + 1)
            decisions, cpu = r["decisions"], r["cpu"]
            assert isinstance(decisions, int) and isinstance(cpu, float)
            rates[i].append(decisions / cpu if cpu else 0.0)
            builds[i].add(str(r["build"]))
    rate = {i: statistics.median(values) for i, values in rates.items()}
    cpp = rate[len(rows) - 1]
    print(
        f"decisions per CPU-second, {PLAYERS} players, random play, median of {args.runs} "
        f"interleaved runs of {args.seconds:g} s (x C++: over OpenSpiel's C++ loop; x old: over the old tree's Python loop)"
    )
    print(f"{'game':11} {'row':40} {'ran as':9} {'decisions/s':>12} {'x C++':>6} {'x old':>6}")
    old = {game: rate[i] for i, (game, label, _, _) in enumerate(rows) if label.startswith("old")}
    for i, (game, label, _, _) in enumerate(rows):
        versus_cpp = f"{rate[i] / cpp:5.2f}x" if cpp else "     -"
        versus_old = f"{rate[i] / old[game]:5.2f}x" if old.get(game) else "     -"
        ran = "/".join(sorted(builds[i]))
        print(f"{game:11} {label:40} {ran:9} {rate[i]:12,.0f} {versus_cpp:>6} {versus_old:>6}")


if __name__ == "__main__":
    main()
