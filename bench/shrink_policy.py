"""Distil the shipped policy network into a smaller one (issue 49): its positions, the fit, its curve.

Collects the shipped network's decisions in whole seeded matches at batch speed
(:func:`atout.learn.shrink.collect`; cached in ``--positions``), fits a student of ``--hidden``
layers to them (:func:`atout.learn.shrink.fit`), writes a checkpoint after every epoch
(``--out``) and the curve (``--curve``, CSV: epoch, training loss, held-out soft cross-entropy,
agreement with the teacher's most probable action, the heuristic's agreement, value MSE, CPU s).

Run (niced, one process: the machine is shared)::

    PYTHONPATH=src nice .venv/bin/python bench/shrink_policy.py --matches 4096 --hidden 64,64 \
        --epochs 8 --positions /tmp/positions.npz --out /tmp/wizard-4p-small.npz \
        --curve bench/curves/shrink-wizard-4p-64-64.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import torch

from atout.bots.learned import PolicyModel, shipped_model
from atout.core.registry import load
from atout.learn.shrink import Epoch, Positions, collect, fit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=4096)
    parser.add_argument("--held", type=int, default=256, help="the last matches, held out for the curve")
    parser.add_argument("--hidden", default="64,64")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--minibatch", type=int, default=1024)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=Path, required=True, help="the positions' cache (.npz)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--curve", type=Path, required=True)
    args = parser.parse_args()
    torch.set_num_threads(1)
    teacher = shipped_model(load(args.game, args.players))
    if args.positions.exists():
        data = Positions.load(args.positions)
    else:
        start = time.process_time()
        data = collect(
            teacher,
            args.matches,
            progress=lambda done, total: print(f"collected {done}/{total} matches", flush=True),
        )
        print(
            f"{len(data):,} decisions in {args.matches} matches, {time.process_time() - start:.0f} s CPU",
            flush=True,
        )
        data.save(args.positions)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    with args.curve.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(
            ["epoch", "loss", "held_soft_ce", "agreement", "heuristic_agreement", "value_mse", "cpu_s"]
        )

        def report(epoch: Epoch) -> None:
            row = [
                epoch.epoch,
                f"{epoch.loss:.4f}",
                f"{epoch.held_loss:.4f}",
                f"{epoch.agreement:.4f}",
                f"{epoch.heuristic_agreement:.4f}",
                f"{epoch.value_error:.4f}",
                f"{epoch.seconds:.0f}",
            ]
            writer.writerow(row)
            stream.flush()
            print(" ".join(map(str, row)), flush=True)

        def checkpoint(model: PolicyModel, epoch: Epoch) -> None:
            model.save(args.out)

        fit(
            teacher,
            data,
            hidden,
            epochs=args.epochs,
            held_matches=args.held,
            minibatch=args.minibatch,
            learning_rate=args.rate,
            seed=args.seed,
            report=report,
            checkpoint=checkpoint,
        )
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
