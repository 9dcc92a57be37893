"""PettingZoo AEC decisions per CPU-second in every game, for several builds of atout in one run.

Issue 48's target is "PettingZoo AEC cycles/s >= 3x today's in every game": a figure
that compares builds, so one run measures each of them in turn, interleaved (a
build, then the next, then the first again), each in its own process (a build is a
source tree and an ``ATOUT_PURE`` setting: two builds cannot share one interpreter),
and reports the median of the runs. The clock is the worker's CPU time
(``time.process_time``): on a machine shared by other jobs, wall time counts their
turns too, while the ratios between builds measured the same way hold.

A worker plays random legal moves on whole matches through ``pettingzoo_env``
(``last()`` with its observation and mask, then ``step``), as ``bench/adapters.py``
does; a decision is an agent step with an action (the terminal ``step(None)`` calls
are not counted), the unit of that script's table in docs/research.md.

Run (from a checkout, the venv that has the ``pettingzoo`` extra)::

    .venv/bin/python bench/aec.py --seconds 2 --runs 3 \\
        --build compiled=src --build pure=src:pure --build old=/tmp/old/src:pure

``--build LABEL=SRC[:pure]`` (repeatable; default: this checkout's ``src``, compiled
and pure) puts SRC first on the worker's ``sys.path``; ``:pure`` sets ``ATOUT_PURE=1``.
An older tree for the comparison: ``git archive COMMIT src | tar -x -C /tmp/old``.
Each worker prints which build it ran (``atout.compiled()``), so a stale or missing
compiled build, which silently runs the pure modules, shows in the table.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from workers import run_json  # bench/workers.py

GAMES = ("wizard", "malin", "sticheln", "nain-jaune")


def worker(game: str, players: int, seconds: float, seed: int) -> None:
    """Play random AEC matches for ``seconds`` of CPU time; print one JSON line."""
    from adapters import aec_match  # bench/adapters.py: the loop its table measures

    import atout
    from atout.envs import pettingzoo_env

    env = pettingzoo_env(game, players)
    rng = random.Random(seed)

    def match() -> int:
        return aec_match(env, rng)

    match()  # warm-up: first-call costs (imports inside the env, caches) are not the rate
    decisions = matches = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += match()
        matches += 1
    cpu = time.process_time() - start
    compiled = getattr(atout, "compiled", None)
    build = ("compiled" if compiled() else "pure") if compiled is not None else "pre-48"
    print(json.dumps({"decisions": decisions, "matches": matches, "cpu": cpu, "build": build}))


def run_worker(src: str, pure: bool, game: str, players: int, seconds: float, seed: int) -> dict[str, object]:
    return run_json(__file__, src, pure, [game, str(players), str(seconds), str(seed)])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--build", action="append", help="LABEL=SRC[:pure] (repeatable)")
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of one run")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per game and build")
    args = parser.parse_args()
    if args.worker:
        game, players, seconds, seed = args.worker
        worker(game, int(players), float(seconds), int(seed))
        return
    here = str(Path(__file__).resolve().parent.parent / "src")
    specs = args.build or [f"compiled={here}", f"pure={here}:pure"]
    builds: list[tuple[str, str, bool]] = []
    for spec in specs:
        label, _, rest = spec.partition("=")
        src, _, flag = rest.partition(":")
        if not label or not src or flag not in ("", "pure"):
            parser.error(f"--build {spec!r}: expected LABEL=SRC or LABEL=SRC:pure")
        builds.append((label, str(Path(src).resolve()), flag == "pure"))
    rates: dict[tuple[str, str], list[float]] = {}
    ran: dict[tuple[str, str], set[str]] = {}
    for run in range(args.runs):
        for game in args.games:
            for label, src, pure in builds:
                r = run_worker(src, pure, game, args.players, args.seconds, seed=1000 * run + 7)
                decisions, cpu = r["decisions"], r["cpu"]
                assert isinstance(decisions, int) and isinstance(cpu, float)
                rates.setdefault((game, label), []).append(decisions / cpu)
                ran.setdefault((game, label), set()).add(str(r["build"]))
    base = builds[-1][0]
    print(
        f"PettingZoo AEC, {args.players} players, random play: decisions per CPU-second, "
        f"median of {args.runs} interleaved runs of {args.seconds:g} s (ratio: against {base})"
    )
    print(f"{'game':12} {'build':10} {'ran as':9} {'decisions/s':>12} {'ratio':>7}")
    for game in args.games:
        ref = statistics.median(rates[(game, base)])
        for label, _, _ in builds:
            rate = statistics.median(rates[(game, label)])
            runs = "/".join(sorted(ran[(game, label)]))
            print(f"{game:12} {label:10} {runs:9} {rate:12,.0f} {rate / ref:6.2f}x")


if __name__ == "__main__":
    main()
