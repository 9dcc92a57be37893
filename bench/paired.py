"""Two candidates compared deal by deal: the paired difference of two ladder logs on the same deals.

Why: two tournaments of ``bench/ladder.py --compare A,FIELD`` and ``--compare
B,FIELD`` with the same ``--seed`` deal the same cards, so the luck of the deal
is shared. Differencing each deal's margin before taking the interval cancels
it: the interval of A − B is then much narrower than the two intervals side
by side suggest (on Wizard about a third as wide).

For each deal both logs finished in every rotation, each candidate's margin
per round (its score minus the mean of the other seats, over its seats in all
rotations) is differenced; the deals give the mean and its 95% interval
(1.96 standard errors, as the tournament's statistics).

Run: ``.venv/bin/python bench/paired.py LOG_A.jsonl LOG_B.jsonl``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from atout.tournament.matchlog import LogError, read_outcomes
from atout.tournament.runner import MatchOutcome
from atout.tournament.stats import estimate


def margins(path: Path) -> tuple[str, dict[int, float], dict[int, int | None]]:
    """(the candidate's name, its margin per round for each deal finished in every rotation,
    each such deal's seed: None in a log written before seeds were kept).

    The candidate is the bot in one seat only (the field fills the others).
    """
    try:
        outcomes = read_outcomes(path)
    except LogError as error:
        raise SystemExit(str(error)) from None
    by_deal: dict[int, list[MatchOutcome]] = {}
    for outcome in outcomes:
        by_deal.setdefault(outcome.deal, []).append(outcome)
    out: dict[int, float] = {}
    seeds: dict[int, int | None] = {}
    names: set[str] = set()
    for deal, rows in by_deal.items():
        if len(rows) != len(rows[0].seats) or any(row.error for row in rows):
            continue  # unfinished or aborted: not a duplicate comparison
        candidate = next(name for name in rows[0].seats if rows[0].seats.count(name) == 1)
        names.add(candidate)
        per_round = []
        for row in rows:
            scores = [float(s) for s in row.scores]
            seat = row.seats.index(candidate)
            others = (sum(scores) - scores[seat]) / (len(scores) - 1)
            per_round.append((scores[seat] - others) / max(row.rounds, 1))
        out[deal] = sum(per_round) / len(per_round)
        seeds[deal] = rows[0].seed
    if len(names) > 1:
        raise SystemExit(f"{path}: more than one candidate ({', '.join(sorted(names))})")
    return (names.pop() if names else "?"), out, seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    args = parser.parse_args()
    name_a, a, seeds_a = margins(args.a)
    name_b, b, seeds_b = margins(args.b)
    common = sorted(a.keys() & b.keys())
    if not common:
        sys.exit("no deal finished in both logs: were they run with the same --seed?")
    # Deal n of two tournaments is the same cards only with the same --seed: a difference over
    # different cards keeps all the luck it is meant to cancel.
    known = [d for d in common if seeds_a[d] is not None and seeds_b[d] is not None]
    unlike = [d for d in known if seeds_a[d] != seeds_b[d]]
    if unlike:
        sys.exit(
            f"deal {unlike[0]} was dealt differently in the two logs (seeds {seeds_a[unlike[0]]} and "
            f"{seeds_b[unlike[0]]}): compare logs run with the same --seed"
        )
    if len(known) < len(common):
        print("(a log without its deals' seeds: check that both were run with the same --seed)")
    for label, data in ((name_a, a), (name_b, b)):
        e = estimate([data[d] for d in common])
        print(f"{label}: {e.mean:+.2f} ± {e.ci95 or 0:.2f} a round over the {len(common)} common deals")
    diff = estimate([a[d] - b[d] for d in common])
    print(f"{name_a} − {name_b}, deal by deal: {diff.mean:+.2f} ± {diff.ci95 or 0:.2f} ({len(common)} deals)")


if __name__ == "__main__":
    main()
