"""A rule-based Sticheln bot: a safe handicap colour, then dump it on others and avoid taking it.

Heuristics (also described in src/atout/i18n/en/rules/sticheln.md):

* **Handicap choice**: the danger of a colour is the value of its cards held by
  the others (they may end up in my tricks), divided by the table size, plus
  the value of the card laid (it counts against me for sure).  The bot picks
  the least dangerous colour(s) and lays its lowest card there (a 0 is free).
  Holding many high cards of a colour makes it safe: they are mine to dump.
* **Play**: a card that is not winning the trick now can never win it later (a
  later card can only take the trick over), so it is a safe discard.  Each card
  is scored: a losing card by how good it is to get rid of (my handicap cards,
  the most valuable first; cards of the current winner's handicap colour hurt
  him) minus the cost of wasting a strong trump; a winning card by what the
  trick is worth to me (my own handicap cards in it cost their value), times the
  chance that nobody after me takes it over, plus a guess for the cards still
  to come.  With no better idea, lead low: zeros (which never win a trick
  themselves) and low cards of other colours.
"""

from __future__ import annotations

from ...core.bot import RuleBot, StateRule
from .heuristic import move, state_move
from .view import StichelnView


class StichelnHeuristicBot(RuleBot[StichelnView]):
    """Chooses a safe handicap colour; plays to dump it on others and avoid taking it.

    The rules run compiled (:mod:`.heuristic`); the class stays Python, for anyone to extend.
    """

    view_type = StichelnView

    def decide(self, view: StichelnView) -> int:
        return move(view)

    def state_rule(self) -> StateRule:
        return state_move  # decide's rules read from a playout's world (issue 48)
