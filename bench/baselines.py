"""The baselines table of docs/research.md: each row's margin per round against three ``normal``.

Protocol (docs/research.md, "Baselines"): for every game at 4 players, and
Wizard at 3, 5 and 6, each row's bot is the candidate in an ``atout
tournament`` against three copies of ``normal`` (the game's heuristic):
duplicate deals with seat rotation, deal *i* seeded ``derive_seed(seed,
"deal", i)`` (63-bit), the same deals for every row of a table; the figure is
the candidate's score minus the mean of the other seats, per round, averaged
over the rotations of a deal, with a 95% interval over deals.  Rows:

* ``random``, ``normal`` (0 by construction: four copies of one bot; not played),
  ``hard``, ``expert``, ``master`` (search levels: ``--search-deals``);
* ``policy``: the shipped learned model, only where
  ``src/atout/bots/models/<game>-<n>p.npz`` exists;
* ``ppo_batch`` and ``sb3_maskable``: the example scripts, trained here for
  ``--train-minutes`` from ``--train-seed`` (their training deals are seeded
  from ``2**40`` on, never a tournament's), then played as ``net:PATH`` and as
  ``py:examples/sb3_maskable.py:Learned``.

Run (the full table; search rows cost minutes per deal):
``nice .venv/bin/python bench/baselines.py --deals 500 --search-deals 100 --train-minutes 30 --jobs 2``.
A quick check: ``bench/baselines.py --games wizard --rows random,normal --deals 2``.
``--minutes`` stops a row after that long; the deals played are then a prefix of
the schedule (the same results as ``atout tournament ... --deals <that many>``).
Prints markdown rows.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import atout
from atout.bots.learned import shipped_path
from atout.core.registry import names
from atout.tournament import MatchOutcome, run_local, schedule, summarize

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ROWS = ("random", "normal", "hard", "expert", "policy", "master", "ppo_batch", "sb3_maskable")
#: Rows whose bots search (minutes per deal): they play ``--search-deals``.
SEARCH_ROWS = {"hard", "expert", "master"}
FIELD = "normal"
#: A row on fewer deals is *thin* and says so in its cell: an interval over so few deals
#: understates the doubt (docs/research.md, "Thin rows"); read it as a direction, not a figure.
THIN_DEALS = 10
#: Under this many deals a row gives no interval at all (one or two deals are no sample).
MIN_INTERVAL_DEALS = 3


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def alarm(deadline: float | None) -> Iterator[None]:
    """Interrupt the block at ``deadline`` (``time.perf_counter`` seconds): a search deal takes minutes."""
    if deadline is None:
        yield
        return
    signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_REAL, max(deadline - time.perf_counter(), 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def train_example(script: str, game: atout.Game, args: argparse.Namespace, work: Path) -> str | None:
    """Train an example for ``--train-minutes`` in a child process; the candidate's bot name, or None."""
    if script == "sb3_maskable" and importlib.util.find_spec("sb3_contrib") is None:
        print(f"<!-- {game.name} {game.players}p sb3_maskable: sb3-contrib not installed -->")
        return None
    stem = work / f"{script}-{game.name}-{game.players}p-seed{args.train_seed}"
    command = [
        sys.executable,
        str(EXAMPLES / f"{script}.py"),
        *("--game", game.name, "--players", str(game.players)),
        *("--minutes", str(args.train_minutes), "--seed", str(args.train_seed)),
    ]
    if script == "ppo_batch":
        out = stem.with_suffix(".npz")
        command += ["--out", str(out), "--eval-every", "0"]
        name = f"net:{out}"
    else:
        out = stem
        command += ["--out", str(out), "--route", "vector"]
        os.environ["ATOUT_SB3_MODEL"] = str(out)  # read by the Learned bot, in every worker
        name = f"py:{EXAMPLES / 'sb3_maskable.py'}:Learned"
    work.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    print(f"<!-- {script} trained {time.perf_counter() - start:.0f} s: {out} -->", flush=True)
    return name


def play(
    game: atout.Game, candidate: str, deals: int, args: argparse.Namespace
) -> tuple[list[MatchOutcome], int]:
    """The candidate against three ``normal`` on the schedule's first deals (a prefix if time runs out)."""
    outcomes: list[MatchOutcome] = []
    start = time.perf_counter()
    deadline = start + 60 * args.minutes if args.minutes else None
    chunk = max(1, args.jobs)
    for first in range(0, deals, chunk):
        if deadline is not None and time.perf_counter() > deadline:
            return outcomes, first
        specs = schedule(game, [candidate, FIELD], min(chunk, deals - first), args.seed, first_deal=first)
        try:
            with alarm(deadline):
                outcomes += run_local(specs, args.jobs)
        except KeyboardInterrupt:
            return outcomes, first
    return outcomes, deals


def row(game: atout.Game, label: str, args: argparse.Namespace, work: Path) -> str | None:
    """One markdown row (None: the row does not apply here)."""
    where = f"| {game.name} | {game.players} | {label} |"
    if label == FIELD:
        return f"{where} — | 0 (by construction) | {1 / game.players:.1%} (by construction) |"
    if label == "policy" and not shipped_path(game).is_file():
        print(f"<!-- {game.name} {game.players}p: no shipped model, no policy row -->")
        return None
    candidate: str | None = label
    if label in ("ppo_batch", "sb3_maskable"):
        candidate = train_example(label, game, args, work)
        if candidate is None:
            return None
    assert candidate is not None
    deals = args.search_deals if label in SEARCH_ROWS else args.deals
    start = time.perf_counter()
    outcomes, played = play(game, candidate, deals, args)
    by_bot = {b.bot: b for b in summarize(outcomes)}
    if candidate not in by_bot:
        return f"{where} 0 × {game.players} | no deal finished | |"
    c = by_bot[candidate]
    m = c.margin_per_round
    aborted = sum(o.error is not None for o in outcomes)
    print(f"<!-- {label}: {time.perf_counter() - start:.0f} s, {aborted} aborted -->", flush=True)
    deals_cell, margin = figures(played, game.players, m.mean, m.ci95)
    return f"{where} {deals_cell} | {margin} | {c.win_share.mean:.1%} |"


def figures(played: int, players: int, mean: float, ci95: float | None) -> tuple[str, str]:
    """A row's deals cell and margin cell, a thin row marked as such in the deals cell.

    Why in the script: the table is pasted from its output, so a row on a handful of deals
    must carry its warning itself (docs/research.md marked them by hand until issue 49).
    """
    cell = f"{played} × {players}"
    if played < MIN_INTERVAL_DEALS or ci95 is None:
        return f"{cell}, **thin** (too few for an interval)", f"{mean:+.2f}"
    if played < THIN_DEALS:
        cell += ", **thin**"
    return cell, f"{mean:+.2f} ± {ci95:.2f}"


def main(argv: list[str] | None = None) -> None:
    signal.signal(signal.SIGTERM, _interrupt)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(names()))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--wizard-players", default="3,5,6", help="Wizard's other tables ('' for none)")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--deals", type=int, default=500, help="deals of the rows that do not search")
    parser.add_argument("--search-deals", type=int, default=100, help="deals of hard, expert, master")
    parser.add_argument("--minutes", type=float, default=0, help="stop a row's tournament after this long")
    parser.add_argument("--train-minutes", type=float, default=30, help="training of each example row")
    parser.add_argument("--train-seed", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2027, help="the tournaments' master seed (the deals)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work", default="artifacts/baselines", help="where the example rows' models go")
    args = parser.parse_args(argv)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = set(rows) - set(ROWS)
    if unknown:
        parser.error(f"unknown rows {sorted(unknown)} (rows: {', '.join(ROWS)})")
    tables = [(name, args.players) for name in args.games.split(",")]
    if "wizard" in args.games.split(","):
        tables += [("wizard", int(p)) for p in args.wizard_players.split(",") if p.strip()]
    print(f"<!-- seed {args.seed}; deals {args.deals}, search deals {args.search_deals} -->")
    print("| game | players | row | deals × rotations | margin / round vs 3 normal (95% CI) | wins |")
    print("|---|---:|---|---|---:|---:|")
    for name, players in tables:
        game = atout.load(name, players)
        for label in rows:
            line = row(game, label, args, Path(args.work))
            if line is not None:
                print(line, flush=True)


if __name__ == "__main__":
    main()
