"""What a search bot knows of a decision after searching it: every legal action's playout margins.

Why a type of its own: the search bots (:class:`~atout.bots.search.SearchBot`,
:class:`~atout.bots.batched.BatchSearchBot`) compute these numbers to choose,
and the game review (:mod:`.review`) shows them to a player.  Both read the one
evaluation the bot made, so the review's figures *are* the bot's, not a second
estimate that could disagree with its choice.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from dataclasses import dataclass

from ..core.bot import Bot
from ..core.game import View

#: Inference: the share of a seat model's actions taken uniformly at random (its "tremble").
INFERENCE_EPSILON = 0.3


@dataclass(frozen=True)
class SearchEvaluation:
    """A searched decision.

    ``margins[a]``: action ``a``'s playout margins (the seat's gain over the
    round minus the others' mean gain), one per world it was tried in, in the
    order the worlds were drawn.  Sequential halving tries every action on the
    first worlds and only the survivors on later ones, so the worlds of an
    action are a prefix of those of any action that outlived it: two actions
    compare *paired*, on the worlds they share (:meth:`cost`).
    ``totals[a]``: the sums the bot compared (added in the bot's own order, so
    they are bit for bit what it decided on); ``survivors``: the actions left
    when the budget ran out; ``choice``: the bot's answer.
    """

    margins: dict[int, list[float]]
    totals: dict[int, float]
    survivors: list[int]
    choice: int

    def worlds(self, action: int) -> int:
        """How many worlds ``action`` was tried in."""
        return len(self.margins[action])

    def mean(self, action: int) -> float:
        """The action's expected points: its mean margin over its worlds."""
        return self.totals[action] / len(self.margins[action])

    def stderr(self, action: int) -> float:
        """The standard error of :meth:`mean` (0 with a single world: nothing to estimate it from)."""
        values = self.margins[action]
        n = len(values)
        if n < 2:
            return 0.0
        mean = sum(values) / n
        return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)

    def cost(self, action: int, against: int | None = None) -> tuple[float, float]:
        """What playing ``action`` instead of ``against`` (default: the choice) loses, and its standard error.

        Paired over the worlds both were tried in (the first ``n`` worlds, ``n``
        the smaller count): common random numbers take the luck of the deal out
        of the difference.  An action dropped by halving was behind the choice
        on exactly those worlds, so the cost of any action is never negative
        for the bot's own choice.
        """
        best = self.margins[self.choice if against is None else against]
        mine = self.margins[action]
        n = min(len(best), len(mine))
        diffs = [b - m for b, m in zip(best[:n], mine[:n], strict=True)]
        mean = sum(diffs) / n
        if n < 2:
            return mean, 0.0
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


class PimcBot(Bot):
    """What the two PIMC bots (:class:`~atout.bots.search.SearchBot`,
    :class:`~atout.bots.batched.BatchSearchBot`) hold alike: the budget's
    settings, the count of playouts run, and a choice that is the evaluation's.

    Each checks its own arguments first (their messages name what each takes),
    then hands the shared ones here.
    """

    def __init__(
        self,
        seed: int | None,
        playouts: int,
        min_worlds: int,
        time_limit: float | None,
        inference: bool,
        epsilon: float,
    ) -> None:
        super().__init__(seed)
        #: The budget of a decision in playouts, spent by sequential halving, at least ``min_worlds`` worlds first.
        self.playouts = playouts
        self.min_worlds = min_worlds
        #: Wall-clock safety cap (seconds) for live tables, checked between the halving rounds: a
        #: decision ends with the actions that survived so far.  None (measurements): never.
        self.time_limit = time_limit
        #: Weigh worlds by how likely the other seats were to act as they did (each bot's ``world_source``).
        self.inference = inference
        #: The seat model's "tremble": the share of its actions taken uniformly at random.
        self.epsilon = epsilon
        #: Playouts run so far (bench/bots.py reads it for playouts per second).
        self.simulations = 0

    def choose(self, view: View) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.evaluate(view).choice

    @abstractmethod
    def evaluate(self, view: View) -> SearchEvaluation:
        """Search the decision at ``view`` and return every legal action's margins and the choice.

        :meth:`choose` answers ``evaluate(view).choice``; the game review
        (:mod:`.review`) shows the same numbers to a player.
        """
