"""The Nain Jaune heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods, as Wizard's (:mod:`atout.games.wizard.heuristic`):
:class:`.bot.NainJauneHeuristicBot` stays a Python class anyone may extend.
"""

from __future__ import annotations

from typing import Final

from . import cards as C
from .rules import CLAIM, PASS
from .view import NainJauneView

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
    if CLAIM in legal:
        return CLAIM
    cards = [a for a in legal if a != PASS]
    if not cards:
        return PASS
    boxes = view.boxes
    # The best by a key that ends with -c (no two cards tie), without a lambda.
    if view.need is not None:
        return -max([(card_value(c, boxes), -c) for c in cards])[1]
    played = C.mask_of([c for _, c in view.played])
    free = view.game.options["stuck_rule"] == "free_restart"
    hand = view.hand
    return -max([(run_value(c, hand, boxes, played, free), -C.rank_of(c), -c) for c in cards])[2]
