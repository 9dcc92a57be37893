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
#: Each suit's 13 ranks shifted down to bits 0..12 (suit ``s`` lies at bits ``13 * s``).
_SUIT_SHIFTS = np.array([C.RANKS * s for s in range(4)], dtype=np.uint64)


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
        # Per suit: cards held * 1000 + the sum of their ranks, all four suits at once (B, 4).
        suits = hands[rows, None] >> _SUIT_SHIFTS
        keys = popcount(suits & U64(0x1FFF)) * 1000 + _RANK_SUM[(suits & U64(0x1FFF)).astype(np.intp)]
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
    # What each card adds, in the bot's order: ascending kinds, then each Wizard (Jesters add
    # nothing), by hand slot (the 52 ordinary cards, then the four Wizard slots: a held Wizard's
    # slot adds the Wizard's value, an empty slot an exact 0.0 that changes no partial sum);
    # summed left to right by one ``add.accumulate`` (sequential, unlike ``sum``'s pairwise
    # order), so every partial sum is the bot's, rounding included.
    values = _slot_bid_values(batch.players)[batch.trump[rows] + 1]  # (B, 56)
    terms = np.where(unpack(hands, C.WIZARD + 4), values, 0.0)
    total = np.add.accumulate(terms, axis=1)[:, -1] if rows.size else np.zeros(0)
    want = np.rint(total).astype(np.intp)
    want = np.where(hands == 0, 0, want)  # no hand seen (clairvoyance): bid 0
    # The bid nearest to ``want`` among the legal ones, the lower first at equal distance: the
    # least key of ``_bid_keys`` (a wish beyond the bids keys them as the nearest end does).
    width = batch.full_rounds + 1
    keys = _bid_keys(width)[np.clip(want, 0, width - 1)]
    result: IntArray = np.argmin(np.where(unpack(bits, width), keys, _BIG), axis=1)
    return result


@lru_cache(maxsize=8)
def _slot_bid_values(players: int) -> NDArray[np.float64]:
    """``[trump + 1, slot]``: :func:`_bid_values` by hand slot: slot k < 52 the kind k, the four Wizard slots the Wizard's."""
    values = _bid_values(players)
    return np.concatenate([values[:, : C.WIZARD], np.repeat(values[:, C.WIZARD, None], 4, axis=1)], axis=1)


@lru_cache(maxsize=8)
def _bid_keys(width: int) -> NDArray[np.intp]:
    """``[want, bid]``: ``|bid - want| * 64 + bid``, the bot's order of preference among the bids."""
    candidates = np.arange(width, dtype=np.intp)
    keys: NDArray[np.intp] = np.abs(candidates[None, :] - candidates[:, None]) * 64 + candidates[None, :]
    return keys


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


def _order_tables() -> tuple[NDArray[np.uint64], NDArray[np.intp]]:
    """The card kinds renumbered per trump, so that the bot's highest or lowest card of a set is its lowest bit.

    ``[order, byte, value]`` (order ``2 * (trump + 1)`` for the highest, ``+ 1`` for the lowest):
    the bits a byte ``value`` at ``byte`` of a kinds bitmask sets once renumbered, ORed over the
    seven bytes; ``[order, position]`` of the second table: the kind at each new position (64,
    nothing: kind 0, what ``argmax`` answers for an empty set, never asked for).  The highest is
    sorted by power descending, the lowest ascending, both by kind ascending among equal powers:
    ``argmax``/``argmin``'s first best in ascending kinds, the bot's ``max``/``min`` tie-break.
    """
    remap = np.zeros((10, 7, 256), dtype=np.uint64)
    kind_at = np.zeros((10, 65), dtype=np.intp)
    # (256, 8): the bits of each byte value; a kind's new bit, by byte and bit (none past kind 53).
    held = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(bool)
    for t in range(5):
        for lowest in (0, 1):
            order = 2 * t + lowest
            sign = 1 if lowest else -1
            ranked = sorted(range(C.NUM_KINDS), key=lambda k: (sign * int(_POWER[t, k]), k))
            kind_at[order, : len(ranked)] = ranked
            new_bit = np.zeros(7 * 8, dtype=np.uint64)
            new_bit[ranked] = U64(1) << np.arange(len(ranked), dtype=np.uint64)
            for byte in range(7):
                weights = new_bit[8 * byte : 8 * byte + 8]
                remap[order, byte] = np.bitwise_or.reduce(np.where(held, weights, U64(0)), axis=1)
    return remap.reshape(-1), kind_at.reshape(-1)


_REMAP, _KIND_AT = _order_tables()
#: ``[order * 1792 + byte * 256]``: where a row's byte ``byte`` looks up its value in ``_REMAP``.
_BYTE_BASE = np.arange(7, dtype=np.intp) * 256


@lru_cache(maxsize=1)
def _beats_bits() -> NDArray[np.uint64]:
    """``[(trump + 1) * 55 + win + 1]``: the kinds that take a trick ``win`` is winning, as a bitmask."""
    from .wizard import _BEATS, _KINDS

    table = _BEATS.reshape(5 * _KINDS, _KINDS)[:, : C.NUM_KINDS]
    weights = U64(1) << np.arange(C.NUM_KINDS, dtype=np.uint64)
    beats: NDArray[np.uint64] = np.bitwise_or.reduce(np.where(table, weights, U64(0)), axis=1)
    return beats


#: ``[trump + 1]``: the kinds the bot plays as sure winners (a Wizard, or a power of 61 and up).
_SAFE_BITS = np.array(
    [
        sum(1 << k for k in range(C.NUM_KINDS) if k == C.WIZARD or _POWER[t, k] >= _SAFE_POWER)
        for t in range(5)
    ],
    dtype=np.uint64,
)


def _plays(batch: WizardBatch, rows: IntArray, seat: IntArray, bits: NDArray[np.uint64], n: int) -> IntArray:
    """The bot's card: each row's one set (legal, winners, sure winners or losers) and end (highest or lowest).

    The rules of :func:`play_masks`' reading, decided on (P,) bitmasks: a row asks for one extreme
    of one set, found as the lowest bit of that set renumbered in the order of the row's trump
    (:func:`_order_tables`): seven byte lookups a row instead of argmax/argmin passes over (P, 54)
    powers (each about 40 µs at 500 rows, six of them; the heuristic was a sixth of a step with
    learned opponents).  The same cards: the tables hold the same powers and tie-breaks
    (tests/batch compare the batch heuristic with the engine's bot, and this with the old reading).
    """
    from .wizard import _KINDS

    trump1 = batch.trump[rows] + 1
    bid = batch.bids[rows, seat]
    need = np.where(bid >= 0, bid, 0) - batch.tricks_won[rows, seat]
    winners = bits & _beats_bits()[trump1 * _KINDS + batch.win_kind[rows] + 1]
    safe = winners & _SAFE_BITS[trump1]
    losers = bits & ~winners
    size = batch.trick_size[rows]
    wants = need > 0
    zero = U64(0)
    has_winner = winners != zero
    # Following and wanting a trick: the lowest winner when last, else the lowest sure winner, else
    # the highest winner; without a winner, the lowest card.  Ducking: the highest loser, else the
    # highest (winning) card.  Leading: the highest card to win, else the lowest.
    want_low = ~has_winner | (size == n - 1) | (safe != zero)
    follow_want = np.where(
        has_winner, np.where(size == n - 1, winners, np.where(safe != zero, safe, winners)), bits
    )
    follow_duck = np.where(losers != zero, losers, winners)
    leading = size == 0
    chosen = np.where(leading, bits, np.where(wants, follow_want, follow_duck))
    lowest = np.where(leading, ~wants, wants & want_low)
    order = 2 * trump1 + lowest
    as_bytes = np.ascontiguousarray(chosen, dtype="<u8").view(np.uint8).reshape(-1, 8)[:, :7]
    index = as_bytes + (order * 1792)[:, None]
    index += _BYTE_BASE
    renumbered = np.bitwise_or.reduce(_REMAP[index], axis=1)
    result: IntArray = _KIND_AT[order * 65 + trailing_zeros(renumbered)]
    return result
