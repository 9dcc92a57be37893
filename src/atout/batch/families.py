"""What some of the games' batches share, not all: the parts a batch class is built from besides :class:`.base.BatchBase`.

Why a module of its own: :mod:`.base` is what every batch inherits; a family of
games shares more, by what its rules are alike in: the games in which each
seat bids its tricks (Wizard, Le Malin) keep the same trick bookkeeping
(:class:`BiddingTricks`), and the games dealt whole when a match starts
(Wizard, Sticheln) start and load their matches alike (:class:`WholeMatchDeals`).
A game's batch class names its families among its bases.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Protocol, cast

import numpy as np
from numpy.typing import NDArray

from .base import BatchBase, DealsT, GameT, IntArray, MatchArray
from .common import turn_seats

__all__ = ["BiddingTricks", "DealtHands", "WholeMatchDeals"]


class BiddingTricks:
    """The state arrays of a game in which each seat bids the tricks it will take (Wizard, Le Malin).

    Mixed into such a game's batch class (before :class:`BatchBase`): the
    trick bookkeeping both games' rules keep, with the same meaning and the
    same values when a round opens, declared once.
    """

    #: Who leads the trick in progress.
    leader = MatchArray(np.intp)
    #: Cards in the trick in progress / tricks finished this round / the bids made so far, summed.
    trick_size = MatchArray(np.intp, round_start=0)
    tricks_done = MatchArray(np.intp, round_start=0)
    bid_sum = MatchArray(np.intp, round_start=0)
    #: Per seat: its hand (slot bitmask), its bid (-1 not yet), the tricks it took this round.
    hands = MatchArray(np.uint64, "players")
    bids = MatchArray(np.intp, "players", round_start=-1)
    tricks_won = MatchArray(np.intp, "players", round_start=0)


class DealtHands(Protocol):
    """What a match dealt whole holds (:class:`WholeMatchDeals`): round 1's dealer, and every round's
    hands by absolute seat (the match's rows first, then the round's)."""

    @property
    def first_dealer(self) -> IntArray: ...
    @property
    def hands(self) -> NDArray[Any]: ...


class WholeMatchDeals(BatchBase[GameT, DealsT]):
    """A game whose matches are dealt whole when they start (Wizard, Sticheln): what follows from it.

    Why a class: both games deal every round of a match from its seed at once
    and keep the deals, so both start a match, and load a seeded state, with
    the same steps: keep the deals, scores at 0, open the first round; and for
    a loaded state, deal from its seed and turn the seats to the first dealer
    its dealer and round imply (:func:`.common.turn_seats`), so that the
    rounds to come are dealt as the engine deals them.  Since every round is
    dealt, the same deal also serves a match restarted at any round.  What
    each game keeps of a deal (its hands; Wizard's turned cards too) is its
    :meth:`_keep_deals`.
    """

    _deals_serve_any_start = True
    scores = MatchArray(np.int32, "players")

    @abstractmethod
    def _keep_deals(self, g: IntArray, deals: DealsT, hands: NDArray[Any]) -> None:
        """Keep the deals of the matches ``g``, their hands as ``hands`` (the deals' own, or turned)."""

    def _start_matches(self, g: IntArray, deals: DealsT) -> None:
        dealt = cast(DealtHands, deals)
        self._keep_deals(g, deals, dealt.hands)
        self.scores[g] = 0
        self._first_round(g, dealt.first_dealer)

    def _deal_loaded(self) -> None:
        """The loaded matches that have a seed (not :attr:`round_only`) keep every round's deal from it,
        their seats turned to the round-1 dealer the state's dealer and round imply."""
        seeded = np.flatnonzero(~self.round_only)
        if seeded.size:
            deals = self._deal([self.seeds[g] for g in seeded.tolist()])
            dealt = cast(DealtHands, deals)
            first = (self.dealer[seeded] - self.round[seeded] + 1) % self.players
            self._keep_deals(seeded, deals, turn_seats(dealt.hands, dealt.first_dealer, first))
