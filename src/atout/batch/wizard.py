"""Wizard, many matches at once, as numpy arrays: the engine's rules, the engine's deals.

Why: a single-state Python engine plays a random 4-player match at a fifth of
the decisions per second of OpenSpiel's C++ loop; training needs millions of
matches.  Here every array has one entry per match (``(N,)``) or per match
and seat (``(N, n)``), and one :meth:`WizardBatch.step` moves every match by
one decision, whatever phase each is in (trump choice, bidding, play).

Exactness, by construction and by test (tests/batch):

* **the same rules**: the engine's own representation — hands are slot
  bitmasks in its layout (:mod:`atout.games.wizard.cards`), the trick winner its incremental
  rule, the action ids its layout (cards 0..53, bids from ``bid_base``, trumps
  from ``trump_base``, ``blind_action`` with clairvoyance).  Every option is
  supported: ``plus_minus_one``, ``bids`` (rules unchanged; only the tensors
  hide bids), ``clairvoyance``, ``first_dealer`` (fixed or drawn from the
  seed), ``rounds``;
* **the same deals**: a match seeded ``s`` deals round ``r`` from
  ``seeded_rng(s, "round", r)`` exactly as :meth:`WizardState._seeded_order`
  does (the first dealer from ``seeded_rng(s, "first-dealer")``), through
  :mod:`.pyrandom`, a column-wise copy of CPython's generator.  Chance is
  resolved by the batch itself, like a seeded engine state: every state the
  caller sees is a decision (or the end of the match).

A match's deals depend on its seed only, so all of a match's rounds are dealt
when it starts (one vectorised pass over every (match, round)), and auto-reset
draws its next seeds ahead, in chunks, for the same reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, cast

import numpy as np
from numpy.typing import NDArray

from ..core.game import State
from ..games.wizard import cards as C
from ..games.wizard.game import BID, OVER, PLAY, TRUMP, WizardGame, WizardState
from . import common
from .base import MatchArray
from .bits import U64, lowest_bit, popcount, select_bit, trailing_zeros, unpack
from .common import IllegalActions, Step, in_chunks, shuffles_and_first_dealers
from .families import BiddingTricks, WholeMatchDeals

__all__ = ["Deals", "IllegalActions", "Step", "WizardBatch", "deal"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

WIZ, JES = C.WIZARD, C.JESTER
_LOW52 = U64((1 << 52) - 1)
_WIZ_MASK = U64(C.WIZARD_MASK)
_JES_MASK = U64(C.JESTER_MASK)
_SPECIAL = U64(C.SPECIAL_MASK)
#: Suit mask indexed by ``led`` itself: 0..3 a suit; -1 (nothing led yet) and -2 (a Wizard
#: led) read the zeros at the end.
_LED_MASK = np.array([*C.SUIT_MASK, 0, 0], dtype=np.uint64)
#: Slots of each card kind (index 54: nothing, for non-card actions).
_KIND_SLOTS = np.array([C.slots_of_kind(k) for k in range(C.NUM_KINDS)] + [0], dtype=np.uint64)
#: Card kind of each slot (index 64: none).
_SLOT_KIND = np.array([C.kind_of_slot(s) for s in range(C.NUM_SLOTS)] + [-1] * 5, dtype=np.intp)
#: Kind bits 52 (any Wizard) and 53 (any Jester) from a hand's top byte (slots 52..59).
_SPECIAL_KINDS = np.array(
    [(int(b & 15 != 0) << WIZ) | (int(b >> 4 != 0) << JES) for b in range(256)], dtype=np.uint64
)
#: What a card sets ``led`` to when nothing is led yet (index 54: no card).
_LED_OF_KIND = np.array([k // C.RANKS for k in range(WIZ)] + [-2, -1, -1], dtype=np.intp)
_KINDS = C.NUM_KINDS + 1  # card kinds plus "no card"


def _beats_table() -> NDArray[np.bool_]:
    """``[trump + 1, win + 1, kind]``: whether ``kind`` takes a trick ``win`` is winning (win -1: empty trick).

    The engine's incremental rule (``WizardState._play``) for every case, so
    the hot loop does one lookup instead of a dozen comparisons.
    """
    table = np.zeros((5, _KINDS, _KINDS), dtype=bool)
    for trump in range(-1, 4):
        for win in range(-1, C.NUM_KINDS):
            for kind in range(C.NUM_KINDS):
                if win == -1:
                    take = True
                elif win == WIZ or kind == JES:
                    take = False
                elif kind == WIZ or win == JES:
                    take = True
                else:
                    suit, wsuit = kind // C.RANKS, win // C.RANKS
                    take = (suit == wsuit and kind > win) or (suit == trump and wsuit != suit)
                table[trump + 1, win + 1, kind] = take
    return table.reshape(-1)


_BEATS = _beats_table()

#: The arrays :meth:`WizardBatch._load` fills from the engine's fields, in the order it reads them.
_LOADED = (
    "phase", "round", "dealer", "current_player", "leader", "trick_size", "tricks_done", "bid_sum",
    "trump", "turned", "led", "win_seat", "win_kind", "hands", "bids", "tricks_won", "scores",
)  # fmt: skip


class Deals(NamedTuple):
    """Every round of some matches, dealt from their seeds."""

    first_dealer: IntArray  # (G,)
    hands: NDArray[np.uint64]  # (G, rounds, n) slot masks by absolute seat
    turned: IntArray  # (G, rounds) turned-up kind, -1 when every card is dealt


def deal(seeds: Sequence[int], game: WizardGame) -> Deals:
    """The hands and turned cards of every round of the matches ``seeds`` (the engine's deals).

    Round ``r`` shuffles slots 0..59 with ``seeded_rng(seed, "round", r)``; deal
    order seat ``i`` (from the dealer's left) receives slots ``i*r .. i*r+r-1``
    and slot ``r*n`` is turned up.  The engine hands out a seat's cards sorted
    by kind, each Wizard/Jester to its lowest free slot: the same multiset of
    kinds, which is all the rules read (Wizards and Jesters are interchangeable).
    """
    per_chunk = max(1, common.DEAL_ROWS // (game.num_rounds - game.start_round + 2))
    return Deals(*in_chunks(seeds, per_chunk, lambda part: _deal(part, game)))


def _deal(seeds: Sequence[int], game: WizardGame) -> Deals:
    n, rounds, start = game.players, game.num_rounds, game.start_round
    count = len(seeds)
    # The engine's seeded_rng(seed, "round", r) seeds with the text f"{seed}:round:{r}".
    # Rounds before the configuration's start_round are never played: not dealt (their rows stay empty).
    dealt_rounds = rounds - start + 1
    texts = [b"%d:round:%d" % (s, r) for s in seeds for r in range(start, rounds + 1)]
    decks, first = shuffles_and_first_dealers(texts, seeds, C.NUM_SLOTS, game)
    hands = np.zeros((count, rounds, n), dtype=np.uint64)
    turned = np.full((count, rounds), -1, dtype=np.intp)
    games = np.arange(count)
    for r in range(start, rounds + 1):
        deck = decks[:, r - start :: dealt_rounds]  # (60, count)
        slots = deck[: r * n].astype(np.uint64).reshape(n, r, count)
        dealt = np.bitwise_or.reduce(U64(1) << slots, axis=1)  # (n, count), deal order
        for i in range(n):
            hands[games, r - 1, (first + r + i) % n] = dealt[i]
        if r * n < C.NUM_SLOTS:
            turned[:, r - 1] = _SLOT_KIND[deck[r * n].astype(np.intp)]
    return Deals(first, hands, turned)


class WizardBatch(BiddingTricks, WholeMatchDeals[WizardGame, Deals]):
    """``N`` Wizard matches of one configuration, stepped together.

    ``WizardBatch(4, seeds=range(10_000))`` deals match ``i`` exactly as
    ``WizardGame(4).new_state(seed=seeds[i])``.  Options are the engine's
    (validated by :class:`WizardGame`).  With ``auto_reset``, a match that ends
    restarts at once from the next seed of ``reset_seeds`` (default: counting
    up from ``max(seeds) + 1``); :meth:`step` reports its end and final scores.

    Public state, one entry per match (read-only by convention): ``phase``
    (the engine's phase ids: TRUMP 3, BID 4, PLAY 5, OVER 6), ``round``,
    ``dealer``, ``current_player`` (``TERMINAL`` = -4 once over), ``trump``
    (-1 none), ``turned`` (-1 none), ``leader``, ``led``, and per seat
    ``hands`` (slot bitmasks in the engine's layout: the same cards, though
    which of the four Wizard or Jester slots holds a copy may differ — the
    rules never tell them apart), ``bids`` (-1 not yet), ``tricks_won``,
    ``scores``; ``played`` (N, rounds + 1, n): the card kind each seat played
    in each trick of the round (-1: none; the extra row is scratch).
    """

    _over = OVER
    _playout_module = "atout.batch.wizard_playout"  # the engine's WizardGame.playout_model, vectorised

    trump = MatchArray(np.intp)
    turned = MatchArray(np.intp)
    led = MatchArray(np.intp, round_start=-1)
    win_seat = MatchArray(np.intp, round_start=-1)
    win_kind = MatchArray(np.intp, round_start=-1)
    #: ``_BEATS`` index of (trump, no card yet): the trick winner's lookup, set with the trump.
    _beats_base = MatchArray(np.intp)
    played = MatchArray(np.int8, "_trick_rows", "players", fill=-1, round_start=-1)
    _deal_hands = MatchArray(np.uint64, "num_rounds", "players")
    _deal_turned = MatchArray(np.intp, "num_rounds")
    # Kept from the last legal_bits(): the acting seats, their hands and flat index.
    _seat = MatchArray(np.intp)
    _hand = MatchArray(np.uint64)
    _at = MatchArray(np.intp)

    def _init_state(self) -> None:
        game = self.game
        N, n = self.num_games, self.players
        self.num_rounds = game.num_rounds
        self.full_rounds = game.full_rounds
        self._trick_rows = self.full_rounds + 1  # ``played``: a row per trick, and a scratch row
        self._plus_minus_one = bool(game.options["plus_minus_one"])
        self._clairvoyance = game.blind_action >= 0
        self._hand_base = self._games * n  # flat index of seat 0's hand
        self._played_base = self._games * (self._trick_rows * n)
        self._next_seat = np.array([(s + 1) % n for s in range(n)], dtype=np.intp)
        self._zeros = np.zeros(N, dtype=np.intp)
        self._legal: tuple[NDArray[np.uint64], IntArray] | None = None
        self._all_play = False

    def _deal(self, seeds: Sequence[int]) -> Deals:
        return deal(seeds, self.game)

    def _last_start(self) -> int:
        return int(self.num_rounds)

    # -- match and round starts ------------------------------------------------------
    def _keep_deals(self, g: IntArray, deals: Deals, hands: NDArray[np.uint64]) -> None:
        self._deal_hands[g] = hands
        self._deal_turned[g] = deals.turned

    def _start_round(self, g: IntArray) -> None:
        n = self.players
        r = self.round[g]
        dealer = self.dealer[g]
        self.hands[g] = self._deal_hands[g, r - 1]
        turned = self._deal_turned[g, r - 1]
        self.turned[g] = turned
        wizard = turned == WIZ
        trump = np.where((turned < 0) | (turned >= WIZ), -1, turned // C.RANKS)
        self.trump[g] = trump
        self._beats_base[g] = (trump + 1) * (_KINDS * _KINDS) + _KINDS
        self.phase[g] = np.where(wizard, TRUMP, BID)
        left = (dealer + 1) % n
        self.current_player[g] = np.where(wizard, dealer, left)
        self.leader[g] = left

    # -- loading engine states -------------------------------------------------------
    def _load(self, states: Sequence[State]) -> None:
        """Each match from its :class:`WizardState` (see :meth:`.BatchBase.from_states`).

        The hands are the engine's slot masks as they are; ``played`` is rebuilt
        from the round's finished tricks and the trick in progress.  A match with
        a seed gets every round's deal from it, its seats turned so that the
        rounds to come are dealt as the engine deals them from the state's dealer
        (which the seed's first-dealer draw need not have named).
        """
        n = self.players
        rows: dict[str, list[Any]] = {name: [] for name in _LOADED}
        played = self.played
        for g, state in enumerate(cast(Sequence[WizardState], states)):
            bid_sum = sum(b for b in state.bids if b >= 0)
            values = (
                state.phase, state.round, state.dealer, state.current_player, state.leader,
                len(state.trick), len(state.tricks), bid_sum, state.trump, state.turned, state.led,
                state.win_seat, state.win_kind, state.hands, state.bids, state.tricks_won, state.scores_,
            )  # fmt: skip
            for name, value in zip(_LOADED, values, strict=True):
                rows[name].append(value)
            for t, (leader, kinds, _winner) in enumerate(state.tricks):
                for j, kind in enumerate(kinds):
                    played[g, t, (leader + j) % n] = kind
            for j, kind in enumerate(state.trick):
                played[g, len(state.tricks), (state.leader + j) % n] = kind
        for name, column in rows.items():
            getattr(self, name)[:] = np.array(column, dtype=getattr(self, name).dtype)
        self._beats_base[:] = (self.trump + 1) * (_KINDS * _KINDS) + _KINDS
        self._deal_loaded()

    # -- legal actions -------------------------------------------------------------------
    def legal_bits(self) -> tuple[NDArray[np.uint64], IntArray]:
        """The legal actions, compactly: (bits, offset); action ``offset + j`` is legal iff bit ``j`` is set.

        Every phase's legal actions lie within 64 consecutive ids (cards 0..53,
        bids ``bid_base + 0..round``, four trumps, or the blind play), so one
        uint64 per match holds them.  Finished matches have no bits.
        """
        if self._legal is not None:
            return self._legal
        N = self.num_games
        phase = self.phase
        in_phase = np.bincount(phase, minlength=OVER + 1)
        playing = int(in_phase[PLAY])
        self._all_play = playing == N
        seat = self.current_player if self._all_play else np.where(phase == PLAY, self.current_player, 0)
        at = self._hand_base + seat
        hand = self.hands.reshape(-1)[at]
        self._seat, self._hand, self._at = seat, hand, at
        same = hand & _LED_MASK[self.led]
        playable = np.where(same != 0, same | (hand & _SPECIAL), hand)
        cards = (playable & _LOW52) | _SPECIAL_KINDS[playable >> U64(52)]
        game = self.game
        if self._all_play:
            bits, offset = cards, self._zeros
        else:
            bits = np.where(phase == PLAY, cards, U64(0))
            offset = self._zeros.copy()
            if in_phase[BID]:
                r = self.round
                bids = (U64(2) << r.astype(np.uint64)) - U64(1)
                if self._plus_minus_one:
                    rest = r - self.bid_sum
                    forbidden = (self.current_player == self.dealer) & (rest >= 0) & (rest <= r)
                    bids &= ~(forbidden.astype(np.uint64) << np.clip(rest, 0, 63).astype(np.uint64))
                bidding = phase == BID
                bits = np.where(bidding, bids, bits)
                offset[bidding] = game.bid_base
            if in_phase[TRUMP]:
                choosing = phase == TRUMP
                bits[choosing] = 15
                offset[choosing] = game.trump_base
        if self._clairvoyance and playing:
            blind = (phase == PLAY) & (self.round == 1)
            if blind.any():
                bits = np.where(blind, U64(1), bits)
                offset = np.where(blind, game.blind_action, offset)
        self._legal = (bits, offset)
        return self._legal

    def legal_mask(self) -> BoolArray:
        """(N, num_actions) booleans: the engine's ``legal_actions()`` of each match, as a mask."""
        bits, offset = self.legal_bits()
        mask = np.zeros((self.num_games, self.num_actions), dtype=bool)
        local = unpack(bits, 64)
        for base in np.unique(offset).tolist():
            rows = offset == base
            width = min(64, self.num_actions - base)
            mask[rows, base : base + width] = local[rows, :width]
        return mask

    def legal_counts(self) -> IntArray:
        """Number of legal actions per match (0 once over)."""
        return popcount(self.legal_bits()[0])

    def forced_actions(self) -> IntArray:
        """Per match, its one legal action where it has exactly one (a forced move), else -1.

        Why: the vector env's learned opponents play these without their network (its greedy
        answer is the one legal action whatever the logits): from the legal bits, a few (N,) operations.
        """
        bits, offset = self.legal_bits()
        single = (bits != 0) & ((bits & (bits - U64(1))) == 0)
        result: IntArray = np.where(single, offset + trailing_zeros(bits), -1)
        return result

    # -- policies --------------------------------------------------------------------------
    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """A uniformly random legal action per match (-1 for a finished match)."""
        bits, offset = self.legal_bits()
        counts = popcount(bits)
        k = (rng.random(self.num_games) * counts).astype(np.intp)
        actions = offset + select_bit(bits, k)
        result: IntArray = np.where(counts > 0, actions, -1)
        return result

    # -- stepping ------------------------------------------------------------------------------
    def _move(
        self, a: IntArray, phase: IntArray, everyone: bool, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> NDArray[np.int32]:
        n = self.players
        bits, offset = self.legal_bits()
        over = phase == OVER
        all_play = self._all_play and everyone
        if self.check:
            j = (a - offset).astype(np.uint64)  # negative: huge, so one bound check
            ok = (j < U64(64)) & (((bits >> (j & U64(63))) & U64(1)) != 0)
            ok |= over
            if not ok.all():
                self._refuse(a, ok)
        self._legal = None
        if all_play:
            self._play(a, None, rewards, terminal)
        else:
            play = phase == PLAY
            bid_rows = np.flatnonzero(phase == BID)
            trump_rows = np.flatnonzero(phase == TRUMP)
            if play.any():
                self._play(a, play, rewards, terminal)
            if bid_rows.size:
                self._bid(bid_rows, a[bid_rows] - self.game.bid_base)
            if trump_rows.size:
                g = trump_rows
                trump = a[g] - self.game.trump_base
                self.trump[g] = trump
                self._beats_base[g] = (trump + 1) * (_KINDS * _KINDS) + _KINDS
                self.phase[g] = BID
                self.current_player[g] = (self.dealer[g] + 1) % n
        return self.scores.copy()

    def _refuse(self, a: IntArray, ok: BoolArray) -> None:
        bad = np.flatnonzero(~ok)
        g = int(bad[0])
        raise self._refusal(bad.size, g, self._action_text(int(a[g])), self._legal_texts(g))

    def _play(
        self, a: IntArray, play: BoolArray | None, rewards: NDArray[np.int32], terminal: BoolArray
    ) -> None:
        """Card plays of the matches in ``play`` (None: every match), from the legal_bits() just computed."""
        n = self.players
        seat, hand, at = self._seat, self._hand, self._at
        kind = a if play is None else np.where(play, a, C.NUM_KINDS)
        if self._clairvoyance:  # round 1: the blind action plays the one card held
            blind = self.round == 1 if play is None else play & (self.round == 1)
            kind = np.where(blind, _SLOT_KIND[np.minimum(trailing_zeros(hand), 64)], kind)
        held = hand & _KIND_SLOTS[kind]
        self.hands.reshape(-1)[at] = hand ^ lowest_bit(held)
        # The engine's incremental trick winner (WizardState._play), as one lookup.
        index = self.win_kind * _KINDS
        index += self._beats_base
        index += kind
        take = _BEATS[index]  # False for "no card": the others keep their winner
        np.copyto(self.win_seat, seat, where=take)
        np.copyto(self.win_kind, kind, where=take)
        led = self.led
        np.copyto(led, _LED_OF_KIND[kind], where=led == -1)
        row = self.tricks_done if play is None else np.where(play, self.tricks_done, self.full_rounds)
        spot = row * n
        spot += self._played_base
        spot += seat
        self.played.reshape(-1)[spot] = kind
        size = self.trick_size
        if play is None:
            size += 1
            self.current_player[:] = self._next_seat[seat]
        else:
            size += play
            np.copyto(self.current_player, self._next_seat[seat], where=play)
        ended = size == n
        if ended.any():
            self._end_tricks(np.flatnonzero(ended), rewards, terminal)

    def _end_tricks(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        n = self.players
        winner = self.win_seat[g]
        self.tricks_won.reshape(-1)[g * n + winner] += 1
        self.trick_size[g] = 0
        self.led[g] = -1
        self.win_seat[g] = -1
        self.win_kind[g] = -1
        self.leader[g] = winner
        self.current_player[g] = winner
        self.tricks_done[g] += 1
        scored = g[self.tricks_done[g] == self.round[g]]
        if scored.size:
            self._score(scored, rewards, terminal)

    def _score(self, g: IntArray, rewards: NDArray[np.int32], terminal: BoolArray) -> None:
        bids, won = self.bids[g], self.tricks_won[g]
        delta = np.where(bids == won, 20 + 10 * won, -10 * np.abs(bids - won)).astype(np.int32)
        self.scores[g] += delta
        rewards[g] = delta
        self._end_rounds(g, self.round[g] == self.num_rounds, terminal)

    def _bid(self, g: IntArray, bid: IntArray) -> None:
        n = self.players
        seat = self.current_player[g]
        self.bids.reshape(-1)[g * n + seat] = bid
        self.bid_sum[g] += bid
        last = seat == self.dealer[g]
        self.phase[g[last]] = PLAY
        self.current_player[g] = np.where(last, self.leader[g], (seat + 1) % n)

    # -- reading one match -----------------------------------------------------------------------
    def hand_kinds(self, game: int, seat: int) -> list[int]:
        """Seat's cards in match ``game`` as the engine lists them (sorted kinds, with multiplicity)."""
        return C.cards_in(int(self.hands[game, seat]))
