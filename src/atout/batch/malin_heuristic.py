"""The engine's Le Malin heuristic bot (:class:`atout.games.malin.bot.MalinHeuristicBot`), vectorised, exactly.

Why: a baseline opponent and a playout policy for a whole batch at once, the
same choice the engine's bot makes in every position of the base game (the
bot is deterministic: no sampling; tests/batch compare the two decision by
decision).  Its Malheur branches (windows, reactions) never arise here, as the
batch plays without the jeu fun.

Kept exact: the bid's expected tricks are summed card by card in the bot's
order (ascending kinds, then the Twins, then the Wish), each number's term
read from a table the bot's own formula fills with Python floats (so even the
float rounding agrees), and rounded half to even (``rint``, as ``round``);
``min``/``max`` over legal ids become the lowest/highest set bit of the legal
sets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.malin import cards as C
from ..games.malin.game import BID, PLAY, REDECLARE, TWIN_HIGH, TWIN_LOW
from .bits import U64, popcount, trailing_zeros, unpack

if TYPE_CHECKING:
    from .malin import MalinBatch

IntArray = NDArray[np.intp]
Words = NDArray[np.uint64]

_NUMBERS = U64((1 << C.NUM_NUMBERS) - 1)
_BIG = 1 << 20


@lru_cache(maxsize=8)
def _terms(players: int) -> NDArray[np.float64]:
    """``[lower, unseen]``: what a number adds to the bot's expected tricks, ``(lower / unseen) ** (n - 1)``.

    Filled with the bot's own Python expression (``1.0`` when nothing is
    unseen), so each term is the very float it adds.
    """
    size = C.NUM_KINDS + 4
    table = np.zeros((size, size), dtype=np.float64)
    for unseen in range(size):
        for lower in range(size):
            table[lower, unseen] = (lower / unseen) ** (players - 1) if unseen else 1.0
    return table


def highest_bit(x: Words) -> IntArray:
    """Index of the highest set bit of each element (-1 for 0)."""
    y = x.copy()
    for shift in (1, 2, 4, 8, 16, 32):
        y |= y >> U64(shift)
    result: IntArray = popcount(y) - 1
    return result


def _highest_word_bit(words: Words) -> IntArray:
    """(G, W) words as one wide mask: its highest set bit (-1 when empty)."""
    out = np.full(words.shape[0], -1, dtype=np.intp)
    for w in range(words.shape[1]):
        top = highest_bit(words[:, w])
        out = np.where(top >= 0, 64 * w + top, out)
    return out


def _lowest_word_bit(words: Words) -> IntArray:
    """(G, W) words as one wide mask: its lowest set bit (-1 when empty)."""
    out = np.full(words.shape[0], -1, dtype=np.intp)
    for w in range(words.shape[1] - 1, -1, -1):
        low = trailing_zeros(words[:, w])
        out = np.where(low < 64, 64 * w + low, out)
    return out


def heuristic_actions(batch: MalinBatch) -> IntArray:
    """Per match, ``MalinHeuristicBot().choose(view of the player to act)``; -1 once over."""
    legal = batch.legal_bits()
    N = batch.num_games
    actions = np.full(N, -1, dtype=np.intp)
    seat = np.maximum(batch.current_player, 0)
    g = np.arange(N)
    need = batch.bids[g, seat] - batch.tricks_won[g, seat]
    phase = batch.phase
    rows = np.flatnonzero(phase == BID)
    if rows.size:
        actions[rows] = _bids(batch, rows, seat[rows], legal.bits[rows])
    rows = np.flatnonzero(phase == REDECLARE)
    if rows.size:
        wish = legal.wish[rows]
        j = np.where(need[rows] > 0, _highest_word_bit(wish), _lowest_word_bit(wish))
        actions[rows] = legal.wish_offset[rows] + j
    rows = np.flatnonzero(phase == PLAY)
    if rows.size:
        actions[rows] = _plays(
            batch, rows, legal.bits[rows], legal.wish[rows], legal.wish_offset[rows], need[rows]
        )
    return actions


def _bids(batch: MalinBatch, rows: IntArray, seat: IntArray, bits: Words) -> IntArray:
    """The legal bid nearest the hand's expected tricks (the lower one on a tie)."""
    hand = batch.hands[rows, seat]
    removed = batch.removed[rows]
    top = batch.game.top
    removed_bit = np.where(removed < C.TWIN, U64(1) << np.minimum(removed, 63).astype(np.uint64), U64(0))
    unseen_numbers = U64((1 << top) - 1) & ~hand & ~removed_bit
    twins = popcount(hand & U64(C.TWIN_MASK))
    wish = (hand & U64(C.WISH_MASK)) != 0
    specials_unseen = 3 - twins - wish - (removed == C.TWIN)
    unseen = popcount(unseen_numbers) + specials_unseen
    terms = _terms(batch.players)
    total = np.zeros(rows.size, dtype=np.float64)
    held = unpack(hand, C.NUM_NUMBERS)
    for kind in range(C.NUM_NUMBERS):  # the bot's order: ascending kinds ...
        if not held[:, kind].any():
            continue
        lower = popcount(unseen_numbers & U64((1 << kind) - 1))
        total += np.where(held[:, kind], terms[lower, unseen], 0.0)
    for copy in range(2):  # ... then each Twin, then the Wish
        total += np.where(twins > copy, 0.75, 0.0)
    total += np.where(wish, 0.5, 0.0)
    want = np.rint(total).astype(np.intp)
    width = batch.hand_size
    candidates = np.arange(width, dtype=np.intp)
    ok = unpack(bits, width)
    key = np.abs(candidates[None, :] - want[:, None]) * 64 + candidates[None, :]
    choice: IntArray = np.argmin(np.where(ok, key, _BIG), axis=1)
    return choice + batch.legal_bits().offset[rows]


def _plays(
    batch: MalinBatch, rows: IntArray, bits: Words, wish: Words, wish_offset: IntArray, need: IntArray
) -> IntArray:
    """The bot's ``_play`` (see :mod:`atout.games.malin.bot`), branch by branch as masks."""
    n, H = batch.players, batch.hand_size
    high = batch.twin_high
    row = batch.tricks_done[rows]
    kinds = batch.card_kind[rows, row]  # (P, n)
    values = batch.card_value[rows, row]
    empty = batch.trick_size[rows] == 0
    best = np.where(kinds >= 0, values, -_BIG).max(axis=1)  # -_BIG: nothing played yet (beats all)
    numbers = bits & _NUMBERS
    has_numbers = numbers != 0
    # Number kind k (value k + 1) beats ``best`` iff k >= best.
    cut = np.clip(best, 0, 63).astype(np.uint64)
    below = np.where(best >= 64, ~U64(0), (U64(1) << cut) - U64(1))
    winners = numbers & ~below
    losers = np.where(empty, U64(0), numbers & below)
    twin_low = (bits >> U64(TWIN_LOW)) & U64(1) != 0
    twin_high = (bits >> U64(TWIN_HIGH)) & U64(1) != 0
    has_wish = wish_offset != 0
    top_bit = np.full(rows.size, -1, dtype=np.intp)
    low_bit = np.full(rows.size, -1, dtype=np.intp)
    holding = np.flatnonzero(has_wish)
    if holding.size:  # the Wish's highest and lowest allowed values, where it is held
        top_bit[holding] = _highest_word_bit(wish[holding])
        low_bit[holding] = _lowest_word_bit(wish[holding])
    top_wish = wish_offset + top_bit
    low_wish = wish_offset + low_bit
    top_wish_value = top_bit - 100
    high_beats = high > best
    wish_beats = has_wish & (top_wish_value > best)
    lowest_legal = np.where(
        has_numbers,
        trailing_zeros(numbers),
        np.where(twin_low, TWIN_LOW, np.where(twin_high, TWIN_HIGH, low_wish)),
    )
    min_number = trailing_zeros(numbers)
    max_winner = highest_bit(winners)
    min_winner = trailing_zeros(winners)
    # Cannot win it: the weakest card.
    throw = np.where(has_numbers, min_number, np.where(twin_low, TWIN_LOW, lowest_legal))
    last = batch.trick_size[rows] == n - 1
    tricks_left = H - row
    strong = winners & ~U64((1 << max(batch.game.top - 4, 0)) - 1)
    want_last = np.where(
        winners != 0,
        min_winner,
        np.where(twin_high & high_beats, TWIN_HIGH, np.where(wish_beats, top_wish, throw)),
    )
    want_early = np.where(
        strong != 0,
        highest_bit(strong),
        np.where(
            twin_high & high_beats,
            TWIN_HIGH,
            np.where(
                has_wish & ((need >= tricks_left) | ~has_numbers),
                top_wish,
                np.where(winners != 0, max_winner, throw),
            ),
        ),
    )
    duck = np.where(
        losers != 0,
        highest_bit(losers),
        np.where(
            twin_low & ~empty & (best > 0),
            TWIN_LOW,
            np.where(has_wish & ~empty, low_wish, np.where(has_numbers, min_number, throw)),
        ),
    )
    result: IntArray = np.where(need > 0, np.where(last, want_last, want_early), duck)
    return result
