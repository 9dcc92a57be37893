"""A policy measured at batch speed: duplicate deals, every seat rotation, a 95% interval.

Why here and not only through ``atout tournament``: training needs a quick,
honest reading of its progress (a few thousand matches in seconds), on seeds
it never trains on.  The method is the tournament's: every deal is played
once with the candidate in each seat, the others played by the field; the
figure is the candidate's score minus the mean of the other seats, per round,
averaged over the rotations of a deal, with a normal 95% interval over the
deals.  The final figures of the model cards come from ``atout tournament``
on the engine (the bot contract, views only); this is the same measure, fast.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..batch import batch_class
from ..batch.common import Batch
from ..bots.learned import PolicyModel

__all__ = ["EVAL_SEED_BASE", "Measure", "ModelPolicy", "Policy", "heuristic_policy", "measure", "rotation"]

#: Evaluation deals are drawn from here on: far from the tournaments' small seeds and from
#: the training seeds (:data:`atout.learn.train.TRAIN_SEED_BASE`), so no figure is read on a
#: deal the model trained on.
EVAL_SEED_BASE = 1 << 39

#: A batch policy: (batch, rows) → the action of each of those rows' player to act.
Policy = Callable[[Batch, NDArray[np.intp]], NDArray[np.intp]]


@dataclass(frozen=True)
class Measure:
    """The candidate's margin per round against the field, with its 95% half-interval."""

    margin: float
    half_width: float
    deals: int
    rounds: float

    def __str__(self) -> str:
        return f"{self.margin:+.2f} ± {self.half_width:.2f} a round over {self.deals} deals × rotations"


def heuristic_policy(batch: Batch, rows: NDArray[np.intp]) -> NDArray[np.intp]:
    """The game's heuristic (``normal``) at batch speed."""
    actions: NDArray[np.intp] = batch.heuristic_actions()[rows]
    return actions


class ModelPolicy:
    """A learned model's most probable legal action, as a batch policy (picklable: it crosses to Ray workers)."""

    def __init__(self, model: PolicyModel) -> None:
        self.model = model

    def __call__(self, batch: Batch, rows: NDArray[np.intp]) -> NDArray[np.intp]:
        return self.model.batch_actions(batch, rows)


def rotation(
    game: str,
    players: int,
    seat: int,
    candidate: Policy,
    field: Policy,
    seeds: list[int],
    options: dict[str, Any] | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """One seat rotation of the duplicate deals ``seeds``: per deal (the candidate's margin per round, rounds)."""
    cls = batch_class(game)
    deals = len(seeds)
    batch = cls(players, seeds, check=True, **(options or {}))
    ends = np.zeros(deals)
    scores = np.zeros((deals, players))
    while not batch.terminal.all():
        actions = np.full(deals, -1, dtype=np.intp)
        player = batch.current_player
        live = ~batch.terminal
        mine = np.flatnonzero(live & (player == seat))
        theirs = np.flatnonzero(live & (player != seat))
        if mine.size:
            actions[mine] = candidate(batch, mine)
        if theirs.size:
            actions[theirs] = field(batch, theirs)
        before = batch.round.copy()
        step = batch.step(actions)
        ends += (step.terminal | (batch.round != before)) & live
        scores = np.where(step.terminal[:, None], step.scores, scores)
    mine_score = scores[:, seat]
    others = (scores.sum(axis=1) - mine_score) / (players - 1)
    return (mine_score - others) / np.maximum(ends, 1), ends


def measure(
    game: str,
    players: int,
    candidate: Policy,
    field: Policy = heuristic_policy,
    *,
    deals: int = 256,
    seed_base: int = EVAL_SEED_BASE,
    options: dict[str, Any] | None = None,
    ray: str | None = None,
) -> Measure:
    """The candidate against ``players - 1`` copies of ``field`` on ``deals`` duplicate deals × rotations.

    ``ray``: play the rotations as Ray tasks (``"local"`` or a cluster's address; the
    policies must then be picklable, as :class:`ModelPolicy` and :func:`heuristic_policy` are).
    """
    seeds = [seed_base + i for i in range(deals)]
    args = [(game, players, seat, candidate, field, seeds, options) for seat in range(players)]
    if ray is None:
        results = [rotation(*a) for a in args]
    else:
        import ray as ray_module

        from .cluster import connect

        connect(ray)
        task = ray_module.remote(rotation)
        results = ray_module.get([task.remote(*a) for a in args])
    per_deal = np.mean([margin for margin, _ in results], axis=0)
    rounds = np.mean([ends for _, ends in results], axis=0)
    spread = float(per_deal.std(ddof=1)) if deals > 1 else 0.0
    return Measure(
        margin=float(per_deal.mean()),
        half_width=1.96 * spread / math.sqrt(deals),
        deals=deals,
        rounds=float(rounds.mean()),
    )
