"""The Wizard heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods: :class:`.bot.WizardHeuristicBot` stays a
Python class that anyone's bot (the playout model's too) may extend, while its
work runs compiled (:data:`atout._build.COMPILED`; a compiled class would refuse
a subclass's instance).  Without nested functions or lambdas, the first of the
best on a tie as ``min``/``max`` with a key would pick.
"""

from __future__ import annotations

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


def best_suit(hand: tuple[int, ...]) -> int:
    """The trump to choose: the suit with the most cards, then the highest ranks."""
    best, best_score = 0, (-1, -1)
    for suit in range(4):  # the first of the best, as max(range(4), key=...) picks
        mine = [C.rank_of(k) for k in hand if C.suit_of(k) == suit]
        score = (len(mine), sum(mine))
        if score > best_score:
            best, best_score = suit, score
    return best


def bid(view: WizardView) -> int:
    """The bid: the expected tricks of the hand, rounded, or the nearest bid allowed."""
    legal = view.legal_actions
    game = view.game
    hand = view.hand or tuple(k for h in (view.seen_hands or ()) if h for k in h)[:0]
    want = round(expected_tricks(hand, view.trump, game.players)) if view.hand else 0
    bids = [a - game.bid_base for a in legal]
    return game.bid_base + min([(abs(b - want), b) for b in bids])[1]  # the nearest, the lower on a tie


def play(view: WizardView) -> int:
    """The card to play (the rules of the module docstring of :mod:`.bot`)."""
    trump = view.trump
    legal = list(view.legal_actions)
    own_bid = view.bids[view.seat]
    need = (own_bid if own_bid is not None else 0) - view.tricks_won[view.seat]
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
