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

from ...core.bot import RuleBot
from . import cards as C
from .cards import AVOCAT, BELZ, FENNEC, MALIN, SIX, TWIN, WISH, Value
from .game import MalinGame
from .rules import (
    BID_BASE,
    EFFECT_TYPES,
    PASS,
    TWIN_HIGH,
    TWIN_LOW,
    WISH_BASE,
    malheur_target,
    malheur_type,
    malin_targets,
    play_kind_value,
    winner_of,
)
from .view import MalinView


def expected_tricks(view: MalinView) -> float:
    """Expected tricks of ``view.hand``: see the module docstring."""
    game = view.game
    n = game.players
    seen = set(view.hand)
    if view.removed is not None:
        seen.add(view.removed)
    numbers_unseen = [v for v in range(1, game.top + 1) if v - 1 not in seen]
    specials_unseen = 3 - sum(1 for k in view.hand if k >= TWIN) - (1 if view.removed == TWIN else 0)
    unseen = len(numbers_unseen) + specials_unseen
    total = 0.0
    for k in view.hand:
        if k == TWIN:
            total += 0.75
        elif k == WISH:
            total += 0.5
        else:
            lower = sum(1 for v in numbers_unseen if v < k + 1)
            total += (lower / unseen) ** (n - 1) if unseen else 1.0
    return total


def effect_value(game: MalinGame, mtype: int, value: Value) -> Value:
    """The value a 666/Belzébuth/Fennec would leave on a card worth ``value``."""
    if mtype == SIX:
        assert isinstance(value, int)
        return C.reverse_digits(value, game.pad_to_two)
    if mtype == BELZ:
        return C.halve(value, game.halve_floor)
    return 0


class MalinHeuristicBot(RuleBot[MalinView]):
    """Bids from hand strength; plays to make its contract exactly; uses Malheur cards to save it."""

    view_type = MalinView

    def decide(self, view: MalinView) -> int:
        legal = view.legal_actions
        if view.phase == "bid":
            want = round(expected_tricks(view))
            return min([(abs(a - BID_BASE - want), a) for a in legal])[1]  # the nearest, the lower on a tie
        if view.phase == "play":
            return self._play(view)
        if view.phase == "redeclare":
            return max(legal) if self._wants_trick(view) else min(legal)
        if view.phase == "window":
            return self._window(view)
        if view.phase == "react":
            return self._react(view)
        return legal[0]

    # -- helpers --------------------------------------------------------------------
    @staticmethod
    def _need(view: MalinView) -> int:
        bid = view.bids[view.seat]
        return (bid if bid is not None else 0) - view.tricks_won[view.seat]

    def _wants_trick(self, view: MalinView) -> bool:
        return self._need(view) > 0

    @staticmethod
    def _last_trick(view: MalinView) -> bool:
        return len(view.tricks) == view.hand_size - 1

    def _winner(self, view: MalinView, values: list[Value]) -> int:
        cards = [(s, k, d, v) for (s, k, d, _), v in zip(view.trick, values, strict=True)]
        return winner_of(cards, view.game.options["wish_beats_both_twins"], self._last_trick(view))

    def _good(self, view: MalinView, values: list[Value]) -> bool:
        """Whether the trick, ending with ``values``, goes the way this seat's contract wants."""
        return (self._winner(view, values) == view.seat) == self._wants_trick(view)

    def _good_after(self, view: MalinView, mtype: int, target: int) -> bool:
        """Whether the trick goes the way this seat wants once ``mtype`` changes ``target``'s card."""
        trial = [c[3] for c in view.trick]
        pos = [c[0] for c in view.trick].index(target)
        trial[pos] = effect_value(view.game, mtype, trial[pos])
        return self._good(view, trial)

    # -- card play ------------------------------------------------------------------
    def _play(self, view: MalinView) -> int:
        legal = view.legal_actions
        twin_high = view.game.twin_high
        numbers = [a for a in legal if a < TWIN_LOW]
        wishes = [a for a in legal if a >= WISH_BASE - 100]
        twins = [a for a in legal if a in (TWIN_LOW, TWIN_HIGH)]
        best: Value | None = max((c[3] for c in view.trick), default=None)
        tricks_left = view.hand_size - len(view.tricks)
        need = self._need(view)
        last = len(view.trick) == view.game.players - 1
        if need > 0:
            winners = [a for a in numbers if _beats(a, best, twin_high)]
            if last:
                if winners:
                    return min(winners)
                for a in (TWIN_HIGH, *(sorted(wishes, reverse=True)[:1])):
                    if a in legal and _beats(a, best, twin_high):
                        return a
            else:
                strong = [a for a in winners if a + 1 >= view.game.top - 3]
                if strong:
                    return max(strong)
                if TWIN_HIGH in twins and _beats(TWIN_HIGH, best, twin_high):
                    return TWIN_HIGH
                if wishes and (need >= tricks_left or not numbers):
                    return max(wishes)
                if winners:
                    return max(winners)
            return _weakest(numbers, twins, legal)  # cannot win this one
        # Contract made (or overshooting): lose every trick if possible.
        losers = [a for a in numbers if not _beats(a, best, twin_high)] if best is not None else []
        if losers:
            return max(losers)
        if TWIN_LOW in twins and (best is not None and best > 0):
            return TWIN_LOW
        if wishes and best is not None:
            return min(wishes)
        return _weakest(numbers, twins, legal)

    # -- Malheur cards --------------------------------------------------------------
    def _window(self, view: MalinView) -> int:
        legal = view.legal_actions
        if view.window == "before bidding":
            malins = [a for a in legal if malheur_type(a) == MALIN]
            if malins:  # the one hitting the most Malheur cards, the first on a tie
                pick, most = malins[0], -1
                for a in malins:
                    hits = sum([view.malheur_counts[t] for t in malin_targets(a)])
                    if hits > most:
                        pick, most = a, hits
                return pick
            return PASS
        if len(view.trick) != view.game.players:
            return PASS  # later cards can still change the trick: keep the cards for the end
        if self._good(view, [c[3] for c in view.trick]):
            return PASS
        for a in legal:
            mtype = malheur_type(a)
            if mtype in EFFECT_TYPES and self._good_after(view, mtype, malheur_target(a)):
                return a
        return PASS

    def _react(self, view: MalinView) -> int:
        legal = view.legal_actions
        if view.pending is None or len(legal) == 1:
            return PASS
        _, mtype, targets, index, _ = view.pending
        if mtype not in (SIX, BELZ, FENNEC):
            return PASS
        if self._good_after(view, mtype, targets[index]):
            return PASS
        for a in legal:
            if malheur_type(a) == AVOCAT and self._good_after(view, mtype, malheur_target(a)):
                return a
        return PASS


def _weakest(numbers: list[int], twins: list[int], legal: tuple[int, ...]) -> int:
    """The card to throw away: the lowest number, else the Twin as 0, else the lowest id."""
    if numbers:
        return min(numbers)
    if TWIN_LOW in twins:
        return TWIN_LOW
    return min(legal)


__all__ = ["MalinHeuristicBot", "expected_tricks"]


def _beats(action: int, best: Value | None, twin_high: int) -> bool:
    """Whether the card ``action`` plays beats ``best``, the trick's best value so far (None: no card yet)."""
    return best is None or play_kind_value(action, twin_high)[1] > best
