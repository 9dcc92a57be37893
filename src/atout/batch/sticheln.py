"""Sticheln, many matches at once, as numpy arrays: the engine's rules, the engine's deals.

Why, and how exactness is kept: as :mod:`.wizard` — the engine's
representation (hands are bitmasks of the configuration's card kinds, split
over two uint64 words since the big decks have up to 114 cards), the engine's
action ids (cards ``0..size-1``, handicap cards from ``pain_base``), its
incremental trick winner (:func:`atout.games.sticheln.game.trick_winner_index`
read card by card) and its scoring (``StichelnGame.hand_score``).  Hand ``h``
of a match seeded ``s`` is dealt from ``seeded_rng(s, "hand", h)`` exactly as
``StichelnState._seeded_outcome`` deals it.  Every option is supported
(``hands``, ``first_dealer``, ``first_lead``, ``zero_lead_colour``,
``all_zero_trick``, ``gentle``, ``two_pain_colours``, ``pain_card_only``;
``hidden_pain`` changes only what views show).

Tensors: :mod:`.sticheln_tensor`; the heuristic policy: :mod:`.sticheln_heuristic`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core.game import State
from ..games.sticheln.game import OVER, PAIN, PLAY, StichelnGame, StichelnState
from . import common
from .base import MatchArray
from .bits import U64, popcount, select_bit, unpack
from .common import in_chunks, shuffles_and_first_dealers
from .families import WholeMatchDeals

__all__ = ["Deals", "StichelnBatch", "deal"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]
Words = NDArray[np.uint64]  # (..., 2): a mask of up to 128 card kinds


class Deals(NamedTuple):
    """Every hand of some matches, dealt from their seeds."""

    first_dealer: IntArray  # (G,)
    hands: Words  # (G, hands, n, 2) by absolute seat


def _words(kinds: NDArray[np.integer[Any]]) -> Words:
    """(..., 2) masks of single card kinds (any shape)."""
    k = kinds.astype(np.int64)
    out = np.zeros((*k.shape, 2), dtype=np.uint64)
    out[..., 0] = np.where(k < 64, U64(1) << np.clip(k, 0, 63).astype(np.uint64), U64(0))
    out[..., 1] = np.where(k >= 64, U64(1) << np.clip(k - 64, 0, 63).astype(np.uint64), U64(0))
    return out


def _split(mask: int) -> tuple[int, int]:
    """An engine card mask (up to 128 kinds) as the batch's two words."""
    return mask & 0xFFFF_FFFF_FFFF_FFFF, mask >> 64


def deal(seeds: Sequence[int], game: StichelnGame) -> Deals:
    """The hands of every hand of the matches ``seeds`` (the engine's deals).

    Hand ``h`` shuffles the deck's kinds with ``seeded_rng(seed, "hand", h)``;
    deal order seat ``i`` (from the dealer's left) receives
    ``cards[i*size .. i*size+size-1]`` (the engine deals them sorted: the same set).
    """
    per_chunk = max(1, common.DEAL_ROWS // (game.num_hands - game.start_round + 2))
    return Deals(*in_chunks(seeds, per_chunk, lambda part: _deal(part, game)))


def _deal(seeds: Sequence[int], game: StichelnGame) -> Deals:
    n, hands_per_match, deck, start = game.players, game.num_hands, game.deck, game.start_round
    count, size = len(seeds), deck.hand_size
    # Hands before the configuration's start_round are never played: not dealt (their rows stay empty).
    dealt_hands = hands_per_match - start + 1
    texts = [b"%d:hand:%d" % (s, h) for s in seeds for h in range(start, hands_per_match + 1)]
    decks, first = shuffles_and_first_dealers(texts, seeds, deck.size, game)
    hands = np.zeros((count, hands_per_match, n, 2), dtype=np.uint64)
    games = np.arange(count)
    for h in range(start, hands_per_match + 1):
        cards = decks[: n * size, h - start :: dealt_hands].reshape(n, size, count)
        dealt = np.bitwise_or.reduce(_words(cards), axis=1)  # (n, count, 2), deal order
        for i in range(n):
            hands[games, h - 1, (first + h + i) % n] = dealt[i]
    return Deals(first, hands)


@functools.cache
def _byte_values(value_of: tuple[int, ...]) -> NDArray[np.intp]:
    """The value of the cards of a mask, byte by byte: ``[byte index, byte]`` (``value_of``: each card's value).

    Cached (read-only): 4,096 sums in Python cost 16 ms, at every batch built (the vector env's
    subsets of rows, the batch search's playouts build many).
    """
    table = np.zeros((16, 256), dtype=np.intp)
    for b in range(16):
        for v in range(256):
            table[b, v] = sum(
                value_of[8 * b + j] for j in range(8) if v >> j & 1 and 8 * b + j < len(value_of)
            )
    table.flags.writeable = False
    return table


class StichelnBatch(WholeMatchDeals[StichelnGame, Deals]):
    """``N`` Sticheln matches of one configuration, stepped together (see :class:`.WizardBatch`).

    Public state, one entry per match: ``phase`` (engine ids: PAIN 2, PLAY 3,
    OVER 4), ``round`` (the hand number), ``dealer``, ``current_player``
    (``TERMINAL`` = -4 once over), ``leader``, ``tricks_done``, and per seat
    ``hands`` / ``captured`` ((N, n, 2) two-word masks; :meth:`hand_mask`
    gives one as an int), ``pains`` ((N, n, 2) the handicap cards laid, -1
    none), ``scores``; ``trick_cards`` (N, n) the card each seat played in the
    trick in progress (-1 none), ``played`` (N, tricks, n) and
    ``trick_winners`` (N, tricks) the hand's finished tricks (rows below
    ``tricks_done``; winner -1 for a void trick); ``taken_counts`` and
    ``taken_values`` (N, n, colours): the captured cards per colour, counted
    and summed (what the tensors and the heuristic read, kept as tricks end).
    """

    _over = OVER
    _round_word = "hand"

    leader = MatchArray(np.intp)
    pain_turns = MatchArray(np.intp, round_start=0)
    tricks_done = MatchArray(np.intp, round_start=0)
    #: The trick in progress (:meth:`_clear_tricks` opens each): its cards so far, lead colour (-1 none
    #: yet), best seat (-1 none: zeros only), its value and trump flag, its cards' mask, each seat's card.
    trick_size = MatchArray(np.intp)
    lead = MatchArray(np.intp)
    best_seat = MatchArray(np.intp)
    best_value = MatchArray(np.intp)
    best_trump = MatchArray(np.bool_)
    trick_mask = MatchArray(np.uint64, 2)
    trick_cards = MatchArray(np.intp, "players", fill=-1)
    hands = MatchArray(np.uint64, "players", 2)
    captured = MatchArray(np.uint64, "players", 2, round_start=0)
    pains = MatchArray(np.intp, "players", 2, round_start=-1)
    played = MatchArray(np.intp, "_tricks_per_hand", "players", fill=-1)
    trick_winners = MatchArray(np.intp, "_tricks_per_hand", fill=-1)
    taken_counts = MatchArray(np.intp, "players", "_colour_count", round_start=0)
    taken_values = MatchArray(np.intp, "players", "_colour_count", round_start=0)
    _deal_hands = MatchArray(np.uint64, "_hands_per_match", "players", 2)

    def _init_state(self) -> None:
        game = self.game
        deck = game.deck
        # The sizes the state arrays' axes name.
        self._tricks_per_hand = game.tricks_per_hand
        self._hands_per_match = game.num_hands
        self._colour_count = deck.colours
        self._colour = np.array(deck.colour_of, dtype=np.intp)
        self._value = np.array(deck.value_of, dtype=np.intp)
        colour_masks = np.zeros((deck.colours + 1, 2), dtype=np.uint64)  # last row: no colour
        for c, mask in enumerate(deck.colour_mask):
            colour_masks[c] = (mask & (2**64 - 1), mask >> 64)
        self._colour_mask = colour_masks
        self._byte_values = _byte_values(tuple(deck.value_of))
        self._pain_count = game.pain_count
        self._lead_dealer = game.options["first_lead"] == "dealer"
        self._leader_takes = game.options["all_zero_trick"] == "leader_takes"
        self._colours = np.arange(deck.colours, dtype=np.intp)
        self._legal: tuple[Words, IntArray] | None = None

    def _deal(self, seeds: Sequence[int]) -> Deals:
        return deal(seeds, self.game)

    def _last_start(self) -> int:
        return int(self.game.num_hands)

    # -- match and hand starts --------------------------------------------------------
    def _keep_deals(self, g: IntArray, deals: Deals, hands: Words) -> None:
        self._deal_hands[g] = hands

    def _start_round(self, g: IntArray) -> None:
        n = self.players
        dealer = self.dealer[g]
        self.hands[g] = self._deal_hands[g, self.round[g] - 1]
        self.leader[g] = dealer if self._lead_dealer else (dealer + 1) % n
        self.phase[g] = PAIN
        self.current_player[g] = (dealer + 1) % n
        self._clear_tricks(g)

    def _clear_tricks(self, g: IntArray) -> None:
        self.trick_size[g] = 0
        self.lead[g] = -1
        self.best_seat[g] = -1
        self.best_value[g] = 0
        self.best_trump[g] = False
        self.trick_mask[g] = 0
        self.trick_cards[g] = -1

    # -- loading engine states -------------------------------------------------------
    def _load(self, states: Sequence[State]) -> None:
        """Each match from its :class:`StichelnState` (see :meth:`.BatchBase.from_states`).

        The trick in progress is read card by card through the batch's own
        winner rule (its lead colour, best seat and value, trump flag); the
        captured cards' counts and values per colour are summed from the
        masks.  A match with a seed gets every hand's deal from it, its seats
        turned to the state's dealer (as for Wizard: :func:`.common.turn_seats`).
        """
        game = self.game
        deck = game.deck
        colour_of, value_of = deck.colour_of, deck.value_of
        self._load_fields(states, ("phase", "round", "dealer", "current_player", "leader", "pain_turns"))
        for g, state in enumerate(cast(Sequence[StichelnState], states)):
            self.tricks_done[g] = len(state.tricks)
            self.scores[g] = state.scores_
            for seat in range(self.players):
                self.hands[g, seat] = _split(state.hands[seat])
                self.captured[g, seat] = _split(state.captured[seat])
                for j, kind in enumerate(state.pains[seat]):
                    self.pains[g, seat, j] = kind
                for kind in deck.kinds_in(state.captured[seat]):
                    self.taken_counts[g, seat, colour_of[kind]] += 1
                    self.taken_values[g, seat, colour_of[kind]] += value_of[kind]
            for t, (seats, kinds, winner) in enumerate(state.tricks):
                self.played[g, t, list(seats)] = kinds
                self.trick_winners[g, t] = winner
            # The trick so far, as _play reads it card by card.
            lead, best_seat, best_value, best_trump, mask = -1, -1, 0, False, 0
            for i, (seat, kind) in enumerate(zip(state.trick_seats, state.trick, strict=True)):
                colour, value = colour_of[kind], value_of[kind]
                if (i == 0) if game.zero_sets_lead else (lead == -1 and value > 0):
                    lead = colour
                trump = colour != lead
                take_trump = value > 0 and trump and (not best_trump or value > best_value)
                if take_trump or (value > 0 and not trump and not best_trump and value > best_value):
                    best_seat, best_value = seat, value
                best_trump |= take_trump
                mask |= 1 << kind
                self.trick_cards[g, seat] = kind
            self.trick_size[g] = len(state.trick)
            self.lead[g], self.best_seat[g], self.best_value[g] = lead, best_seat, best_value
            self.best_trump[g] = best_trump
            self.trick_mask[g] = _split(mask)
        self._deal_loaded()

    # -- legal actions -------------------------------------------------------------------
    def legal_bits(self) -> tuple[Words, IntArray]:
        """The legal actions, compactly: ((N, 2) bits, offset); ``offset + j`` is legal iff bit ``j`` is set.

        Bit ``j`` of the two words is bit ``j % 64`` of word ``j // 64``.
        """
        if self._legal is not None:
            return self._legal
        phase = self.phase
        seat = np.where(self.current_player >= 0, self.current_player, 0)
        hand = self.hands[self._games, seat]  # (N, 2)
        bits = np.where((phase == PLAY)[:, None], hand, U64(0))
        offset = np.zeros(self.num_games, dtype=np.intp)
        pain = phase == PAIN
        if pain.any():
            choices = hand.copy()
            if self._pain_count == 2:  # méchant: the second card of another colour, if the hand allows
                first = self.pains[self._games, seat, 0]
                colour = np.where(first >= 0, self._colour[np.maximum(first, 0)], len(self._colour_mask) - 1)
                other = hand & ~self._colour_mask[colour]
                use = (first >= 0) & (other != 0).any(axis=1)
                choices = np.where(use[:, None], other, hand)
            bits = np.where(pain[:, None], choices, bits)
            offset[pain] = self.game.pain_base
        self._legal = (bits, offset)
        return self._legal

    def legal_mask(self) -> BoolArray:
        """(N, num_actions) booleans: the engine's ``legal_actions()`` of each match, as a mask."""
        bits, offset = self.legal_bits()
        local = np.concatenate([unpack(bits[:, 0], 64), unpack(bits[:, 1], 64)], axis=1)
        mask = np.zeros((self.num_games, self.num_actions), dtype=bool)
        size = self.game.deck.size
        for base in np.unique(offset).tolist():
            rows = offset == base
            mask[rows, base : base + size] = local[rows, :size]
        return mask

    def legal_counts(self) -> IntArray:
        bits, _ = self.legal_bits()
        result: IntArray = popcount(bits[:, 0]) + popcount(bits[:, 1])
        return result

    def hand_mask(self, game: int, seat: int) -> int:
        """Seat's hand in match ``game`` as the engine's integer mask."""
        lo, hi = self.hands[game, seat].tolist()
        return int(lo) | int(hi) << 64

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """A uniformly random legal action per match (-1 for a finished match)."""
        bits, offset = self.legal_bits()
        low = popcount(bits[:, 0])
        counts = low + popcount(bits[:, 1])
        k = (rng.random(self.num_games) * counts).astype(np.intp)
        in_low = k < low
        word = np.where(in_low, bits[:, 0], bits[:, 1])
        index = np.where(in_low, 0, 64) + select_bit(word, np.where(in_low, k, k - low))
        result: IntArray = np.where(counts > 0, offset + index, -1)
        return result

    # -- stepping ------------------------------------------------------------------------------
    def _move(
        self, a: IntArray, phase: IntArray, everyone: bool, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> NDArray[np.int32]:
        bits, offset = self.legal_bits()
        over = phase == OVER
        if self.check:
            j = a - offset
            inside = (j >= 0) & (j < 128)
            jj = np.clip(j, 0, 127)
            word = bits[self._games, jj >> 6]
            ok = over | (inside & (((word >> (jj & 63).astype(np.uint64)) & U64(1)) != 0))
            if not ok.all():
                g = int(np.flatnonzero(~ok)[0])
                raise self._refusal(int((~ok).sum()), g, f"action {int(a[g])}", self._legal_texts(g))
        self._legal = None
        play_rows = np.flatnonzero(phase == PLAY)
        pain_rows = np.flatnonzero(phase == PAIN)
        if play_rows.size:
            self._play(play_rows, a[play_rows], rewards, terminal)
        if pain_rows.size:
            self._lay_pain(pain_rows, a[pain_rows] - self.game.pain_base)
        return self.scores.copy()

    def _lay_pain(self, g: IntArray, kind: IntArray) -> None:
        n, per_seat = self.players, self._pain_count
        seat = self.current_player[g]
        self.hands[g, seat] ^= _words(kind)
        turns = self.pain_turns[g]
        self.pains[g, seat, turns % per_seat] = kind
        turns = turns + 1
        self.pain_turns[g] = turns
        done = turns == per_seat * n
        self.phase[g[done]] = PLAY
        self.current_player[g] = np.where(done, self.leader[g], (self.dealer[g] + 1 + turns // per_seat) % n)

    def _play(self, g: IntArray, kind: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        n = self.players
        seat = self.current_player[g]
        bit = _words(kind)
        self.hands[g, seat] ^= bit
        self.trick_mask[g] |= bit
        self.trick_cards[g, seat] = kind
        # trick_winner_index, one card at a time: zeros never win; a colour other than
        # the lead colour is trump; the first of equal trumps stays.
        colour, value = self._colour[kind], self._value[kind]
        lead = self.lead[g]
        if self.game.zero_sets_lead:
            lead = np.where(self.trick_size[g] == 0, colour, lead)
        else:
            lead = np.where((lead == -1) & (value > 0), colour, lead)
        self.lead[g] = lead
        best_value, best_trump = self.best_value[g], self.best_trump[g]
        nonzero = value > 0
        trump = colour != lead
        take_trump = nonzero & trump & (~best_trump | (value > best_value))
        take_lead = nonzero & ~trump & ~best_trump & (value > best_value)
        take = take_trump | take_lead
        self.best_seat[g] = np.where(take, seat, self.best_seat[g])
        self.best_value[g] = np.where(take, value, best_value)
        self.best_trump[g] = best_trump | take_trump
        size = self.trick_size[g] + 1
        self.trick_size[g] = size
        self.current_player[g] = (seat + 1) % n
        ended = g[size == n]
        if ended.size:
            self._end_tricks(ended, rewards, terminal)

    def _end_tricks(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        winner = self.best_seat[g]
        if self._leader_takes:  # a trick of zeros only goes to its leader
            winner = np.where(winner < 0, self.leader[g], winner)
        won = winner >= 0  # otherwise void: the cards leave play, the same seat leads again
        done = self.tricks_done[g]
        self.played[g, done] = self.trick_cards[g]
        self.trick_winners[g, done] = winner
        w = g[won]
        self.captured[w, winner[won]] |= self.trick_mask[w]
        cards = self.trick_cards[w]  # (S, n): every seat played
        in_colour = self._colour[cards][:, :, None] == self._colours  # (S, n, colours)
        self.taken_counts[w, winner[won]] += in_colour.sum(axis=1)
        self.taken_values[w, winner[won]] += (in_colour * self._value[cards][:, :, None]).sum(axis=1)
        self.leader[w] = winner[won]
        self.current_player[g] = self.leader[g]
        self._clear_tricks(g)
        self.tricks_done[g] += 1
        scored = g[self.tricks_done[g] == self.game.tricks_per_hand]
        if scored.size:
            self._score(scored, rewards, terminal)

    def hand_points(self, pains: IntArray, captured: Words) -> IntArray:
        """``StichelnGame.hand_score`` elementwise: ``pains`` (..., 2) kinds laid (-1 none), ``captured`` (..., 2) words."""
        options = self.game.options
        laid = pains >= 0
        kinds = np.maximum(pains, 0)
        colour = np.where(laid, self._colour[kinds], len(self._colour_mask) - 1)
        pain_mask = self._colour_mask[colour[..., 0]] | self._colour_mask[colour[..., 1]]  # (..., 2)
        cost = np.where(laid, 1 if options["gentle"] else self._value[kinds], 0).sum(axis=-1)
        if options["pain_card_only"]:
            result: IntArray = popcount(captured).sum(axis=-1) - cost
            return result
        good = popcount(captured & ~pain_mask).sum(axis=-1)
        bad = captured & pain_mask
        if options["gentle"]:
            loss = popcount(bad).sum(axis=-1)
        else:
            as_bytes = np.ascontiguousarray(bad).view(np.uint8).reshape(*bad.shape[:-1], 16)
            loss = self._byte_values[np.arange(16), as_bytes.astype(np.intp)].sum(axis=-1)
        result = good - cost - loss
        return result

    def _score(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        """``StichelnGame.hand_score`` for every seat of the matches ``g``."""
        delta = self.hand_points(self.pains[g], self.captured[g]).astype(np.int32)
        self.scores[g] += delta
        rewards[g] = delta
        self._end_rounds(g, self.round[g] == self.game.num_hands, terminal)
