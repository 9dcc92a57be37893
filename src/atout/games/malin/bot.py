"""A rule-based Le Malin bot: bids from its hand, plays to make its contract exactly.

Heuristics (documented in src/atout/i18n/en/rules/le-malin.md, "The heuristic bot"):

* **Bid**: a numbered card is worth the chance that every opponent's card is
  lower, estimated from the cards it has not seen (``(lower / unseen) ** (n-1)``,
  so 34 is nearly a sure trick and 12 is nearly worthless); a Twin is worth
  0.75 (35 beats every number but can be turned into a 0); the Wish, which
  wins or loses at will, 0.5.  The legal bid nearest the sum is chosen.
* **Play**: while it still needs tricks it wins as cheaply as it can when it
  plays last, plays its strongest number (or a Twin as 35, or the Wish as its
  highest legal value) otherwise, and leads its highest number; once its
  contract is made it ducks with the highest card that loses, keeping the Twins
  (as 0) and the Wish (as its lowest value) for when nothing else loses.
  Specials are spent last because they are the only cards that can still
  adjust the count late in the hand.
* **Wish re-declaration**: the highest legal value when it wants the trick,
  the lowest when it does not.
* **Malheur cards** (jeu fun): in the window after the last card of a trick it
  tries every legal 666/Belzébuth/Fennec and plays one that turns the trick the
  way its contract needs (won when it still needs tricks, lost otherwise); when
  a card aims at it, it answers with L'Avocat du Diable if a redirection gives
  a better trick for it; it plays Le Malin before the bidding, on the opponents
  holding the most Malheur cards.  Otherwise it passes.
"""

from __future__ import annotations

from ...core.bot import RuleBot, StateRule
from .heuristic import effect_value, expected_tricks, move, state_move
from .view import MalinView


class MalinHeuristicBot(RuleBot[MalinView]):
    """Bids from hand strength; plays to make its contract exactly; uses Malheur cards to save it.

    The rules run compiled (:mod:`.heuristic`); the class stays Python, for anyone to extend.
    """

    view_type = MalinView

    def decide(self, view: MalinView) -> int:
        return move(view)

    def state_rule(self) -> StateRule:
        return state_move  # decide's rules read from a playout's world (issue 48)


__all__ = ["MalinHeuristicBot", "effect_value", "expected_tricks"]
