"""Distillation: the policy network learns the search's choices (the first step of expert iteration).

Why: inside the search, the playout policy is the model of every seat — the
other players *and* the searcher's own later decisions.  bench/RESULTS.md
shows that this model, not the number of sampled worlds, limits the search:
a table fitted to the search bot's own choices (Wizard's
``playout_table``) lifted expert from +2 to +12 points a round over the same
deals, while a policy trained by PPO to beat the heuristic is a good player
but not a model of how the search players at the table play.  Here the
network is trained by cross-entropy towards a *teacher* bot's choices
(``hard``: the search bot; or any spec :func:`~atout.bots.factory.make_bot`
knows), from the teacher's own views, starting from a model (by default the
game's shipped one, so the PPO features are kept) — the model of strong play,
learned from the information-state tensor instead of a hand-picked handful of
readings.

The teacher plays every seat of whole matches through the engine (the bots'
contract: each decision is taken, and recorded, from that seat's view only);
a decision is recorded when it has more than one legal action.  Match seeds
start at :data:`DISTILL_SEED_BASE`, away from the training, evaluation and
tournament seeds.  The decisions are kept in a compressed ``.npz``
(:class:`Decisions`) so a long collection can be reused, grown and refitted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from ..bots.factory import make_bot
from ..bots.learned import PolicyModel, model_meta
from ..bots.path import bot_from_path
from ..core.bot import Bot
from ..core.game import Game, State
from ..core.registry import load
from ..match import derive_seed, play_match
from .network import PolicyNet, SparseInput
from .train import TrainConfig

__all__ = ["DISTILL_SEED_BASE", "Decisions", "Fit", "collect", "distill", "fresh_model", "network_from_model"]

#: Teacher matches are dealt from seeds derived from here (training: 2^40, evaluations: 2^39).
DISTILL_SEED_BASE = 1 << 41

#: Held-out share of the decisions (whole matches: the last ones) for the agreement figures.
HOLDOUT = 0.1


@dataclass
class Decisions:
    """Teacher-labelled decisions, sparse: the nonzero entries of each view's tensor.

    Row ``i``'s tensor entries are ``columns[offsets[i]:offsets[i+1]]`` with
    their ``values``; its legal actions ``legal[legal_offsets[i]:legal_offsets[i+1]]``;
    ``prior`` is the heuristic's action (what a model with a heuristic prior
    reads), ``label`` the teacher's, ``match`` the match it came from.
    ``teacher``: the bot spec whose choices the labels are, kept in the file so
    that a refit names the right teacher and a run never mixes two of them
    ("" in files written before it was recorded).
    """

    width: int
    match: NDArray[np.int32]
    offsets: NDArray[np.int64]
    columns: NDArray[np.int32]
    values: NDArray[np.float32]
    legal_offsets: NDArray[np.int64]
    legal: NDArray[np.int32]
    prior: NDArray[np.int32]
    label: NDArray[np.int32]
    teacher: str = ""

    def __len__(self) -> int:
        return len(self.label)

    @classmethod
    def join(cls, parts: Iterable[Decisions]) -> Decisions:
        """One collection from several (offsets shifted), in the order given."""
        parts = list(parts)
        if not parts:
            raise ValueError("no decisions to join")
        width = parts[0].width
        if any(p.width != width for p in parts):
            raise ValueError("these decisions read tensors of different widths")
        teachers = sorted({p.teacher for p in parts} - {""})
        if len(teachers) > 1:
            raise ValueError(
                f"these decisions are of different teachers ({', '.join(teachers)}): fit one at a time"
            )

        def chain(name: str) -> NDArray[Any]:
            return np.concatenate([getattr(p, name) for p in parts])

        def shifted(name: str, data: str) -> NDArray[np.int64]:
            out, base = [np.zeros(1, np.int64)], 0
            for p in parts:
                out.append(getattr(p, name)[1:] + base)
                base += len(getattr(p, data))
            return np.concatenate(out)

        return cls(
            width=width,
            match=chain("match"),
            offsets=shifted("offsets", "columns"),
            columns=chain("columns"),
            values=chain("values"),
            legal_offsets=shifted("legal_offsets", "legal"),
            legal=chain("legal"),
            prior=chain("prior"),
            label=chain("label"),
            teacher=teachers[0] if teachers else "",
        )

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            width=np.array(self.width),
            teacher=np.array(self.teacher),
            **{k: getattr(self, k) for k in _ARRAYS},
        )

    @classmethod
    def load(cls, path: str | Path) -> Decisions:
        with np.load(path) as data:
            missing = [k for k in ("width", *_ARRAYS) if k not in data]
            if missing:
                raise ValueError(f"{path}: not a decisions file (missing {', '.join(missing)})")
            teacher = str(data["teacher"]) if "teacher" in data else ""
            return cls(width=int(data["width"]), teacher=teacher, **{k: data[k] for k in _ARRAYS})

    def split(self) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Row indices of the training part and the held-out part (the last matches)."""
        matches = np.unique(self.match)
        held = (
            matches[len(matches) - max(1, round(len(matches) * HOLDOUT)) :]
            if len(matches) > 1
            else matches[:0]
        )
        out = np.isin(self.match, held)
        return np.flatnonzero(~out), np.flatnonzero(out)

    def tensors(
        self, rows: NDArray[np.intp], actions: int
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        """Dense (x, legal mask as 0/-inf, prior, label) for these rows."""
        starts, ends = self.offsets[rows], self.offsets[rows + 1]
        index = _spans(starts, ends)
        x = torch.zeros(len(rows), self.width)
        x[
            torch.from_numpy(np.repeat(np.arange(len(rows)), ends - starts)),
            torch.from_numpy(self.columns[index]).long(),
        ] = torch.from_numpy(self.values[index])
        lstarts, lends = self.legal_offsets[rows], self.legal_offsets[rows + 1]
        lindex = _spans(lstarts, lends)
        mask = torch.full((len(rows), actions), float("-inf"))
        mask[
            torch.from_numpy(np.repeat(np.arange(len(rows)), lends - lstarts)),
            torch.from_numpy(self.legal[lindex]).long(),
        ] = 0.0
        return x, mask, torch.from_numpy(self.prior[rows]).long(), torch.from_numpy(self.label[rows]).long()


def _spans(starts: NDArray[np.int64], ends: NDArray[np.int64]) -> NDArray[np.int64]:
    """The indices of the ranges ``[starts[i], ends[i])``, one after another (vectorised)."""
    lengths = ends - starts
    before = np.cumsum(lengths) - lengths
    return np.repeat(starts - before, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)


_ARRAYS = ("match", "offsets", "columns", "values", "legal_offsets", "legal", "prior", "label")


class _Recorder:
    """Records each decision of a match from the deciding seat's view (``play_match``'s callback)."""

    def __init__(self, game: Game, match: int, seed: int) -> None:
        self.game = game
        self.match = match
        self.buffer = np.zeros(game.information_state_tensor_size(), dtype=np.float32)
        self.heuristics: dict[int, Bot] = {}
        self.seed = seed
        self.rows: list[tuple[NDArray[np.int32], NDArray[np.float32], list[int], int, int]] = []

    def _heuristic(self, seat: int) -> Bot:
        bot = self.heuristics.get(seat)
        if bot is None:
            bot = self.heuristics[seat] = bot_from_path(
                self.game.bots["heuristic"], derive_seed(self.seed, "h", seat)
            )
            bot.start(self.game, seat)
        return bot

    def __call__(self, state: State, seat: int, action: int) -> None:
        view = state.view(seat)
        legal = view.legal_actions
        if len(legal) < 2:
            return
        self.buffer.fill(0.0)
        self.game.write_tensor(view, True, self.buffer)
        found = np.flatnonzero(self.buffer).astype(np.int32)
        self.rows.append(
            (found, self.buffer[found].copy(), list(legal), self._heuristic(seat).choose(view), action)
        )

    def decisions(self, teacher: str) -> Decisions:
        rows = self.rows
        lengths = np.array([len(r[0]) for r in rows], np.int64)
        legal_lengths = np.array([len(r[2]) for r in rows], np.int64)
        return Decisions(
            width=len(self.buffer),
            match=np.full(len(rows), self.match, np.int32),
            offsets=np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64),
            columns=np.concatenate([r[0] for r in rows]) if rows else np.zeros(0, np.int32),
            values=np.concatenate([r[1] for r in rows]) if rows else np.zeros(0, np.float32),
            legal_offsets=np.concatenate([[0], np.cumsum(legal_lengths)]).astype(np.int64),
            legal=np.array([a for r in rows for a in r[2]], np.int32),
            prior=np.array([r[3] for r in rows], np.int32),
            label=np.array([r[4] for r in rows], np.int32),
            teacher=teacher,
        )


def _one_match(job: tuple[str, int, dict[str, Any], str, int, int]) -> Decisions:
    """Play match ``index`` with the teacher in every seat (a pool task: plain arguments)."""
    name, players, options, teacher, seed, index = job
    game = load(name, players, **options)
    if "heuristic" not in game.bots:
        raise ValueError(f"{game.name} has no heuristic for the model's prior")
    match_seed = derive_seed(DISTILL_SEED_BASE + seed, "match", index)
    bots = [
        make_bot(teacher, game, derive_seed(match_seed, "seat", s), caps=False) for s in range(game.players)
    ]
    recorder = _Recorder(game, index, match_seed)
    play_match(game, bots, match_seed, recorder)
    return recorder.decisions(teacher)


def _single_threaded() -> None:
    torch.set_num_threads(1)


def collect(
    game: Game,
    teacher: str,
    matches: int,
    seed: int = 0,
    *,
    first: int = 0,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Decisions:
    """Play ``matches`` teacher matches (numbered from ``first``) and record every decision.

    ``workers`` > 1 plays them in a process pool (results in match order, so
    the collection does not depend on the number of workers).
    """
    make_bot(teacher, game, 0, caps=False)  # an unknown teacher fails here, not in a worker
    jobs = [(game.name, game.players, dict(game.options), teacher, seed, first + i) for i in range(matches)]
    parts: list[Decisions] = []
    if workers <= 1:
        for job in jobs:
            parts.append(_one_match(job))
            if progress:
                progress(len(parts), matches)
    else:
        with get_context("spawn").Pool(workers, initializer=_single_threaded) as pool:
            for part in pool.imap(_one_match, jobs):
                parts.append(part)
                if progress:
                    progress(len(parts), matches)
    return Decisions.join(parts)


#: A fresh network's hidden layers and the weight of the heuristic's choice in its logits at the
#: start: the trainer's defaults, so both start from the same network.
FRESH_HIDDEN = TrainConfig.hidden
FRESH_PRIOR = TrainConfig.prior


def fresh_model(game: Game, seed: int = 0) -> PolicyModel:
    """A new network for ``game`` that plays as its heuristic: the start of a distillation where no
    model is shipped for the player count.

    Why not from scratch: with the heuristic's choice as a learned prior in the logits (weight
    :data:`FRESH_PRIOR`) and a near-zero policy head, the network starts as the heuristic, and the
    fit only learns where the teacher differs from it (bench/RESULTS.md, stop 25).
    """
    if "heuristic" not in game.bots:
        raise ValueError(f"{game.name} has no heuristic for the model's prior")
    torch.manual_seed(seed)
    net = PolicyNet(game.information_state_tensor_size(), game.num_actions, FRESH_HIDDEN, FRESH_PRIOR)
    training = {
        "seed": seed,
        "hidden": list(FRESH_HIDDEN),
        "recipe": "a fresh network, the heuristic's choice as a prior",
    }
    return net.export(model_meta(game, training))


def network_from_model(model: PolicyModel) -> PolicyNet:
    """A trainable network holding a numpy model's weights (the start of a distillation)."""
    trunk = model.trunk
    hidden = tuple(int(np.asarray(w).shape[1]) for w, _ in trunk)
    inputs = int(np.asarray(trunk[0][0]).shape[0])
    actions = int(np.asarray(model.policy[0]).shape[1])
    net = PolicyNet(inputs, actions, hidden, model.prior_weight)
    layers = [m for m in net.trunk if not isinstance(m, torch.nn.ReLU)]

    def tensor(a: Any) -> torch.Tensor:
        return torch.tensor(np.asarray(a, np.float32))

    with torch.no_grad():
        for layer, (w, b) in zip(layers, trunk, strict=True):
            if isinstance(layer, SparseInput):
                layer.weight.copy_(tensor(w))
            else:
                assert isinstance(layer, torch.nn.Linear)
                layer.weight.copy_(tensor(w).T)
            layer.bias.copy_(tensor(b))
        for head, (w, b) in ((net.policy, model.policy), (net.value, model.value)):
            head.weight.copy_(tensor(w).T)
            head.bias.copy_(tensor(b))
        if net.prior_weight is not None and model.prior_weight is not None:
            net.prior_weight.fill_(float(model.prior_weight))
    return net


@dataclass(frozen=True)
class Fit:
    """One epoch's figures: training loss, held-out loss and agreement with the teacher."""

    epoch: int
    loss: float
    held_loss: float
    agreement: float
    heuristic_agreement: float
    seconds: float


def _held_out(
    net: PolicyNet, data: Decisions, rows: NDArray[np.intp], actions: int
) -> tuple[float, float, float]:
    """(loss, network's agreement, heuristic's agreement) on these rows."""
    if not len(rows):
        return float("nan"), float("nan"), float("nan")
    loss = hits = heuristic = 0.0
    net.eval()
    with torch.no_grad():
        for start in range(0, len(rows), 4096):
            x, mask, prior, label = data.tensors(rows[start : start + 4096], actions)
            logits = net(x, prior)[0] + mask
            loss += float(torch.nn.functional.cross_entropy(logits, label, reduction="sum"))
            hits += float((logits.argmax(1) == label).sum())
            heuristic += float((prior == label).sum())
    net.train()
    n = len(rows)
    return loss / n, hits / n, heuristic / n


def distill(
    model: PolicyModel,
    data: Decisions,
    epochs: int = 4,
    *,
    learning_rate: float = 3e-4,
    minibatch: int = 512,
    seed: int = 0,
    teacher: str = "",
    report: Callable[[Fit], None] | None = None,
) -> tuple[PolicyModel, list[Fit]]:
    """Fine-tune ``model`` towards the teacher's choices; the new model and each epoch's figures.

    The loss is the cross-entropy of the teacher's action under the legal
    actions' softmax; the held-out matches (:data:`HOLDOUT`) give the
    agreement figures.  The value head is kept as it was.  ``teacher``, written
    in the model's card, defaults to the one the decisions record.
    """
    actions = int(np.asarray(model.policy[0]).shape[1])
    if data.width != int(np.asarray(model.trunk[0][0]).shape[0]):
        raise ValueError(
            f"the decisions read tensors of width {data.width}, the model {model.trunk[0][0].shape[0]}"
        )
    torch.manual_seed(seed)
    net = network_from_model(model)
    optimizer = torch.optim.Adam(net.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    train_rows, held_rows = data.split()
    fits: list[Fit] = []
    if report:  # the starting model's figures, for comparison (epoch -1)
        report(Fit(-1, float("nan"), *_held_out(net, data, held_rows, actions), 0.0))
    for epoch in range(epochs):
        start, total = time.monotonic(), 0.0
        order = rng.permutation(train_rows)
        for first in range(0, len(order), minibatch):
            rows = order[first : first + minibatch]
            x, mask, prior, label = data.tensors(rows, actions)
            loss = torch.nn.functional.cross_entropy(net(x, prior)[0] + mask, label)
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # (torch leaves it untyped)
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        held = _held_out(net, data, held_rows, actions)
        fit = Fit(epoch, total / max(len(order), 1), *held, time.monotonic() - start)
        fits.append(fit)
        if report:
            report(fit)
    meta = dict(model.meta)
    training = dict(meta.get("training", {}))
    training["distilled"] = {
        "teacher": teacher or data.teacher,
        "decisions": len(train_rows),
        "matches": len(np.unique(data.match)),
        "epochs": epochs,
        "held_out_agreement": round(fits[-1].agreement, 4) if fits else None,
    }
    meta["training"] = training
    return net.export(meta), fits
