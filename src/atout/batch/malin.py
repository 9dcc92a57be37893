"""Le Malin et ses petits malheurs, many matches at once, as numpy arrays: the engine's rules and deals.

Why, and how exactness is kept: as :mod:`.wizard` — the engine's action ids
(:mod:`atout.games.malin.game`: cards 0..35, ``play WISH v`` at 136 + v,
``wish v`` at 337 + v, bids from 438), its hand representation (slot bitmasks,
:mod:`atout.games.malin.cards`; a single Twin is kept in slot 34, which is how
the tensors show it, while the engine may hold it in slot 35 — the rules never
tell the Twins apart), its trick winner (``winner_of``: highest value, the
earlier card on a tie, the Wish over both Twins as the option says) and its
scoring.  Hand ``h`` of a match seeded ``s`` is dealt from
``seeded_rng(s, "hand", h)`` exactly as ``MalinState._seeded_outcome`` deals
it (one shuffle picks the card set aside, a second, from the same generator,
the hands), the first dealer from ``seeded_rng(s, "first-dealer")``, through
:mod:`.pyrandom`.  Chance is resolved by the batch itself: every state the
caller sees is a decision (bid, card, Wish re-declaration) or the end.

The Wish makes the action space wide: up to 201 legal ``play WISH v`` (or
``wish v``) ids beside the cards, so the legal set is one uint64 of cards or
bids (with an offset) plus a 256-bit set of allowed Wish values (four uint64
words, value ``v`` at bit ``v + 100``, with its own offset); see
:meth:`MalinBatch.legal_bits`.

Options: every option of the base game is supported — ``start_score``,
``sum_rule``, ``wish_forbidden_scope``, ``wish_collision``,
``wish_beats_both_twins``, ``twin_value``, ``clamp_at_zero``,
``first_dealer``.  **Left out: the jeu fun** (``fun=True``, and with it the
options that only matter there: ``malheur_gain``, the ``*_copies``,
``reverse_single_digit``, ``halve_rounding``, ``malin_steal``).  Why: its
Malheur windows open after every card and ask every holder in turn, each card
aimed at a seat first opens a reaction (L'Avocat du Diable, chains of them),
Le Malin's steals and the gains are chance events in the middle of a hand
keyed by running counts (``random.choices`` over the holdings), and Belzébuth
makes values exact fractions: a batch of it would be a second, much larger
engine with little to vectorise (most of a fun match's decisions are window
passes), and the base game is what a learner trains on first.
``MalinBatch(..., fun=True)`` raises a ``ValueError`` saying so.

Match length varies (a match ends after the hand in which a score reaches 0),
so hands are not all dealt up front: each match holds the deals of
:data:`DEALT_AHEAD` hands, and the matches that run past them are dealt the
next ones together (vectorised when there are enough of them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core.game import State
from ..games.malin import cards as C
from ..games.malin.game import (
    BID,
    BID_BASE,
    OVER,
    PLAY,
    REDECLARE,
    REDECLARE_BASE,
    TWIN_HIGH,
    TWIN_LOW,
    WISH_BASE,
    WISH_MAX,
    WISH_MIN,
    MalinGame,
    MalinState,
)
from . import common, pyrandom
from .base import BatchBase, MatchArray
from .bits import U64, popcount, select_bit, unpack
from .common import IllegalActions, Step
from .families import BiddingTricks

__all__ = ["DEALT_AHEAD", "Deals", "IllegalActions", "MalinBatch", "MalinLegal", "Step", "deal"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: Hands dealt per match at a time (a random 4-player match lasts 2 to 5 hands, 3 most often).
DEALT_AHEAD = 3
#: Wish values -100..100 as bits 0..200 of four words (value ``v`` at bit ``v + 100``).
VALUE_OFFSET = -WISH_MIN
WISH_WORDS = 4
_VALID_WISH = np.array(
    [
        U64((1 << 64) - 1),
        U64((1 << 64) - 1),
        U64((1 << 64) - 1),
        U64((1 << (WISH_MAX + VALUE_OFFSET - 191)) - 1),
    ],
    dtype=np.uint64,
)
#: First id of the Wish values in play / in a re-declaration (value -100).
PLAY_WISH_BASE = WISH_BASE + WISH_MIN
REDECLARE_WISH_BASE = REDECLARE_BASE + WISH_MIN
_NUMBERS = U64((1 << C.NUM_NUMBERS) - 1)
_TWIN1 = U64(1 << C.TWIN)
_TWIN2 = U64(1 << (C.TWIN + 1))
_TWINS = U64(C.TWIN_MASK)
_WISH = U64(C.WISH_MASK)
_PLAY_LOW = PLAY_WISH_BASE  # ids below this are cards (numbers and the two Twin plays)


class Deals(NamedTuple):
    """Some hands of some matches, dealt from their seeds."""

    first_dealer: IntArray  # (G,)
    hands: NDArray[np.uint64]  # (G, hands, n) slot masks by absolute seat (a single Twin in slot 34)
    removed: IntArray  # (G, hands) the card kind set aside face up


class MalinLegal(NamedTuple):
    """The legal actions of every match, compactly.

    Action ``offset + j`` is legal iff bit ``j`` of ``bits`` is set (cards
    0..35 with offset 0, or bids with offset ``BID_BASE``), and action
    ``wish_offset + j`` iff bit ``j % 64`` of ``wish[:, j // 64]`` is set
    (``j = v + 100`` for the Wish value ``v``: ``play WISH v`` while playing,
    ``wish v`` while re-declaring; no bits otherwise).
    """

    bits: NDArray[np.uint64]  # (N,)
    offset: IntArray  # (N,)
    wish: NDArray[np.uint64]  # (N, 4)
    wish_offset: IntArray  # (N,)


def _slot_list(game: MalinGame) -> list[int]:
    """The engine's deck order before its first shuffle: every slot in play but the Wish, ascending."""
    return [s for s in range(C.NUM_SLOTS) if game.deck >> s & 1 and s != C.WISH_SLOT]


def _python_hand(text: bytes, slots: list[int]) -> tuple[int, list[int]]:
    """The reference (``MalinState._seeded_outcome``): (slot set aside, the other slots in deal order)."""
    rng = random.Random(text)
    order = list(slots)
    rng.shuffle(order)
    rest = [*order[1:], C.WISH_SLOT]
    rng.shuffle(rest)
    return order[0], rest


def _two_shuffles(
    words: NDArray[np.uint32], size: int
) -> tuple[NDArray[np.int8], NDArray[np.int8], BoolArray]:
    """Two successive ``Random.shuffle(list(range(size)))`` per column from one stream of outputs.

    Returns the two (size, rows) permutations and the columns that ran out of
    outputs (meaningless there: the caller redoes them with ``random.Random``).
    """
    count, rows = words.shape
    flat_words = np.ascontiguousarray(words).reshape(-1)
    cols = np.arange(rows, dtype=np.intp)
    at = cols.copy()
    decks = []
    for _ in range(2):
        deck = np.repeat(np.arange(size, dtype=np.int8)[:, None], rows, axis=1)
        flat = deck.reshape(-1)
        for i in range(size - 1, 0, -1):
            # A column out of outputs may draw beyond i (it is redone): keep it inside the deck.
            where = np.minimum(pyrandom._draw(flat_words, at, rows, i + 1), i).astype(np.intp)
            where *= rows
            where += cols
            held = flat.take(where)
            flat[where] = deck[i]
            deck[i] = held
        decks.append(deck)
    return decks[0], decks[1], at - cols > count * rows


def _hand_slots(texts: list[bytes], game: MalinGame) -> tuple[IntArray, IntArray]:
    """Per hand text: (the slot set aside (R,), the other slots in deal order (D, R))."""
    slots = _slot_list(game)
    size = len(slots)
    rows = len(texts)
    if rows < common.VECTOR_MIN_ROWS:
        pairs = [_python_hand(t, slots) for t in texts]
        removed = np.array([p[0] for p in pairs], dtype=np.intp).reshape(rows)
        rest = np.array([p[1] for p in pairs], dtype=np.intp).T.reshape(size, rows)
        return removed, rest
    # Worked in the generator's key-length order; only the results are put back.
    order, words = pyrandom.outputs_in_key_order(texts, min(pyrandom.MAX_OUTPUTS, 4 * size + 32))
    where = np.empty_like(order)
    where[order] = np.arange(order.size)
    first_perm, second_perm, out = _two_shuffles(words, size)
    slot_array = np.array(slots, dtype=np.int8)
    shuffled = slot_array[first_perm]  # (size, rows)
    removed = shuffled[0, where].astype(np.intp)
    shuffled[:-1] = shuffled[1:]  # the rest: what follows the card set aside, then the Wish
    shuffled[-1] = C.WISH_SLOT
    rest = shuffled.reshape(-1)[second_perm.astype(np.intp) * rows + np.arange(rows)].reshape(size, rows)
    rest = rest[:, where].astype(np.intp)
    for r in np.flatnonzero(out[where]).tolist():
        removed[r], column = _python_hand(texts[r], slots)
        rest[:, r] = column
    return removed, rest


def _first_dealers(draws: list[bytes], n: int) -> IntArray:
    """``Random(text).randrange(n)`` per text (the engine's first-dealer draw), vectorised when there are many."""
    if len(draws) < common.VECTOR_MIN_ROWS:
        return np.array([pyrandom.python_randbelow(t, n) for t in draws], dtype=np.intp).reshape(len(draws))
    order, words = pyrandom.outputs_in_key_order(draws, common.words_for(2))
    values, spent = pyrandom.randbelow(words, np.zeros(len(draws), dtype=np.intp), n)
    first = np.empty(len(draws), dtype=np.intp)
    first[order] = values
    for d in order[spent].tolist():
        first[d] = pyrandom.python_randbelow(draws[d], n)
    return first


def _value_words(bits: int) -> list[int]:
    """A set of Wish values as a Python int (value ``v`` at bit ``v + 100``) in the batch's four words."""
    return [(bits >> (64 * w)) & 0xFFFF_FFFF_FFFF_FFFF for w in range(WISH_WORDS)]


def _normal_twins(masks: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """A single Twin moved to slot 34 (the engine may hold it in 35 when the other was set aside)."""
    single = (masks & _TWINS) == _TWIN2
    result: NDArray[np.uint64] = np.where(single, masks ^ (_TWIN1 | _TWIN2), masks)
    return result


def deal_hands(
    seeds: Sequence[int], starts: IntArray, first_dealer: IntArray, count: int, game: MalinGame
) -> tuple[NDArray[np.uint64], IntArray]:
    """Hands ``starts[g] .. starts[g] + count - 1`` of the matches ``seeds``: ((G, count, n) masks, (G, count) set-aside kinds)."""
    n, size = game.players, game.hand_size
    G = len(seeds)
    texts = [
        b"%d:hand:%d" % (s, h)
        for s, h0 in zip(seeds, starts.tolist(), strict=True)
        for h in range(h0, h0 + count)
    ]
    removed_slot, rest = _hand_slots(texts, game)
    hands = np.zeros((G, count, n), dtype=np.uint64)
    dealt = np.bitwise_or.reduce(
        U64(1) << rest[: n * size].astype(np.uint64).reshape(n, size, G, count), axis=1
    )
    dealt = _normal_twins(dealt)  # (n, G, count), deal order
    hand_numbers = starts[:, None] + np.arange(count)[None, :]  # (G, count)
    dealer = (first_dealer[:, None] + hand_numbers - 1) % n
    gg = np.broadcast_to(np.arange(G)[:, None], (G, count))
    cc = np.broadcast_to(np.arange(count)[None, :], (G, count))
    for i in range(n):
        hands[gg, cc, (dealer + 1 + i) % n] = dealt[i]
    removed = np.minimum(removed_slot, C.TWIN).reshape(G, count)
    return hands, removed


def deal(seeds: Sequence[int], game: MalinGame, starts: IntArray | None = None) -> Deals:
    """The first dealer and the first :data:`DEALT_AHEAD` hands of the matches ``seeds`` (the engine's deals).

    Each match's hands from its start: ``starts[i]``, by default the configuration's ``start_round``.
    """
    if starts is None:
        starts = np.full(len(seeds), game.start_round, dtype=np.intp)
    per_chunk = max(1, common.DEAL_ROWS // (DEALT_AHEAD + 1))
    if len(seeds) <= per_chunk:
        return _deal(seeds, starts, game)
    parts = [
        _deal(seeds[i : i + per_chunk], starts[i : i + per_chunk], game)
        for i in range(0, len(seeds), per_chunk)
    ]
    return Deals(*(np.concatenate(column) for column in zip(*parts, strict=True)))


def _deal(seeds: Sequence[int], starts: IntArray, game: MalinGame) -> Deals:
    fixed = game.options["first_dealer"]
    if fixed is None:
        first = _first_dealers([b"%d:first-dealer" % s for s in seeds], game.players)
    else:
        first = np.full(len(seeds), fixed, dtype=np.intp)
    hands, removed = deal_hands(seeds, starts, first, DEALT_AHEAD, game)
    return Deals(first, hands, removed)


class MalinBatch(BiddingTricks, BatchBase[MalinGame, Deals]):
    """``N`` Le Malin matches of one configuration, stepped together.

    ``MalinBatch(4, seeds=range(10_000))`` deals match ``i`` exactly as
    ``MalinGame(4).new_state(seed=seeds[i])``.  Options are the engine's
    (validated by :class:`MalinGame`; the jeu fun is not supported, see the
    module docstring).  With ``auto_reset``, a match that ends restarts at
    once from the next seed of ``reset_seeds`` (default: counting up from
    ``max(seeds) + 1``); :meth:`step` reports its end and final scores.

    Public state, one entry per match (read-only by convention): ``phase``
    (the engine's phase ids: BID 7, PLAY 8, REDECLARE 9, OVER 10),
    ``round`` (the hand number), ``dealer``, ``current_player``
    (``TERMINAL`` = -4 once over), ``removed`` (the card kind set aside),
    ``leader``, ``last_actor`` (-1 before the hand's first card),
    ``wish_seat`` (the seat whose Wish is in the trick, -1), and per seat
    ``hands`` (slot bitmasks), ``bids`` (-1 not yet), ``tricks_won``,
    ``scores`` (from ``start_score`` down); ``card_kind`` / ``card_value``
    (N, H + 1, n): the card kind (-1: none) and value each seat played in each
    trick of the hand (the row ``tricks_done`` is the trick in progress, the
    last row scratch), ``trick_winner`` (N, H).
    """

    _over = OVER
    _round_word = "hand"

    removed = MatchArray(np.intp)
    last_actor = MatchArray(np.intp, round_start=-1)
    wish_seat = MatchArray(np.intp, round_start=-1)
    #: Declared value of the first Twin in the trick in progress (-1: none).
    twin_declared = MatchArray(np.intp, round_start=-1)
    _bid_bits = MatchArray(np.uint64, round_start=0)
    first_dealer = MatchArray(np.intp)
    scores = MatchArray(np.int32, "players")
    card_kind = MatchArray(np.intp, "_trick_rows", "players", fill=-1, round_start=-1)
    card_value = MatchArray(np.intp, "_trick_rows", "players", round_start=0)
    trick_winner = MatchArray(np.intp, "hand_size", fill=-1, round_start=-1)
    #: Values in the trick in progress, and (wish_forbidden_scope=hand) in the hand's finished tricks.
    _trick_values = MatchArray(np.uint64, WISH_WORDS, round_start=0)
    _hand_values = MatchArray(np.uint64, WISH_WORDS, round_start=0)
    _deal_hands = MatchArray(np.uint64, DEALT_AHEAD, "players")
    _deal_removed = MatchArray(np.intp, DEALT_AHEAD)
    _deal_from = MatchArray(np.intp)

    @classmethod
    def check_game(cls, game: Any) -> None:
        super().check_game(game)
        if game.fun:
            raise ValueError(
                "MalinBatch plays the base game only: the jeu fun (fun=True, the Malheur cards) is not "
                "supported in batch (see atout.batch.malin); use the engine for it"
            )

    def _init_state(self) -> None:
        game = self.game
        self.hand_size = H = game.hand_size
        o = game.options
        self._running = o["sum_rule"] == "running"
        self._hand_scope = o["wish_forbidden_scope"] == "hand"
        self._collide_any = o["wish_collision"] == "redeclare_any_trick"
        self._wish_rule = str(o["wish_beats_both_twins"])
        self._avoid_taken = o["twin_value"] == "avoid_taken"
        self._clamp = bool(o["clamp_at_zero"])
        self._start_score = int(o["start_score"])
        self.twin_high = high = game.twin_high
        # Per action id below the re-declarations: the card kind, its declared value, the slots it removes.
        ids = np.arange(_PLAY_LOW + WISH_MAX - WISH_MIN + 1)
        self._action_kind = np.where(ids < TWIN_LOW, ids, np.where(ids <= TWIN_HIGH, C.TWIN, C.WISH))
        self._action_value = np.where(
            ids < TWIN_LOW,
            ids + 1,
            np.where(ids == TWIN_LOW, 0, np.where(ids == TWIN_HIGH, high, ids - WISH_BASE)),
        )
        self._action_slot = np.where(ids < TWIN_LOW, U64(1) << np.minimum(ids, 63).astype(np.uint64), U64(0))
        self._action_slot = np.where(ids >= _PLAY_LOW, _WISH, self._action_slot).astype(np.uint64)
        #: (word, bit) of the Twin values 0 and high in the value sets.
        self._twin_value_bits = tuple(
            ((VALUE_OFFSET + v) >> 6, U64(1) << U64((VALUE_OFFSET + v) & 63)) for v in (0, high)
        )
        self._trick_rows = H + 1  # ``card_kind``, ``card_value``: a row per trick, and a scratch row
        self._legal: MalinLegal | None = None

    def _deal(self, seeds: Sequence[int]) -> Deals:
        return deal(seeds, self.game)

    def _deal_starting(self, seeds: Sequence[int], starts: IntArray) -> Deals:
        return deal(seeds, self.game, starts)

    def _last_start(self) -> int:
        last = self.game.last_round
        return super()._last_start() if last is None else int(last)

    # -- match and hand starts ------------------------------------------------------
    def _start_matches(self, g: IntArray, deals: Deals) -> None:
        self._deal_hands[g] = deals.hands
        self._deal_removed[g] = deals.removed
        self._deal_from[g] = self.start_round[g]
        self.first_dealer[g] = deals.first_dealer
        self.scores[g] = self._start_score
        self._first_round(g, deals.first_dealer)

    def _start_round(self, g: IntArray) -> None:
        n = self.players
        ahead = self.round[g] - self._deal_from[g]
        late = ahead >= DEALT_AHEAD
        if late.any():
            rows = g[late]
            hands, removed = deal_hands(
                [self.seeds[i] for i in rows.tolist()],
                self.round[rows],
                self.first_dealer[rows],
                DEALT_AHEAD,
                self.game,
            )
            self._deal_hands[rows] = hands
            self._deal_removed[rows] = removed
            self._deal_from[rows] = self.round[rows]
            ahead = self.round[g] - self._deal_from[g]
        self.hands[g] = self._deal_hands[g, ahead]
        self.removed[g] = self._deal_removed[g, ahead]
        left = (self.dealer[g] + 1) % n
        self.phase[g] = BID
        self.current_player[g] = left
        self.leader[g] = left

    # -- loading engine states -------------------------------------------------------
    def _load(self, states: Sequence[State]) -> None:
        """Each match from its :class:`MalinState` (see :meth:`.BatchBase.from_states`).

        The tricks' cards go into ``card_kind`` / ``card_value`` with their
        values as they stand (a re-declared Wish's new one), the values in play
        into the value sets the Wish's legal values are read from; a single
        Twin moves to slot 34 (:func:`_normal_twins`).  No hand is dealt ahead:
        a match with a seed deals its next ones from it when it reaches them
        (:meth:`_start_round`), from the round-1 dealer its state implies.
        The jeu fun is refused by :meth:`check_game`.
        """
        n = self.players
        self._load_fields(
            states, ("phase", "round", "dealer", "current_player", "leader", "removed", "last_actor", "bids")
        )
        for g, state in enumerate(cast(Sequence[MalinState], states)):
            self.trick_size[g] = len(state.trick)
            self.tricks_done[g] = len(state.tricks)
            self.tricks_won[g] = state.tricks_won
            self.scores[g] = state.scores_
            made = [b for b in state.bids if b >= 0]
            self.bid_sum[g] = sum(made)
            self._bid_bits[g] = sum(1 << b for b in made)
            self.hands[g] = state.hands
            past = 0  # the values of the hand's finished tricks, as bits (value v at v + 100)
            for t, (cards, winner) in enumerate(state.tricks):
                self.trick_winner[g, t] = winner
                for card in cards:
                    self.card_kind[g, t, card.seat] = card.kind
                    self.card_value[g, t, card.seat] = int(card.value)
                    past |= 1 << (int(card.value) + VALUE_OFFSET)
            if self._hand_scope:
                self._hand_values[g] = _value_words(past)
            row = len(state.tricks)
            current = 0
            for card in state.trick:
                self.card_kind[g, row, card.seat] = card.kind
                self.card_value[g, row, card.seat] = int(card.value)
                current |= 1 << (int(card.value) + VALUE_OFFSET)
                if card.kind == C.TWIN and self.twin_declared[g] < 0:
                    self.twin_declared[g] = card.declared
            self._trick_values[g] = _value_words(current)
            if state.wish_pos >= 0:
                self.wish_seat[g] = state.trick[state.wish_pos].seat
        self.hands[:] = _normal_twins(self.hands)
        # Round 1's dealer as each state implies it; the next hand is dealt when reached.
        self.first_dealer[:] = (self.dealer - self.round + 1) % n
        self._deal_from[:] = self.round + 1 - DEALT_AHEAD

    # -- legal actions -------------------------------------------------------------------
    def legal_bits(self) -> MalinLegal:
        """The legal actions of every match, compactly (see :class:`MalinLegal`); none once over."""
        if self._legal is not None:
            return self._legal
        N, H = self.num_games, self.hand_size
        phase = self.phase
        seat = np.maximum(self.current_player, 0)
        hand = self.hands.reshape(-1)[self._games * self.players + seat]
        play = phase == PLAY
        # Cards: every number held; a Twin as the values it may take; the Wish below, in its words.
        bits = hand & _NUMBERS
        twins = (hand & _TWINS) != 0
        if twins.any():
            declared = self.twin_declared
            low_ok = declared != 0
            high_ok = declared != self.twin_high
            if self._avoid_taken:
                (w0, b0), (w1, b1) = self._twin_value_bits
                values = self._trick_values
                free_low = (values[:, w0] & b0) == 0
                free_high = (values[:, w1] & b1) == 0
                choice = declared < 0
                some_free = free_low | free_high
                low_ok &= ~(choice & some_free & ~free_low)
                high_ok &= ~(choice & some_free & ~free_high)
            twin_bits = (low_ok.astype(np.uint64) << U64(TWIN_LOW)) | (
                high_ok.astype(np.uint64) << U64(TWIN_HIGH)
            )
            bits = np.where(twins, bits | twin_bits, bits)
        bits = np.where(play, bits, U64(0))
        offset = np.zeros(N, dtype=np.intp)
        wish = np.zeros((N, WISH_WORDS), dtype=np.uint64)
        wish_offset = np.zeros(N, dtype=np.intp)
        holds = play & ((hand & _WISH) != 0)
        if holds.any():
            rows = np.flatnonzero(holds)
            wish[rows] = _VALID_WISH & ~(self._trick_values[rows] | self._hand_values[rows])
            wish_offset[rows] = PLAY_WISH_BASE
        bidding = phase == BID
        if bidding.any():
            rows = np.flatnonzero(bidding)
            free = (U64(1) << U64(H)) - U64(1)
            bid = free & ~self._bid_bits[rows]
            rest = H - self.bid_sum[rows]
            binds = (rest >= 0) & (rest < H)
            if not self._running:
                binds &= self.current_player[rows] == self.dealer[rows]
            bid &= ~(binds.astype(np.uint64) << np.clip(rest, 0, 63).astype(np.uint64))
            bits[rows] = bid
            offset[rows] = BID_BASE
        redeclaring = phase == REDECLARE
        if redeclaring.any():
            rows = np.flatnonzero(redeclaring)
            others = self._values_of(rows, exclude=self.wish_seat[rows]) | self._hand_values[rows]
            wish[rows] = _VALID_WISH & ~others
            wish_offset[rows] = REDECLARE_WISH_BASE
        self._legal = MalinLegal(bits, offset, wish, wish_offset)
        return self._legal

    def _values_of(self, g: IntArray, exclude: IntArray | None = None) -> NDArray[np.uint64]:
        """(G, 4): the value bits of the cards in the tricks in progress of ``g`` (but seat ``exclude``'s)."""
        row = self.tricks_done[g]
        kinds = self.card_kind[g, row]  # (G, n)
        index = self.card_value[g, row] + VALUE_OFFSET
        present = kinds >= 0
        if exclude is not None:
            present &= np.arange(self.players)[None, :] != exclude[:, None]
        out = np.zeros((g.size, WISH_WORDS), dtype=np.uint64)
        one = (U64(1) << (index & 63).astype(np.uint64)) * present.astype(np.uint64)
        word = index >> 6
        for w in range(WISH_WORDS):
            out[:, w] = np.bitwise_or.reduce(np.where(word == w, one, U64(0)), axis=1)
        return out

    def legal_mask(self) -> BoolArray:
        """(N, num_actions) booleans: the engine's ``legal_actions()`` of each match, as a mask."""
        legal = self.legal_bits()
        N = self.num_games
        mask = np.zeros((N, self.num_actions), dtype=bool)
        local = unpack(legal.bits, 64)
        for base in np.unique(legal.offset).tolist():
            rows = legal.offset == base
            width = min(64, self.num_actions - base)
            mask[rows, base : base + width] |= local[rows, :width]
        values = WISH_MAX - WISH_MIN + 1
        spread = np.concatenate([unpack(legal.wish[:, w], 64) for w in range(WISH_WORDS)], axis=1)[:, :values]
        for base in np.unique(legal.wish_offset[legal.wish.any(axis=1)]).tolist():
            rows = (legal.wish_offset == base) & legal.wish.any(axis=1)
            mask[rows, base : base + values] |= spread[rows]
        return mask

    def legal_counts(self) -> IntArray:
        """Number of legal actions per match (0 once over)."""
        legal = self.legal_bits()
        counts = popcount(legal.bits)
        rows, _, total = self._wish_counts()
        counts[rows] += total
        return counts

    def _wish_counts(self) -> tuple[IntArray, IntArray, IntArray]:
        """(rows with Wish values, their (R, 3) running counts after words 0..2, their total)."""
        legal = self.legal_bits()
        rows = np.flatnonzero(legal.wish_offset)
        words = popcount(legal.wish[rows])  # (R, 4)
        running = np.cumsum(words, axis=1)
        return rows, running[:, :3], running[:, 3]

    # -- policies --------------------------------------------------------------------------
    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """A uniformly random legal action per match (-1 for a finished match)."""
        legal = self.legal_bits()
        low = popcount(legal.bits)
        counts = low.copy()
        rows, running, total = self._wish_counts()
        counts[rows] += total
        k = (rng.random(self.num_games) * counts).astype(np.intp)
        actions = legal.offset + select_bit(legal.bits, np.minimum(k, np.maximum(low - 1, 0)))
        if rows.size:
            j = k[rows] - low[rows]
            wish = j >= 0
            rows, j, running = rows[wish], j[wish], running[wish]
            # The word holding the j-th allowed value, then the bit within it.
            word = (j >= running[:, 0]).astype(np.intp)
            word += j >= running[:, 1]
            word += j >= running[:, 2]
            before = np.where(word > 0, running[np.arange(rows.size), np.maximum(word - 1, 0)], 0)
            bit = select_bit(legal.wish[rows, word], j - before)
            actions[rows] = legal.wish_offset[rows] + word * 64 + bit
        result: IntArray = np.where(counts > 0, actions, -1)
        return result

    # -- stepping ------------------------------------------------------------------------------
    def _move(
        self, a: IntArray, phase: IntArray, everyone: bool, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> NDArray[np.int32]:
        legal = self.legal_bits()
        if self.check:
            j = (a - legal.offset).astype(np.uint64)  # negative: huge, so one bound check
            ok = (j < U64(64)) & (((legal.bits >> (j & U64(63))) & U64(1)) != 0)
            w = a - legal.wish_offset
            inside = (w >= 0) & (w < 64 * WISH_WORDS)
            wc = np.clip(w, 0, 64 * WISH_WORDS - 1)
            ok |= inside & (((legal.wish[self._games, wc >> 6] >> (wc & 63).astype(np.uint64)) & U64(1)) != 0)
            ok |= phase == OVER
            if not ok.all():
                self._refuse(a, ok)
        self._legal = None
        play_rows = np.flatnonzero(phase == PLAY)
        bid_rows = np.flatnonzero(phase == BID)
        redeclare_rows = np.flatnonzero(phase == REDECLARE)
        if play_rows.size:
            self._play(play_rows, a[play_rows], rewards, terminal)
        if bid_rows.size:
            self._bid(bid_rows, a[bid_rows] - BID_BASE)
        if redeclare_rows.size:
            self._redeclare(redeclare_rows, a[redeclare_rows] - REDECLARE_BASE, rewards, terminal)
        return self.scores.copy()

    def _refuse(self, a: IntArray, ok: BoolArray) -> None:
        bad = np.flatnonzero(~ok)
        g = int(bad[0])
        legal = self._legal_texts(g)
        if len(legal) > 12:  # up to 201 Wish values
            legal = [*legal[:10], f"... ({len(legal)} in all)"]
        raise self._refusal(bad.size, g, self._action_text(int(a[g])), legal)

    def _bid(self, g: IntArray, bid: IntArray) -> None:
        n = self.players
        seat = self.current_player[g]
        self.bids[g, seat] = bid
        self.bid_sum[g] += bid
        self._bid_bits[g] |= U64(1) << bid.astype(np.uint64)
        last = seat == self.dealer[g]
        self.phase[g[last]] = PLAY
        self.current_player[g] = np.where(last, self.leader[g], (seat + 1) % n)

    def _set_value_bit(self, g: IntArray, value: IntArray) -> None:
        index = value + VALUE_OFFSET
        flat = self._trick_values.reshape(-1)
        at = g * WISH_WORDS + (index >> 6)
        flat[at] |= U64(1) << (index & 63).astype(np.uint64)

    def _play(self, g: IntArray, a: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        n, H = self.players, self.hand_size
        seat = self.current_player[g]
        kind = self._action_kind[a]
        value = self._action_value[a]
        # Flat indices: one gather/scatter each instead of 2-D and 3-D fancy indexing.
        at = g * n + seat
        hands = self.hands.reshape(-1)
        hand = hands[at]
        gone = self._action_slot[a]
        twin = kind == C.TWIN
        if twin.any():
            # A Twin leaves the higher of the Twin slots held (a single Twin is in slot 34).
            gone = np.where(twin, np.where((hand & _TWIN2) != 0, _TWIN2, _TWIN1), gone)
            first_twin = twin & (self.twin_declared[g] < 0)
            self.twin_declared[g[first_twin]] = value[first_twin]
        hands[at] = hand & ~gone
        row = self.tricks_done[g]
        cell = (g * (H + 1) + row) * n
        self.card_kind.reshape(-1)[cell + seat] = kind
        self.card_value.reshape(-1)[cell + seat] = value
        self._set_value_bit(g, value)
        self.last_actor[g] = seat
        self.trick_size[g] += 1
        wish = self.wish_seat[g]
        is_wish = kind == C.WISH
        if is_wish.any():
            self.wish_seat[g[is_wish]] = seat[is_wish]
        # A card with the value of the Wish already in the trick: its owner declares again.
        collide = (wish >= 0) & ~is_wish
        if collide.any():
            wish_value = self.card_value.reshape(-1)[cell + np.maximum(wish, 0)]
            collide &= wish_value == value
            if not self._collide_any:
                collide &= row == H - 1
            if collide.any():
                rows = g[collide]
                self.phase[rows] = REDECLARE
                self.current_player[rows] = wish[collide]
                g = g[~collide]
        self._after_card(g, rewards, terminal)

    def _redeclare(
        self, g: IntArray, value: IntArray, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> None:
        row = self.tricks_done[g]
        self.card_value[g, row, self.wish_seat[g]] = value
        self._trick_values[g] = self._values_of(g)
        self.phase[g] = PLAY
        self._after_card(g, rewards, terminal)

    def _after_card(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        full = self.trick_size[g] == self.players
        going = g[~full]
        self.current_player[going] = (self.last_actor[going] + 1) % self.players
        if full.any():
            self._end_tricks(g[full], rewards, terminal)

    def _end_tricks(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        n, H = self.players, self.hand_size
        row = self.tricks_done[g]
        cell = (g * (H + 1) + row) * n
        leader = self.leader[g]
        by_position = cell[:, None] + (leader[:, None] + np.arange(n)[None, :]) % n
        # The highest value, the earlier card (in play order from the leader) on a tie.
        winner = (leader + np.argmax(self.card_value.reshape(-1)[by_position], axis=1)) % n
        if self._wish_rule != "never":
            wish = self.wish_seat[g]
            both = wish >= 0
            if self._wish_rule == "last_trick":
                both &= row == H - 1
            if both.any():
                twins = (self.card_kind.reshape(-1)[by_position] == C.TWIN).sum(axis=1)
                winner = np.where(both & (twins == 2), wish, winner)
        self.trick_winner[g, row] = winner
        self.tricks_won[g, winner] += 1
        self.leader[g] = winner
        self.current_player[g] = winner
        self.tricks_done[g] = row + 1
        self.trick_size[g] = 0
        self.wish_seat[g] = -1
        self.twin_declared[g] = -1
        if self._hand_scope:
            self._hand_values[g] |= self._trick_values[g]
        self._trick_values[g] = 0
        scored = g[row + 1 == H]
        if scored.size:
            self._score(scored, rewards, terminal)

    def _score(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        old = self.scores[g]
        new = old - np.abs(self.bids[g] - self.tricks_won[g]).astype(np.int32)
        if self._clamp:
            new = np.maximum(new, 0)
        self.scores[g] = new
        rewards[g] = new - old
        last = (new <= 0).any(axis=1)
        if self.game.last_round is not None:  # the rounds option caps the match
            last |= self.round[g] == self.game.last_round
        self._end_rounds(g, last, terminal)

    # -- reading one match -----------------------------------------------------------------------
    def hand_kinds(self, game: int, seat: int) -> list[int]:
        """Seat's cards in match ``game`` as the engine lists them (ascending kinds, the Twins twice if both held)."""
        return C.cards_in(int(self.hands[game, seat]))

    def trick(self, game: int) -> list[tuple[int, int, int]]:
        """The trick in progress of match ``game`` in play order: (seat, card kind, value)."""
        row = int(self.tricks_done[game])
        if row >= self.hand_size:
            return []
        out = []
        for p in range(self.players):
            seat = (int(self.leader[game]) + p) % self.players
            kind = int(self.card_kind[game, row, seat])
            if kind >= 0:
                out.append((seat, kind, int(self.card_value[game, row, seat])))
        return out
