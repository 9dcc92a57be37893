"""The Wizard heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods: :class:`.bot.WizardHeuristicBot` stays a
Python class that anyone's bot (the playout model's too) may extend, while its
work runs compiled (:data:`atout._build.COMPILED`; a compiled class would refuse
a subclass's instance).  Without nested functions or lambdas, the first of the
best on a tie as ``min``/``max`` with a key would pick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core import rng as rand
from . import cards as C
from .rules import BID, PLAY, TRUMP
from .view import WizardView

if TYPE_CHECKING:
    from .game import WizardGame, WizardState


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
    return _bid(view.legal_actions, view.hand, view.trump, view.game)


def _bid(legal: Sequence[int], hand: tuple[int, ...], trump: int | None, game: WizardGame) -> int:
    want = round(expected_tricks(hand, trump, game.players)) if hand else 0
    bids = [a - game.bid_base for a in legal]
    return game.bid_base + min([(abs(b - want), b) for b in bids])[1]  # the nearest, the lower on a tie


def play(view: WizardView) -> int:
    """The card to play (the rules of the module docstring of :mod:`.bot`)."""
    own_bid = view.bids[view.seat]
    need = (own_bid if own_bid is not None else 0) - view.tricks_won[view.seat]
    return _play(list(view.legal_actions), [k for _, k in view.trick], view.trump, need, view.game.players)


def state_move(state: WizardState, seat: int, legal: list[int]) -> int:
    """:class:`.bot.WizardHeuristicBot`'s answer at ``state.view(seat)``, read from the state (issue 48).

    What the playouts of a search ask (:attr:`atout.core.bot.RuleBot.state_rule`): the
    view's fields these rules read, taken from the state as ``seen.view_fields`` makes
    them: the seat's hand (none in a clairvoyant first round), the trump, the seat's own
    bid (always shown to it), its tricks and the cards of the trick.
    """
    game = state.game
    trump = None if state.trump < 0 else state.trump
    phase = state.phase
    if phase in (TRUMP, BID):
        hand = () if game.blind_action >= 0 and state.round == 1 else tuple(C.cards_in(state.hands[seat]))
        if phase == TRUMP:
            return game.trump_base + best_suit(hand)
        return _bid(legal, hand, trump, game)
    own_bid = state.bids[seat]
    need = (own_bid if own_bid >= 0 else 0) - state.tricks_won[seat]
    return _play(legal, state.trick, trump, need, game.players)


def _play(legal: list[int], trick: list[int], trump: int | None, need: int, players: int) -> int:
    """:func:`play` of the legal cards, the cards of the trick so far, and the tricks the seat still needs."""
    last = len(trick) == players - 1
    win = -1  # the card winning the trick so far: would_win's, found once for every legal card
    for k in trick:
        win = k if _beats(k, win, trump) else win
    winners = [k for k in legal if _beats(k, win, trump)]
    losers = [k for k in legal if k not in winners]
    if not trick:  # leading
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


def model_move(
    rng: random.Random,
    counts: dict[str, dict[str, int]],
    weight: float,
    state: WizardState,
    seat: int,
    legal: list[int],
) -> int:
    """The Wizard playout model's answer (:class:`.playout.WizardPlayoutBot`, drawing from ``rng``, its
    generator) at ``state.view(seat)``, read from the state (issue 48): expert's playouts.

    The model's own steps written again on the state's fields: the heuristic's card and
    bids (:func:`state_move`), the legal cards grouped by kind as :func:`.playout.kinds`
    groups them (in the same order: the draw among the kinds depends on it), the situation
    of :func:`.playout.situation` (``counts`` and ``weight``: the model's table and the
    heuristic's pseudo-count), then the same two draws from ``rng``, compiled.
    """
    if state.phase != PLAY:
        return state_move(state, seat, legal)
    game = state.game
    trump = None if state.trump < 0 else state.trump
    own_bid = state.bids[seat]
    need = (own_bid if own_bid >= 0 else 0) - state.tricks_won[seat]
    trick = state.trick
    favourite = _play(legal, trick, trump, need, game.players)
    by_kind = kinds_of(legal, trick, trump)
    # The seat's hand as its view counts it: none in a clairvoyant first round.
    left = 0 if game.blind_action >= 0 and state.round == 1 else len(C.cards_in(state.hands[seat]))
    table = counts.get(situation_key(need, left, len(trick), game.players, by_kind))
    if table is None:
        return favourite
    own = ""
    for name, cards in by_kind.items():
        if favourite in cards:
            own = name
            break
    # rng.choices(names, weights)[0], then rng.choice(cards): the same draws, compiled (core/rng.py).
    chosen = rand.weighted(rng, [(k, table.get(k, 0) + (weight if k == own else 0.0)) for k in by_kind])
    if chosen == own:
        return favourite
    return rand.choice(rng, by_kind[chosen])


def kinds_of(legal: list[int], trick: list[int], trump: int | None) -> dict[str, list[int]]:
    """:func:`.playout.kinds` of the legal cards and the cards of the trick."""
    win = -1
    for k in trick:
        win = k if _beats(k, win, trump) else win
    pools: dict[str, list[tuple[int, int]]] = {}
    for card in legal:
        tag = "lead" if not trick else "win" if _beats(card, win, trump) else "duck"
        pool = pools.get(tag)
        if pool is None:
            pool = pools[tag] = []
        pool.append((strength(card, trump), card))
    grouped: dict[str, list[int]] = {}
    for tag, pool in pools.items():
        high = max([p for p, _ in pool])
        low = min([p for p, _ in pool])
        for power, card in pool:
            name = tag + ("_max" if power == high else "_min" if power == low else "_mid")
            cards = grouped.get(name)
            if cards is None:
                cards = grouped[name] = []
            cards.append(card)
    return grouped


def situation_key(need: int, left: int, played: int, players: int, grouped: dict[str, list[int]]) -> str:
    """:func:`.playout.situation`: the tricks needed against the cards left, the place in the trick."""
    if need > 0:
        key = "n+" + str(max(0, min(left - need, 3)))
    elif need == 0:
        key = "n0" + str(min(max(left, 1), 3))
    else:
        key = "nX"
    if not played:
        return key + "|lead"
    place = "last" if played == players - 1 else "mid"
    tags = {name[:3] for name in grouped}
    reach = "some" if len(tags) == 2 else "all" if "win" in tags else "none"
    return f"{key}|{place}|{reach}"


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
