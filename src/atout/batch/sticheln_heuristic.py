"""The engine's Sticheln heuristic bot (:class:`atout.games.sticheln.bot.StichelnHeuristicBot`), vectorised.

Why: a baseline opponent and a playout policy for a whole batch at once, the
same choice as the engine's bot in every position (tests/batch compare them
decision by decision).  Exact, floats included, because every score is built
with the bot's own IEEE operations in the bot's order:

* the handicap choice's danger ``(total - mine) / n + value`` is an integer
  division then an addition, as in the bot; ``min`` by (danger, kind) is the
  first minimum in ascending kinds, as ``argmin`` returns it;
* a card's play score adds and subtracts the same float terms in the same
  order (a term the bot skips is added here as ``+ 0.0``, which changes no
  value); the trick points are integers, exact in any order; the one
  transcendental step, ``keep ** after``, is not recomputed by numpy (whose
  ``power`` may round differently from C's ``pow``) but read from a table the
  bot's own Python expression fills;
* the bot keeps the first best card in ascending kinds (a later card must
  score strictly more), as ``argmax`` does.

What the bot sees is what its view shows: its own handicap colours always,
the other seats' only once revealed (``hidden_pain`` hides them all hand).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.sticheln.game import OVER, PAIN, PLAY
from .sticheln_tensor import _kinds

if TYPE_CHECKING:
    from .sticheln import StichelnBatch

IntArray = NDArray[np.intp]
FloatArray = NDArray[np.float64]


@lru_cache(maxsize=16)
def _keep_table(values: int, players: int) -> FloatArray:
    """``[value, full, after]``: the bot's ``keep`` (``full``: a trump or a lead, else half strength)."""
    top = values - 1
    table = np.zeros((values, 2, players), dtype=np.float64)
    for value in range(values):
        strength = value / top if top else 1.0
        for full in (0, 1):
            keep = strength if full else strength * 0.5
            for after in range(players):
                table[value, full, after] = keep**after if after else 1.0
    return table


def _colour_bits(batch: StichelnBatch, pains: IntArray) -> NDArray[np.int64]:
    """Colour bitmask of the laid handicap cards ``pains`` (..., 2) (-1 none): the view's ``pain_colours``."""
    colours = batch._colour[np.maximum(pains, 0)].astype(np.int64)
    bits = np.where(pains >= 0, np.left_shift(1, colours), 0).astype(np.int64)
    result: NDArray[np.int64] = np.bitwise_or(bits[..., 0], bits[..., 1])
    return result


def heuristic_actions(batch: StichelnBatch) -> IntArray:
    """Per match, ``StichelnHeuristicBot().choose(view of the player to act)``; -1 once over."""
    N = batch.num_games
    d = batch.game.deck.size
    bits, offset = batch.legal_bits()
    legal = _kinds(bits, d)  # (N, d), local ids
    actions = np.full(N, -1, dtype=np.intp)
    rows = np.flatnonzero((batch.phase == PAIN) & legal.any(axis=1))
    if rows.size:
        actions[rows] = offset[rows] + _pains(batch, rows, legal[rows])
    rows = np.flatnonzero((batch.phase == PLAY) & legal.any(axis=1))
    if rows.size:
        actions[rows] = _plays(batch, rows, legal[rows])
    assert not ((batch.phase != OVER) & (actions < 0)).any()
    return actions


def _pains(batch: StichelnBatch, rows: IntArray, legal: NDArray[np.bool_]) -> IntArray:
    deck = batch.game.deck
    n, c, v = batch.players, deck.colours, deck.values
    top = v - 1
    total = top * (top + 1) // 2  # the value of a whole colour
    seat = batch.current_player[rows]
    hand = _kinds(batch.hands[rows, seat], deck.size).reshape(-1, c, v)
    mine = (hand * np.arange(v)).sum(axis=2)  # (P, c): the values I hold per colour
    danger = (total - mine)[:, batch._colour] / n + batch._value  # (P, d)
    result: IntArray = np.argmin(np.where(legal, danger, np.inf), axis=1)
    return result


def _plays(batch: StichelnBatch, rows: IntArray, legal: NDArray[np.bool_]) -> IntArray:
    game = batch.game
    deck = game.deck
    n, v = batch.players, deck.values
    gentle = bool(game.options["gentle"])
    leader_takes = game.options["all_zero_trick"] == "leader_takes"
    colour_of, value_of = batch._colour, batch._value  # (d,)
    P = rows.size
    seat = batch.current_player[rows]
    my_pain = _colour_bits(batch, batch.pains[rows, seat])  # (P,)
    in_my_pain = ((my_pain[:, None] >> colour_of[None, :]) & 1).astype(bool)  # (P, d)
    size = batch.trick_size[rows]
    after = n - size - 1  # players still to play after me
    leading = size == 0
    # The trick's cards so far: their points for me (integers, exact in float).
    trick = batch.trick_mask[rows]  # (P, 2)
    in_trick = _kinds(trick, deck.size)
    cost = np.ones_like(value_of) if gentle else value_of
    trick_points = np.where(in_trick, np.where(in_my_pain, -cost, 1), 0).sum(axis=1)
    card_points = np.where(in_my_pain, -cost, 1)  # (P, d)
    points = (trick_points[:, None] + card_points).astype(np.float64)
    # Would the card win the trick now?  (trick_winner_index, incrementally: see StichelnBatch._play.)
    lead = batch.lead[rows]
    best_seat, best_value, best_trump = batch.best_seat[rows], batch.best_value[rows], batch.best_trump[rows]
    colour, value = colour_of[None, :], value_of[None, :]
    if game.zero_sets_lead:
        lead_h = np.where(leading[:, None], colour, lead[:, None])
    else:
        lead_h = np.where((lead[:, None] == -1) & (value > 0), colour, lead[:, None])
    nonzero = value > 0
    trump = colour != lead_h
    take = nonzero & (
        (trump & (~best_trump[:, None] | (value > best_value[:, None])))
        | (~trump & ~best_trump[:, None] & (value > best_value[:, None]))
    )
    winning = take | (leader_takes & leading)[:, None]
    # Winning cards: the chance nobody after me takes it over, times the trick's worth.
    first = batch.trick_cards[rows, batch.leader[rows]]  # the trick's first card (-1 when leading)
    is_trump = ~leading[:, None] & (colour != colour_of[np.maximum(first, 0)][:, None])
    full = (is_trump | leading[:, None]).astype(np.intp)
    keep = _keep_table(v, n)[value_of[None, :], full, after[:, None]]
    worth = points + 0.3 * after[:, None]
    win_score = keep * worth
    win_score = win_score - np.where(in_my_pain, 0.5 * (1 if gentle else value), 0.0)
    lead_score = (-value - np.where(in_my_pain & nonzero, 3.0, 0.0)) + np.where(value == 0, 2.0, 0.0)
    win_score = np.where(leading[:, None], lead_score, win_score)
    # Losing cards: a safe discard; a sting for the taker if it is of his (known) handicap colour.
    taker = np.where(best_seat >= 0, best_seat, np.where(leader_takes, batch.leader[rows], -1))  # (P,)
    revealed = np.zeros(P, dtype=bool) if game.options["hidden_pain"] else np.ones(P, dtype=bool)
    theirs = np.where(
        (taker >= 0) & revealed, _colour_bits(batch, batch.pains[rows, np.maximum(taker, 0)]), 0
    )
    stings = ((theirs[:, None] >> colour_of[None, :]) & 1).astype(bool)
    lose_score = 0.0 + np.where(in_my_pain, 0.5 * value, 0.0)
    lose_score = lose_score + np.where(stings, 0.3 * value, 0.0)
    lose_score = lose_score - 0.2 * value
    score = np.where(winning, win_score, lose_score)
    result: IntArray = np.argmax(np.where(legal, score, -np.inf), axis=1)
    one = legal.sum(axis=1) == 1  # the bot plays a lone legal card without scoring
    result = np.where(one, np.argmax(legal, axis=1), result)
    return result
