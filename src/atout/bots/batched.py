"""A search that thinks with the batch engine: the playouts of many sampled worlds stepped together.

The decision is PIMC, as :class:`~atout.bots.search.SearchBot`'s (sample
worlds consistent with the view, try every legal action in each, play the
round out with a fast policy, answer the best mean margin; the budget spent
by sequential halving on shared worlds), but the playouts do not run one by
one through the engine: the sampled worlds are loaded into one batch
(:meth:`atout.batch.base.BatchBase.from_states`), one row per (world, action),
and every row moves one decision per step, the playout policy answering for
all rows at once — the batch heuristic, or a learned network
(:mod:`.learned`) reading the rows' information-state tensors.  Why: in pure
Python a playout costs about half a millisecond; in a batch of hundreds of
rows the same playouts cost a few microseconds a decision each, so one
decision can weigh many more worlds, or afford a policy that is expensive
alone (a network) as the model of the other seats.

The bot's contract is every bot's: it is given a view; worlds are drawn from
the view by the game's sampler; nothing else is read.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..batch import batch_class_for
from ..batch.common import Batch
from ..core.game import State, View
from .evaluation import INFERENCE_EPSILON, PimcBot, SearchEvaluation
from .learned import PolicyModel

__all__ = ["BatchSearchBot", "PlayoutPolicy"]

#: The playout policy: a batch → the action of every row's player to act (finished rows: anything).
PlayoutPolicy = Callable[[Batch], NDArray[np.intp]]

#: Most rows a decision's batch holds at once (memory and latency are bounded whatever the budget).
MAX_ROWS = 4096


def heuristic_playouts(batch: Batch) -> NDArray[np.intp]:
    """Every row played by the game's heuristic (``normal``), as the engine's playouts are."""
    actions: NDArray[np.intp] = batch.heuristic_actions()
    return actions


def strong_playouts(rng: np.random.Generator) -> PlayoutPolicy:
    """Every row played by the game's model of strong play (``expert``'s playout policy), drawn with ``rng``."""

    def policy(batch: Batch) -> NDArray[np.intp]:
        return batch.playout_model_actions(rng)

    return policy


def model_playouts(
    model: PolicyModel, rng: np.random.Generator | None = None, temperature: float = 1.0
) -> PlayoutPolicy:
    """Every row played by ``model``: its most probable legal action, or with ``rng`` one drawn from it
    (its policy at ``temperature``)."""

    def policy(batch: Batch) -> NDArray[np.intp]:
        live = np.flatnonzero(~batch.terminal)
        actions = np.zeros(batch.num_games, dtype=np.intp)
        if live.size:
            actions[live] = model.batch_actions(batch, live, rng, temperature)
        return actions

    return policy


class BatchSearchBot(PimcBot):
    """PIMC whose playouts run together in the batch engine (see the module's docstring).

    ``playouts``: the budget of a decision in playouts (a world × an action),
    spent by sequential halving; ``policy``: the playout policy (default: the
    heuristic); ``model``: a learned model used as the playout policy instead;
    ``strong``: the game's model of strong play instead (``expert``'s).
    """

    name = "batch-search"

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 2000,
        min_worlds: int = 8,
        policy: PlayoutPolicy | None = None,
        model: PolicyModel | None = None,
        inference: bool = False,
        candidates: int = 2,
        epsilon: float = INFERENCE_EPSILON,
        time_limit: float | None = None,
        sample: bool = False,
        strong: bool = False,
        temperature: float = 1.0,
    ) -> None:
        if playouts < 1 or min_worlds < 1 or candidates < 1:
            raise ValueError("playouts, min_worlds and candidates must be at least 1")
        if not temperature > 0 or (temperature != 1.0 and not (sample and model is not None)):
            raise ValueError("a temperature is positive and applies to a network's drawn playout actions")
        # inference: the learned network's probabilities, the model of strong play's with ``strong``,
        # else the heuristic trembling; ``candidates`` worlds drawn per world kept.
        super().__init__(seed, playouts, min_worlds, time_limit, inference, epsilon)
        self.model = model
        self.candidates = candidates
        #: Playouts draw each action from the model's policy instead of taking its most probable one
        #: (a distilled model's probabilities are how often the search chose each action).
        self.sample = sample
        #: The temperature of those draws (1: the network's own probabilities).
        self.temperature = temperature
        #: Playouts by the game's model of strong play (``batch.playout_model_actions``, the
        #: engine's ``game.playout_model`` vectorised; the heuristic where the game has none).
        self.strong = strong
        if strong and model is not None:
            raise ValueError(
                "the playouts are played by a learned model or by the model of strong play, not both"
            )
        draws = np.random.default_rng(self.rng.getrandbits(64)) if sample or strong else None
        if policy is None and model is not None:
            policy = model_playouts(model, draws, temperature)
        elif policy is None and draws is not None and strong:
            policy = strong_playouts(draws)
        self.policy: PlayoutPolicy = policy or heuristic_playouts

    def evaluate(self, view: View) -> SearchEvaluation:
        legal = list(view.legal_actions)
        game = view.game
        if self.model is not None:
            self.model.check(game)
        cls = batch_class_for(game)
        survivors = legal
        totals = dict.fromkeys(legal, 0.0)
        margins: dict[int, list[float]] = {a: [] for a in legal}
        rounds = max(1, math.ceil(math.log2(len(legal))))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for done in range(rounds):
            # Sequential halving: an equal share of the budget per round, the worse half dropped after each;
            # the survivors have all been tried on the same worlds, so their sums compare.
            worlds = max(self.min_worlds, int(self.playouts / rounds / len(survivors)))
            worlds = min(worlds, max(1, MAX_ROWS // len(survivors)))
            played = self._playouts(cls, view, survivors, worlds)
            for i, action in enumerate(survivors):
                totals[action] += float(played[i].sum())
                margins[action].extend(played[i].tolist())
            if done == rounds - 1 or (deadline is not None and time.perf_counter() > deadline):
                break
            ranked = sorted(survivors, key=lambda a: (-totals[a], a))
            survivors = ranked[: math.ceil(len(ranked) / 2)]
            if len(survivors) == 1:
                break
        best = max(totals[a] for a in survivors)
        choice = min(a for a in survivors if totals[a] >= best - 1e-9)
        return SearchEvaluation(margins, totals, list(survivors), choice)

    def sample_worlds(self, view: View, count: int) -> list[State]:
        """``count`` worlds consistent with ``view``: drawn plainly, or by inference (see :meth:`_inferred`).

        Public because what the search believes is worth measuring on its own:
        ``bench/inference.py`` scores these worlds against the true deal.
        """
        game = view.game
        if self.inference:
            inferred = self._inferred(batch_class_for(game), view, count)
            if inferred is not None:
                return inferred
        return [game.sample_state(view, self.rng) for _ in range(count)]

    def _inferred(self, cls: type[Batch], view: View, count: int) -> list[State] | None:
        """Policy-based inference at batch speed: worlds resampled by the likelihood of the round's actions.

        ``candidates × count`` worlds are drawn as they stood at the round's
        first decision (``game.sample_round``), loaded into one batch and
        replayed together; each action another seat took with a choice counts
        with the probability the seat model gives it there (``epsilon`` of it
        uniform: people and bots err).  ``count`` worlds are then drawn in
        proportion to those likelihoods and replayed to now in the engine.
        None when the game offers no ``sample_round``.
        """
        game, rng = view.game, self.rng
        drawn = [game.sample_round(view, rng) for _ in range(self.candidates * count)]
        if any(d is None for d in drawn):
            return None
        rounds = [d for d in drawn if d is not None]
        length = max(len(actions) for _, actions in rounds)
        batch: Any = cls.from_states([start for start, _ in rounds])
        log_weight = np.zeros(len(rounds))
        plays = np.full((len(rounds), length), -1, dtype=np.intp)
        for i, (_, actions) in enumerate(rounds):
            plays[i, : len(actions)] = actions
        eps = self.epsilon
        for t in range(length):
            action = plays[:, t]
            moving = action >= 0
            mask = batch.legal_mask()
            choices = mask.sum(axis=1)
            judged = moving & (batch.current_player != view.seat) & (choices > 1)
            if judged.any():
                rows = np.flatnonzero(judged)
                likely = self._seat_model(batch, rows, mask[rows])
                p = eps / choices[rows] + (1.0 - eps) * likely[np.arange(len(rows)), action[rows]]
                log_weight[rows] += np.log(p)
            batch.step(np.where(moving, action, 0), active=moving)
        weights = np.exp(log_weight - log_weight.max())
        picks = rng.choices(range(len(rounds)), weights=weights.tolist(), k=count)
        worlds = []
        for i in picks:
            world = rounds[i][0].clone()
            for a in rounds[i][1]:
                world.apply(a)
            worlds.append(world)
        return worlds

    def _seat_model(self, batch: Any, rows: NDArray[np.intp], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
        """(len(rows), actions) the probabilities the seat model gives each action in ``rows``."""
        if self.model is None and self.strong:
            # The model the playouts are played by judges the other seats' actions too.
            strong: NDArray[np.float64] = batch.playout_model_probabilities(rows)
            return strong
        heuristic = heuristic_playouts(batch)[rows]
        if self.model is None:
            chosen = np.zeros(mask.shape, dtype=np.float64)
            chosen[np.arange(len(rows)), heuristic] = 1.0
            return chosen
        x = batch.information_state_tensor()[rows]
        prior = heuristic if self.model.prior_weight is not None else None
        logits = self.model.masked_logits(x, mask, prior).astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        result: NDArray[np.float64] = p / p.sum(axis=1, keepdims=True)
        return result

    def _playouts(self, cls: type[Batch], view: View, actions: list[int], worlds: int) -> NDArray[np.float64]:
        """(len(actions), worlds) margins of ``view.seat`` over the round, every action tried in the same worlds."""
        game = view.game
        sampled = self.sample_worlds(view, worlds)
        states = [w for _ in actions for w in sampled]
        batch: Any = cls.from_states(states, check=False)
        first = np.repeat(np.asarray(actions, dtype=np.intp), worlds)
        start_round = batch.round.copy()
        n = game.players
        gained = np.zeros((len(states), n), dtype=np.float64)
        step = batch.step(first)
        gained += step.rewards
        done = step.terminal | (batch.round != start_round)
        while not done.all():
            moving = ~done
            step = batch.step(self.policy(batch), active=moving)
            gained[moving] += step.rewards[moving]
            done |= step.terminal | (batch.round != start_round)
        self.simulations += len(states)
        seat = view.seat
        margin = gained[:, seat] - (gained.sum(axis=1) - gained[:, seat]) / (n - 1)
        result: NDArray[np.float64] = margin.reshape(len(actions), worlds)
        return result
