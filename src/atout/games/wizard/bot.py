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

from ...core.bot import RuleBot
from . import cards as C
from .view import WizardView


def strength(kind: int, trump: int | None) -> int:
    """An ordering of card power: Jester < plain ranks < trumps < Wizard."""
    if kind == C.WIZARD:
        return 100
    if kind == C.JESTER:
        return -1
    rank = C.rank_of(kind)
    return 50 + rank if C.suit_of(kind) == trump else rank


def would_win(kind: int, trick: tuple[tuple[int, int], ...], trump: int | None) -> bool:
    """Whether ``kind`` added to ``trick`` would be winning it right now."""
    win = -1
    for _, k in trick:
        win = k if _beats(k, win, trump) else win
    return _beats(kind, win, trump) if trick else True


def _beats(kind: int, win: int, trump: int | None) -> bool:
    if win == -1:
        return True
    if win == C.WIZARD or kind == C.JESTER:
        return False
    if kind == C.WIZARD or win == C.JESTER:
        return True
    suit, wsuit = C.suit_of(kind), C.suit_of(win)
    return (suit == wsuit and kind > win) or (suit == trump and wsuit != trump)


def expected_tricks(hand: tuple[int, ...], trump: int | None, players: int) -> float:
    scale = 1.0 - 0.08 * (players - 4)
    total = 0.0
    for k in hand:
        if k == C.WIZARD:
            total += 0.95
        elif k == C.JESTER:
            continue
        else:
            rank = C.rank_of(k)
            if C.suit_of(k) == trump:
                total += scale * (0.9 if rank >= 11 else 0.6 if rank >= 8 else 0.35)
            elif trump is None:
                total += scale * {13: 0.85, 12: 0.6, 11: 0.3}.get(rank, 0.0)
            else:
                total += scale * {13: 0.7, 12: 0.45, 11: 0.2}.get(rank, 0.0)
    return total


class WizardHeuristicBot(RuleBot[WizardView]):
    """Bids from hand strength; plays to make exactly its bid."""

    view_type = WizardView

    def decide(self, view: WizardView) -> int:
        legal = view.legal_actions
        game = view.game
        if view.phase == "trump":
            return game.trump_base + self._best_suit(view.hand)
        if view.phase == "bid":
            hand = view.hand or tuple(k for h in (view.seen_hands or ()) if h for k in h)[:0]
            want = round(expected_tricks(hand, view.trump, game.players)) if view.hand else 0
            bids = [a - game.bid_base for a in legal]
            return (
                game.bid_base + min([(abs(b - want), b) for b in bids])[1]
            )  # the nearest, the lower on a tie
        return self._play(view)

    @staticmethod
    def _best_suit(hand: tuple[int, ...]) -> int:
        best, best_score = 0, (-1, -1)
        for suit in range(4):  # the first of the best, as max(range(4), key=...) picks
            mine = [C.rank_of(k) for k in hand if C.suit_of(k) == suit]
            score = (len(mine), sum(mine))
            if score > best_score:
                best, best_score = suit, score
        return best

    # Without nested functions or lambdas (mypyc compiles none in a method of a Python
    # class): ``_weakest``/``_strongest`` are min/max by strength, the first on a tie.
    def _play(self, view: WizardView) -> int:
        trump = view.trump
        legal = list(view.legal_actions)
        bid = view.bids[view.seat]
        need = (bid if bid is not None else 0) - view.tricks_won[view.seat]
        last = len(view.trick) == view.game.players - 1
        winners = [k for k in legal if would_win(k, view.trick, trump)]
        losers = [k for k in legal if k not in winners]
        if not view.trick:  # leading
            if need > 0:
                return _strongest(legal, trump)
            return _weakest(legal, trump)
        if need > 0:
            if winners:
                if last:
                    return _weakest(winners, trump)
                safe = [k for k in winners if k == C.WIZARD or strength(k, trump) >= 50 + 11]
                return _weakest(safe, trump) if safe else _strongest(winners, trump)
            return _weakest(legal, trump)
        if losers:
            return _strongest(losers, trump)
        return _strongest(winners, trump)


def _weakest(kinds: list[int], trump: int | None) -> int:
    """The first card of ``kinds`` of the least :func:`strength` (``min(kinds, key=...)``)."""
    best = kinds[0]
    low = strength(best, trump)
    for kind in kinds:
        power = strength(kind, trump)
        if power < low:
            best, low = kind, power
    return best


def _strongest(kinds: list[int], trump: int | None) -> int:
    """The first card of ``kinds`` of the greatest :func:`strength` (``max(kinds, key=...)``)."""
    best = kinds[0]
    high = strength(best, trump)
    for kind in kinds:
        power = strength(kind, trump)
        if power > high:
            best, high = kind, power
    return best
