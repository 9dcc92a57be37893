"""Steps per second of the JAX Wizard batch beside the numpy batch, same run, interleaved (issue 49).

Runners, each stepping ``N`` 4-player Wizard matches (fresh seeds every run)
``--steps`` times with uniformly random legal actions, from the matches'
start (a match lasts at least 540 decisions, so with ``--steps`` ≤ 540 none
ends: no reset is timed anywhere):

* numpy: :class:`atout.batch.WizardBatch` (legality checks on, as shipped),
  ``batch.step(batch.random_actions(rng))``;
* jax loop: :class:`atout.batch.jax.JaxWizard` driven from Python, two jitted
  calls a step (``random_actions``, then ``step``) — how an agent outside JAX
  drives it;
* jax loop, donated: the same with ``JaxWizard(donate=True)`` (a step reuses its
  input's buffers instead of writing a fresh state);
* jax rollout: ``JaxWizard.rollout``, the whole loop in one jitted
  ``fori_loop`` — how an agent written in JAX would keep it.

The deals are timed nowhere (both sides deal on the host with the same code).
Compilation is timed apart: the first call of each jitted function at each
batch size (a ``rollout`` compiles once per ``--steps``).  The machine is
shared (2 cores, other jobs): each figure is the median of ``--runs``
interleaved runs (wall time, and CPU time of all the process's threads, which
is steadier under load), and the load average is printed beside it.

Run: ``PYTHONPATH=src .venv/bin/python bench/jax_batch.py [--sizes 1024 8192] [--steps 200] [--runs 5]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import jax
import jax.numpy as jnp
import numpy as np

from atout.batch import WizardBatch
from atout.batch.jax import JaxWizard

T = TypeVar("T")
#: ``jax.block_until_ready`` (untyped in jax): waits until an array or pytree is computed, returns it.
_block: Callable[[Any], Any] = jax.block_until_ready


def ready(value: T) -> T:
    """``value`` once computed (JAX dispatches asynchronously: a timer must wait for the result)."""
    return cast(T, _block(value))


#: A runner steps fresh matches and returns the (wall, CPU) seconds its timed steps took.
Runner = Callable[[int], tuple[float, float]]


class Timer:
    """Wall and CPU time (``process_time``: every thread of the process) since it was made.

    Why both: the machine is shared, so wall time counts the waits for a core
    too; CPU time counts the work done, which is steadier under load (XLA
    spreads its ops over both cores, numpy runs on one: the sum is the work).
    """

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.process_time()

    def read(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def numpy_runner(players: int, size: int, steps: int) -> Runner:
    rng = np.random.default_rng(0)

    def run(base: int) -> tuple[float, float]:
        batch = WizardBatch(players, range(base, base + size))
        timer = Timer()
        for _ in range(steps):
            batch.step(batch.random_actions(rng))
        return timer.read()

    return run


def jax_loop_runner(env: JaxWizard, size: int, steps: int) -> Runner:
    def run(base: int) -> tuple[float, float]:
        state = ready(env.new_matches(range(base, base + size)))
        key = jax.random.key(base)
        timer = Timer()
        for i in range(steps):
            state = env.step(state, env.random_actions(state, jax.random.fold_in(key, i)))
        ready(state)
        return timer.read()

    return run


def jax_rollout_runner(env: JaxWizard, size: int, steps: int) -> Runner:
    def run(base: int) -> tuple[float, float]:
        state = ready(env.new_matches(range(base, base + size)))
        timer = Timer()
        ready(env.rollout(state, jax.random.key(base), steps=steps))
        return timer.read()

    return run


def compile_seconds(env: JaxWizard, size: int, steps: int) -> dict[str, float]:
    """Seconds of the first call of each jitted function at ``size`` matches (tracing and XLA compilation)."""
    out: dict[str, float] = {}
    seeds = range(size)
    dealt = env.deal(seeds)
    args = (jnp.asarray(dealt.first_dealer), jnp.asarray(dealt.hands), jnp.asarray(dealt.turned))
    start = time.perf_counter()
    state = ready(env.init(*args))
    out["init"] = time.perf_counter() - start
    key = jax.random.key(0)
    start = time.perf_counter()
    actions = ready(env.random_actions(state, key))
    out["random_actions"] = time.perf_counter() - start
    start = time.perf_counter()
    ready(env.step(state, actions))
    out["step"] = time.perf_counter() - start
    start = time.perf_counter()
    ready(env.rollout(state, key, steps=steps))
    out[f"rollout({steps} steps, run included)"] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 8192])
    parser.add_argument("--steps", type=int, default=200, help="steps a run (≤ 540: no match ends)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"jax {jax.__version__} on {jax.devices()}; {os.cpu_count()} CPUs (shared)")
    env = JaxWizard(args.players)
    donating = JaxWizard(args.players, donate=True)
    for size in args.sizes:
        print(f"\n{size} matches, {args.players} players, {args.steps} steps a run, median of {args.runs}:")
        ready(donating.step(donating.new_matches(range(size)), jnp.zeros(size, jnp.int32)))  # compiled
        for name, seconds in compile_seconds(env, size, args.steps).items():
            print(f"  compile {name}: {seconds:.2f} s")
        runners = {
            "numpy batch": numpy_runner(args.players, size, args.steps),
            "jax loop": jax_loop_runner(env, size, args.steps),
            "jax donated": jax_loop_runner(donating, size, args.steps),
            "jax rollout": jax_rollout_runner(env, size, args.steps),
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in runners}
        loads = []
        for run in range(args.runs):
            for name, runner in runners.items():
                times[name].append(runner(1_000_000 * (run + 1)))
            loads.append(os.getloadavg()[0])
        base = [statistics.median(t[k] for t in times["numpy batch"]) for k in (0, 1)]
        for name, spent in times.items():
            wall, cpu = (statistics.median(t[k] for t in spent) for k in (0, 1))
            print(
                f"  {name:12s} {size * args.steps / wall:12,.0f} steps/s "
                f"({wall / args.steps * 1e3:.2f} ms a step, {base[0] / wall:.2f}x numpy; "
                f"CPU {cpu / args.steps * 1e3:.2f} ms a step, {base[1] / cpu:.2f}x numpy)"
            )
        print(f"  load average during the runs: {min(loads):.1f}..{max(loads):.1f}")


if __name__ == "__main__":
    main()
