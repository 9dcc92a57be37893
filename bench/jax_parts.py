"""Where the JAX Wizard batch's step spends its time on this CPU: its parts timed apart, and XLA's ops counted (issue 49).

``bench/jax_batch.py`` finds ``JaxWizard`` at 0.65–0.68× the numpy batch in
steps/s at 8,192 matches.  This script says why, part by part, each jitted
alone on the same state (the matches advanced ``--warm`` random steps from
their start, so every phase is present):

* ``move``: ``vmap(_move)`` — the decision applied (a bid, a trump, a card;
  under ``vmap`` every branch computed for every match, then selected);
* ``legal``: ``vmap(_legal)`` — the 74-entry legal mask of every match;
* ``next round``: ``vmap(_next_round)`` — a new round's deal opened (the
  step runs it under ``lax.cond`` only when some match opens a round);
* ``random``: ``_random_actions`` — a uniformly random legal action;
* ``step``: the whole step (``move``, the ``cond``, ``legal``);
* numpy's ``WizardBatch.step`` and ``random_actions`` beside them.

Each is timed by CPU time (every thread of the process: steadier than wall
time on the shared machine) over ``--repeats`` calls, median of ``--runs``.
Then the compiled step's HLO is read: how many instructions of each kind
(fusions, selects, gathers, scatters, while loops, conditionals) and XLA's
own cost analysis (bytes accessed, flops), per match.

Run: ``PYTHONPATH=src .venv/bin/python bench/jax_parts.py [--size 8192] [--runs 3]``
"""

from __future__ import annotations

import argparse
import collections
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from atout.batch import WizardBatch
from atout.batch.jax import JaxWizard

#: ``jax.block_until_ready`` (untyped in jax).
_block: Callable[[Any], Any] = jax.block_until_ready


def cpu_ms(call: Callable[[], Any], repeats: int) -> float:
    """CPU milliseconds a call (the result waited for), over ``repeats`` calls after one warm-up."""
    _block(call())
    start = time.process_time()
    for _ in range(repeats):
        _block(call())
    return (time.process_time() - start) / repeats * 1000


def hlo_counts(text: str) -> collections.Counter[str]:
    """Instructions of the compiled module by opcode (``%x = type opcode(...)``), fusions' insides included."""
    found: collections.Counter[str] = collections.Counter()
    # The result's type is one shape, or a tuple of shapes in parentheses (a conditional's, a while's).
    for match in re.finditer(r"=\s+(?:\(.*?\)|\S+)\s+([a-z][a-z0-9-]*)\(", text):
        found[match.group(1)] += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=8192)
    parser.add_argument(
        "--warm", type=int, default=60, help="random steps before timing (every phase present)"
    )
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n, seeds = args.size, range(1000, 1000 + args.size)
    env = JaxWizard(4)
    key = jax.random.key(0)
    state = env.rollout(env.new_matches(seeds), key, steps=args.warm)
    actions = env.random_actions(state, key)
    batch = WizardBatch(4, seeds)
    rng = np.random.default_rng(0)
    for _ in range(args.warm):
        batch.step(batch.random_actions(rng))

    move = jax.jit(jax.vmap(env._move))
    legal = jax.jit(jax.vmap(env._legal))
    opened = jax.jit(jax.vmap(env._next_round))
    going = jnp.ones(n, bool)

    def numpy_step() -> Any:
        # The numpy batch moves on (a match lasts 540 decisions or more: none ends while timed).
        return batch.step(batch.random_actions(rng))

    parts: dict[str, Callable[[], Any]] = {
        "jax move (vmap _move)": lambda: move(state, actions),
        "jax legal mask (vmap _legal)": lambda: legal(state),
        "jax next round (vmap _next_round, all matches)": lambda: opened(state, going),
        "jax random_actions": lambda: env.random_actions(state, key),
        "jax step (move + cond + legal)": lambda: env.step(state, actions),
        "numpy legal_mask": batch.legal_mask,
        "numpy random_actions": lambda: batch.random_actions(rng),
        "numpy step (random_actions + step)": numpy_step,
    }
    times: dict[str, list[float]] = {name: [] for name in parts}
    for _ in range(args.runs):
        for name, call in parts.items():
            times[name].append(cpu_ms(call, args.repeats))
    print(
        f"JAX Wizard, 4 players, {n} matches after {args.warm} random steps; CPU ms a call, median of {args.runs}"
    )
    for name, values in times.items():
        ms = statistics.median(values)
        print(f"  {name:<48} {ms:8.2f} ms  {ms * 1e6 / n:8.0f} ns a match")
    compiled = jax.jit(env._step_batch).lower(state, actions).compile()
    counts = hlo_counts(compiled.as_text() or "")
    kinds = ["fusion", "select", "gather", "scatter", "dynamic-slice", "while", "conditional", "copy", "sort"]
    print("compiled step, instructions by opcode: " + ", ".join(f"{k} {counts.get(k, 0)}" for k in kinds))
    cost = compiled.cost_analysis()
    analysis = cost[0] if isinstance(cost, list) else cost
    if analysis:
        read = float(analysis.get("bytes accessed", 0.0))
        flops = float(analysis.get("flops", 0.0))
        print(
            f"XLA cost analysis of a step: {read / 1e6:.1f} MB accessed ({read / n:.0f} B a match), "
            f"{flops / 1e6:.1f} M flops ({flops / n:.0f} a match)"
        )


if __name__ == "__main__":
    main()
