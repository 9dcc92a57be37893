"""Where a vector-env step's CPU time goes with learned opponents: each part timed, no profiler.

For issue 49 (``policy`` opponents at 1,024 envs): the env's methods and the parts they call are
wrapped, once each, in a ``time.process_time`` timer; the env is stepped with random legal agent
actions (as ``bench/vector_env.py``), and each part's CPU time is printed in µs per env step
(an agent step moves every env) beside its share.  Why not cProfile: its price per call inflated
the encoders' many small numpy calls (docs/research.md).  Parts nest: ``_learned_actions`` holds
the encoding, the prior, the subsets and ``best_actions``, which holds the trunk.  Also printed:
the opponent decisions per env step and the first layer's non-zero inputs per decision, what
the network's cost scales with.

Run: ``PYTHONPATH=src .venv/bin/python bench/vector_env_parts.py [--envs 1024] [--steps 150]
[--opponents policy]``.
"""

from __future__ import annotations

import argparse
import collections
import functools
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from atout.batch.base import BatchBase
from atout.batch.wizard import WizardBatch
from atout.bots.learned import PolicyModel
from atout.envs.vector import AtoutVectorEnv

SPENT: collections.defaultdict[str, float] = collections.defaultdict(float)
DECISIONS = [0, 0]  # rows answered by the network, their non-zero inputs


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its CPU time added to ``SPENT[name]``."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPENT[name] += time.process_time() - start

    return wrapper


def counted(function: Callable[..., Any]) -> Callable[..., Any]:
    """``best_actions`` counting its rows and their non-zero inputs."""

    @functools.wraps(function)
    def wrapper(model: PolicyModel, x: Any, *args: Any, **kwargs: Any) -> Any:
        DECISIONS[0] += x.shape[0]
        DECISIONS[1] += int(x.indptr[-1]) if hasattr(x, "indptr") else int(np.count_nonzero(x))
        return function(model, x, *args, **kwargs)

    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=150)
    parser.add_argument("--opponents", default="policy")
    args = parser.parse_args()
    env = AtoutVectorEnv("wizard", args.envs, 4, opponents=args.opponents)
    env.reset(seed=1)
    rng = np.random.default_rng(0)

    def act() -> Any:
        masks = env.action_masks()
        return (rng.random(masks.shape) * masks).argmax(axis=1)

    for _ in range(5):
        env.step(act())
    parts: list[tuple[Any, str, str]] = [
        (WizardBatch, "step", "the batch's steps (the agent's and the opponents' moves)"),
        (WizardBatch, "sparse_tensor", "the opponents' sparse tensors"),
        (WizardBatch, "observation_tensor", "the agent's dense observation"),
        (WizardBatch, "heuristic_actions", "the heuristic prior"),
        (WizardBatch, "legal_mask", "legal masks"),
        (BatchBase, "subset", "the subsets of the rows answered"),
        (PolicyModel, "_trunk", "the network's hidden layers"),
        (PolicyModel, "best_actions", "the network (layers, head, mask, argmax)"),
        (AtoutVectorEnv, "_learned_actions", "the learned opponents, all of it"),
        (AtoutVectorEnv, "_restart", "new matches"),
    ]
    for owner, attribute, label in parts:
        function = getattr(owner, attribute)
        if attribute == "best_actions":
            function = counted(function)
        setattr(owner, attribute, timed(label, function))
    start = time.process_time()
    for _ in range(args.steps):
        env.step(act())
    total = time.process_time() - start
    per_step = 1e6 / (args.steps * args.envs)
    print(
        f"wizard, 4 players, {args.opponents} opponents, {args.envs} envs: "
        f"{args.steps * args.envs / total:,.0f} env steps/s by CPU time (timers on), "
        f"{total * per_step:.2f} µs an env step"
    )
    if DECISIONS[0]:
        print(
            f"  {DECISIONS[0] / (args.steps * args.envs):.2f} opponent decisions an env step, "
            f"{DECISIONS[1] / DECISIONS[0]:.1f} non-zero inputs a decision"
        )
    for label, spent in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"  {label:<58} {spent * per_step:6.2f} µs  {100 * spent / total:5.1f} %")


if __name__ == "__main__":
    main()
