"""The bot ladder's measured table (bench/RESULTS.md): each rung against copies of the rung below.

For each game, three tournaments on duplicate deals with seat rotation (the
tournament tool's own runner): ``normal`` (the heuristic) against three
``random``, ``hard`` against three ``normal``, ``expert`` against three
``hard``.  Prints one markdown row per comparison: the candidate's margin per
round (its score minus the mean of the other seats, with the 95% interval over
deals), its win share, contracts made (candidate / field, games with bids),
and the candidate's decision time (decisions with a choice, p50 / p99).

Run (this regenerates the table of bench/RESULTS.md):
``.venv/bin/python bench/ladder.py --games wizard --players 4 --deals 500 --search-deals 500 --jobs 2``.
Search rungs cost minutes per deal on a busy 2-core machine: ``--search-deals`` lowers their count,
``--minutes`` stops a rung early, and so does SIGINT or SIGTERM (the deals played are a prefix of
the schedule: the same results as ``atout tournament ... --deals <that many>`` with the same seed).
"""

from __future__ import annotations

import argparse
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import atout
from atout.core.registry import game_class, names
from atout.tournament import MatchOutcome, run_local, schedule, summarize
from atout.tournament.matchlog import append_outcomes, complete_deals, log_path, read_outcomes

RUNGS = (
    ("normal", "random"),
    ("hard", "normal"),
    ("expert", "hard"),
    ("master", "hard"),
    ("master", "expert"),
)


def fmt_ms(value: float | None) -> str:
    return "—" if value is None else f"{value * 1000:.0f}" if value >= 0.01 else f"{value * 1000:.2f}"


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM too: background jobs ignore SIGINT


@contextmanager
def alarm(deadline: float | None) -> Iterator[None]:
    """Interrupt the block (KeyboardInterrupt) at ``deadline`` (``time.perf_counter`` seconds), if any.

    Why: a search deal takes minutes; ``--minutes`` must stop a rung inside a deal, not after it.
    The deal in progress is dropped (the results stay a prefix of the schedule).
    """
    if deadline is None:
        yield
        return
    signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.perf_counter(), 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def main() -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(names()))
    parser.add_argument("--players", type=int, default=4, help="seats (clamped to each game's range)")
    parser.add_argument("--deals", type=int, default=500, help="deals for normal vs random")
    parser.add_argument("--search-deals", type=int, default=100, help="deals for the search rungs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rungs",
        default="0,1,2",
        help="which comparisons (0: normal/random, 1: hard/normal, 2: expert/hard, 3: master/hard, 4: master/expert)",
    )
    parser.add_argument("--minutes", type=float, default=0, help="stop a rung after this long (0: never)")
    parser.add_argument(
        "--compare",
        default="",
        help="one ad-hoc comparison instead of the rungs: CANDIDATE,FIELD (search deals)",
    )
    parser.add_argument(
        "--log",
        default="",
        help="directory of JSON-lines match logs: finished deals are kept there and a rerun resumes after them",
    )
    parser.add_argument("--verbose", action="store_true", help="print the running margin after each chunk")
    args = parser.parse_args()
    print(
        "| game | candidate vs field | deals × rotations | margin / round (95% CI) | wins | made (cand. / field) | cand. ms p50 / p99 |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        cls = game_class(name)
        game = atout.load(name, min(max(args.players, cls.min_players), cls.max_players))
        rungs = [(int(i), *RUNGS[int(i)]) for i in args.rungs.split(",")]
        if args.compare:
            candidate, field = args.compare.split(",")
            rungs = [(len(RUNGS), candidate, field)]
        for index, candidate, field in rungs:
            deals = args.deals if index == 0 else args.search_deals
            start = time.perf_counter()
            seed = args.seed + index
            log = None
            outcomes: list[MatchOutcome] = []
            if args.log:
                log = log_path(Path(args.log), f"{name}-{candidate}-vs-{field}-{game.players}p-seed{seed}")
                outcomes = complete_deals(read_outcomes(log), game.players, deals)
            chunk = max(1, args.jobs)
            deadline = start + 60 * args.minutes if args.minutes else None
            for first in range(len({o.deal for o in outcomes}), deals, chunk):
                if deadline is not None and time.perf_counter() > deadline:
                    deals = first  # out of time: the deals played so far (a prefix of the schedule)
                    break
                size = min(chunk, deals - first)
                specs = schedule(game, [candidate, field], size, seed, first_deal=first)
                try:
                    with alarm(deadline):
                        played = run_local(specs, args.jobs)
                except KeyboardInterrupt:  # time, Ctrl-C or kill -INT/-TERM: report the deals finished so far
                    deals = first
                    break
                outcomes += played
                if log is not None:
                    append_outcomes(log, played)
                if args.verbose:
                    m = {b.bot: b for b in summarize(outcomes)}[candidate].margin_per_round
                    print(f"<!-- {first + size} deals: {m.mean:+.2f} ± {m.ci95 or 0:.2f} -->", flush=True)
            by_bot = {b.bot: b for b in summarize(outcomes)}
            if candidate not in by_bot or field not in by_bot:
                # Stopped (time, SIGINT, SIGTERM) before a whole deal was played: say so, go on.
                print(
                    f"| {name} ({game.players}p) | {candidate} vs {field} | 0 × {game.players} | no deal finished | | | |"
                )
                continue
            c, f = by_bot[candidate], by_bot[field]
            m = c.margin_per_round
            made = "—" if c.contracts_made is None else f"{c.contracts_made:.0%} / {f.contracts_made:.0%}"
            print(
                f"| {name} ({game.players}p) | {candidate} vs {field} | {deals} × {game.players} | "
                f"{m.mean:+.2f} ± {m.ci95 or 0:.2f} | {c.win_share.mean:.1%} | {made} | "
                f"{fmt_ms(c.decision_times['p50'])} / {fmt_ms(c.decision_times['p99'])} |",
                flush=True,
            )
            aborted = sum(o.error is not None for o in outcomes)
            note = f", {aborted} aborted" if aborted else ""
            print(
                f"<!-- {name} {candidate}/{field}: {time.perf_counter() - start:.0f} s{note} -->", flush=True
            )


if __name__ == "__main__":
    main()
