"""The engine's Nain Jaune heuristic bot (:class:`atout.games.nain_jaune.bot.NainJauneHeuristicBot`), vectorised.

Why: a baseline opponent and a playout policy for a whole batch, the same
choice the engine's bot makes in every position (tests/batch compare the two
decision by decision).  The bot is exactly vectorisable: its values are
integers, and they depend on a card only through its rank and whether it is a
board card, so

* **a claim window**: claim;
* **the needed rank**: the bot's ``max(cards, key=(card_value, -c))`` — the
  rank's board card when its box holds tokens (the only card worth more),
  otherwise the lowest id held;
* **a free start**: ``run_value`` of a start of rank ``r`` is
  ``CARD_WEIGHT + card_value(start) + tail[r]``, where ``tail[r]`` (what the
  run is worth after rank ``r``) follows the bot's loop backwards from the
  King: the next rank held adds ``CARD_WEIGHT`` plus its best card's value, a
  rank someone else may hold stops the run, a rank all on the pile is skipped
  (or, with free restarts, ends the run with ``KING_BONUS``).  The best rank
  wins, ties to the lower rank (``argmax`` keeps the first), then within the
  rank the best card as above;
* **otherwise** (the voluntary stop with no card): pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.nain_jaune import cards as C
from ..games.nain_jaune.bot import CARD_WEIGHT, KING_BONUS
from ..games.nain_jaune.game import CLAIM, PASS
from .bits import U64, trailing_zeros
from .nain_jaune import full_ranks, rank_bits

if TYPE_CHECKING:
    from .nain_jaune import NainJauneBatch

IntArray = NDArray[np.intp]
R = C.RANKS
_CARDS = U64((1 << C.NUM_CARDS) - 1)
_RANK_MASK = np.array(C.RANK_MASK, dtype=np.uint64)
#: Points of a card of each rank (index 0 unused).
_POINTS = np.array([0] + [C.points(C.card(r, 0)) for r in range(1, R + 1)], dtype=np.int64)
#: Box of the board card of each rank (-1: the rank has none), and that card's id.
_BOX_OF_RANK = np.full(R + 1, -1, dtype=np.intp)
_BOARD_CARD = np.zeros(R + 1, dtype=np.intp)
for _box, _card in enumerate(C.BOARD):
    _BOX_OF_RANK[C.rank_of(_card)] = _box
    _BOARD_CARD[C.rank_of(_card)] = _card


def _box_bonus(boxes: NDArray[np.int64]) -> NDArray[np.int64]:
    """(S, R + 1): twice the tokens of each rank's box (0 for the ranks without one)."""
    bonus = np.zeros((boxes.shape[0], R + 1), dtype=np.int64)
    has = _BOX_OF_RANK >= 0
    bonus[:, has] = 2 * boxes[:, _BOX_OF_RANK[has]]
    return bonus


def _best_card(cards: NDArray[np.uint64], rank: IntArray, bonus: NDArray[np.int64]) -> IntArray:
    """The bot's pick among ``cards`` (all of rank ``rank``): the board card if its box pays, else the lowest id."""
    rows = np.arange(rank.size)
    board = _BOARD_CARD[rank]
    has_board = (_BOX_OF_RANK[rank] >= 0) & (((cards >> board.astype(np.uint64)) & U64(1)) != 0)
    pays = has_board & (bonus[rows, rank] > 0)
    result: IntArray = np.where(pays, board, trailing_zeros(cards))
    return result


def heuristic_actions(batch: NainJauneBatch) -> IntArray:
    """The heuristic bot's action per match (-1 for a finished match)."""
    N = batch.num_games
    bits = batch.legal_word()
    actions = np.full(N, -1, dtype=np.intp)
    live = bits != 0
    actions[live & (((bits >> U64(PASS)) & U64(1)) != 0)] = PASS
    cards = bits & _CARDS
    claim = ((bits >> U64(CLAIM)) & U64(1)) != 0
    actions[claim] = CLAIM
    choosing = live & ~claim & (cards != 0)
    need = batch.need
    # The needed rank: every legal card has that rank.
    g = np.flatnonzero(choosing & (need > 0))
    if g.size:
        actions[g] = _best_card(cards[g], need[g], _box_bonus(batch.boxes[g]))
    g = np.flatnonzero(choosing & (need == 0))
    if g.size:
        actions[g] = _free_start(batch, g, cards[g])
    return actions


def _free_start(batch: NainJauneBatch, g: IntArray, cards: NDArray[np.uint64]) -> IntArray:
    """``max(cards, key=(run_value, -rank, -c))`` for the matches ``g`` at a free start."""
    S = g.size
    hand = batch.hands[g, batch.current_player[g]]
    bonus = _box_bonus(batch.boxes[g])  # (S, R + 1)
    held = rank_bits(hand)
    board_held = np.zeros((S, R + 1), dtype=bool)
    for rank in range(1, R + 1):
        if _BOX_OF_RANK[rank] >= 0:
            board_held[:, rank] = ((hand >> U64(int(_BOARD_CARD[rank]))) & U64(1)) != 0
    # The best card value of each rank in hand: its points, plus its box if the board card is held.
    best = _POINTS[None, :] + np.where(board_held, bonus, 0)  # (S, R + 1)
    gone = full_ranks(batch.pile[g])  # ranks all of whose cards are on the pile
    free = batch.game.options["stuck_rule"] == "free_restart"
    tail = np.zeros((S, R + 1), dtype=np.int64)
    tail[:, R] = KING_BONUS
    for rank in range(R - 1, 0, -1):
        nxt = rank + 1
        has = ((held >> U64(nxt - 1)) & U64(1)) != 0
        dead = ((gone >> U64(nxt - 1)) & U64(1)) != 0
        skipped = np.full(S, KING_BONUS, dtype=np.int64) if free else tail[:, nxt]
        tail[:, rank] = np.where(has, CARD_WEIGHT + best[:, nxt] + tail[:, nxt], np.where(dead, skipped, 0))
    value = CARD_WEIGHT + best + tail  # (S, R + 1): the best start of each rank
    legal = rank_bits(cards)
    playable = ((legal[:, None] >> np.arange(R, dtype=np.uint64)) & U64(1)) != 0  # (S, R) ranks 1..13
    scores = np.where(playable, value[:, 1:], np.iinfo(np.int64).min)
    rank = scores.argmax(axis=1) + 1  # the first best: ties go to the lower rank
    return _best_card(cards & _RANK_MASK[rank], rank, bonus)
