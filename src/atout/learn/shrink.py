"""A smaller policy network distilled from a bigger one on the bigger one's own decisions (issue 49).

Why: the vector env's ``policy`` opponents spend most of an env step in the shipped network
(Wizard 4 players: a 3,739 → 256 → 256 → 74 perceptron, ~15 µs of the ~34 µs a step at 1,024
envs, bench/RESULTS.md); its first layer gathers ~42 rows of a 3.8 MB matrix a decision, bound by
memory.  A narrower first layer is what makes the step cheaper, and a network that plays as the
shipped one is what keeps the opponents the same: so the small network (the *student*) is fitted
to the shipped one (the *teacher*) on the teacher's own positions.

How, and why so:

* **Positions at batch speed.**  The teacher plays every seat of whole matches in an
  :mod:`atout.batch` batch (one matrix product a step for every match's player to act), and
  every decision with two legal actions or more is recorded: the rows' sparse information-state
  tensors, legal actions, the heuristic's action (the models' prior) and the teacher's logits at
  the legal actions and its value.  Half the matches (``sample_share``) draw the teacher's actions
  from its softmax instead of taking the greedy one: the student meets positions off the
  teacher's greedy line (its own small errors lead there), still labelled by the teacher.
* **Soft targets.**  The loss is the cross-entropy of the student's legal softmax towards the
  teacher's (its whole distribution, not only its argmax: how sure the teacher is carries what
  the next best action is), plus the value head's squared error towards the teacher's value
  (weight ``value_weight``: the value is not read by play, but a model file with a meaningless
  value head would mislead any search that reads it).
* **The same prior.**  The student adds a learned weight on the heuristic's action to its logits
  as the teacher does, starting at the teacher's weight, with a near-zero policy head: it starts
  as the heuristic and learns where the teacher differs from it.
* **Seeds** from :data:`SHRINK_SEED_BASE` (away from the training, evaluation, tournament and
  search-distillation seeds); the held-out decisions are whole matches of their own seeds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from ..batch import batch_class
from ..batch.common import SparseTensor
from ..bots.learned import PolicyModel
from .distill import DISTILL_SEED_BASE
from .network import PolicyNet, SparseInput

__all__ = ["SHRINK_SEED_BASE", "Epoch", "Positions", "collect", "fit"]

#: Match seeds of the teacher's positions start here (the search distillation's matches are derived
#: from :data:`~atout.learn.distill.DISTILL_SEED_BASE` itself; this is 2^32 further on).
SHRINK_SEED_BASE = DISTILL_SEED_BASE + (1 << 32)


@dataclass
class Positions:
    """The teacher's decisions, sparse: row ``i``'s tensor entries are ``columns[indptr[i]:indptr[i+1]]``
    with their ``values``; its legal actions ``legal[legal_ptr[i]:legal_ptr[i+1]]`` with the
    teacher's logits ``logits`` there; ``prior``: the heuristic's action; ``value``: the teacher's
    value; ``match``: the match's index (the held-out split is by match)."""

    width: int
    actions: int
    indptr: NDArray[np.int64]
    columns: NDArray[np.int16]
    values: NDArray[np.float32]
    legal_ptr: NDArray[np.int64]
    legal: NDArray[np.int16]
    logits: NDArray[np.float32]
    prior: NDArray[np.int16]
    value: NDArray[np.float32]
    match: NDArray[np.int32]

    def __len__(self) -> int:
        return len(self.prior)

    def save(self, path: str | Path) -> None:
        arrays = {k: getattr(self, k) for k in _ARRAYS}
        np.savez(path, width=np.array(self.width), actions=np.array(self.actions), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> Positions:
        with np.load(path) as data:
            return cls(
                width=int(data["width"]), actions=int(data["actions"]), **{k: data[k] for k in _ARRAYS}
            )

    def minibatch(
        self, rows: NDArray[np.intp]
    ) -> tuple[
        torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor
    ]:
        """(columns, offsets, values, legal mask as 0/-inf, teacher's probabilities, prior, value) of ``rows``."""
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        index = _spans(starts, ends)
        lengths = ends - starts
        offsets = np.zeros(len(rows), np.int64)
        np.cumsum(lengths[:-1], out=offsets[1:])
        lstarts, lends = self.legal_ptr[rows], self.legal_ptr[rows + 1]
        lindex = _spans(lstarts, lends)
        which = np.repeat(np.arange(len(rows)), lends - lstarts)
        legal = self.legal[lindex].astype(np.int64)
        mask = np.full((len(rows), self.actions), -np.inf, np.float32)
        mask[which, legal] = 0.0
        logits = mask.copy()
        logits[which, legal] = self.logits[lindex]
        logits -= logits.max(axis=1, keepdims=True)
        probabilities = np.exp(logits)
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        return (
            torch.from_numpy(self.columns[index].astype(np.int64)),
            torch.from_numpy(offsets),
            torch.from_numpy(self.values[index]),
            torch.from_numpy(mask),
            torch.from_numpy(probabilities),
            torch.from_numpy(self.prior[rows].astype(np.int64)),
            torch.from_numpy(self.value[rows]),
        )


_ARRAYS = ("indptr", "columns", "values", "legal_ptr", "legal", "logits", "prior", "value", "match")


def _spans(starts: NDArray[np.int64], ends: NDArray[np.int64]) -> NDArray[np.int64]:
    """The indices of the ranges ``[starts[i], ends[i])``, one after another."""
    lengths = ends - starts
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts - before, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)


def collect(
    teacher: PolicyModel,
    matches: int,
    *,
    first: int = 0,
    chunk: int = 1024,
    sample_share: float = 0.5,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Positions:
    """The teacher's decisions in ``matches`` whole matches (numbered from ``first``: match ``k`` is
    dealt from seed ``SHRINK_SEED_BASE + k``), played ``chunk`` at a time in one batch.

    The first ``sample_share`` of each chunk's matches draw the teacher's actions from its softmax
    (seeded by ``seed``), the others take its most probable one.
    """
    game, players = teacher.game_name, teacher.players
    options = dict(teacher.meta.get("options", {}))
    cls = batch_class(game)
    rng = np.random.default_rng(seed)
    parts: list[dict[str, NDArray[Any]]] = []
    done = 0
    width = actions = 0
    for begin in range(first, first + matches, chunk):
        count = min(chunk, first + matches - begin)
        batch = cls(players, [SHRINK_SEED_BASE + k for k in range(begin, begin + count)], **options)
        teacher.check(batch.game)
        width, actions = batch.game.information_state_tensor_size(), batch.game.num_actions
        sampled = np.arange(count) < round(count * sample_share)
        while not batch.terminal.all():
            rows = np.flatnonzero(~batch.terminal)
            part = batch if rows.size == count else batch.subset(rows)
            x = part.sparse_tensor(information_state=True)
            mask = part.legal_mask()
            prior = part.heuristic_actions() if teacher.prior_weight is not None else None
            logits, value = teacher.forward(x, prior)  # type: ignore[arg-type]  # (sparse rows: _trunk's path)
            logits = np.where(mask, logits, -np.inf).astype(np.float32)
            noise = -np.log(-np.log(rng.random(logits.shape, dtype=np.float32) + np.float32(1e-12)))
            chosen = np.where(sampled[rows], np.argmax(logits + noise, axis=1), np.argmax(logits, axis=1))
            kept = np.flatnonzero(mask.sum(axis=1) >= 2)
            if kept.size:
                parts.append(_record(x, mask, logits, prior, value, rows + begin, kept))
            step = np.full(count, -1, dtype=np.intp)
            step[rows] = chosen
            batch.step(step)
        done += count
        if progress:
            progress(done, matches)
    return _join(parts, width, actions)


def _record(
    x: SparseTensor,
    mask: NDArray[np.bool_],
    logits: NDArray[np.float32],
    prior: NDArray[np.intp] | None,
    value: NDArray[np.float32],
    match: NDArray[np.intp],
    kept: NDArray[np.intp],
) -> dict[str, NDArray[Any]]:
    rows = x.select(kept)
    which, legal = np.nonzero(mask[kept])
    return {
        "lengths": np.diff(rows.indptr),
        "columns": rows.indices.astype(np.int16),
        "values": rows.values.astype(np.float32),
        "legal_lengths": np.bincount(which, minlength=len(kept)),
        "legal": legal.astype(np.int16),
        "logits": logits[kept][which, legal],
        "prior": (np.full(len(kept), -1) if prior is None else prior[kept]).astype(np.int16),
        "value": value[kept].astype(np.float32),
        "match": match[kept].astype(np.int32),
    }


def _join(parts: list[dict[str, NDArray[Any]]], width: int, actions: int) -> Positions:
    def chain(key: str) -> NDArray[Any]:
        return np.concatenate([p[key] for p in parts])

    def pointers(key: str) -> NDArray[np.int64]:
        out = np.zeros(sum(len(p[key]) for p in parts) + 1, np.int64)
        np.cumsum(chain(key), out=out[1:])
        return out

    joined = Positions(
        width=width,
        actions=actions,
        indptr=pointers("lengths"),
        columns=chain("columns"),
        values=chain("values"),
        legal_ptr=pointers("legal_lengths"),
        legal=chain("legal"),
        logits=chain("logits"),
        prior=chain("prior"),
        value=chain("value"),
        match=chain("match"),
    )
    return joined


@dataclass(frozen=True)
class Epoch:
    """One epoch's figures: training loss, and on the held-out positions the soft cross-entropy, the
    agreement of the student's and the teacher's most probable actions, and the heuristic's."""

    epoch: int
    loss: float
    held_loss: float
    agreement: float
    heuristic_agreement: float
    value_error: float
    seconds: float


def student_logits(net: PolicyNet, batch: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, torch.Tensor]:
    """The student's masked logits and values on a minibatch of :meth:`Positions.minibatch`."""
    columns, offsets, values, mask, _, prior, _ = batch
    first = net.trunk[0]
    assert isinstance(first, SparseInput)
    h = first.bag(columns, offsets, per_sample_weights=values) + first.bias
    for layer in list(net.trunk)[1:]:
        h = layer(h)
    logits = net.policy(h)
    if net.prior_weight is not None:
        bonus = torch.zeros_like(logits).scatter_(1, prior.clamp(min=0)[:, None], 1.0)
        logits = logits + net.prior_weight * bonus
    return logits + mask, net.value(h).squeeze(-1)


def _losses(
    net: PolicyNet, batch: tuple[torch.Tensor, ...], value_weight: float
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(total loss, soft cross-entropy, value squared error), means over the rows."""
    logits, value = student_logits(net, batch)
    target = batch[4]
    log_p = torch.log_softmax(logits, dim=1)
    soft = -(target * torch.where(target > 0, log_p, torch.zeros_like(log_p))).sum(1).mean()
    squared = ((value - batch[6]) ** 2).mean()
    return soft + value_weight * squared, soft, squared


def split(data: Positions, held_matches: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Rows of the training matches and of the last ``held_matches`` matches (held out)."""
    matches = np.unique(data.match)
    held = np.isin(data.match, matches[len(matches) - held_matches :])
    return np.flatnonzero(~held), np.flatnonzero(held)


def evaluate(
    net: PolicyNet, data: Positions, rows: NDArray[np.intp], value_weight: float
) -> tuple[float, float, float, float]:
    """(soft cross-entropy, agreement with the teacher, the heuristic's agreement, value MSE) on ``rows``."""
    soft = hits = heuristic = squared = 0.0
    net.eval()
    with torch.no_grad():
        for start in range(0, len(rows), 8192):
            batch = data.minibatch(rows[start : start + 8192])
            logits, value = student_logits(net, batch)
            target = batch[4]
            log_p = torch.log_softmax(logits, dim=1)
            soft += float(-(target * torch.where(target > 0, log_p, torch.zeros_like(log_p))).sum())
            best = target.argmax(1)
            hits += float((logits.argmax(1) == best).sum())
            heuristic += float((batch[5] == best).sum())
            squared += float(((value - batch[6]) ** 2).sum())
    net.train()
    n = max(len(rows), 1)
    return soft / n, hits / n, heuristic / n, squared / n


def fit(
    teacher: PolicyModel,
    data: Positions,
    hidden: tuple[int, ...],
    *,
    epochs: int = 8,
    held_matches: int = 256,
    minibatch: int = 1024,
    learning_rate: float = 2e-3,
    value_weight: float = 0.25,
    seed: int = 0,
    report: Callable[[Epoch], None] | None = None,
    checkpoint: Callable[[PolicyModel, Epoch], None] | None = None,
) -> tuple[PolicyModel, list[Epoch]]:
    """A student of ``hidden`` layers fitted to the teacher's positions (Adam, cosine-decayed rate).

    ``checkpoint`` receives the exported model after every epoch.
    """
    torch.manual_seed(seed)
    net = PolicyNet(data.width, data.actions, hidden, teacher.prior_weight)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate)
    train_rows, held_rows = split(data, held_matches)
    steps = epochs * math.ceil(len(train_rows) / minibatch)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda k: 0.5 * (1 + math.cos(math.pi * min(k, steps) / steps))
    )
    rng = np.random.default_rng(seed)
    epochs_done: list[Epoch] = []
    meta = dict(teacher.meta)
    for epoch in range(epochs):
        start, total = time.process_time(), 0.0
        order = rng.permutation(train_rows)
        for first in range(0, len(order), minibatch):
            rows = order[first : first + minibatch]
            loss, _, _ = _losses(net, data.minibatch(rows), value_weight)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # (torch leaves it untyped)
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(rows)
        held = evaluate(net, data, held_rows, value_weight)
        result = Epoch(epoch, total / max(len(order), 1), *held, time.process_time() - start)
        epochs_done.append(result)
        if report:
            report(result)
        training = dict(teacher.meta.get("training", {}))
        meta["training"] = {
            "recipe": "distilled from the shipped network on its own batch decisions (atout.learn.shrink)",
            "hidden": list(hidden),
            "teacher": {"hidden": training.get("hidden"), "recipe": training.get("recipe")},
            "decisions": len(train_rows),
            "matches": len(np.unique(data.match[train_rows])),
            "epochs": epoch + 1,
            "seed": seed,
            "held_out_agreement": round(result.agreement, 4),
        }
        if checkpoint:
            checkpoint(net.export(meta), result)
    return net.export(meta), epochs_done
