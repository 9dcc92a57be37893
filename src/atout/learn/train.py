"""Training a policy-and-value network on the batch engine: imitation, then self-play PPO against a league.

The recipe, and why:

1. **A start from the heuristic.**  By default the network is a
   *correction* of the game's heuristic (``normal``): its logits plus a
   learned weight (3 at first) on the heuristic's action, so that it plays as
   the heuristic from the first update and learns only where to differ
   (``prior=None``: a plain network, which first imitates the heuristic:
   cross-entropy towards its action).  Either way a first stage of
   ``imitation_decisions``, every seat played by the heuristic, trains the
   value head towards the round's outcome.  A network that starts from
   sensible play learns from meaningful matches at once instead of spending
   its first hour finding out what a trick is.
2. **PPO** (clipped policy gradient with a value baseline).  Each match of
   the batch gets roles when it starts: half of them are **self-play** (every
   seat the learner), the rest put the learner in one seat against the
   heuristic, **frozen snapshots** of the learner (a small league, refreshed
   every ``snapshot_every`` updates) and a few random players — so the policy
   does not over-fit a single opponent.
3. **Returns per round**: a decision's return is its seat's margin over the
   round it was taken in (its score that round minus the mean of the other
   seats'), what the tournaments measure and what the search bot maximises.
   Rounds are scored independently, so this keeps the credit where the
   decision could change it; the matches themselves are whole (never cut at
   one hand), so the network sees every round of a match.

Every match is dealt from a seed at or above :data:`TRAIN_SEED_BASE`, the
evaluations use :data:`~atout.learn.evaluate.EVAL_SEED_BASE` onwards and the
tournaments small seeds: no figure is read on a training deal.  Given the
same seed, options, thread count and ``--decisions`` budget, a run is
reproducible (a ``--minutes`` cap stops it wherever the clock says; a
resumed run restarts the matches that were in flight).

PyTorch is imported here and in :mod:`.network` only (the ``train`` extra).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from ..batch import batch_class
from ..batch.common import Batch
from ..bots.learned import PolicyModel, action_fingerprint, layout_of
from .evaluate import Measure, heuristic_policy, measure
from .network import PolicyNet

__all__ = ["TRAIN_SEED_BASE", "TrainConfig", "Trainer", "train"]

#: Training matches are dealt from seeds at or above this (see the module's docstring).
TRAIN_SEED_BASE = 1 << 40

# Roles a seat of a training match can have.
LEARNER, HEURISTIC, RANDOM, SNAPSHOT = 0, 1, 2, 3

#: What ``atout train`` writes into its output folder.
CHECKPOINT, CURVE, PLOT, MODEL, BEST, CONFIG = (
    "checkpoint.pt",
    "curve.csv",
    "curve.png",
    "model.npz",
    "best.npz",
    "config.json",
)

CURVE_FIELDS = (
    "minutes",
    "decisions",
    "updates",
    "stage",
    "policy_loss",
    "value_loss",
    "entropy",
    "imitation_accuracy",
    "eval_margin",
    "eval_half_width",
)


@dataclass
class TrainConfig:
    """Everything a run depends on (written to ``config.json`` beside the model)."""

    game: str
    players: int = 4
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    #: Wall-clock cap (minutes) and deterministic budget (learner decisions); the first reached ends the run.
    minutes: float = 60.0
    decisions: int | None = None
    #: Matches stepped together.
    matches: int = 256
    hidden: tuple[int, ...] = (256, 256)
    #: The network as a correction of the heuristic: its logits plus a learned weight (starting here) on
    #: the heuristic's action, so it plays as ``normal`` from the start (None: a plain network).
    prior: float | None = 3.0
    #: Decisions of the imitation stage (every seat's, the heuristic playing).
    imitation_decisions: int = 1_000_000
    #: Decisions per update, epochs over them, minibatch size.
    update_size: int = 16_384
    epochs: int = 2
    minibatch: int = 2_048
    #: Adam's step size while imitating (a supervised target: larger steps are safe) and then in PPO.
    imitation_learning_rate: float = 1e-3
    learning_rate: float = 3e-4
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    #: Share of matches in which every seat is the learner; of the others' opponent seats, the
    #: shares played by frozen snapshots and by random players (the rest by the heuristic).
    self_play_share: float = 0.5
    snapshot_share: float = 0.3
    random_share: float = 0.05
    #: A frozen copy of the learner joins the league every this many updates (at most ``league`` kept).
    snapshot_every: int = 20
    league: int = 4
    #: Evaluate (and checkpoint) every this many updates, on this many deals × rotations.
    eval_every: int = 20
    eval_deals: int = 64
    #: PyTorch's threads (the batch engine runs in the main thread).
    threads: int = 2


@dataclass
class Status:
    """What a progress display shows."""

    stage: str
    minutes: float
    decisions: int
    updates: int
    last_eval: Measure | None
    fraction: float


class Buffer:
    """Decisions waiting for their round to end, and those whose return is known.

    Why a buffer and not fixed-length rollouts: a decision's return is known
    only when its round ends, which happens at different steps in different
    matches; rows wait here (``done`` False) until then.
    """

    def __init__(self, width: int, actions: int) -> None:
        self.width, self.actions, self.size = width, actions, 0
        self._grow(1 << 15)

    def _grow(self, capacity: int) -> None:
        old = self.size
        self.capacity = capacity

        def grown(array: NDArray[Any] | None, shape: tuple[int, ...], dtype: Any) -> NDArray[Any]:
            new = np.zeros((capacity, *shape), dtype=dtype)
            if array is not None and old:
                new[:old] = array[:old]
            return new

        self.obs = grown(getattr(self, "obs", None), (self.width,), np.float16)
        self.mask = grown(getattr(self, "mask", None), (self.actions,), np.bool_)
        self.action = grown(getattr(self, "action", None), (), np.int64)
        self.logp = grown(getattr(self, "logp", None), (), np.float32)
        self.value = grown(getattr(self, "value", None), (), np.float32)
        self.match = grown(getattr(self, "match", None), (), np.intp)
        self.seat = grown(getattr(self, "seat", None), (), np.intp)
        self.ret = grown(getattr(self, "ret", None), (), np.float32)
        self.prior = grown(getattr(self, "prior", None), (), np.int64)
        self.done = grown(getattr(self, "done", None), (), np.bool_)

    def add(
        self,
        obs: NDArray[np.float32],
        mask: NDArray[np.bool_],
        action: NDArray[np.intp],
        logp: NDArray[np.float32],
        value: NDArray[np.float32],
        match: NDArray[np.intp],
        seat: NDArray[np.intp],
        prior: NDArray[np.intp] | None = None,
    ) -> None:
        k = len(action)
        if self.size + k > self.capacity:
            self._grow(max(2 * self.capacity, self.size + k))
        at = slice(self.size, self.size + k)
        self.obs[at], self.mask[at], self.action[at] = obs, mask, action
        self.logp[at], self.value[at], self.match[at], self.seat[at] = logp, value, match, seat
        self.prior[at] = 0 if prior is None else prior
        self.done[at] = False
        self.size += k

    def close(self, ended: NDArray[np.bool_], margins: NDArray[np.float64]) -> None:
        """The matches ``ended`` finished a round: their waiting rows get their seat's margin."""
        pending = np.flatnonzero(~self.done[: self.size])
        rows = pending[ended[self.match[pending]]]
        self.ret[rows] = margins[self.match[rows], self.seat[rows]]
        self.done[rows] = True

    @property
    def ready(self) -> int:
        return int(self.done[: self.size].sum())

    def take(self) -> dict[str, NDArray[Any]]:
        """The finished rows (removed), the waiting ones moved to the front."""
        done = self.done[: self.size]
        rows = np.flatnonzero(done)
        out = {
            name: getattr(self, name)[rows].copy()
            for name in ("obs", "mask", "action", "logp", "value", "ret", "prior")
        }
        keep = np.flatnonzero(~done)
        for name in ("obs", "mask", "action", "logp", "value", "match", "seat", "ret", "done", "prior"):
            array = getattr(self, name)
            array[: len(keep)] = array[keep]
        self.size = len(keep)
        return out


def _gumbel_choice(logits: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.intp]:
    """One action per row drawn from softmax(logits) (illegal actions at -inf never drawn)."""
    noise = -np.log(-np.log(rng.random(logits.shape, dtype=np.float32) + 1e-12) + 1e-12)
    choice: NDArray[np.intp] = np.argmax(logits + noise, axis=1)
    return choice


def _log_softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    top = logits.max(axis=1, keepdims=True)
    shifted = logits - top
    result: NDArray[np.float32] = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return result


class Trainer:
    """One training run: its batch, network, optimiser, league, buffer and curve.

    ``out``: the run's folder (checkpoint, curve, plot, models).  With
    ``resume`` and a checkpoint there, the run continues from it.
    """

    def __init__(self, config: TrainConfig, out: str | Path, *, resume: bool = False) -> None:
        self.config = config
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        torch.set_num_threads(config.threads)
        self.cls = batch_class(config.game)
        probe = self.cls(config.players, [TRAIN_SEED_BASE], **config.options)
        self.game = probe.game
        self.width = self.game.information_state_tensor_size()
        self.actions = self.game.num_actions
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.net = self._network()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.imitation_learning_rate)
        self.snapshots: list[PolicyNet] = []
        self.decisions = 0
        self.updates = 0
        self.elapsed = 0.0
        self.value_scale = 0.0
        self.next_seed = TRAIN_SEED_BASE + config.seed * (1 << 32)
        self.curve: list[dict[str, Any]] = []
        self.best: float | None = None
        if resume and (self.out / CHECKPOINT).exists():
            self._restore()
        (self.out / CONFIG).write_text(json.dumps(asdict(config), indent=2, default=list) + "\n")

    def _network(self) -> PolicyNet:
        return PolicyNet(self.width, self.actions, tuple(self.config.hidden), self.config.prior)

    # -- the stages --------------------------------------------------------------------------------
    @property
    def imitating(self) -> bool:
        return self.decisions < self.config.imitation_decisions

    def run(self, progress: Callable[[Status], None] | None = None) -> PolicyModel:
        """Train until the budget is spent; write the models, the curve and the plot; return the last model."""
        config = self.config
        start = time.monotonic() - self.elapsed
        seeds = range(self.next_seed, self.next_seed + config.matches)
        batch = self.cls(
            config.players,
            list(seeds),
            auto_reset=True,
            reset_seeds=itertools.count(self.next_seed + config.matches),
            check=False,
            **config.options,
        )
        first_seed = self.next_seed
        roles = np.zeros((config.matches, config.players), dtype=np.intp)
        for g in range(config.matches):
            roles[g] = self._roles()
        buffer = Buffer(self.width, self.actions)
        last_eval: Measure | None = None
        rows = np.arange(config.matches)

        def budget_fraction() -> float:
            by_time = (time.monotonic() - start) / (60.0 * config.minutes)
            by_count = self.decisions / config.decisions if config.decisions else 0.0
            return max(by_time, by_count)

        was_imitating = self.imitating
        while budget_fraction() < 1.0:
            imitating = self.imitating
            if was_imitating and not imitating:
                # The league's roles from now on; imitation rows (no log-probabilities) are dropped.
                for g in range(config.matches):
                    roles[g] = self._roles()
                buffer.size = 0
            was_imitating = imitating
            rate = config.imitation_learning_rate if imitating else config.learning_rate
            for group in self.optimizer.param_groups:
                group["lr"] = rate
            player = batch.current_player
            seat_role = roles[rows, player]
            x = batch.information_state_tensor()
            mask = batch.legal_mask()
            actions = np.zeros(config.matches, dtype=np.intp)
            needs_heuristic = imitating or config.prior is not None or (seat_role != LEARNER).any()
            heuristic = batch.heuristic_actions() if needs_heuristic else None
            if imitating:
                assert heuristic is not None
                actions[:] = heuristic
                buffer.add(
                    x,
                    mask,
                    heuristic,
                    np.zeros(config.matches, np.float32),
                    np.zeros(config.matches, np.float32),
                    rows,
                    player,
                    heuristic,
                )
                self.decisions += config.matches
            else:
                learners = np.flatnonzero(seat_role == LEARNER)
                if learners.size:
                    prior = None if heuristic is None else heuristic[learners]
                    chosen, logp, value = self._act(self.net, x[learners], mask[learners], prior)
                    actions[learners] = chosen
                    buffer.add(
                        x[learners], mask[learners], chosen, logp, value, learners, player[learners], prior
                    )
                    self.decisions += int(learners.size)
                self._opponents(batch, actions, seat_role, roles, x, mask, heuristic)
            before = batch.round.copy()
            step = batch.step(actions)
            ended = step.terminal | (batch.round != before)
            if ended.any():
                r = step.rewards.astype(np.float64)
                n = config.players
                margins = r - (r.sum(axis=1, keepdims=True) - r) / (n - 1)
                buffer.close(ended, margins)
                for g in np.flatnonzero(step.terminal).tolist():
                    roles[g] = self._roles()
            if buffer.ready >= config.update_size:
                stats = self._update(buffer.take(), imitating)
                self.updates += 1
                self.elapsed = time.monotonic() - start
                self.next_seed = first_seed + config.matches + batch.matches_done
                row: dict[str, Any] = {
                    "minutes": round(self.elapsed / 60, 3),
                    "decisions": self.decisions,
                    "updates": self.updates,
                    "stage": "imitation" if imitating else "ppo",
                    **stats,
                }
                if not imitating and self.updates % config.snapshot_every == 0:
                    self._snapshot()
                if self.updates % config.eval_every == 0:
                    last_eval = self.evaluate()
                    row["eval_margin"] = round(last_eval.margin, 4)
                    row["eval_half_width"] = round(last_eval.half_width, 4)
                    if not imitating and (self.best is None or last_eval.margin > self.best):
                        self.best = last_eval.margin
                        self.export(self.out / BEST)
                    self.curve.append(row)
                    self.checkpoint()
                else:
                    self.curve.append(row)
            if progress is not None:
                progress(
                    Status(
                        "imitation" if imitating else "ppo",
                        (time.monotonic() - start) / 60,
                        self.decisions,
                        self.updates,
                        last_eval,
                        min(1.0, budget_fraction()),
                    )
                )
        self.elapsed = time.monotonic() - start
        self.next_seed = first_seed + config.matches + batch.matches_done
        final = self.evaluate()
        self.curve.append(
            {
                "minutes": round(self.elapsed / 60, 3),
                "decisions": self.decisions,
                "updates": self.updates,
                "stage": "final",
                "eval_margin": round(final.margin, 4),
                "eval_half_width": round(final.half_width, 4),
            }
        )
        if not self.imitating and (self.best is None or final.margin > self.best):
            self.best = final.margin
            self.export(self.out / BEST)
        model = self.export(self.out / MODEL)
        if not (self.out / BEST).exists():
            self.export(self.out / BEST)
        self.checkpoint()
        return model

    # -- acting --------------------------------------------------------------------------------------
    def _roles(self) -> NDArray[np.intp]:
        """The seats' roles for a new match (see the module's docstring)."""
        config, n = self.config, self.config.players
        if self.imitating:
            return np.full(n, HEURISTIC, dtype=np.intp)
        if self.rng.random() < config.self_play_share:
            return np.full(n, LEARNER, dtype=np.intp)
        roles = np.full(n, HEURISTIC, dtype=np.intp)
        draws = self.rng.random(n)
        if self.snapshots:
            pick = self.rng.integers(len(self.snapshots), size=n)
            roles = np.where(draws < config.snapshot_share, SNAPSHOT + pick, roles)
        roles = np.where(draws > 1.0 - config.random_share, RANDOM, roles)
        roles[self.rng.integers(n)] = LEARNER
        return roles

    @torch.no_grad()
    def _act(
        self,
        net: PolicyNet,
        x: NDArray[np.float32],
        mask: NDArray[np.bool_],
        prior: NDArray[np.intp] | None,
    ) -> tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.float32]]:
        """Actions drawn from ``net``'s policy, their log-probabilities and the values."""
        logits_t, value_t = net(torch.from_numpy(x), None if prior is None else torch.from_numpy(prior))
        logits = np.where(mask, logits_t.numpy(), -np.inf).astype(np.float32)
        chosen = _gumbel_choice(logits, self.rng)
        logp = _log_softmax(logits)[np.arange(len(chosen)), chosen]
        return chosen, logp.astype(np.float32), value_t.numpy().astype(np.float32)

    def _opponents(
        self,
        batch: Batch,
        actions: NDArray[np.intp],
        seat_role: NDArray[np.intp],
        roles: NDArray[np.intp],
        x: NDArray[np.float32],
        mask: NDArray[np.bool_],
        heuristic: NDArray[np.intp] | None,
    ) -> None:
        """The actions of the matches whose player to act is not the learner."""
        if heuristic is not None:
            where = seat_role == HEURISTIC
            actions[where] = heuristic[where]
        randoms = np.flatnonzero(seat_role == RANDOM)
        if randoms.size:
            flat = np.where(mask[randoms], 0.0, -np.inf).astype(np.float32)
            actions[randoms] = _gumbel_choice(flat, self.rng)
        for k, snapshot in enumerate(self.snapshots):
            rows = np.flatnonzero(seat_role == SNAPSHOT + k)
            if rows.size:
                prior = None if heuristic is None else heuristic[rows]
                actions[rows] = self._act(snapshot, x[rows], mask[rows], prior)[0]

    def _snapshot(self) -> None:
        frozen = self._network()
        frozen.load_state_dict(self.net.state_dict())
        frozen.eval()
        self.snapshots.append(frozen)
        del self.snapshots[: -self.config.league]

    # -- learning ------------------------------------------------------------------------------------
    def _update(self, data: dict[str, NDArray[Any]], imitating: bool) -> dict[str, float]:
        """One update over finished decisions: imitation (cross-entropy) or PPO."""
        config = self.config
        if self.value_scale == 0.0:
            self.value_scale = float(max(np.std(data["ret"]), 1e-3))
        obs = torch.from_numpy(data["obs"].astype(np.float32))
        mask = torch.from_numpy(data["mask"])
        action = torch.from_numpy(data["action"])
        prior = torch.from_numpy(data["prior"]) if config.prior is not None else None
        ret = torch.from_numpy(data["ret"] / self.value_scale)
        old_logp = torch.from_numpy(data["logp"])
        advantage = ret - torch.from_numpy(data["value"])
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "imitation_accuracy": 0.0}
        count = 0
        size = len(action)
        generator = torch.Generator().manual_seed(int(self.rng.integers(1 << 62)))
        for _ in range(config.epochs):
            order = torch.randperm(size, generator=generator)
            for at in range(0, size, config.minibatch):
                rows = order[at : at + config.minibatch]
                logits, value = self.net(obs[rows], None if prior is None else prior[rows])
                logits = logits.masked_fill(~mask[rows], -1e9)
                logp_all = torch.log_softmax(logits, dim=-1)
                logp = logp_all.gather(1, action[rows, None]).squeeze(1)
                entropy = -(logp_all.exp() * logp_all).sum(-1).mean()
                value_loss = ((value - ret[rows]) ** 2).mean()
                if imitating:
                    policy_loss = -logp.mean()
                    accuracy = (logits.argmax(-1) == action[rows]).float().mean()
                    # With the heuristic as a prior the policy already plays as the heuristic:
                    # only the value head warms up (pushing the prior's weight up would only make
                    # the later deviations harder to learn).
                    loss = config.value_coef * value_loss
                    if config.prior is None:
                        loss = loss + policy_loss
                else:
                    ratio = (logp - old_logp[rows]).exp()
                    adv = advantage[rows]
                    clipped = ratio.clamp(1 - config.clip, 1 + config.clip)
                    policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                    accuracy = torch.tensor(0.0)
                    loss = policy_loss + config.value_coef * value_loss - config.entropy_coef * entropy
                self.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 1.0)
                self.optimizer.step()
                totals["policy_loss"] += policy_loss.item()
                totals["value_loss"] += value_loss.item()
                totals["entropy"] += entropy.item()
                totals["imitation_accuracy"] += accuracy.item()
                count += 1
        out = {name: round(total / max(count, 1), 5) for name, total in totals.items()}
        if not imitating:
            out["imitation_accuracy"] = float("nan")
        return out

    # -- measuring and saving -----------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The model's metadata: what it reads and answers, how it was trained."""
        config = self.config
        return {
            "game": self.game.name,
            "players": config.players,
            "options": {k: v for k, v in self.game.options.items() if isinstance(v, (int, str, bool, float))},
            "layout": layout_of(self.game),
            "num_actions": self.actions,
            "actions": action_fingerprint(self.game),
            "value_scale": self.value_scale or 1.0,
            "training": {
                "seed": config.seed,
                "decisions": self.decisions,
                "updates": self.updates,
                "minutes": round(self.elapsed / 60, 2),
                "hidden": list(config.hidden),
                "recipe": (
                    "PPO as a correction of the heuristic (its choice a learned prior in the logits): "
                    "self-play, heuristic, league of snapshots"
                    if config.prior is not None
                    else "imitation of the heuristic, then PPO: self-play, heuristic, league of snapshots"
                ),
            },
        }

    def export(self, path: Path) -> PolicyModel:
        model = self.net.export(self.meta())
        model.save(path)
        return model

    def evaluate(self) -> Measure:
        """The current network (greedy) against the heuristic, duplicate deals × rotations, held-out seeds."""
        model = self.net.export(self.meta())

        def candidate(batch: Batch, rows: NDArray[np.intp]) -> NDArray[np.intp]:
            x = batch.information_state_tensor()[rows]
            prior = heuristic_policy(batch, rows) if model.prior_weight is not None else None
            return model.best_actions(x, batch.legal_mask()[rows], prior)

        return measure(
            self.config.game,
            self.config.players,
            candidate,
            heuristic_policy,
            deals=self.config.eval_deals,
            options=self.config.options,
        )

    def checkpoint(self) -> None:
        """Everything a resumed run needs, and the curve and its plot as they stand."""
        state = {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "snapshots": [s.state_dict() for s in self.snapshots],
            "decisions": self.decisions,
            "updates": self.updates,
            "elapsed": self.elapsed,
            "value_scale": self.value_scale,
            "next_seed": self.next_seed,
            "curve": self.curve,
            "best": self.best,
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }
        tmp = self.out / (CHECKPOINT + ".tmp")
        torch.save(state, tmp)
        tmp.replace(self.out / CHECKPOINT)
        self.write_curve()

    def _restore(self) -> None:
        state = torch.load(self.out / CHECKPOINT, weights_only=False)
        self.net.load_state_dict(state["net"])
        self.optimizer.load_state_dict(state["optimizer"])
        for saved in state["snapshots"]:
            frozen = self._network()
            frozen.load_state_dict(saved)
            self.snapshots.append(frozen)
        self.decisions = int(state["decisions"])
        self.updates = int(state["updates"])
        self.elapsed = float(state["elapsed"])
        self.value_scale = float(state["value_scale"])
        self.next_seed = int(state["next_seed"])
        self.curve = list(state["curve"])
        self.best = state["best"]
        self.rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])

    def write_curve(self) -> None:
        """``curve.csv`` (one row per update) and ``curve.png`` (the evaluations and the losses)."""
        with open(self.out / CURVE, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=CURVE_FIELDS, extrasaction="ignore")
            writer.writeheader()
            for row in self.curve:
                writer.writerow(
                    {k: ("" if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
                )
        plot_curve(self.curve, self.out / PLOT, f"{self.game.title}, {self.config.players} players")


def plot_curve(curve: list[dict[str, Any]], path: Path, title: str) -> None:
    """The learning curve: margin against the heuristic (95% band) and the losses, by minutes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals = [r for r in curve if r.get("eval_margin") not in (None, "")]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    if evals:
        t = [r["minutes"] for r in evals]
        m = np.array([r["eval_margin"] for r in evals], dtype=float)
        h = np.array([r["eval_half_width"] for r in evals], dtype=float)
        top.plot(t, m, marker="o", color="#1f6f43")
        top.fill_between(t, m - h, m + h, alpha=0.25, color="#1f6f43")
    top.axhline(0.0, color="grey", linewidth=0.8)
    top.set_ylabel("margin / round vs normal")
    top.set_title(title)
    rows = [r for r in curve if r.get("policy_loss") is not None]
    if rows:
        t = [r["minutes"] for r in rows]
        bottom.plot(t, [r["value_loss"] for r in rows], label="value loss")
        bottom.plot(t, [r["entropy"] for r in rows], label="entropy")
        bottom.legend()
    bottom.set_xlabel("minutes")
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def train(
    config: TrainConfig,
    out: str | Path,
    *,
    resume: bool = False,
    progress: Callable[[Status], None] | None = None,
) -> PolicyModel:
    """Run (or resume) a training run into ``out``; the last model is also ``out/model.npz``."""
    return Trainer(config, out, resume=resume).run(progress)
