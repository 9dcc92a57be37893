"""Agent steps per second of the batch vector env, bare and under Gymnasium's vector wrappers.

For issue 27's figures: ``gymnasium.make_vec("atout/<Game>-v0", num_envs)``
with random opponents, the agent playing a random legal action (from
``action_masks()``), the information-state tensor observed at every step;
each configuration runs for ``--seconds`` after a short warm-up, ``--runs``
times interleaved, and the median is printed.  An agent step moves every
env: steps/s counts env steps (``num_envs`` per call).

The wrappers measured are gymnasium's and, beside them, atout's whole-batch subclasses of
``FlattenObservation`` and ``NormalizeObservation`` (:mod:`atout.envs.vector_wrappers`, issue 49):
the pair directly over the env reads its sparse rows (the default), and "env's dense array" runs
the same pair on the env's dense flattened array (``sparse_observations`` off), for an A/B.

With ``--opponents policy`` the other seats are the shipped network (issue 49): every env's
decisions in one product a step, numpy's BLAS at ``--blas-threads`` (the env's default, 1; 0
leaves OpenBLAS's own, one thread per core) and ``--wraps bare`` measures the env alone.

Run: ``.venv/bin/python bench/vector_env.py [--game wizard] [--envs 64 1024] [--seconds 2] [--runs 3]
[--opponents policy] [--blas-threads 1] [--wraps bare] [--dense-ab] [--subset-ab] [--forced-ab]``.  Each figure is given by
wall time and by CPU time (the steadier on a shared machine); ``--dense-ab`` runs learned opponents
with the sparse first layer (the default) and the dense one, interleaved in the same run;
``--subset-ab`` with their tensors and prior written for the rows they answer (the default,
``AtoutVectorEnv.subset_rows``) and for the whole batch; ``--forced-ab`` with their forced moves
played without the network (the default, ``AtoutVectorEnv.skip_forced``) and asked of it.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import VectorEnv
from gymnasium.wrappers import vector as wrappers

from atout.envs import vector_wrappers as fast
from atout.envs.single_agent import gym_id
from atout.envs.vector import AtoutVectorEnv

Wrap = Callable[[VectorEnv[Any, Any, Any]], VectorEnv[Any, Any, Any]]

#: The configurations measured: what a learner typically puts around the env.
WRAPS: dict[str, Wrap] = {
    "bare (Dict obs)": lambda env: env,
    "TransformObservation (numpy, whole batch)": lambda env: wrappers.TransformObservation(
        env,
        lambda obs: obs["observation"],
        single_observation_space=env.single_observation_space["observation"],  # type: ignore[index]
    ),
    "FlattenObservation": lambda env: wrappers.FlattenObservation(env),
    "FlattenObservation + NormalizeObservation": lambda env: wrappers.NormalizeObservation(
        wrappers.FlattenObservation(env)
    ),
    # atout's subclasses of the same two wrappers: the whole batch at once, the same observations.
    "atout's FlattenObservation": lambda env: fast.FlattenObservation(env),
    "atout's FlattenObservation + NormalizeObservation": lambda env: fast.NormalizeObservation(
        fast.FlattenObservation(env)
    ),
    # The same pair on the env's dense flattened array (before the sparse rows, for an A/B).
    "atout's Flatten + Normalize, env's dense array": lambda env: _dense(
        fast.NormalizeObservation(fast.FlattenObservation(env))
    ),
    # gymnasium's own switch, after a warm-up say: the statistics' passes go, the normalisation stays.
    "atout's Flatten + Normalize, statistics frozen": lambda env: _frozen(
        fast.NormalizeObservation(fast.FlattenObservation(env))
    ),
}


def _dense(env: wrappers.NormalizeObservation) -> wrappers.NormalizeObservation:
    """atout's pair with the env writing its dense flattened array (``sparse_observations`` off)."""
    raw = env.unwrapped
    assert isinstance(raw, AtoutVectorEnv)
    raw.sparse_observations = False
    return env


def _frozen(env: wrappers.NormalizeObservation) -> wrappers.NormalizeObservation:
    """``env`` with its running statistics frozen (``update_running_mean = False``)."""
    env.update_running_mean = False
    return env


def steps_per_second(
    game: str,
    num_envs: int,
    wrap: Wrap,
    seconds: float,
    mode: str,
    sparse: bool = True,
    subset: bool = True,
    skip_forced: bool = True,
    **kwargs: Any,
) -> tuple[float, float]:
    """Env steps per second (``num_envs`` per ``step`` call) of one configuration: by wall time, by CPU time.

    CPU time (``time.process_time``: every thread of this process) is given beside wall time
    because the machine is shared: wall time swings with the load, CPU time far less.
    ``sparse=False``: learned opponents read the dense tensors (``AtoutVectorEnv.sparse_inputs``);
    ``subset=False``: their tensors and prior are written for every match (``AtoutVectorEnv.subset_rows``);
    ``skip_forced=False``: their forced moves go through the network too (``AtoutVectorEnv.skip_forced``).
    """
    env = wrap(gymnasium.make_vec(gym_id(game), num_envs=num_envs, autoreset_mode=mode, **kwargs))
    raw = env.unwrapped
    assert isinstance(raw, AtoutVectorEnv)
    raw.sparse_inputs = sparse
    raw.subset_rows = subset
    raw.skip_forced = skip_forced
    env.reset(seed=1)
    rng = np.random.default_rng(0)

    def act() -> np.ndarray[Any, Any]:
        masks = raw.action_masks()
        # A random legal action per env, vectorised: the argmax of random keys over the mask.
        return np.asarray((rng.random(masks.shape) * masks).argmax(axis=1), dtype=np.int64)

    for _ in range(5):
        env.step(act())
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        env.step(act())
        steps += num_envs
    return steps / elapsed, steps / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--envs", type=int, nargs="+", default=[64, 1024])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mode", default="next_step", choices=["next_step", "same_step"])
    parser.add_argument("--opponents", default="random", help="random, heuristic, policy or net:PATH")
    parser.add_argument("--blas-threads", type=int, default=1, help="0: OpenBLAS's own (one per core)")
    parser.add_argument("--wraps", nargs="+", choices=["bare", "all", *WRAPS], default=["all"])
    parser.add_argument(
        "--dense-ab",
        action="store_true",
        help="learned opponents: also run each configuration with the dense first layer (A/B)",
    )
    parser.add_argument(
        "--subset-ab",
        action="store_true",
        help="learned opponents: also run each configuration with their tensors written for every match (A/B)",
    )
    parser.add_argument(
        "--forced-ab",
        action="store_true",
        help="learned opponents: also run each configuration with their forced moves asked of the network (A/B)",
    )
    args = parser.parse_args()
    kwargs: dict[str, Any] = {"opponents": args.opponents, "blas_threads": args.blas_threads or None}
    if "all" in args.wraps:
        wraps = WRAPS
    else:
        chosen = ["bare (Dict obs)" if w == "bare" else w for w in args.wraps]
        wraps = {name: WRAPS[name] for name in chosen}
    # label -> (sparse first layer, tensors of the answered rows only, forced moves without the network)
    inputs = {"": (True, True, True)}
    if args.dense_ab:
        inputs = {"sparse": (True, True, True), "dense": (False, True, True)}
    if args.subset_ab:
        inputs = {
            **{f"{k} rows only".strip(): v for k, v in inputs.items()},
            "whole batch": (True, False, True),
        }
    if args.forced_ab:
        inputs = {
            **{f"{k} forced skipped".strip(): v for k, v in inputs.items()},
            "forced asked": (True, True, False),
        }
    results: dict[tuple[int, str], list[tuple[float, float]]] = {}
    for _ in range(args.runs):
        for n in args.envs:
            for name, wrap in wraps.items():
                if "Flatten" in name and args.mode == "same_step":
                    continue
                for label, (sparse, subset, skip) in inputs.items():
                    key = (n, f"{name} {label}".strip())
                    results.setdefault(key, []).append(
                        steps_per_second(
                            args.game, n, wrap, args.seconds, args.mode, sparse, subset, skip, **kwargs
                        )
                    )
    threads = args.blas_threads or "OpenBLAS's default"
    print(
        f"{args.game}, 4 players, {args.opponents} opponents (BLAS threads: {threads}), {args.mode}; "
        f"env steps/s by wall time and by CPU time, medians of {args.runs}"
    )
    for (n, name), values in results.items():
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        print(f"{n:>6} envs  {name:<52} {wall:>12,.0f} wall {cpu:>12,.0f} CPU")


if __name__ == "__main__":
    main()
