"""A rule-based Wizard bot: bids from its hand's strength, then plays to make the bid.

Heuristics (documented in docs/bots.md):

* **Bid**: each card is worth an expected number of tricks — a Wizard 0.95, a
  trump by rank (0.35 to 0.9), a high card of another suit (13: 0.7, 12: 0.45,
  11: 0.2, higher without trump), a Jester nothing — scaled down at bigger
  tables; the sum is rounded and, under plus/minus one, moved to the nearest
  allowed bid.
* **Trump choice** (a Wizard turned up): the suit with the most cards, then the
  highest ranks.
* **Play**: while it still needs tricks, it wins with the cheapest card that
  wins now (with a safe winner when others still play after it), and leads its
  strongest card; once its bid is made, it ducks with the highest card that
  does not win, and when every card wins it wins with the strongest one to keep
  the weak ones.
"""

from __future__ import annotations

from ...core.bot import RuleBot, StateRule
from .heuristic import best_suit, bid, expected_tricks, play, state_move, strength, would_win
from .view import WizardView


class WizardHeuristicBot(RuleBot[WizardView]):
    """Bids from hand strength; plays to make exactly its bid (the rules run compiled: :mod:`.heuristic`)."""

    view_type = WizardView

    def decide(self, view: WizardView) -> int:
        if view.phase == "trump":
            return view.game.trump_base + best_suit(view.hand)
        if view.phase == "bid":
            return bid(view)
        return self._play(view)

    def _play(self, view: WizardView) -> int:
        """The card to play (a subclass may play otherwise: the playout model)."""
        return play(view)

    def state_rule(self) -> StateRule:
        return state_move  # decide's rules read from a playout's world (issue 48)


__all__ = ["WizardHeuristicBot", "expected_tricks", "strength", "would_win"]
