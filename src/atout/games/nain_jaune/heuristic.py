"""The Nain Jaune heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods, as Wizard's (:mod:`atout.games.wizard.heuristic`):
:class:`.bot.NainJauneHeuristicBot` stays a Python class anyone may extend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ...core.bits import bits_of
from . import cards as C
from .rules import CLAIM, PASS
from .view import NainJauneView

if TYPE_CHECKING:
    from .game import NainJauneState

#: Worth of each card a run sheds (the measured driver of strength).
CARD_WEIGHT: Final = 20
#: Worth of getting the lead back (a King, or a dead rank with free restarts).
KING_BONUS: Final = 8


def card_value(c: int, boxes: tuple[int, ...]) -> int:
    """What shedding ``c`` is worth: its points, plus twice its box (won now, not paid later)."""
    box = C.BOX_OF[c]
    return C.POINTS[c] + (2 * boxes[box] if box >= 0 else 0)


def run_value(
    start: int,
    hand: tuple[int, ...],
    boxes: tuple[int, ...],
    played: int = 0,
    free_restart: bool = False,
) -> int:
    """Value of the run opened with ``start`` from ``hand`` (``played``: mask of the pile)."""
    rank = C.rank_of(start)
    total = CARD_WEIGHT + card_value(start, boxes)
    while rank < C.KING:
        nxt = rank + 1
        step = [card_value(c, boxes) for c in hand if C.rank_of(c) == nxt]
        if step:
            total += CARD_WEIGHT + max(step)
        elif C.RANK_MASK[nxt] & ~played:
            return total  # someone else may hold it: the run leaves us
        elif free_restart:
            return total + KING_BONUS  # nobody has it: we start again
        rank = nxt
    return total + KING_BONUS


def move(view: NainJauneView) -> int:
    """The heuristic's move (the rules of :mod:`.bot`'s docstring), among two or more."""
    legal = view.legal_actions
    early = _claim_or_pass(legal)
    if early is not None:
        return early
    cards = [a for a in legal if a != PASS]
    boxes = view.boxes
    if view.need is not None:
        return _cash(cards, boxes)
    played = C.mask_of([c for _, c in view.played])
    free = view.game.options["stuck_rule"] == "free_restart"
    return _start(cards, view.hand, boxes, played, free)


def state_move(state: NainJauneState, seat: int, legal: list[int]) -> int:
    """:func:`move` at ``state.view(seat)``, read from the state (issue 48): what the playouts of a
    search ask (:attr:`atout.core.bot.RuleBot.state_rule`).  The view's fields it reads, as
    ``seen.view_fields`` makes them: the boxes, the rank needed (0 for none), the cards on the
    pile and the seat's hand.
    """
    early = _claim_or_pass(legal)
    if early is not None:
        return early
    cards = [a for a in legal if a != PASS]
    boxes = tuple(state.boxes)
    if state.need:
        return _cash(cards, boxes)
    played = C.mask_of([c for _, c in state.played])
    free = state.game.options["stuck_rule"] == "free_restart"
    return _start(cards, tuple(bits_of(state.hands[seat])), boxes, played, free)


def _claim_or_pass(legal: Sequence[int]) -> int | None:
    """A box claimed whenever it can be, a pass when no card may be played; otherwise None: a card to choose."""
    if CLAIM in legal:
        return CLAIM
    if all(a == PASS for a in legal):
        return PASS
    return None


def _cash(cards: list[int], boxes: tuple[int, ...]) -> int:
    """The card of the rank needed: the one worth most (a board card first)."""
    # The best by a key that ends with -c (no two cards tie), without a lambda.
    return -max([(card_value(c, boxes), -c) for c in cards])[1]


def _start(cards: list[int], hand: tuple[int, ...], boxes: tuple[int, ...], played: int, free: bool) -> int:
    """A free start: the card opening the best run of the hand (the lower rank on a tie)."""
    return -max([(run_value(c, hand, boxes, played, free), -C.rank_of(c), -c) for c in cards])[2]
