"""The engine's Wizard heuristic bot (:class:`atout.games.wizard.bot.WizardHeuristicBot`), vectorised.

Why: a baseline opponent and a playout policy for a whole batch at once, the
same choice the engine's bot makes in every position (tests/batch compare the
two decision by decision).  The bot's own functions build the tables
(``strength``, ``expected_tricks``), and its tie-breaks are kept: Python's
``max``/``min`` return the first best in the order of the legal actions
(ascending ids), as ``argmax``/``argmin`` do; ``round`` rounds half to even,
as ``rint`` does; a hand's bid value is summed card by card in the bot's order
(ascending kinds, then Wizards), so even the float rounding agrees.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.wizard import cards as C
from ..games.wizard.bot import expected_tricks, strength
from ..games.wizard.game import BID, PLAY, TRUMP
from .bits import U64, popcount, trailing_zeros, unpack

if TYPE_CHECKING:
    from .wizard import WizardBatch

IntArray = NDArray[np.intp]

#: ``_POWER[trump + 1, kind]``: the bot's card strength.
_POWER = np.array(
    [[strength(k, None if t < 0 else t) for k in range(C.NUM_KINDS)] for t in range(-1, 4)], dtype=np.intp
)
_SAFE_POWER = 50 + 11
#: ``_POWER`` as int16 (its values are below 100): the plays' argmax/argmin over (P, 54) read a
#: quarter of the bytes (the same choices: the same values, the same first-best tie-break).
_POWER16 = _POWER.astype(np.int16)
#: Sum of the ranks present in a 13-bit suit mask (the trump choice's tie-break).
_RANK_SUM = np.array(
    [sum(r + 1 for r in range(C.RANKS) if m >> r & 1) for m in range(1 << C.RANKS)], dtype=np.intp
)
_BIG = 10_000


@lru_cache(maxsize=8)
def _bid_values(players: int) -> NDArray[np.float64]:
    """``[trump + 1, kind]``: what one card adds to the bot's expected tricks (0.0 + value, exactly)."""
    return np.array(
        [
            [expected_tricks((k,), None if t < 0 else t, players) for k in range(C.NUM_KINDS)]
            for t in range(-1, 4)
        ],
        dtype=np.float64,
    )


def heuristic_actions(batch: WizardBatch) -> IntArray:
    """Per match, ``WizardHeuristicBot().choose(view of the player to act)``; -1 once over."""
    bits, offset = batch.legal_bits()
    counts = popcount(bits)
    # One legal action: the bot plays it (the blind play of clairvoyance among them).
    actions = np.where(counts > 0, offset + np.minimum(trailing_zeros(bits), 63), -1)
    choice = counts > 1
    n = batch.players
    seat = np.where(batch.current_player >= 0, batch.current_player, 0)
    hands = batch.hands[np.arange(batch.num_games), seat]
    if batch.game.options["clairvoyance"]:  # round 1: the bot does not see its own card
        hands = np.where(batch.round == 1, U64(0), hands)
    phase = batch.phase
    game = batch.game
    rows = np.flatnonzero(choice & (phase == TRUMP))
    if rows.size:
        h = hands[rows]
        keys = np.stack(
            [
                popcount(h & U64(C.SUIT_MASK[s])) * 1000
                + _RANK_SUM[((h >> U64(13 * s)) & U64(0x1FFF)).astype(np.intp)]
                for s in range(4)
            ],
            axis=1,
        )
        actions[rows] = game.trump_base + np.argmax(keys, axis=1)
    rows = np.flatnonzero(choice & (phase == BID))
    if rows.size:
        actions[rows] = game.bid_base + _bids(batch, rows, hands[rows], bits[rows])
    rows = np.flatnonzero(choice & (phase == PLAY))
    if rows.size:
        actions[rows] = _plays(batch, rows, seat[rows], bits[rows], n)
    return actions


def _bids(
    batch: WizardBatch, rows: IntArray, hands: NDArray[np.uint64], bits: NDArray[np.uint64]
) -> IntArray:
    values = _bid_values(batch.players)[batch.trump[rows] + 1]  # (B, 54)
    # What each card adds, in the bot's order: ascending kinds, then each Wizard (Jesters add
    # nothing); summed left to right by one ``add.accumulate`` (sequential, unlike ``sum``'s
    # pairwise order), so every partial sum is the bot's, rounding included.
    terms = np.zeros((rows.size, C.WIZARD + 4), dtype=np.float64)
    np.copyto(terms[:, : C.WIZARD], values[:, : C.WIZARD], where=unpack(hands, C.WIZARD))
    wizards = popcount(hands & U64(C.WIZARD_MASK))
    np.copyto(terms[:, C.WIZARD :], values[:, C.WIZARD, None], where=wizards[:, None] > np.arange(4))
    total = np.add.accumulate(terms, axis=1)[:, -1] if rows.size else np.zeros(0)
    want = np.rint(total).astype(np.intp)
    want = np.where(hands == 0, 0, want)  # no hand seen (clairvoyance): bid 0
    width = batch.full_rounds + 1
    candidates = np.arange(width, dtype=np.intp)
    legal = unpack(bits, width)
    key = np.abs(candidates[None, :] - want[:, None]) * 64 + candidates[None, :]
    result: IntArray = np.argmin(np.where(legal, key, _BIG), axis=1)
    return result


def play_masks(
    batch: WizardBatch, rows: IntArray, seat: IntArray, bits: NDArray[np.uint64]
) -> tuple[NDArray[np.bool_], NDArray[np.int16], NDArray[np.bool_], IntArray]:
    """What a card-play decision of ``rows`` looks like to the bot: (legal, power, winners, need).

    (P, 54) the legal card kinds, the bot's power of every kind under the
    row's trump, the legal kinds that would take the trick now; (P,) the
    tricks the seat still needs (its bid, 0 before bidding, minus its tricks).
    Shared with the model of strong play (:mod:`.wizard_playout`), which reads
    the same situation.
    """
    from .wizard import _BEATS, _KINDS

    legal = unpack(bits, C.NUM_KINDS)  # (P, 54): legal card kinds
    power = _POWER16[batch.trump[rows] + 1]  # (P, 54)
    bid = batch.bids[rows, seat]
    need = np.where(bid >= 0, bid, 0) - batch.tricks_won[rows, seat]
    win = batch.win_kind[rows]
    base = (batch.trump[rows] + 1) * (_KINDS * _KINDS) + (win + 1) * _KINDS
    winners = legal & _BEATS[base[:, None] + np.arange(C.NUM_KINDS)[None, :]]
    return legal, power, winners, need


def _plays(batch: WizardBatch, rows: IntArray, seat: IntArray, bits: NDArray[np.uint64], n: int) -> IntArray:
    legal, power, winners, need = play_masks(batch, rows, seat, bits)
    size = batch.trick_size[rows]
    leading = size == 0
    last = size == n - 1
    losers = legal & ~winners

    high, low = np.int16(-_BIG), np.int16(_BIG)

    def highest(mask: NDArray[np.bool_]) -> IntArray:
        out: IntArray = np.argmax(np.where(mask, power, high), axis=1)
        return out

    def lowest(mask: NDArray[np.bool_]) -> IntArray:
        out: IntArray = np.argmin(np.where(mask, power, low), axis=1)
        return out

    safe = winners & ((np.arange(C.NUM_KINDS) == C.WIZARD)[None, :] | (power >= _SAFE_POWER))
    has_winner, has_safe, has_loser = winners.any(axis=1), safe.any(axis=1), losers.any(axis=1)
    wants = need > 0
    # Each extreme once (the rules below read two of them twice).
    lowest_legal, highest_winner = lowest(legal), highest(winners)
    follow_want = np.where(
        has_winner,
        np.where(last, lowest(winners), np.where(has_safe, lowest(safe), highest_winner)),
        lowest_legal,
    )
    follow_duck = np.where(has_loser, highest(losers), highest_winner)
    lead = np.where(wants, highest(legal), lowest_legal)
    result: IntArray = np.where(leading, lead, np.where(wants, follow_want, follow_duck))
    return result
