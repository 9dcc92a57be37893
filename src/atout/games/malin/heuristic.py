"""The Le Malin heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods, as Wizard's (:mod:`atout.games.wizard.heuristic`):
:class:`.bot.MalinHeuristicBot` stays a Python class anyone may extend, and these
run compiled at every decision of every playout of a search.  Written without
nested functions or lambdas (mypyc's condition), ties broken as the methods broke
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import cards as C
from .cards import AVOCAT, BELZ, FENNEC, MALIN, SIX, TWIN, WISH, Value
from .game import MalinGame
from .rules import (
    BID,
    BID_BASE,
    EFFECT_TYPES,
    PASS,
    PLAY,
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

if TYPE_CHECKING:
    from .game import MalinState


def expected_tricks(view: MalinView) -> float:
    """Expected tricks of ``view.hand``: see the docstring of :mod:`.bot`."""
    return _expected(view.game, view.hand, view.removed)


def _expected(game: MalinGame, hand: tuple[int, ...], removed: int | None) -> float:
    n = game.players
    seen = set(hand)
    if removed is not None:
        seen.add(removed)
    numbers_unseen = [v for v in range(1, game.top + 1) if v - 1 not in seen]
    specials = 0
    for k in hand:
        if k >= TWIN:
            specials += 1
    specials_unseen = 3 - specials - (1 if removed == TWIN else 0)
    unseen = len(numbers_unseen) + specials_unseen
    total = 0.0
    for k in hand:
        if k == TWIN:
            total += 0.75
        elif k == WISH:
            total += 0.5
        else:
            lower = 0
            for v in numbers_unseen:
                if v < k + 1:
                    lower += 1
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


def move(view: MalinView) -> int:
    """The heuristic's answer at a decision with two legal actions or more."""
    legal = view.legal_actions
    phase = view.phase
    if phase == "bid":
        return _bid(legal, expected_tricks(view))
    if phase == "play":
        return play(view)
    if phase == "redeclare":
        return max(legal) if need(view) > 0 else min(legal)
    if phase == "window":
        return window(view)
    if phase == "react":
        return react(view)
    return legal[0]


def state_move(state: MalinState, seat: int, legal: list[int]) -> int:
    """:func:`move` at ``state.view(seat)``, read from the state in the bidding and the play (issue 48):
    what the playouts of a search ask (:attr:`atout.core.bot.RuleBot.state_rule`).  The view's
    fields these read, as ``seen.view_fields`` makes them: the seat's hand, the card removed,
    the seat's bid and tricks, the trick and the tricks played.  The Malheur cards' rare
    decisions are :func:`move`'s at the seat's view.
    """
    game = state.game
    phase = state.phase
    if phase == BID:
        removed = None if state.removed < 0 else state.removed
        return _bid(legal, _expected(game, tuple(C.cards_in(state.hands[seat])), removed))
    if phase == PLAY:
        own = state.bids[seat]
        wanted = (own if own >= 0 else 0) - state.tricks_won[seat]
        return _play(game, legal, state.trick, len(state.tricks), wanted)
    return move(state.view(seat))


def _bid(legal: Sequence[int], expected: float) -> int:
    """The legal bid nearest the expected tricks, the lower on a tie."""
    want = round(expected)
    return min([(abs(a - BID_BASE - want), a) for a in legal])[1]


def need(view: MalinView) -> int:
    """The tricks this seat still needs for its contract (0 or less: made)."""
    bid = view.bids[view.seat]
    return (bid if bid is not None else 0) - view.tricks_won[view.seat]


def _good(view: MalinView, values: list[Value]) -> bool:
    """Whether the trick, ending with ``values``, goes the way this seat's contract wants."""
    cards = [(s, k, d, v) for (s, k, d, _), v in zip(view.trick, values, strict=True)]
    last_trick = len(view.tricks) == view.hand_size - 1
    winner = winner_of(cards, view.game.wish_rule, last_trick)
    return (winner == view.seat) == (need(view) > 0)


def _good_after(view: MalinView, mtype: int, target: int) -> bool:
    """Whether the trick goes the way this seat wants once ``mtype`` changes ``target``'s card."""
    trial = [c[3] for c in view.trick]
    pos = [c[0] for c in view.trick].index(target)
    trial[pos] = effect_value(view.game, mtype, trial[pos])
    return _good(view, trial)


def play(view: MalinView) -> int:
    """The card to play (the rules of the docstring of :mod:`.bot`)."""
    return _play(view.game, view.legal_actions, view.trick, len(view.tricks), need(view))


def _play(
    game: MalinGame,
    legal: Sequence[int],
    trick: Sequence[tuple[int, int, int, Value]],
    played: int,
    wanted: int,
) -> int:
    """:func:`play` of the trick so far, the tricks played this hand and the tricks the seat still needs."""
    twin_high = game.twin_high
    numbers = [a for a in legal if a < TWIN_LOW]
    wishes = [a for a in legal if a >= WISH_BASE - 100]
    twins = [a for a in legal if a in (TWIN_LOW, TWIN_HIGH)]
    best: Value | None = None
    for c in trick:
        if best is None or c[3] > best:
            best = c[3]
    tricks_left = game.hand_size - played
    last = len(trick) == game.players - 1
    if wanted > 0:
        winners = [a for a in numbers if _beats(a, best, twin_high)]
        if last:
            if winners:
                return min(winners)
            tries = [TWIN_HIGH]
            if wishes:
                tries.append(max(wishes))
            for a in tries:
                if a in legal and _beats(a, best, twin_high):
                    return a
        else:
            strong = [a for a in winners if a + 1 >= game.top - 3]
            if strong:
                return max(strong)
            if TWIN_HIGH in twins and _beats(TWIN_HIGH, best, twin_high):
                return TWIN_HIGH
            if wishes and (wanted >= tricks_left or not numbers):
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


def window(view: MalinView) -> int:
    """A Malheur card to play in its window, or :data:`~.rules.PASS`."""
    legal = view.legal_actions
    if view.window == "before bidding":
        malins = [a for a in legal if malheur_type(a) == MALIN]
        if malins:  # the one hitting the most Malheur cards, the first on a tie
            pick, most = malins[0], -1
            for a in malins:
                hits = 0
                for t in malin_targets(a):
                    hits += view.malheur_counts[t]
                if hits > most:
                    pick, most = a, hits
            return pick
        return PASS
    if len(view.trick) != view.game.players:
        return PASS  # later cards can still change the trick: keep the cards for the end
    if _good(view, [c[3] for c in view.trick]):
        return PASS
    for a in legal:
        mtype = malheur_type(a)
        if mtype in EFFECT_TYPES and _good_after(view, mtype, malheur_target(a)):
            return a
    return PASS


def react(view: MalinView) -> int:
    """The answer to a Malheur card aimed at this seat: L'Avocat du Diable, or :data:`~.rules.PASS`."""
    legal = view.legal_actions
    if view.pending is None or len(legal) == 1:
        return PASS
    _, mtype, targets, index, _ = view.pending
    if mtype != SIX and mtype != BELZ and mtype != FENNEC:
        return PASS
    if _good_after(view, mtype, targets[index]):
        return PASS
    for a in legal:
        if malheur_type(a) == AVOCAT and _good_after(view, mtype, malheur_target(a)):
            return a
    return PASS


def _weakest(numbers: list[int], twins: list[int], legal: Sequence[int]) -> int:
    """The card to throw away: the lowest number, else the Twin as 0, else the lowest id."""
    if numbers:
        return min(numbers)
    if TWIN_LOW in twins:
        return TWIN_LOW
    return min(legal)


def _beats(action: int, best: Value | None, twin_high: int) -> bool:
    """Whether the card ``action`` plays beats ``best``, the trick's best value so far (None: no card yet)."""
    return best is None or play_kind_value(action, twin_high)[1] > best
