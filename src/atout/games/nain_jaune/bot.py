"""A rule-based Nain Jaune bot: cash board cards early, run long, shed the heavy cards.

Play is mostly forced (the needed rank must be played), so the bot decides in
three places only (documented in src/atout/i18n/en/rules/nain-jaune.md, "The heuristic bot"):

* **Which suit** when it holds several cards of the needed rank: a board card
  first (it wins its box now, and a board card caught in hand at the end pays
  the box again), otherwise any (cards of one rank weigh the same).
* **A free start** (first card of a deal, after a King, after a run dies): each
  card is scored by the run it opens in its own hand: :data:`CARD_WEIGHT` per
  card shed (going out first is what pays), plus the points shed, plus twice
  the tokens of the boxes it cashes.  A rank whose four cards are all on the
  pile does not stop the run: nobody can play it, so (by the default stuck
  rule) the bot is asked first for the rank after.  A run that reaches a King
  gets the lead back (a small bonus).  Best score wins; ties go to the lower
  rank, which leaves the higher cards for later runs.
* **Claim / voluntary stop**: always claims a box, never stops a run it can go on.

Against three random players over 4-deal matches (600 seeded matches, seat
rotated) this gains about 20 tokens a match at 4 players, 15 at 6; scoring runs
by points alone, without the per-card weight, gains almost nothing.
"""

from __future__ import annotations

from ...core.bot import RuleBot, StateRule
from .heuristic import CARD_WEIGHT, KING_BONUS, card_value, move, run_value, state_move
from .view import NainJauneView


class NainJauneHeuristicBot(RuleBot[NainJauneView]):
    """Cashes board cards early, keeps its runs going, dumps high points."""

    view_type = NainJauneView

    def decide(self, view: NainJauneView) -> int:
        return move(view)  # compiled: .heuristic

    def state_rule(self) -> StateRule:
        return state_move  # decide's rules read from a playout's world (issue 48)


__all__ = ["CARD_WEIGHT", "KING_BONUS", "NainJauneHeuristicBot", "card_value", "run_value"]
