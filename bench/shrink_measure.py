"""A distilled (smaller) policy network measured like play against the shipped one (issue 49).

At batch speed, the tournament's method (:func:`atout.learn.evaluate.rotation`): duplicate deals
from ``EVAL_SEED_BASE + --offset`` (never dealt in training: the students' positions come from
``atout.learn.shrink.SHRINK_SEED_BASE``), every seat rotation, greedy networks.  Printed, each
with its 95 % interval over the deals (1.96 standard errors):

* each candidate alone against three copies of the shipped network (``policy``): its margin per
  round over the field (0: as strong as the shipped network);
* against three ``normal`` (the heuristic) and three uniformly random players: the candidate's
  margin, the shipped network's on the same deals, and their **paired difference** deal by deal
  (the luck of the deal cancels: the interval that says whether the two differ).

Run: ``PYTHONPATH=src .venv/bin/python bench/shrink_measure.py --deals 1024 MODEL.npz [...]``.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from learned import Uniform  # bench/learned.py: the random field
from numpy.typing import NDArray

from atout.batch.common import Batch
from atout.bots.learned import ForwardBuffers, PolicyModel, shipped_model
from atout.core.registry import load
from atout.learn.evaluate import EVAL_SEED_BASE, ModelPolicy, Policy, heuristic_policy, rotation


class SparsePolicy:
    """A model's most probable legal action on the rows' sparse tensors (the vector env's path:
    ``batch.subset``, ``sparse_tensor``, reused buffers), several times cheaper than
    :class:`ModelPolicy`'s dense tensors; the same sums in another order (float rounding apart)."""

    def __init__(self, model: PolicyModel) -> None:
        self.model = model
        self.buffers = ForwardBuffers()

    def __call__(self, batch: Batch, rows: NDArray[np.intp]) -> NDArray[np.intp]:
        part = batch if len(rows) == batch.num_games else batch.subset(rows)
        prior = part.heuristic_actions() if self.model.prior_weight is not None else None
        return self.model.best_actions(
            part.sparse_tensor(information_state=True), part.legal_mask(), prior, self.buffers
        )


def per_deal(
    game: str, players: int, candidate: Policy, field: Policy, seeds: list[int]
) -> NDArray[np.float64]:
    """The candidate's margin per round on each deal, averaged over the seat rotations."""
    margins: NDArray[np.float64] = np.mean(
        [rotation(game, players, seat, candidate, field, seeds)[0] for seat in range(players)], axis=0
    )
    return margins


def interval(values: NDArray[np.float64]) -> str:
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values))
    return f"{values.mean():+.3f} ± {half:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1024)
    parser.add_argument("--offset", type=int, default=1 << 24, help="seeds from EVAL_SEED_BASE + this")
    parser.add_argument("--fields", default="policy,normal,random", help="the fields measured against")
    parser.add_argument("--dense", action="store_true", help="the networks on dense tensors (ModelPolicy)")
    args = parser.parse_args()
    wrap = ModelPolicy if args.dense else SparsePolicy
    shipped = wrap(shipped_model(load(args.game, args.players)))
    seeds = [EVAL_SEED_BASE + args.offset + i for i in range(args.deals)]
    candidates = {path.name: wrap(PolicyModel.load(path)) for path in args.models}
    print(
        f"{args.game}, {args.players} players, {args.deals} deals × {args.players} rotations, seeds from "
        f"EVAL_SEED_BASE + {args.offset}"
    )
    fields = args.fields.split(",")
    for name, policy in candidates.items() if "policy" in fields else ():
        start = time.process_time()
        got = per_deal(args.game, args.players, policy, shipped, seeds)
        print(
            f"{name} against three `policy` (shipped): {interval(got)} a round "
            f"({time.process_time() - start:.0f} s CPU)",
            flush=True,
        )
    for field_name, field in (("normal", heuristic_policy), ("random", Uniform(7))):
        if field_name not in fields:
            continue
        start = time.process_time()
        base = per_deal(args.game, args.players, shipped, field, seeds)
        print(f"shipped `policy` against three `{field_name}`: {interval(base)} a round", flush=True)
        for name, policy in candidates.items():
            if isinstance(field, Uniform):
                field.rng = np.random.default_rng(7)  # the same random players' draws for both
            got = per_deal(args.game, args.players, policy, field, seeds)
            print(
                f"{name} against three `{field_name}`: {interval(got)} a round; "
                f"minus the shipped network's, deal by deal: {interval(got - base)} "
                f"({time.process_time() - start:.0f} s CPU)",
                flush=True,
            )


if __name__ == "__main__":
    main()
