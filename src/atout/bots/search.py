"""A generic search bot: Perfect-Information Monte Carlo over sampled worlds.

Why PIMC with policy playouts (and not ISMCTS): it is what the strongest
trick-taking programs use (GIB, Kermit; see docs/bots.md), it needs nothing from a
game beyond the shared interface, and in pure Python a playout is the expensive
part, so a search that spends every playout on the decision at hand beats a
tree that spreads them over later decisions it will search again anyway when
it gets there.  Its measured strength is in bench/RESULTS.md.

The playout policy is the search's model of every seat, itself included: the
closer it plays to the real opponents, the better the search.  The heuristic
is a good model of heuristic players and a poor one of search players (it
takes every trick it can while it needs some, where they often duck and keep
their sure winners), so the expert level plays its playouts with the game's
model of strong play, fitted to the search bot's own decisions, where the game
has one.

One decision:

1. sample ``worlds`` full states consistent with the view
   (``view.game.sample_state(view, rng)``: the hidden cards dealt at random,
   respecting what play revealed);
2. in every world, try every legal action — bids, trump and handicap choices
   included, they are actions like any other — and play the rest of the
   **round** with a fast policy (each game's heuristic, the same for every
   seat; with ``model=True`` the game's model of strong play when it offers
   one, ``game.playout_model``), resolving chance nodes with
   :func:`atout.core.game.sample_chance`;
3. score a playout by the seat's gain over the round minus the mean gain of
   the other seats (what wins matches), and answer the action with the best
   mean over the worlds.

The worlds are shared by all actions (common random numbers: the comparison
between two actions is not blurred by their having been tried on different
deals).  A playout stops at the end of the round (``state.round`` changes) or
of the match: searching past the next deal would only add noise.

The budget is a number of playouts per decision, spent by **sequential
halving** (log2(k) equal slices, the worse half of the actions dropped after
each, at least ``min_worlds`` worlds in the first).  On Wizard decisions,
halving's regret against a big-budget oracle was about a fifth below an even
split's at the same budget (bench/RESULTS.md; the even split and scoring by
the seat's own gain only, both measured worse, were removed in issue 19).
Counting playouts, not seconds, makes a seeded bot exactly reproducible; an
optional wall-clock ``time_limit`` stops early (anytime), at the price of
reproducibility when it binds.

Two public extension points, for diagnostics and experiments that need more
than the bot's answer (the bench scripts use them; subclass and override):

* :meth:`SearchBot.world_source` — where the worlds of a decision come from
  (``bench/oracle.py`` searches the true deal instead);
* :meth:`SearchBot.playout_done` — called with the state at the end of every
  playout (``bench/bid_calibration.py`` reads the round's trick counts there).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from ..core.bot import Bot, StateRule, state_rule
from ..core.game import Game, State, View
from ..core.playout import play_out_round as play_out_round  # compiled: the playouts' loop (issue 48)
from .evaluation import INFERENCE_EPSILON, PimcBot, SearchEvaluation
from .path import bot_from_path
from .random import RandomBot

#: Inference: candidates weighed per batch, and worlds kept per batch (the tremble: ``INFERENCE_EPSILON``).
INFERENCE_POOL = 24
INFERENCE_KEEP = 8


def policy_bot(game: Game, seed: int | None, model: bool = False) -> Bot:
    """The fast playout policy: the game's model of strong play when asked for and
    offered (``game.playout_model``), else its heuristic, else random."""
    path = (game.playout_model if model else None) or game.bots.get("heuristic")
    return RandomBot(seed) if path is None else bot_from_path(path, seed)


class SearchBot(PimcBot):
    """PIMC: each legal action evaluated by policy playouts over sampled worlds."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        playouts: int = 200,
        min_worlds: int = 4,
        time_limit: float | None = None,
        inference: bool = False,
        epsilon: float = INFERENCE_EPSILON,
        model: bool = False,
    ) -> None:
        if playouts < 1 or min_worlds < 1:
            raise ValueError("playouts and min_worlds must be at least 1")
        super().__init__(seed, playouts, min_worlds, time_limit, inference, epsilon)
        #: Play the playouts with the game's model of strong play (``game.playout_model``)
        #: when it has one, instead of its heuristic: a better model of strong opponents.
        self.model = model
        self._policies: list[Bot] = []
        #: Each policy's rules as a function of a world's state, where it has them (asked by the
        #: playouts instead of the policy: no view built per decision; the same moves).
        self._rules: list[StateRule | None] = []

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        self._setup(game)

    def _setup(self, game: Game) -> None:
        self.game = game
        self._policies = []
        for s in range(game.players):
            bot = policy_bot(game, self.rng.getrandbits(32), self.model)
            bot.start(game, s)
            self._policies.append(bot)
        self._rules = [state_rule(bot) for bot in self._policies]

    def evaluate(self, view: View) -> SearchEvaluation:
        if not self._policies or getattr(self, "game", None) != view.game:
            self._setup(view.game)
        margins, survivors = self._halving(view)
        totals = {a: sum(values) for a, values in margins.items()}
        best = max(totals[a] for a in survivors)
        # Ties (forced outcomes, equivalent cards) go to the policy's own choice
        # when it is among them, else to the lowest id: stable and sensible.
        tied = [a for a in survivors if totals[a] >= best - 1e-9]
        choice = min(tied)
        if len(tied) > 1:
            favourite = self._policies[view.seat].choose(view)
            if favourite in tied:
                choice = favourite
        return SearchEvaluation(margins, totals, survivors, choice)

    def _halving(self, view: View) -> tuple[dict[int, list[float]], list[int]]:
        """Sequential halving: the budget in log2(k) equal slices, the worse half dropped after each.

        Every surviving action has been tried on the same worlds, so comparing
        their sums is a paired comparison; the close contenders end with many
        more worlds than flat allocation would give them (Karnin et al. 2013).
        Returns every action's margins, world by world, and the survivors.
        """
        survivors = list(view.legal_actions)
        draw = self.world_source(view)
        slices = max(1, math.ceil(math.log2(len(survivors))))
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        margins: dict[int, list[float]] = {a: [] for a in survivors}
        totals = dict.fromkeys(survivors, 0.0)
        first = True
        while True:
            add = max(self.playouts // (len(survivors) * slices), 1)
            if first:
                add, first = max(add, self.min_worlds), False
            late = False
            for _ in range(add):
                world = draw()
                before = world.scores()  # once a world: its playouts all start from it
                for action in survivors:
                    margin = self._playout(world, action, view.seat, before)
                    margins[action].append(margin)
                    totals[action] += margin
                self.simulations += len(survivors)
                # Checked after whole worlds: the survivors always share the same worlds.
                late = deadline is not None and time.perf_counter() > deadline
                if late:
                    break
            if len(survivors) <= 2 or late:
                return margins, survivors
            survivors.sort(key=lambda a: -totals[a])
            survivors = survivors[: (len(survivors) + 1) // 2]

    def world_source(self, view: View) -> Callable[[], State]:
        """A function drawing the next world to search for the decision at ``view``.

        An extension point: override it to search other worlds (an oracle's
        true state, a fixed set); every world drawn must be a state whose
        ``view(view.seat)`` equals ``view``, with ``view.seat`` to act.  Each
        world drawn is tried with every surviving action.

        Without inference, worlds come straight from ``sample_state``.  With it,
        candidates from ``sample_round`` are weighed by :meth:`_weighted_world`
        in batches of :data:`INFERENCE_POOL` and :data:`INFERENCE_KEEP` of them
        are drawn in proportion to their weights (importance resampling: a
        replay costs a fraction of the playouts a kept world then gets, so it
        pays to spend the playouts on likely worlds rather than weight them).
        """
        game, rng = view.game, self.rng
        if not self.inference:
            return lambda: game.sample_state(view, rng)
        kept: list[State] = []
        offered = True

        def draw() -> State:
            nonlocal offered
            if not offered:
                return game.sample_state(view, rng)
            if not kept:
                first = self._weighted_world(view)
                if first is None:  # not offered here: plain worlds for the rest of this decision
                    offered = False
                    return game.sample_state(view, rng)
                batch = [first, *(self._weighted_world(view) or first for _ in range(INFERENCE_POOL - 1))]
                top = max(w for _, w in batch)
                weights = [math.exp(w - top) for _, w in batch]
                kept.extend(rng.choices([s for s, _ in batch], weights, k=INFERENCE_KEEP))
            return kept.pop()

        return draw

    def _weighted_world(self, view: View) -> tuple[State, float] | None:
        """A world from ``sample_round`` replayed to now, with its log-weight.

        Policy-based inference (Rebstock et al. 2019): each action another seat
        took this round counts with the probability the seat model (the game's
        heuristic, trembling with probability ``epsilon``) gives it in the
        world: a seat that bid high is likelier to hold the high cards.
        """
        got = view.game.sample_round(view, self.rng)
        if got is None:
            return None
        state, actions = got
        log_weight = 0.0
        eps = self.epsilon
        for action in actions:
            actor = state.current_player
            if actor >= 0 and actor != view.seat:
                legal = state.legal_actions()
                if len(legal) > 1:
                    guess = self._policies[actor].choose(state.view(actor))
                    p = eps / len(legal) + (1.0 - eps if guess == action else 0.0)
                    log_weight += math.log(p)
            state.apply(action)
        return state, log_weight

    def playout_done(self, action: int, seat: int, end: State) -> None:
        """Called after every playout with the state at its end (the round over, or the match).

        An extension point for diagnostics (``bench/bid_calibration.py`` counts
        the tricks the seat took in the playouts of each bid); the default
        does nothing.  ``end`` is the playout's own copy: reading it is free,
        changing it changes nothing.
        """
        return None

    def _playout(self, world: State, action: int, seat: int, before: Sequence[int]) -> float:
        end = self._play_out(world, action, seat)
        self.playout_done(action, seat, end)
        return _gain(before, end.scores(), seat)

    def _play_out(self, world: State, action: int, seat: int) -> State:
        """A copy of ``world`` after ``action`` and the rest of the round, every seat
        played by its policy."""
        state = world.clone()
        start_round = state.round
        state.apply(action)
        return play_out_round(state, self._policies, self.rng, start_round, self._rules)


def _gain(before: Sequence[int], after: Sequence[int], seat: int) -> float:
    """The seat's score gain minus the mean gain of the others: its margin over the table.

    Playing for the margin makes the search spend tricks to set a rival's
    contract; scoring its own gain only was measured worse (bench/RESULTS.md).
    """
    gains = [a - b for a, b in zip(after, before, strict=True)]
    others = (sum(gains) - gains[seat]) / (len(gains) - 1) if len(gains) > 1 else 0.0
    return gains[seat] - others
