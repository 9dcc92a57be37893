"""Figures of a learned model for its model card: what it is, how it was trained, how it plays.

For each model (the shipped ones by default, or ``--model PATH``): its
metadata (game, players, layout size, parameters, training decisions and
minutes, recipe), then the policy network alone, greedy, measured at batch
speed on held-out duplicate deals with every seat rotation (seeds from
``atout.learn.evaluate.EVAL_SEED_BASE`` + ``--offset``, never dealt in
training): against three ``normal`` (the heuristic) and against three random
players.  The engine-side figures of the cards (``atout tournament`` through
the bots' contract, decision times) come from ``bench/ladder.py --compare
policy,normal``.

Run: ``.venv/bin/python bench/learned.py [--deals 512] [--model PATH ...]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from atout.batch.common import Batch
from atout.bots import learned
from atout.bots.learned import PolicyModel
from atout.learn.evaluate import EVAL_SEED_BASE, ModelPolicy, heuristic_policy, measure


class Uniform:
    """A uniformly random legal action per row (seeded)."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, batch: Batch, rows: NDArray[np.intp]) -> NDArray[np.intp]:
        mask = batch.legal_mask()[rows]
        noise = self.rng.random(mask.shape)
        choice: NDArray[np.intp] = np.argmax(np.where(mask, noise, -1.0), axis=1)
        return choice


def others(players: int) -> str:
    """The field's size in words: a card reads "against two `normal`" at a 3-player table."""
    return {2: "one", 3: "two", 4: "three", 5: "four", 6: "five"}.get(players, str(players - 1))


def card(path: Path, deals: int, offset: int) -> None:
    model = PolicyModel.load(path)
    meta = model.meta
    training = meta.get("training", {})
    parameters = sum(w.size + b.size for w, b in (*model.trunk, model.policy, model.value))
    width = sum(size for _, size in meta["layout"])
    print(f"### {meta['game']}, {meta['players']} players ({path.name}, {path.stat().st_size / 1e6:.1f} MB)")
    print()
    print(f"- input: the information-state tensor, {width} values in {len(meta['layout'])} blocks")
    hidden = [w.shape[1] for w, _ in model.trunk]
    print(
        f"- network: {' → '.join(map(str, [width, *hidden]))} (ReLU), {meta['num_actions']} logits and a value"
    )
    print(f"- parameters: {parameters:,} (float16 on disk)")
    if model.prior_weight is not None:
        print(f"- heuristic prior weight: {model.prior_weight:.2f}")
    print(f"- recipe: {training.get('recipe', '?')}")
    print(
        f"- training: {training.get('decisions', 0):,} learner decisions, {training.get('updates', 0)} updates, "
        f"{training.get('minutes', 0)} minutes, seed {training.get('seed', '?')}"
    )
    policy = ModelPolicy(model)
    for name, field in (("normal", heuristic_policy), ("random", Uniform(7))):
        start = time.perf_counter()
        got = measure(
            meta["game"], int(meta["players"]), policy, field, deals=deals, seed_base=EVAL_SEED_BASE + offset
        )
        print(
            f"- against {others(int(meta['players']))} `{name}` (batch, {deals} deals × {meta['players']} "
            "rotations, held-out seeds): "
            f"**{got.margin:+.2f} ± {got.half_width:.2f}** a round ({time.perf_counter() - start:.0f} s)"
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model", action="append", type=Path, help="a model file (default: the shipped ones)"
    )
    parser.add_argument("--deals", type=int, default=512)
    parser.add_argument(
        "--offset",
        type=int,
        default=1 << 20,
        help="first evaluation seed after EVAL_SEED_BASE (past training's)",
    )
    args = parser.parse_args()
    paths = args.model or sorted((Path(learned.__file__).parent / "models").glob("*.npz"))
    for path in paths:
        card(path, args.deals, args.offset)


if __name__ == "__main__":
    main()
