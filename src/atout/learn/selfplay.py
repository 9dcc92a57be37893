"""Self-play on the batch engine: the matches a learner trains on, and the decisions it collects.

Why a class of its own: the same self-play runs in the learner's process or,
given a Ray address, in several actors at once (each its own batch, its own
seeds, the learner's weights sent at every update): :class:`SelfPlay` is
that unit, :class:`SelfPlayActor` its Ray face.

Each match gets roles when it starts (see :mod:`.train`): every seat the
learner (self-play), or the learner in one seat against the heuristic,
frozen snapshots of itself and a few random players.  A decision waits in the
:class:`Buffer` until its round ends, when its return becomes known: its
seat's margin over that round.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import torch
from numpy.typing import NDArray

from ..batch import batch_class

if TYPE_CHECKING:
    from .network import PolicyNet
    from .train import TrainConfig

__all__ = ["Buffer", "Collected", "SelfPlay", "SelfPlayActor"]

# Roles a seat of a training match can have.
LEARNER, HEURISTIC, RANDOM, SNAPSHOT = 0, 1, 2, 3


class Buffer:
    """Decisions waiting for their round to end, and those whose return is known.

    Why a buffer and not fixed-length rollouts: a decision's return is known
    only when its round ends, which happens at different steps in different
    matches; rows wait here (``done`` False) until then.  A row is one record
    of a numpy structured array: its columns are declared once, in
    :meth:`columns`, and a row moves (grown, taken, kept) as a whole.
    """

    #: The columns the learner takes.
    TAKEN = ("obs", "mask", "action", "logp", "value", "ret", "prior")

    def __init__(self, width: int, actions: int) -> None:
        self.rows = np.zeros(1 << 15, self.columns(width, actions))
        self.size = 0

    @staticmethod
    def columns(width: int, actions: int) -> np.dtype[np.void]:
        """A row: the seat's tensor and legal mask, what the learner drew and thought of it, whose
        decision it was, its return once known (``done``), the heuristic's action (the prior)."""
        return np.dtype(
            [
                ("obs", np.float16, (width,)),
                ("mask", np.bool_, (actions,)),
                ("action", np.int64),
                ("logp", np.float32),
                ("value", np.float32),
                ("match", np.intp),
                ("seat", np.intp),
                ("ret", np.float32),
                ("done", np.bool_),
                ("prior", np.int64),
            ]
        )

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
        if self.size + k > len(self.rows):
            grown = np.zeros(max(2 * len(self.rows), self.size + k), self.rows.dtype)
            grown[: self.size] = self.rows[: self.size]
            self.rows = grown
        new = self.rows[self.size : self.size + k]
        new["obs"], new["mask"], new["action"] = obs, mask, action
        new["logp"], new["value"], new["match"], new["seat"] = logp, value, match, seat
        new["prior"] = 0 if prior is None else prior
        new["done"] = False
        self.size += k

    def close(self, ended: NDArray[np.bool_], margins: NDArray[np.float64]) -> None:
        """The matches ``ended`` finished a round: their waiting rows get their seat's margin."""
        live = self.rows[: self.size]
        pending = np.flatnonzero(~live["done"])
        rows = pending[ended[live["match"][pending]]]
        live["ret"][rows] = margins[live["match"][rows], live["seat"][rows]]
        live["done"][rows] = True

    @property
    def ready(self) -> int:
        return int(self.rows["done"][: self.size].sum())

    def take(self) -> dict[str, NDArray[Any]]:
        """The finished rows (removed), the waiting ones moved to the front."""
        live = self.rows[: self.size]
        done = live["done"]
        taken = live[done]
        out = {name: np.ascontiguousarray(taken[name]) for name in self.TAKEN}
        keep = live[~done]
        self.rows[: len(keep)] = keep
        self.size = len(keep)
        return out


def gumbel_choice(logits: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.intp]:
    """One action per row drawn from softmax(logits) (illegal actions at -inf never drawn)."""
    noise = -np.log(-np.log(rng.random(logits.shape, dtype=np.float32) + 1e-12) + 1e-12)
    choice: NDArray[np.intp] = np.argmax(logits + noise, axis=1)
    return choice


def log_softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    top = logits.max(axis=1, keepdims=True)
    shifted = logits - top
    result: NDArray[np.float32] = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return result


class Turn(NamedTuple):
    """One step's reading of the batch, taken once and handed to whoever acts: the seat to act in
    each match, its role there, its information-state tensor and legal mask, and the heuristic's
    actions (None when no one reads them)."""

    player: NDArray[np.intp]
    role: NDArray[np.intp]
    x: NDArray[np.float32]
    mask: NDArray[np.bool_]
    heuristic: NDArray[np.intp] | None


@dataclass
class Collected:
    """What a round of self-play hands the learner: finished decisions and the counts to keep."""

    data: dict[str, NDArray[Any]]
    #: The learner's decisions played (every seat's while imitating).
    decisions: int
    #: The first seed this self-play has not dealt yet (where a resumed run starts).
    next_seed: int


class SelfPlay:
    """A batch of training matches with their roles and the learner's waiting decisions."""

    def __init__(self, config: TrainConfig, first_seed: int, rng_seed: int) -> None:
        self.config = config
        cls = batch_class(config.game)
        self.first_seed = first_seed
        self.batch: Any = cls(
            config.players,
            list(range(first_seed, first_seed + config.matches)),
            auto_reset=True,
            reset_seeds=itertools.count(first_seed + config.matches),
            check=False,
            **config.options,
        )
        game = self.batch.game
        self.buffer = Buffer(game.information_state_tensor_size(), game.num_actions)
        self.rng = np.random.default_rng(rng_seed)
        self.rows = np.arange(config.matches)
        self.roles = np.full((config.matches, config.players), HEURISTIC, dtype=np.intp)
        self._imitating: bool | None = None

    @property
    def next_seed(self) -> int:
        return int(self.first_seed + self.config.matches + self.batch.matches_done)

    def _draw_roles(self, imitating: bool, snapshots: int) -> NDArray[np.intp]:
        """The seats' roles for a new match."""
        config, n = self.config, self.config.players
        if imitating:
            return np.full(n, HEURISTIC, dtype=np.intp)
        if self.rng.random() < config.self_play_share:
            return np.full(n, LEARNER, dtype=np.intp)
        roles = np.full(n, HEURISTIC, dtype=np.intp)
        draws = self.rng.random(n)
        if snapshots:
            pick = self.rng.integers(snapshots, size=n)
            roles = np.where(draws < config.snapshot_share, SNAPSHOT + pick, roles)
        roles = np.where(draws > 1.0 - config.random_share, RANDOM, roles)
        roles[self.rng.integers(n)] = LEARNER
        return roles

    @torch.no_grad()
    def _act(
        self, net: PolicyNet, x: NDArray[np.float32], mask: NDArray[np.bool_], prior: NDArray[np.intp] | None
    ) -> tuple[NDArray[np.intp], NDArray[np.float32], NDArray[np.float32]]:
        """Actions drawn from ``net``'s policy, their log-probabilities and the values."""
        logits_t, value_t = net(torch.from_numpy(x), None if prior is None else torch.from_numpy(prior))
        logits = np.where(mask, logits_t.numpy(), -np.inf).astype(np.float32)
        chosen = gumbel_choice(logits, self.rng)
        logp = log_softmax(logits)[np.arange(len(chosen)), chosen]
        return chosen, logp.astype(np.float32), value_t.numpy().astype(np.float32)

    def collect(
        self,
        net: PolicyNet,
        snapshots: list[PolicyNet],
        imitating: bool,
        want: int,
        keep_going: Callable[[int, int], bool] | None = None,
    ) -> Collected | None:
        """Play until at least ``want`` decisions have their return; hand them over.

        ``keep_going(played, ready)``, asked after every batch step with the decisions played
        and those whose return is known so far, may give the collection up (None is returned):
        the trainer's budget, which projects the collection's end from its pace so far.  The
        matches in flight then stay where they are (the run ends there).
        """
        config, batch, buffer, rows = self.config, self.batch, self.buffer, self.rows
        if self._imitating is None or self._imitating != imitating:
            # New roles for every match (the league's from now on); rows of another stage are dropped.
            for g in range(config.matches):
                self.roles[g] = self._draw_roles(imitating, len(snapshots))
            buffer.size = 0
            self._imitating = imitating
        decisions = 0
        while buffer.ready < want:
            turn = self._turn(imitating)
            player, x, mask, heuristic = turn.player, turn.x, turn.mask, turn.heuristic
            actions = np.zeros(config.matches, dtype=np.intp)
            if imitating:
                assert heuristic is not None
                actions[:] = heuristic
                zeros = np.zeros(config.matches, np.float32)
                buffer.add(x, mask, heuristic, zeros, zeros, rows, player, heuristic)
                decisions += config.matches
            else:
                learners = np.flatnonzero(turn.role == LEARNER)
                if learners.size:
                    prior = None if heuristic is None else heuristic[learners]
                    chosen, logp, value = self._act(net, x[learners], mask[learners], prior)
                    actions[learners] = chosen
                    buffer.add(
                        x[learners], mask[learners], chosen, logp, value, learners, player[learners], prior
                    )
                    decisions += int(learners.size)
                self._opponents(actions, turn, snapshots)
            before = batch.round.copy()
            step = batch.step(actions)
            ended = step.terminal | (batch.round != before)
            if ended.any():
                r = step.rewards.astype(np.float64)
                n = config.players
                buffer.close(ended, r - (r.sum(axis=1, keepdims=True) - r) / (n - 1))
                for g in np.flatnonzero(step.terminal).tolist():
                    self.roles[g] = self._draw_roles(imitating, len(snapshots))
            if keep_going is not None and not keep_going(decisions, buffer.ready):
                return None
        return Collected(buffer.take(), decisions, self.next_seed)

    def _turn(self, imitating: bool) -> Turn:
        """What the batch shows the seats to act; the heuristic's actions only when someone reads them."""
        batch = self.batch
        player = batch.current_player
        role = self.roles[self.rows, player]
        x, mask = batch.information_state_tensor(), batch.legal_mask()
        needs_heuristic = imitating or self.config.prior is not None or bool((role != LEARNER).any())
        return Turn(player, role, x, mask, batch.heuristic_actions() if needs_heuristic else None)

    def _opponents(self, actions: NDArray[np.intp], turn: Turn, snapshots: list[PolicyNet]) -> None:
        """The actions of the matches whose player to act is not the learner."""
        role, heuristic = turn.role, turn.heuristic
        if heuristic is not None:
            where = role == HEURISTIC
            actions[where] = heuristic[where]
        randoms = np.flatnonzero(role == RANDOM)
        if randoms.size:
            flat = np.where(turn.mask[randoms], 0.0, -np.inf).astype(np.float32)
            actions[randoms] = gumbel_choice(flat, self.rng)
        for k, snapshot in enumerate(snapshots):
            rows = np.flatnonzero(role == SNAPSHOT + k)
            if rows.size:
                prior = None if heuristic is None else heuristic[rows]
                actions[rows] = self._act(snapshot, turn.x[rows], turn.mask[rows], prior)[0]


class SelfPlayActor:
    """A :class:`SelfPlay` in a Ray actor: the learner's weights arrive with every request.

    Why weights and not networks: a state dict of CPU tensors pickles small and
    plain; the actor keeps its own network objects and loads them.
    """

    def __init__(self, config: TrainConfig, first_seed: int, rng_seed: int) -> None:
        torch.set_num_threads(1)
        self.play = SelfPlay(config, first_seed, rng_seed)
        self.config = config
        self.net = self._make()
        self.snapshots: list[PolicyNet] = []

    def _make(self) -> PolicyNet:
        from .network import PolicyNet

        game = self.play.batch.game
        return PolicyNet(
            game.information_state_tensor_size(),
            game.num_actions,
            tuple(self.config.hidden),
            self.config.prior,
        )

    def collect(
        self, weights: dict[str, Any], snapshots: list[dict[str, Any]], imitating: bool, want: int
    ) -> Collected:
        self.net.load_state_dict(weights)
        while len(self.snapshots) < len(snapshots):
            self.snapshots.append(self._make())
        del self.snapshots[len(snapshots) :]
        for net, saved in zip(self.snapshots, snapshots, strict=True):
            net.load_state_dict(saved)
        got = self.play.collect(self.net, self.snapshots, imitating, want)
        assert got is not None  # no keep_going: never given up
        return got
