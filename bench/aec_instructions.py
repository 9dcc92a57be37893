"""The AEC loop of ``bench/aec.py`` for a fixed number of seeded matches: to run under callgrind.

Why: on the shared 2-core machine CPU-time rates move by 10-20 % between windows, while the
instructions of a deterministic run do not; the instructions a decision are the difference
between two runs (``MATCHES`` and 0: the imports and the warm-up match cancel out), divided by
the decisions this prints. ``callgrind_annotate --inclusive=yes`` on both files, subtracted
per function, says where they go (bench/RESULTS.md, issue 48, round 4)::

    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/tmp/cg-10.out \\
        .venv/bin/python bench/aec_instructions.py nain-jaune 10
    PYTHONPATH=src valgrind --tool=callgrind --callgrind-out-file=/tmp/cg-0.out \\
        .venv/bin/python bench/aec_instructions.py nain-jaune 0

Prints the game, the build that ran and the decisions of the ``MATCHES`` matches (stderr).
"""

from __future__ import annotations

import random
import sys

from adapters import aec_match  # bench/adapters.py: the loop bench/aec.py times

import atout
from atout.envs import pettingzoo_env


def main() -> None:
    game, matches = sys.argv[1], int(sys.argv[2])
    env = pettingzoo_env(game, 4)
    rng = random.Random(7)
    aec_match(env, rng)  # warm-up: the first call's costs are paid by both runs
    decisions = sum(aec_match(env, rng) for _ in range(matches))
    print(game, "compiled" if atout.compiled() else "pure", decisions, file=sys.stderr)


if __name__ == "__main__":
    main()
