"""Fit Wizard's playout model (src/atout/games/wizard/playout_table.json) to strong play.

Plays ``--matches`` 4-player Wizard matches of ``--bot`` (default: the ``hard``
level, which plays its own playouts with the rule-based heuristic) against
itself and counts, for every card-play decision with a choice, the situation
and the kind of card chosen (:mod:`atout.games.wizard.playout`).  The counts
are written as the JSON table the playout model reads (``playout_table.py`` loads
it; the matches and the bot are the defaults below); ``--out -`` prints it.

Run: ``.venv/bin/python bench/fit_playout.py [--matches 64] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import multiprocessing
import sys
from collections import Counter
from pathlib import Path

import atout
from atout.bots import make_bot
from atout.core.game import State
from atout.games.wizard.playout import kind, situation
from atout.games.wizard.view import WizardView
from atout.match import derive_seed, play_match

TABLE = Path(__file__).resolve().parent.parent / "src/atout/games/wizard/playout_table.json"


def count(job: tuple[str, int, int]) -> Counter[tuple[str, str]]:
    """(situation, kind) counts of one self-play match."""
    bot, seed, index = job
    game = atout.load("wizard", 4)
    tally: Counter[tuple[str, str]] = Counter()

    def note(state: State, actor: int, action: int) -> None:
        view = state.view(actor)
        assert isinstance(view, WizardView)
        if view.phase == "play" and len(view.legal_actions) > 1:
            tally[situation(view), kind(view, action)] += 1

    bots = [make_bot(bot, game, derive_seed(seed, "match", index, "seat", s)) for s in range(game.players)]
    play_match(game, bots, derive_seed(seed, "match", index), on_action=note)
    return tally


def render(counts: Counter[tuple[str, str]]) -> str:
    """The table's JSON text: per situation, how many times each kind of play was chosen."""
    table: dict[str, dict[str, int]] = {}
    for (where, what), n in sorted(counts.items()):
        table.setdefault(where, {})[what] = n
    return json.dumps(table, indent=1, sort_keys=True) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(TABLE), help="JSON table to write, or - for stdout")
    args = parser.parse_args()
    total: Counter[tuple[str, str]] = Counter()
    jobs = [(args.bot, args.seed, i) for i in range(args.matches)]
    context = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        for done, tally in enumerate(pool.map(count, jobs), 1):
            total.update(tally)
            print(f"\r{done}/{args.matches} matches", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    text = render(total)
    if args.out == "-":
        print(text, end="")
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}: {sum(total.values())} decisions in {len({w for w, _ in total})} situations")


if __name__ == "__main__":
    main()
