"""Le Nain Jaune, many matches at once, as numpy arrays: the engine's rules, the engine's deals.

Why: a Nain Jaune match is long (a 4-player match plays ≈ 9 deals and 350
decisions, a 2-player one ≈ 60 deals and 2 500), and a single-state Python
engine plays ≈ 0.3 M decisions a second.  Here every array has one entry per
match (``(N,)``) or per match and seat (``(N, n)``), and one
:meth:`NainJauneBatch.step` moves every match by one decision.

Exactness, by construction and by test (tests/batch/test_nain_jaune.py):

* **the same rules**: the engine's representation — a hand is the 52-bit
  card mask of :mod:`atout.games.nain_jaune.cards`, the action ids are the
  engine's (cards 0..51, ``PASS`` 52, ``CLAIM`` 53, so one uint64 holds a
  match's legal set).  The engine's ``_settle`` loop (automatic passes of the
  seats without the needed rank, the stuck rule, rank after rank) is computed
  in closed form from a per-rank mask of the seats holding it (kept up to
  date card by card), rotated to positions from ``last`` by a lookup table:
  the first position from ``asked`` holding the needed rank; if none, the
  lowest higher rank anybody holds, with every skipped seat's and rank's
  "lacks" bit set as the engine sets them one by one.  Payments, penalties,
  the grand opéra, the sequence bonus and the stakes follow the engine's
  order (a seat short of tokens pays what it has, box by box).
* **every option**: ``stuck_rule``, ``voluntary_stop``, ``first_card``,
  ``direction``, ``payment``, ``kept_pay_card``, ``grand_opera``,
  ``max_deals``, ``start_tokens``, ``stake_unit``, ``manual_claim`` (the claim
  window is a decision like any other), ``sequence_bonus``, ``first_dealer``
  and ``next_dealer``.  Nothing is left out.  One bound of the batch's own:
  ``players × start_tokens`` must fit in an int32 (the scores' type).
* **the same deals**: deal ``r`` of a match seeded ``s`` shuffles the 52 cards
  with ``seeded_rng(s, "deal", r)`` and hands them out as
  ``NainJauneState._seeded_outcome`` does (the first dealer from
  ``seeded_rng(s, "first-dealer")``), through :mod:`.pyrandom`.  Chance is
  resolved by the batch itself, like a seeded engine state.

Deals ahead: a match's number of deals is not known in advance (it ends when
a player cannot stake), and a vectorised deal pass has a fixed cost of a few
milliseconds, so each match keeps a ring of its next ``ahead`` deals (in deal
order: the seats are known only when the deal starts, the dealer may be the
last winner).  When a match needs a deal it does not hold, every live match
with half its ring or less left is topped up in the same pass; auto-reset
deals the first deals of the matches to come ahead, in chunks, as Wizard's
batch does.

Rewards per round: a deal's reward is each seat's token change over the deal
(its stake, boxes won, bonuses, payments and penalties), reported by the step
that ends it — the difference of two consecutive lines of the engine's score
sheet (``DealResult.tokens``) — so a match's rewards add up to its final
tokens minus ``start_tokens``.

Tensors: :mod:`.nain_jaune_tensor`; the heuristic policy (exactly the
engine's bot): :mod:`.nain_jaune_heuristic`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core.game import State
from ..games.nain_jaune import cards as C
from ..games.nain_jaune.game import CLAIM, OVER, PASS, PLAY, NainJauneGame, NainJauneState
from . import common
from .base import BatchBase, MatchArray
from .bits import U64, popcount, select_bit, trailing_zeros, unpack
from .common import seeded_shuffles, shuffles_and_first_dealers

__all__ = ["NainJauneBatch", "Starts", "deal_hands", "deal_starts"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]
Masks = NDArray[np.uint64]

R = C.RANKS
K = C.NUM_CARDS
_LOW13 = U64((1 << R) - 1)
_PASS_BIT = U64(1 << PASS)
_CLAIM_BIT = U64(1 << CLAIM)
_PASS_CLAIM = U64((1 << PASS) | (1 << CLAIM))
#: ``_NEED_MASK[need]``: the cards a seat may play for ``need`` (0, a free start: any).
_NEED_MASK = np.array([C.FULL_MASK, *C.RANK_MASK[1:]], dtype=np.uint64)
#: ``_RANK_MASK[r]``: the four cards of rank ``r`` (0: none).
_RANK_MASK = np.array(C.RANK_MASK, dtype=np.uint64)
#: Rank of each action id (0 for pass and claim), box of each (-1: not a board card).
_RANK_OF = np.array([C.rank_of(c) for c in range(K)] + [0, 0], dtype=np.intp)
_BOX_OF = np.array([*C.BOX_OF, -1, -1], dtype=np.intp)
_BOARD_BITS = np.array([1 << c for c in C.BOARD], dtype=np.uint64)
_BOARD_MASK = U64(C.BOARD_MASK)
_BOX_STAKES = np.array(C.BOX_STAKES, dtype=np.int64)
#: Points of the ranks set in a 13-bit suit mask (a hand's points: four lookups).
_SUIT_POINTS = np.array(
    [sum(min(r, 10) for r in range(1, R + 1) if m >> (r - 1) & 1) for m in range(1 << R)], dtype=np.int64
)
#: Deals each match keeps ahead, by table size (≈ its mean deals per match, bounded).
_AHEAD = {2: 16, 3: 8, 4: 6, 5: 4, 6: 4, 7: 4, 8: 3}


def rank_bits(hands: Masks) -> Masks:
    """The 13-bit mask of the ranks each hand holds (bit ``r - 1`` for rank ``r``)."""
    result: Masks = (hands | (hands >> U64(13)) | (hands >> U64(26)) | (hands >> U64(39))) & _LOW13
    return result


def full_ranks(pile: Masks) -> Masks:
    """The 13-bit mask of the ranks all four of whose cards are in ``pile``."""
    result: Masks = pile & (pile >> U64(13)) & (pile >> U64(26)) & (pile >> U64(39)) & _LOW13
    return result


def hand_points(hands: Masks) -> NDArray[np.int64]:
    """What each hand costs at the end of a deal (faces 10, others their value)."""
    total = _SUIT_POINTS[(hands & _LOW13).astype(np.intp)]
    for shift in (13, 26, 39):
        total = total + _SUIT_POINTS[((hands >> U64(shift)) & _LOW13).astype(np.intp)]
    return total


class Starts(NamedTuple):
    """The start of some matches: first dealers and their first deals (deal order)."""

    first_dealer: IntArray  # (G,)
    hands: Masks  # (G, ahead, n): deal q's i-th hand (the seat ``i + 1`` places from the dealer)


def _hands_of(decks: NDArray[np.int8], game: NainJauneGame) -> Masks:
    """(T, n) hands in deal order from (52, T) shuffled decks: the ``i``-th ``hand_size`` cards each."""
    n, h = game.players, game.hand_size
    slots = decks[: n * h].astype(np.uint64).reshape(n, h, decks.shape[1])
    return np.ascontiguousarray(np.bitwise_or.reduce(U64(1) << slots, axis=1).T)


def deal_hands(texts: Sequence[bytes], game: NainJauneGame) -> Masks:
    """(T, n): the hands of the deals seeded by ``texts`` (``b"<seed>:deal:<r>"``), in deal order.

    The engine shuffles the 52 ids and gives the ``i``-th ``hand_size`` of them
    to the seat ``i + 1`` places from the dealer (sorted: the same mask).
    """
    parts = [
        _hands_of(seeded_shuffles(texts[at : at + common.DEAL_ROWS], [], K, game.players)[0], game)
        for at in range(0, len(texts), common.DEAL_ROWS)
    ]
    if not parts:
        return np.zeros((0, game.players), dtype=np.uint64)
    return np.concatenate(parts)


def deal_starts(
    seeds: Sequence[int], game: NainJauneGame, ahead: int, starts: Sequence[int] | None = None
) -> Starts:
    """The first dealer and deals ``start..start + ahead - 1`` of the matches ``seeds`` (the engine's draws).

    ``starts``: each match's first deal (default: the configuration's ``start_round``).
    """
    first_deals = [game.start_round] * len(seeds) if starts is None else [int(r) for r in starts]
    per_chunk = max(1, common.DEAL_ROWS // (ahead + 1))
    if len(seeds) <= per_chunk:
        return Starts(*_deal_starts(seeds, first_deals, game, ahead))
    parts = [
        _deal_starts(seeds[i : i + per_chunk], first_deals[i : i + per_chunk], game, ahead)
        for i in range(0, len(seeds), per_chunk)
    ]
    return Starts(*(np.concatenate(column) for column in zip(*parts, strict=True)))


def _deal_starts(
    seeds: Sequence[int], starts: Sequence[int], game: NainJauneGame, ahead: int
) -> tuple[IntArray, Masks]:
    texts = [
        b"%d:deal:%d" % (s, r) for s, r0 in zip(seeds, starts, strict=True) for r in range(r0, r0 + ahead)
    ]
    decks, first = shuffles_and_first_dealers(texts, seeds, K, game)
    return first, _hands_of(decks, game).reshape(len(seeds), ahead, game.players)


def _seat_tables(n: int, step: int) -> tuple[IntArray, IntArray]:
    """``(to_pos, to_seat)``, indexed ``last << n | mask``: a mask of seats as positions from ``last``, and back.

    Position ``p`` is the seat ``(last + step * p) % n``: the order in which the
    engine's ``_settle`` asks the seats for the needed rank.
    """
    size = 1 << n
    to_pos = np.zeros(n * size, dtype=np.intp)
    to_seat = np.zeros(n * size, dtype=np.intp)
    for last in range(n):
        for mask in range(size):
            pos = seats = 0
            for p in range(n):
                seat = (last + step * p) % n
                pos |= (mask >> seat & 1) << p
                seats |= (mask >> p & 1) << seat
            to_pos[last << n | mask] = pos
            to_seat[last << n | mask] = seats
    return to_pos, to_seat


class NainJauneBatch(BatchBase[NainJauneGame, Starts]):
    """``N`` Nain Jaune matches of one configuration, stepped together (see :class:`.WizardBatch`).

    ``NainJauneBatch(4, seeds=range(10_000))`` plays match ``i`` exactly as
    ``NainJauneGame(4).new_state(seed=seeds[i])``.  Options are the engine's
    (validated by :class:`NainJauneGame`); ``ahead`` sets how many deals each
    match keeps dealt ahead (a speed knob only).

    Public state, one entry per match (read-only by convention): ``phase``
    (the engine's ids: PLAY 2, OVER 3), ``round`` (the deal number),
    ``dealer``, ``opener``, ``current_player`` (``TERMINAL`` = -4 once over),
    ``need`` (the rank the next card must have, 0 a free start), ``last``,
    ``asked``, ``claim_box`` (-1 none), ``bonus_due``, ``deals_done`` (lines
    of the score sheet), ``pile`` (the mask of the cards played this deal),
    ``pile_count`` and ``pile_order`` ((N, 52): each card's 1-based place in
    the pile, 0 not played); per seat ``hands`` and ``played_by`` (card
    masks), ``tokens`` (int64; ``scores`` gives them as int32) and
    :attr:`lacks` (13-bit rank masks, as the engine's); per box ``boxes``.
    Once a match is over they keep its last deal's values, as the engine does.
    """

    _over = OVER
    _round_word = "deal"

    opener = MatchArray(np.intp)
    need = MatchArray(np.intp, round_start=0)
    last = MatchArray(np.intp)
    asked = MatchArray(np.intp, round_start=0)
    claim_box = MatchArray(np.intp, round_start=-1)
    deals_done = MatchArray(np.intp)
    pile_count = MatchArray(np.intp, round_start=0)
    bonus_due = MatchArray(np.bool_, round_start=False)
    pile = MatchArray(np.uint64, round_start=0)
    pile_order = MatchArray(np.int8, K, round_start=0)
    hands = MatchArray(np.uint64, "players")
    played_by = MatchArray(np.uint64, "players", round_start=0)
    tokens = MatchArray(np.int64, "players")
    boxes = MatchArray(np.int64, 5)
    #: ``_holders[g, r]``: the seats (bit ``s``) holding a card of rank ``r`` (column 0 unused).
    _holders = MatchArray(np.intp, R + 1)
    #: ``_lacking[g, r - 1]``: the seats (bit ``s``) play has shown to lack rank ``r``.
    _lacking = MatchArray(np.intp, R, round_start=0)
    #: Tokens at the end of the previous deal (the last line of the score sheet).
    _sheet_tokens = MatchArray(np.int64, "players")
    _ring = MatchArray(np.uint64, "ahead", "players")
    _dealt_to = MatchArray(np.intp)

    #: ``ahead`` as asked (None: by table size); :meth:`from_states` keeps the default.
    _ahead_asked: int | None = None

    def __init__(
        self,
        players: int,
        seeds: Sequence[int] | NDArray[np.integer[Any]],
        *,
        ahead: int | None = None,
        **kwargs: Any,
    ) -> None:
        """:class:`.BatchBase`'s arguments (``auto_reset``, ``reset_seeds``, ``check``, the options), and ``ahead``."""
        self._ahead_asked = ahead
        super().__init__(players, seeds, **kwargs)

    def _init_state(self) -> None:
        game, ahead = self.game, self._ahead_asked
        o = game.options
        if self.players * o["start_tokens"] >= 2**31:
            raise ValueError("players × start_tokens must be below 2**31 (scores are int32)")
        if ahead is not None and ahead < 1:
            raise ValueError("ahead must be at least 1")
        N, n = self.num_games, self.players
        self._direction = game.step
        self._voluntary = game.voluntary
        self._manual = game.manual_claim
        #: Neither variant: every decision is a card (no pass, no claim window).
        self._cards_only = not (self._voluntary or self._manual)
        self._free_restart = o["stuck_rule"] == "free_restart"
        self._lowest = o["first_card"] == "lowest"
        self._per_card = o["payment"] == "per_card"
        self._kept = str(o["kept_pay_card"])
        self._grand = str(o["grand_opera"])
        self._bonus_on = bool(o["sequence_bonus"])
        self._winner_deals = o["next_dealer"] == "deal_winner"
        self._max_deals: int | None = o["max_deals"]
        self._unit = int(o["stake_unit"])
        self._stake = int(game.stake)
        self._box_add = _BOX_STAKES * self._unit * n
        self._hand_size = game.hand_size
        self._cap = cap = self._max_deals if self._max_deals is not None else 1 << 30
        #: Deals kept ahead per match (never more than a match can play).
        self.ahead = max(1, min(ahead or _AHEAD[n], cap))
        self._base = self._games * n  # flat index of seat 0's entry
        self._positions = np.arange(n, dtype=np.intp)
        self._zeros = np.zeros(N, dtype=np.intp)
        self._all_seats = (1 << n) - 1
        self._to_pos, self._to_seat = _seat_tables(n, self._direction)
        #: ``_from_pos[a]``: the positions ``a .. n - 1`` as a mask (``a`` up to ``n``).
        self._from_pos = np.array([self._all_seats & ~((1 << a) - 1) for a in range(n + 1)], dtype=np.intp)
        #: Lowest set position of a mask (``n`` for none).
        self._low = np.array([(m & -m).bit_length() - 1 if m else n for m in range(1 << n)], dtype=np.intp)
        self._legal: Masks | None = None

    def _deal(self, seeds: Sequence[int]) -> Starts:
        return deal_starts(seeds, self.game, self.ahead)

    def _deal_starting(self, seeds: Sequence[int], starts: IntArray) -> Starts:
        return deal_starts(seeds, self.game, self.ahead, starts.tolist())

    def _last_dealt(self, g: IntArray | None = None) -> IntArray:
        """The last deal each match (all, or ``g``) may play: ``max_deals`` from its start, or unbounded."""
        start = self.start_round if g is None else self.start_round[g]
        result: IntArray = start + (self._cap - 1)
        return result

    # -- match and deal starts -----------------------------------------------------------
    def _start_matches(self, g: IntArray, starts: Starts) -> None:
        start = self.game.options["start_tokens"]
        first = self.start_round[g]
        # Deal r sits at ring position (r - 1) % ahead: the first ones from each match's start.
        positions = (first[:, None] - 1 + np.arange(self.ahead)[None, :]) % self.ahead
        self._ring[g[:, None], positions] = starts.hands
        self._dealt_to[g] = first + self.ahead - 1
        # first_dealer is deal 1's dealer; from a later start the deal has moved on as in a match.
        self.dealer[g] = (starts.first_dealer + self._direction * (first - 1)) % self.players
        self.round[g] = first
        self.deals_done[g] = 0
        self.tokens[g] = start
        self._sheet_tokens[g] = start
        self.boxes[g] = 0
        self.phase[g] = PLAY
        self._start_deals(g, None)

    def _start_deals(self, g: IntArray, terminal: BoolArray | None) -> None:
        """The engine's ``_start_deal``: the end check, the stakes, the deal (``round`` already set).

        A :attr:`round_only` match (loaded without a seed) has no next deal: it ends here.
        """
        n = self.players
        over = (self.tokens[g].min(axis=1) < self._stake) | self.round_only[g]
        if self._max_deals is not None:
            over |= self.deals_done[g] >= self._max_deals
        if over.any():
            self._end_matches(g[over], terminal)
            g = g[~over]
            if not g.size:
                return
        if (self.round[g] > self._dealt_to[g]).any():
            self._top_up(g)
        dealer = self.dealer[g]
        opener = (dealer + self._direction) % n
        self.opener[g] = opener
        self.current_player[g] = opener
        self.last[g] = opener
        self._reset_round(g)
        self.tokens[g] -= self._stake
        self.boxes[g] += self._box_add
        dealt = self._ring[g, (self.round[g] - 1) % self.ahead]  # (S, n), deal order
        seats = (dealer[:, None] + self._direction * (self._positions + 1)) % n
        hands = np.empty_like(dealt)
        hands[np.arange(g.size)[:, None], seats] = dealt
        self.hands[g] = hands
        ranks = rank_bits(hands).astype(np.intp)  # (S, n)
        held = (ranks[:, :, None] >> np.arange(R)) & 1  # (S, n, R)
        self._holders[g, 1:] = (held << self._positions[:, None]).sum(axis=1)

    def _top_up(self, starting: IntArray) -> None:
        """Deal ahead for every live match with half its ring or less left (``starting`` need theirs now)."""
        live = self.phase == PLAY
        wanted = self.round + 1  # the deal each match will need next ...
        wanted[starting] = self.round[starting]  # ... or needs now
        cap = self._last_dealt()
        low = live & (self._dealt_to - wanted + 1 <= self.ahead // 2) & (self._dealt_to < cap)
        low[starting] = True
        g = np.flatnonzero(low)
        first = self._dealt_to[g] + 1
        last = np.minimum(wanted[g] + self.ahead - 1, cap[g])
        counts = last - first + 1
        keep = counts > 0
        g, first, last, counts = g[keep], first[keep], last[keep], counts[keep]
        seeds = self.seeds
        texts = [
            b"%d:deal:%d" % (seeds[m], r)
            for m, lo, hi in zip(g.tolist(), first.tolist(), last.tolist(), strict=True)
            for r in range(lo, hi + 1)
        ]
        hands = deal_hands(texts, self.game)
        rows = np.repeat(g, counts)
        offsets = np.arange(rows.size) - np.repeat(np.cumsum(counts) - counts, counts)
        rounds = np.repeat(first, counts) + offsets
        self._ring[rows, (rounds - 1) % self.ahead] = hands
        self._dealt_to[g] = last

    # -- loading engine states -------------------------------------------------------
    def _load(self, states: Sequence[State]) -> None:
        """Each match from its :class:`NainJauneState` (see :meth:`.BatchBase.from_states`).

        The pile is rebuilt from the engine's ``played`` (its mask, each card's
        place, each seat's cards), the holders of each rank from the hands, the
        lacks per rank from the engine's per seat; the tokens the deal's reward
        counts from are the score sheet's last line (the start tokens before
        any).  The ring holds no deal ahead: a match with a seed deals its next
        ones from it when it needs them (:meth:`_top_up`), as the engine would
        for that seed; a :attr:`round_only` match is never topped up, and its
        match ends where its deal does (:meth:`_start_deals`).
        """
        n = self.players
        start = self.game.options["start_tokens"]
        self._load_fields(
            states,
            ("phase", "round", "dealer", "opener", "current_player", "need", "last", "asked", "claim_box"),
        )
        for g, state in enumerate(cast(Sequence[NainJauneState], states)):
            self.bonus_due[g] = state.bonus_due
            self.deals_done[g] = len(state.sheet)
            self.tokens[g] = state.tokens
            self.boxes[g] = state.boxes
            self._sheet_tokens[g] = state.sheet[-1].tokens if state.sheet else [start] * n
            self.hands[g] = state.hands
            self.pile_count[g] = len(state.played)
            pile = 0
            for place, (seat, card) in enumerate(state.played, start=1):
                pile |= 1 << card
                self.played_by[g, seat] |= U64(1 << card)
                self.pile_order[g, card] = place
            self.pile[g] = pile
            for seat, hand in enumerate(state.hands):
                for rank in range(1, R + 1):
                    if hand & C.RANK_MASK[rank]:
                        self._holders[g, rank] |= 1 << seat
                    if state.lacks[seat] >> (rank - 1) & 1:
                        self._lacking[g, rank - 1] |= 1 << seat
        # The deal in play counts as dealt: a seeded match deals the next ones when it needs them.
        self._dealt_to[:] = np.where(self.round_only, self._last_dealt(), self.round)

    # -- legal actions -------------------------------------------------------------------
    def _live_rows(self) -> IntArray | None:
        """The matches still playing; None when all are (the common case: whole-array operations)."""
        live = self.phase == PLAY
        return None if live.all() else np.flatnonzero(live)

    def legal_bits(self) -> tuple[Masks, IntArray]:
        """The legal actions, compactly, as :meth:`.WizardBatch.legal_bits`: (bits, offset).

        Action ``offset + j`` is legal iff bit ``j`` is set; every id (cards
        0..51, pass 52, claim 53) fits in one word, so the offset is always 0.
        Finished matches have no bits.
        """
        return self.legal_word(), self._zeros

    def legal_word(self) -> Masks:
        """(N,) uint64: action ``j`` is legal iff bit ``j`` is set (0 once over)."""
        if self._legal is not None:
            return self._legal
        rows = self._live_rows()
        if rows is None:
            bits = self._legal_of(self._games, self._base + self.current_player)
        else:
            bits = np.zeros(self.num_games, dtype=np.uint64)
            bits[rows] = self._legal_of(rows, rows * self.players + self.current_player[rows])
        self._legal = bits
        return bits

    def _legal_of(self, g: IntArray, at: IntArray) -> Masks:
        """The engine's ``legal_actions`` of the live matches ``g`` (``at``: the flat index of the seat to act)."""
        full = g is self._games
        hand = self.hands.reshape(-1)[at]
        need = self.need if full else self.need[g]
        bits = hand & _NEED_MASK[need]
        if self._lowest:
            first = (self.pile_count if full else self.pile_count[g]) == 0
            if first.any():
                low = trailing_zeros(rank_bits(hand[first])) + 1
                bits[first] = hand[first] & _RANK_MASK[np.minimum(low, R)]
        if self._cards_only:
            # The seat to act always holds the needed rank: ``_settle`` skipped those who did not.
            return bits
        if self._voluntary:
            bits |= np.where(need > 0, _PASS_BIT, U64(0))
        else:
            bits |= np.where((need > 0) & (bits == 0), _PASS_BIT, U64(0))
        box = self.claim_box if full else self.claim_box[g]
        window = box >= 0
        if window.any():
            bits = np.where(window, np.where(hand == 0, _PASS_CLAIM, bits | _CLAIM_BIT), bits)
        return bits

    def legal_mask(self) -> BoolArray:
        """(N, 54) booleans: the engine's ``legal_actions()`` of each match, as a mask."""
        return unpack(self.legal_word(), self.num_actions)

    def legal_counts(self) -> IntArray:
        """Number of legal actions per match (0 once over)."""
        return popcount(self.legal_word())

    @property
    def scores(self) -> NDArray[np.int32]:
        """(N, n) each seat's tokens (the engine's ``scores()``), as int32."""
        return self.tokens.astype(np.int32)

    @property
    def lacks(self) -> IntArray:
        """(N, n) per seat, the 13-bit mask of the ranks play has shown it lacks (the engine's ``lacks``)."""
        bit = (self._lacking[:, None, :] >> self._positions[None, :, None]) & 1  # (N, n, R)
        result: IntArray = (bit << np.arange(R)).sum(axis=2)
        return result

    # -- policies --------------------------------------------------------------------------
    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """A uniformly random legal action per match (-1 for a finished match)."""
        bits = self.legal_word()
        rows = self._live_rows()
        if rows is not None:
            bits = bits[rows]
        counts = popcount(bits)
        k = (rng.random(bits.size) * counts).astype(np.intp)
        chosen = np.where(counts > 0, select_bit(bits, k), -1)
        if rows is None:
            return chosen
        result = np.full(self.num_games, -1, dtype=np.intp)
        result[rows] = chosen
        return result

    # -- stepping ------------------------------------------------------------------------------
    def _move(
        self, a: IntArray, phase: IntArray, everyone: bool, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> NDArray[np.int32]:
        bits = self.legal_word()
        live = phase == PLAY
        g = self._games if live.all() else np.flatnonzero(live)
        if g is not self._games:
            a, bits = a[g], bits[g]
        if self.check:
            j = a.astype(np.uint64)  # negative: huge
            ok = (j < U64(64)) & (((bits >> (j & U64(63))) & U64(1)) != 0)
            if not ok.all():
                self._refuse(g, a, ok)
        self._legal = None
        ends: list[IntArray] = []  # matches whose deal ends (their winner is the seat to act)
        settle: list[IntArray] = []
        if self._cards_only:
            if g.size:
                self._play(g, a, ends, settle)
        else:
            self._variants(g, a, ends, settle)
        for rows in settle:
            if rows.size:
                self._settle(rows)
        for rows in ends:
            if rows.size:
                self._end_deals(rows, rewards, terminal)
        return self.tokens.astype(np.int32)

    def _variants(self, g: IntArray, a: IntArray, ends: list[IntArray], settle: list[IntArray]) -> None:
        """The actions of ``voluntary_stop`` and ``manual_claim`` besides the cards: passes, claims."""
        passes: list[IntArray] = []
        plain = np.ones(g.size, dtype=bool)
        if self._manual:
            window = self.claim_box[g] >= 0
            if window.any():
                plain = ~window
                w, wa = g[window], a[window]
                box = self.claim_box[w]
                self.claim_box[w] = -1
                claim = wa == CLAIM
                if claim.any():
                    self._collect(w[claim], self.current_player[w[claim]], box[claim])
                empty = self.hands[w, self.current_player[w]] == 0
                ends.append(w[empty])
                rest = ~empty
                settle.append(w[rest & (claim | ((wa == PASS) & (not self._voluntary)))])
                if self._voluntary:
                    passes.append(w[rest & (wa == PASS)])
                cards = rest & (wa < PASS)
                if cards.any():
                    self._play(w[cards], wa[cards], ends, settle)
        cards = plain & (a < PASS)
        if cards.any():
            self._play(g[cards], a[cards], ends, settle)
        if self._voluntary:
            passes.append(g[plain & (a == PASS)])
        for rows in passes:
            if rows.size:
                self._pass(rows)

    def _refuse(self, g: IntArray, a: IntArray, ok: BoolArray) -> None:
        bad = np.flatnonzero(~ok)
        m = int(g[bad[0]])
        need = int(self.need[m])
        if int(self.claim_box[m]) >= 0:
            rule = "a board card was just played: claim its box, or go on"
        elif need:
            rule = f"the run needs a {C.rank_text(need)} (any suit)"
        elif self._lowest and int(self.pile_count[m]) == 0:
            rule = "the first card of the deal is the opener's lowest rank"
        else:
            rule = "a new run starts: play any card you hold"
        raise self._refusal(bad.size, m, self._action_text(int(a[bad[0]])), self._legal_texts(m), rule)

    def _play(self, g: IntArray, c: IntArray, ends: list[IntArray], settle: list[IntArray]) -> None:
        """``NainJauneState._play`` for the matches ``g`` playing the cards ``c``."""
        n = self.players
        sel: IntArray | slice = slice(None) if g is self._games else g
        seat = self.current_player[sel].copy()
        rank = _RANK_OF[c]
        bit = U64(1) << c.astype(np.uint64)
        flat = (self._base if g is self._games else g * n) + seat
        if self._lowest:
            first = np.flatnonzero(self.pile_count[sel] == 0)
            if first.size:
                # The opener's lowest rank: every rank below it is one he lacks.
                below = np.arange(1, R + 1) < rank[first, None]
                self._lacking[g[first]] |= np.where(below, 1 << seat[first, None], 0)
        hands = self.hands.reshape(-1)
        hand = hands[flat] ^ bit
        hands[flat] = hand
        self.played_by.reshape(-1)[flat] |= bit
        self.pile[sel] |= bit
        count = self.pile_count[sel] + 1
        self.pile_count[sel] = count
        self.pile_order.reshape(-1)[g * K + c] = count
        # The seat no longer holds the rank once its last card of it is played.
        gone = ((hand & _RANK_MASK[rank]) == 0).astype(np.intp) << seat
        self._holders.reshape(-1)[g * (R + 1) + rank] &= ~gone
        self.last[sel] = seat
        self.asked[sel] = 0
        self.bonus_due[sel] = self._bonus_on
        box = _BOX_OF[c]
        board = box >= 0
        any_board = bool(board.any())
        if any_board:
            if self._manual:
                self.claim_box[g[board]] = box[board]
            else:
                self._collect(g[board], seat[board], box[board])
        king = rank == C.KING
        if self._bonus_on and king.any():
            self._bonus(g[king])
        self.need[sel] = np.where(king, 0, rank + 1)
        go = hand != 0
        out = ~go
        if self._manual and any_board:  # the claim window: the same seat acts again
            go &= ~board
            out &= ~board
        if out.any():
            ends.append(g[out])
        settle.append(g if go.all() else g[go])

    def _pass(self, g: IntArray) -> None:
        """A pass on ``need`` (voluntary stop): the next seat is asked, or the run is stuck."""
        asked = self.asked[g] + 1
        self.asked[g] = asked
        stuck = g[asked == self.players]
        if stuck.size:
            if self._bonus_on:
                self._bonus(stuck)
            self.asked[stuck] = 0
            need = self.need[stuck]
            self.need[stuck] = np.where(self._free_restart | (need == C.KING), 0, need + 1)
        self._settle(g)

    def _settle(self, g: IntArray) -> None:
        """``NainJauneState._settle``: who must act for ``need`` (automatic passes, the stuck rule).

        In closed form from :attr:`_holders`: the first position from
        ``asked`` whose seat holds ``need``; the seats asked before it lack it.
        If none (stuck): the stuck rule, then — skipping ranks nobody holds,
        which every seat lacks — the lowest higher rank somebody holds.
        """
        n, step = self.players, self._direction
        sel: IntArray | slice = slice(None) if g is self._games else g
        need = self.need[sel]
        last = self.last[sel]
        if self._voluntary:  # every seat is asked in turn, holding the rank or not
            self.current_player[sel] = np.where(need == 0, last, (last + step * self.asked[sel]) % n)
            return
        free = need == 0
        if free.any():
            self.current_player[g[free]] = last[free]
            if free.all():
                return
            g, need, last = g[~free], need[~free], last[~free]
            sel = g
        asked = self.asked[sel]
        key = last << n
        holders = self._holders.reshape(-1)[g * (R + 1) + need]
        after = self._from_pos[asked]
        p = self._low[self._to_pos[key | holders] & after]
        # The seats asked before the holder (all from ``asked`` if none) lack the rank.
        lacked = self._to_seat[key | (after & ~self._from_pos[p])]
        self._lacking.reshape(-1)[g * R + need - 1] |= lacked
        new_need = need
        new_asked = p
        seat = (last + step * p) % n
        stuck = np.flatnonzero(p == n)
        if stuck.size:
            s = g[stuck]
            if self._bonus_on:
                self._bonus(s)
            new_need = need.copy()
            new_asked[stuck] = 0
            seat[stuck] = last[stuck]
            if self._free_restart:
                new_need[stuck] = 0
            else:
                was = need[stuck, None]
                ranks = np.arange(R + 1)
                held = (self._holders[s] != 0) & (ranks > was)  # (S, R + 1)
                nxt = np.where(held.any(axis=1), held.argmax(axis=1), R + 1)  # R + 1: the run ends
                skipped = (ranks[1:] > was) & (ranks[1:] < nxt[:, None])  # nobody holds them
                self._lacking[s] |= np.where(skipped, self._all_seats, 0)
                going = nxt <= R
                new_need[stuck] = np.where(going, nxt, 0)
                t = stuck[going]
                if t.size:
                    r2 = nxt[going]
                    mask = self._holders[g[t], r2]
                    p2 = self._low[self._to_pos[key[t] | mask]]
                    self._lacking[g[t], r2 - 1] |= self._to_seat[key[t] | ((1 << p2) - 1)]
                    new_asked[t] = p2
                    seat[t] = (last[t] + step * p2) % n
        self.need[sel] = new_need
        self.asked[sel] = new_asked
        self.current_player[sel] = seat

    def _bonus(self, g: IntArray) -> None:
        """The sequence bonus, where still due: every other seat pays the run's owner 1 token."""
        g = g[self.bonus_due[g]]
        if not g.size:
            return
        self.bonus_due[g] = False
        owner = self.last[g]
        tokens = self.tokens[g]
        pay = np.minimum(tokens, 1)
        rows = np.arange(g.size)
        pay[rows, owner] = 0
        tokens -= pay
        tokens[rows, owner] += pay.sum(axis=1)
        self.tokens[g] = tokens

    def _collect(self, g: IntArray, seat: IntArray, box: IntArray) -> None:
        self.tokens[g, seat] += self.boxes[g, box]
        self.boxes[g, box] = 0

    def _end_deals(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        """``NainJauneState._end_deal``: payments and penalties, the dealer moves, the next deal."""
        n = self.players
        winner = self.current_player[g]
        rows = np.arange(g.size)
        hands = self.hands[g]
        tokens = self.tokens[g]
        boxes = self.boxes[g]
        loser = np.ones((g.size, n), dtype=bool)
        loser[rows, winner] = False
        factor: int | IntArray = 1
        if self._grand != "off":
            # Grand opéra: nobody but the winner has played a card this deal.
            grand = ~(np.where(loser, self.played_by[g], U64(0)) != 0).any(axis=1)
            if self._grand == "take_all_boxes":
                tokens[rows, winner] += np.where(grand, boxes.sum(axis=1), 0)
                boxes[grand] = 0
            else:
                factor = np.where(grand, 2, 1)[:, None]
        due = popcount(hands).astype(np.int64) if self._per_card else hand_points(hands)
        pay = np.where(loser, np.minimum(due * factor, tokens), 0)
        tokens -= pay
        tokens[rows, winner] += pay.sum(axis=1)
        if self._kept != "no_penalty":
            caught = hands & _BOARD_MASK
            if (caught != 0).any():
                # Box by box: each board card is in one hand, and a seat pays its boxes in box order.
                for box in range(5):
                    holder = loser & ((caught & _BOARD_BITS[box]) != 0)
                    if not holder.any():
                        continue
                    if self._kept == "double_box":
                        owed = boxes[:, box : box + 1].copy()
                    else:
                        owed = np.full((g.size, 1), _BOX_STAKES[box] * self._unit, dtype=np.int64)
                    fine = np.where(holder, np.minimum(owed, tokens), 0)
                    tokens -= fine
                    boxes[:, box] += fine.sum(axis=1)
        self.tokens[g] = tokens
        self.boxes[g] = boxes
        rewards[g] = (tokens - self._sheet_tokens[g]).astype(np.int32)
        self._sheet_tokens[g] = tokens
        self.deals_done[g] += 1
        if self._winner_deals:
            self.dealer[g] = winner
        else:
            self.dealer[g] = (self.dealer[g] + self._direction) % n
        self.round[g] += 1
        self._start_deals(g, terminal)
        # The engine numbers a deal when it starts: a match that ended keeps its last number.
        self.round[g[self.phase[g] == OVER]] -= 1

    # -- reading one match -----------------------------------------------------------------------
    def hand_cards(self, game: int, seat: int) -> list[int]:
        """Seat's cards in match ``game`` (ascending ids, as the engine's view lists them)."""
        return C.cards_in(int(self.hands[game, seat]))
