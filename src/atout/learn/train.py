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

import copy
import csv
import json
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from ..batch import batch_class
from ..bots.learned import PolicyModel, model_meta
from .evaluate import EVAL_SEED_BASE, Measure, ModelPolicy, heuristic_policy, measure
from .network import PolicyNet
from .selfplay import Collected, SelfPlay, SelfPlayActor

__all__ = ["TRAIN_SEED_BASE", "Ledger", "TrainConfig", "Trainer", "train"]

#: One update's self-play: ``(imitating, keep_going)`` to its decisions, or None when given up.
Collect = Callable[[bool, Callable[[int, int], bool]], Collected | None]

#: Training matches are dealt from seeds at or above this (see the module's docstring).
TRAIN_SEED_BASE = 1 << 40
#: Seeds reserved per Ray actor and run segment (each actor deals from its own range).
ACTOR_SEEDS = 1 << 28

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
    #: This update was evaluated and checkpointed (or it is the run's end): what a log line reports.
    checkpoint: bool = False


#: Fewest deals an evaluation is run on when the time left makes it smaller (the budget is the whole
#: run's, evaluations included).
MIN_EVAL_DEALS = 2
#: Most of the budget kept for the final evaluation (it shrinks to fit; at least MIN_EVAL_DEALS).
FINAL_EVAL_SHARE = 0.2
#: An evaluation's deals are played in groups of this many, so that it can stop at its deadline.
EVAL_CHUNK = 8
#: An update's pace is judged once 1/JUDGED_AFTER of its decisions is played (before: its first steps' warm-up).
JUDGED_AFTER = 16
#: Seconds kept for writing the files (checkpoint, curve, plot, models) until a checkpoint is timed.
WRITE_GUESS = 1.0


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """numpy's BLAS limited to one thread inside (threadpoolctl; without it, nothing changes).

    Why: the evaluations play the network with numpy (``PolicyModel``), a product per decision
    for a few rows, and OpenBLAS starts a thread per core for each while PyTorch keeps its own;
    on 2 shared cores they wait on each other.  Measured (Wizard, 4 players, the default
    network, CPU time of the process, loaded machine): an evaluation of 1 deal 4.0-4.1 s with
    OpenBLAS's threads against 0.6 with one, of 4 deals 19-21 s against 1.4 (the threads'
    cost also grew faster than the deals, which misled the budget's plans).
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - the train extra brings it
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def pooled(parts: list[Measure]) -> Measure:
    """The measure of the deals of ``parts`` taken together (their per-deal margins' mean and 95%
    half-interval, exactly as one measure of all of them: the spreads are pooled by sums of squares)."""
    deals = sum(p.deals for p in parts)
    mean = sum(p.margin * p.deals for p in parts) / deals
    squares = sum(
        (p.half_width * math.sqrt(p.deals) / 1.96) ** 2 * (p.deals - 1) + p.deals * (p.margin - mean) ** 2
        for p in parts
    )
    spread = math.sqrt(squares / (deals - 1)) if deals > 1 else 0.0
    rounds = sum(p.rounds * p.deals for p in parts) / deals
    return Measure(margin=mean, half_width=1.96 * spread / math.sqrt(deals), deals=deals, rounds=rounds)


class Abandoned(Exception):
    """An update given up half-way: at its pace so far it would have ended past its deadline."""


@dataclass
class Ledger:
    """The trainer's own accounting of a run's budget, in seconds of its clock: planned and spent.

    Why kept: ``--minutes`` is the whole run's budget, and what the run did
    with it is checkable without timing anything (the tests read it with a
    fake clock).  ``spent`` runs from the run's start (a resumed run's earlier
    segments included) to its last file written.
    """

    budget: float
    spent: float = 0.0
    #: An evaluation's seconds per deal as planned: the probe timed at the start, then
    #: each evaluation's own (spent over its deals).
    per_deal: float = 0.0
    #: Seconds of that probe (an evaluation of MIN_EVAL_DEALS deals at the start).
    probe: float = 0.0
    #: Seconds between the budget's start and the run's (``atout train``: its imports and set-up).
    setup: float = 0.0
    #: Each completed update's seconds (self-play and learning).
    updates: list[float] = field(default_factory=list)
    #: Seconds of an update given up because, at its pace, it would not have fitted (0: none).
    abandoned: float = 0.0
    #: Each evaluation's deals, planned seconds and spent seconds (the final one last).
    evaluations: list[tuple[int, float, float]] = field(default_factory=list)
    #: Each time the files were written (checkpoints, the final models and curve).
    writes: list[float] = field(default_factory=list)
    #: Seconds left when the final evaluation was planned (it runs if MIN_EVAL_DEALS fit in them).
    final_left: float = 0.0

    @property
    def overrun(self) -> float:
        """Seconds spent past the budget (negative: left unspent)."""
        return self.spent - self.budget

    def summary(self) -> str:
        """One line: what the budget went to (``atout train`` prints it at the end)."""
        parts = [f"budget {self.budget:.0f} s, spent {self.spent:.1f} s", f"set-up {self.setup:.1f} s"]
        parts.append(f"probe {self.probe:.1f} s")
        parts.append(f"{len(self.updates)} updates ({sum(self.updates):.1f} s)")
        if self.abandoned:
            parts.append(f"one given up after {self.abandoned:.1f} s (it would not have fitted)")
        deals = sum(d for d, _, _ in self.evaluations)
        spent = sum(s for _, _, s in self.evaluations)
        parts.append(f"{len(self.evaluations)} evaluations, {deals} deals ({spent:.1f} s)")
        parts.append(f"an evaluation deal {self.per_deal:.1f} s")
        parts.append(f"files {sum(self.writes):.1f} s")
        return "; ".join(parts)


class Trainer:
    """One training run: its batch, network, optimiser, league, buffer and curve.

    ``out``: the run's folder (checkpoint, curve, plot, models).  With
    ``resume`` and a checkpoint there, the run continues from it.
    """

    def __init__(
        self,
        config: TrainConfig,
        out: str | Path,
        *,
        resume: bool = False,
        ray: str | None = None,
        actors: int = 2,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if actors < 1:
            raise ValueError("actors must be at least 1")
        self.config = config
        #: A Ray address (or "local"): self-play in ``actors`` Ray actors, evaluation in Ray tasks.
        self.ray = ray
        self.actors = actors
        #: Seconds, for the budget (a fake one in tests: the budget's logic checked without timing).
        self.clock = clock
        self.ledger = Ledger(60.0 * config.minutes)
        self._learn_seconds = 0.0
        self._play: SelfPlay | None = None
        self._play_rng: dict[str, Any] | None = None
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

    def run(
        self, progress: Callable[[Status], None] | None = None, started: float | None = None
    ) -> PolicyModel:
        """Train until the budget is spent; write the models, the curve and the plot; return the last model.

        ``started``: when the budget began, by :attr:`clock` (default: now); ``atout train`` passes
        the command's start, so that its imports and set-up are in the budget too.

        numpy's BLAS runs on one thread meanwhile (:func:`one_blas_thread`): the evaluations'
        numpy network with OpenBLAS's default threads beside PyTorch's cost 6-14 times more.
        """
        with one_blas_thread():
            return self._run(progress, self.clock() if started is None else started)

    def _run(self, progress: Callable[[Status], None] | None, started: float) -> PolicyModel:
        """:meth:`run`'s work.

        ``minutes`` is the whole run's, evaluations and files included, and the
        run plans with what it measures (:class:`Ledger` keeps the account): an
        evaluation's cost per deal is timed at the start on the smallest
        evaluation (MIN_EVAL_DEALS deals), then taken from each evaluation
        run; the final evaluation keeps a share of the budget (none is run
        when not even the smallest fits); the files keep their last measured
        writing time (:data:`WRITE_GUESS` before the first); an update starts
        only when the last one's time still fits, and every update, the first
        above all (its cost is unknown beforehand), is watched as it runs: its
        self-play's pace after every batch step and its learning's after
        every minibatch are scaled to the whole, and an update that would end
        past its deadline is given up and undone.  Evaluations are played in
        groups of deals and stop before a group that would end past their
        deadline.  What a run may still overrun by: one batch step or one
        minibatch, an evaluation's first group (MIN_EVAL_DEALS deals) slower
        than its plan, and the probe itself when the budget is smaller.
        """
        config, clock = self.config, self.clock
        start = started - self.elapsed
        collect = self._ray_self_play() if self.ray else self._local_self_play()
        last_eval: Measure | None = None
        budget = 60.0 * config.minutes
        ledger = self.ledger = Ledger(budget, setup=clock() - started)

        def budget_fraction() -> float:
            by_time = (clock() - start) / budget
            by_count = self.decisions / config.decisions if config.decisions else 0.0
            return max(by_time, by_count)

        def left() -> float:
            return budget - (clock() - start)

        ledger.per_deal = self._time_evaluation()
        ledger.probe = ledger.per_deal * MIN_EVAL_DEALS

        def fitting(seconds: float) -> int:
            """The deals an evaluation may measure in ``seconds`` (at most ``eval_deals``)."""
            per_deal = ledger.per_deal
            return min(config.eval_deals, int(seconds / per_deal)) if per_deal > 0 else config.eval_deals

        def timed_evaluation(deals: int, until: float) -> Measure:
            """``deals`` deals in groups (MIN_EVAL_DEALS first, then EVAL_CHUNK), stopping before a
            group that its pace so far would end after ``until`` (the budget's clock): the plan per
            deal may misjudge a loaded machine (a 64-deal final evaluation planned at 51 s took 142)."""
            began = clock()
            parts: list[Measure] = []
            done = 0
            while done < deals:
                size = min(EVAL_CHUNK if done else MIN_EVAL_DEALS, deals - done)
                if done and clock() + (clock() - began) / done * size > until:
                    break
                parts.append(self.evaluate(size, seed_base=EVAL_SEED_BASE + done))
                done += size
            spent = clock() - began
            ledger.evaluations.append((done, deals * ledger.per_deal, spent))
            ledger.per_deal = spent / done  # the next plans with the latest cost (the probe may misjudge)
            return pooled(parts)

        def final_reserve() -> float:
            """Seconds kept for the final evaluation (a share of the budget, at least MIN_EVAL_DEALS)."""
            return ledger.per_deal * max(MIN_EVAL_DEALS, fitting(FINAL_EVAL_SHARE * budget))

        def write_checkpoint() -> None:
            began = clock()
            self.checkpoint()
            ledger.writes.append(clock() - began)

        def writing() -> float:
            """Seconds kept for the files: the longest write measured so far."""
            return max(ledger.writes, default=WRITE_GUESS)

        update_seconds = 0.0
        while budget_fraction() < 1.0 and left() > update_seconds + final_reserve() + writing():
            began = clock()
            # A checkpoint follows the updates due for one: its write is kept too.
            writes = 2 if (self.updates + 1) % config.eval_every == 0 else 1
            deadline = began + left() - final_reserve() - writes * writing()
            imitating = self.imitating
            try:
                stats = self._one_update(collect, imitating, deadline)
            except Abandoned:
                ledger.abandoned = clock() - began
                break
            update_seconds = clock() - began
            ledger.updates.append(update_seconds)
            self.elapsed = clock() - start
            row: dict[str, Any] = {
                "minutes": round(self.elapsed / 60, 3),
                "decisions": self.decisions,
                "updates": self.updates,
                "stage": "imitation" if imitating else "ppo",
                **stats,
            }
            if not imitating and self.updates % config.snapshot_every == 0:
                self._snapshot()
            due = self.updates % config.eval_every == 0
            if due:
                deals = fitting(left() - final_reserve() - 2 * writing())
                if deals >= MIN_EVAL_DEALS:  # else no time is left for one: the checkpoint alone
                    last_eval = timed_evaluation(deals, start + budget - final_reserve() - 2 * writing())
                    row["eval_margin"] = round(last_eval.margin, 4)
                    row["eval_half_width"] = round(last_eval.half_width, 4)
                    if not imitating and (self.best is None or last_eval.margin > self.best):
                        self.best = last_eval.margin
                        self.export(self.out / BEST)
                self.curve.append(row)
                write_checkpoint()
            else:
                self.curve.append(row)
            if progress is not None:
                stage = "imitation" if imitating else "ppo"
                fraction = min(1.0, budget_fraction())
                progress(
                    Status(stage, self.elapsed / 60, self.decisions, self.updates, last_eval, fraction, due)
                )
        self.elapsed = clock() - start
        final_row: dict[str, Any] = {
            "minutes": round(self.elapsed / 60, 3),
            "decisions": self.decisions,
            "updates": self.updates,
            "stage": "final",
        }
        # The final evaluation in what is left (its reserve, unless the start overran it): none when
        # not even MIN_EVAL_DEALS fit, rather than a run past its budget; the files always.
        ledger.final_left = left()
        deals = fitting(ledger.final_left - writing())
        final = timed_evaluation(deals, start + budget - writing()) if deals >= MIN_EVAL_DEALS else None
        if final is not None:
            last_eval = final
            final_row["eval_margin"] = round(final.margin, 4)
            final_row["eval_half_width"] = round(final.half_width, 4)
            if not self.imitating and (self.best is None or final.margin > self.best):
                self.best = final.margin
                self.export(self.out / BEST)
        self.curve.append(final_row)
        began = clock()
        model = self.export(self.out / MODEL)
        if not (self.out / BEST).exists():
            self.export(self.out / BEST)
        self.elapsed = clock() - start
        self.checkpoint()
        ledger.writes.append(clock() - began)
        self.elapsed = ledger.spent = clock() - start
        if progress is not None:
            stage = "imitation" if self.imitating else "ppo"
            progress(Status(stage, self.elapsed / 60, self.decisions, self.updates, last_eval, 1.0, True))
        return model

    def _one_update(self, collect: Collect, imitating: bool, deadline: float) -> dict[str, float]:
        """Self-play then learning, given up (:class:`Abandoned`, everything undone) once its pace says
        it would end past ``deadline``; its statistics."""
        config, clock = self.config, self.clock
        began = clock()
        rate = config.imitation_learning_rate if imitating else config.learning_rate
        for group in self.optimizer.param_groups:
            group["lr"] = rate
        learned = self._learn_seconds  # the last update's learning (0 before the first: watched too)

        def keep_going(played: int, ready: int) -> bool:
            """The self-play's end projected from its pace: the decisions still to play are those
            wanted plus those in flight (played, their return not known yet).  Before a sixteenth
            of them is played the pace is not judged (a first step's warm-up would misstate it):
            only a deadline already passed stops it."""
            spent = clock() - began
            if played * JUDGED_AFTER < config.update_size:
                return began + spent <= deadline
            to_play = config.update_size + (played - ready)
            return began + spent * to_play / played + learned <= deadline

        got = collect(imitating, keep_going)
        if got is None:
            raise Abandoned
        saved = (
            copy.deepcopy(self.net.state_dict()),
            copy.deepcopy(self.optimizer.state_dict()),
            self.rng.bit_generator.state,
            self.value_scale,
        )
        learning = clock()
        try:
            stats = self._update(got.data, imitating, deadline)
        except Abandoned:
            self.net.load_state_dict(saved[0])
            self.optimizer.load_state_dict(saved[1])
            self.rng.bit_generator.state = saved[2]
            self.value_scale = saved[3]
            raise
        self._learn_seconds = clock() - learning
        self.decisions += got.decisions
        self.updates += 1
        return stats

    # -- self-play -----------------------------------------------------------------------------------
    def _local_self_play(self) -> Collect:
        """Self-play in this process, one update's worth of decisions per call (None: given up)."""
        play = SelfPlay(self.config, self.next_seed, int(self.rng.integers(1 << 62)))
        if self._play_rng is not None:
            play.rng.bit_generator.state = self._play_rng
        self._play = play

        def collect(imitating: bool, keep_going: Callable[[int, int], bool]) -> Collected | None:
            got = play.collect(self.net, self.snapshots, imitating, self.config.update_size, keep_going)
            self.next_seed = play.next_seed  # the deals dealt are used, even by a collection given up
            return got

        return collect

    def _ray_self_play(self) -> Collect:
        """Self-play in ``actors`` Ray actors (each its own batch and seeds), the learner here.

        Each update sends the weights to every actor and waits for all of them
        (synchronous: PPO's data stay on-policy).  A resumed run restarts the
        actors' matches from fresh seeds.  The actors' self-play is not watched
        by the budget (``keep_going`` is ignored): the learning after it is.
        """
        import ray

        from .cluster import connect

        assert self.ray is not None
        connect(self.ray)
        remote: Any = ray.remote(SelfPlayActor)
        base = self.next_seed
        actors = [
            remote.remote(self.config, base + k * ACTOR_SEEDS, int(self.rng.integers(1 << 62)))
            for k in range(self.actors)
        ]
        share = max(1, self.config.update_size // self.actors)

        def collect(imitating: bool, keep_going: Callable[[int, int], bool]) -> Collected | None:
            weights = self.net.state_dict()
            frozen = [s.state_dict() for s in self.snapshots]
            got = ray.get([a.collect.remote(weights, frozen, imitating, share) for a in actors])
            self.next_seed = max(g.next_seed for g in got) + ACTOR_SEEDS * self.actors
            data = {key: np.concatenate([g.data[key] for g in got]) for key in got[0].data}
            return Collected(data, sum(g.decisions for g in got), self.next_seed)

        return collect

    def _snapshot(self) -> None:
        frozen = self._network()
        frozen.load_state_dict(self.net.state_dict())
        frozen.eval()
        self.snapshots.append(frozen)
        del self.snapshots[: -self.config.league]

    # -- learning ------------------------------------------------------------------------------------
    def _update(
        self, data: dict[str, NDArray[Any]], imitating: bool, deadline: float = math.inf
    ) -> dict[str, float]:
        """One update over finished decisions: imitation (cross-entropy) or PPO.

        :class:`Abandoned` once the minibatches' pace says the last would end past ``deadline``
        (the caller undoes the steps taken)."""
        config, clock = self.config, self.clock
        began = clock()
        steps = config.epochs * -(-len(data["action"]) // config.minibatch)
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
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 1.0)
                self.optimizer.step()
                totals["policy_loss"] += policy_loss.item()
                totals["value_loss"] += value_loss.item()
                totals["entropy"] += entropy.item()
                totals["imitation_accuracy"] += accuracy.item()
                count += 1
                if count < steps and began + (clock() - began) * steps / count > deadline:
                    raise Abandoned
        out = {name: round(total / max(count, 1), 5) for name, total in totals.items()}
        if not imitating:
            out["imitation_accuracy"] = float("nan")
        return out

    # -- measuring and saving -----------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The model's metadata: what it reads and answers, how it was trained."""
        config = self.config
        training = {
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
        }
        return model_meta(self.game, training, self.value_scale or 1.0)

    def export(self, path: Path) -> PolicyModel:
        model = self.net.export(self.meta())
        model.save(path)
        return model

    def _time_evaluation(self) -> float:
        """Seconds an evaluation spends per deal, timed on the smallest one (MIN_EVAL_DEALS deals).

        Why not one deal: the smallest evaluation is what the budget must always be able to
        afford (the final one, on a short budget), so it is the one timed; the deals of a
        batch are played together, so larger evaluations cost less a deal than planned.
        """
        began = self.clock()
        self.evaluate(MIN_EVAL_DEALS)
        return (self.clock() - began) / MIN_EVAL_DEALS

    def evaluate(self, deals: int | None = None, seed_base: int = EVAL_SEED_BASE) -> Measure:
        """The current network (greedy) against the heuristic, duplicate deals × rotations, held-out
        seeds: ``deals`` of them from ``seed_base`` (default ``eval_deals``; fewer when the budget's
        time is short)."""
        return measure(
            self.config.game,
            self.config.players,
            ModelPolicy(self.net.export(self.meta())),
            heuristic_policy,
            deals=self.config.eval_deals if deals is None else deals,
            options=self.config.options,
            seed_base=seed_base,
            ray=self.ray,
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
            "play_rng": None if self._play is None else self._play.rng.bit_generator.state,
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
        self._play_rng = state.get("play_rng")
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
    ray: str | None = None,
    actors: int = 2,
) -> PolicyModel:
    """Run (or resume) a training run into ``out``; the last model is also ``out/model.npz``.

    ``ray``: a Ray address (or ``"local"``): self-play in ``actors`` Ray actors and the
    evaluations as Ray tasks; the learner stays here.
    """
    return Trainer(config, out, resume=resume, ray=ray, actors=actors).run(progress)
