"""How well a distilled network's probabilities match its teacher: held-out loss and entropy by temperature.

Why: a playout network is read for its *probabilities* (``batch:N:net=…:sample``
draws each playout action from them), so the question is not only whether its
top action is the teacher's but whether its spread is. Dividing the logits by
a temperature T and reading the cross-entropy of the teacher's held-out
choices says how confident the network should be to match the teacher: the
best T is where the loss is lowest, and there the mean entropy nearly equals
the loss (a calibrated model). Whether the search plays better at that T is a
separate question, measured with ``bench/ladder.py`` (``:sample:temp=T``).

The held-out decisions are the last tenth of the folder's matches (as
``atout distill`` holds them out). Needs the ``train`` extra (PyTorch).

Run: ``.venv/bin/python bench/calibration.py GAME MODEL.npz DECISIONS.npz [--players 4]``.
"""

from __future__ import annotations

import argparse
import sys

import atout

#: Temperatures read by default (1: the network's own probabilities).
TEMPERATURES = (0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("model", help="a model file (atout train or atout distill)")
    parser.add_argument("decisions", help="a decisions.npz written by atout distill")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--temperatures", default=",".join(map(str, TEMPERATURES)))
    args = parser.parse_args(argv)
    try:
        import torch

        from atout.bots.learned import ModelMismatch, PolicyModel
        from atout.learn.distill import Decisions, network_from_model
    except ImportError as exc:
        print(f"error: this bench needs PyTorch: pip install 'atout[train]' ({exc})", file=sys.stderr)
        return 2
    try:
        temperatures = [float(t) for t in args.temperatures.split(",")]
        if not all(t > 0 for t in temperatures):
            raise ValueError("temperatures are positive")
        game = atout.load(args.game, players=args.players)
        model = PolicyModel.load(args.model)
        model.check(game)
        data = Decisions.load(args.decisions)
    except (ValueError, OSError, ModelMismatch, atout.AtoutError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    _, held = data.split()
    if not len(held):
        print("error: the decisions hold one match: nothing is held out", file=sys.stderr)
        return 2
    net = network_from_model(model)
    net.eval()
    x, mask, prior, label = data.tensors(held, game.num_actions)
    with torch.no_grad():
        logits = net(x, prior)[0]
    teacher = data.teacher or "the teacher"
    print(f"{args.model}: {len(held):,} held-out decisions of {teacher}")
    print("temperature  held-out loss (nats)  mean entropy (nats)")
    for t in temperatures:
        scaled = logits / t + mask
        loss = float(torch.nn.functional.cross_entropy(scaled, label))
        p = torch.softmax(scaled, 1)
        entropy = float(-(p * torch.log(p.clamp_min(1e-12))).sum(1).mean())
        print(f"{t:>11g}  {loss:>20.3f}  {entropy:>19.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
