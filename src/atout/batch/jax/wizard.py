"""Wizard under JAX: one pure state record, pure step functions, ``jax.jit`` over ``jax.vmap`` (issue 49).

Why: the numpy batch (:mod:`atout.batch.wizard`) steps many matches at once on
the CPU, but every step goes through Python and numpy's dispatch, and it
cannot run on an accelerator nor inside an agent's jitted training loop.
Here a match is a :class:`WizardJaxState` (a NamedTuple of arrays: a pytree,
as in pgx) and :meth:`JaxWizard.step_one` a pure function of it and an
action; :attr:`JaxWizard.step` is that function vmapped over the matches and
jitted.  Under ``vmap`` every branch becomes a select, so each step computes
all three phases (trump choice, bid, card) and keeps the one each match is in.

What is identical to the numpy batch (tests/batch/test_jax_wizard.py plays
both from the same seeds with the same actions and compares every step):

* the deals: drawn on the host by the numpy batch's own :func:`atout.batch.wizard.deal`
  (CPython's generator, as the engine deals from a seed) and passed in as
  arrays — :meth:`JaxWizard.new_matches` does both; from there on everything
  runs in JAX;
* the action ids (cards 0..53, bids from ``bid_base``, trumps from
  ``trump_base``, the blind play of clairvoyance), the legal masks, the
  rewards (each round's score deltas, in the step that scores the round),
  the scores, the seat to act (``TERMINAL`` = -4 once over) and the end of
  the match; every option of the engine (``plus_minus_one``, ``bids``,
  ``clairvoyance``, ``first_dealer``, ``rounds``, ``start_round``).

What is left out: the tensors, the heuristic and model policies, auto-reset
and the refusal of illegal actions inside the jitted step (a jitted function
cannot raise: :meth:`JaxWizard.check` refuses them on the host, as the numpy
batch's ``check`` does; an unchecked illegal action leaves an undefined game).
A finished match ignores its actions, as in the numpy batch.

Hands are the numpy batch's 60-slot masks split into two 32-bit words
(``(players, 2)`` uint32; :func:`hand_counts` of the joined words reads them
as counts per kind): JAX computes in 32 bits unless ``jax_enable_x64`` is set
for the whole process.  Why not counts per kind: a step rewrites the whole
state, and 54 counts a seat were most of it (bench/jax_batch.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from numpy.typing import NDArray

from ...core.game import TERMINAL
from ...games.wizard import cards as C
from ...games.wizard.game import BID, OVER, PLAY, TRUMP, WizardGame
from ..common import IllegalActions
from ..wizard import deal

__all__ = ["DealArrays", "JaxWizard", "WizardJaxState", "hand_counts", "slot_words"]

Array = jax.Array
WIZ, JES = C.WIZARD, C.JESTER
_SHIFTS = np.arange(32, dtype=np.uint32)


class WizardJaxState(NamedTuple):
    """One match (or, batched, one row per match): every field an array, so the record is a pytree.

    The engine's fields under the numpy batch's names: ``phase`` (TRUMP 3,
    BID 4, PLAY 5, OVER 6), ``round``, ``dealer``, ``current_player``,
    ``leader``, ``trick_size``, ``tricks_done``, ``bid_sum``, ``trump`` (-1
    none), ``turned`` (-1 none), ``led`` (-1 nothing led, -2 a Wizard led),
    ``win_seat``/``win_kind`` (the trick's winner so far, -1 none); per seat
    ``hands`` (the numpy batch's slot masks, as two 32-bit words: slots 0..31, then 32..59), ``bids`` (-1 not yet), ``tricks_won``,
    ``scores``.  Then what a step reports: ``rewards`` (the round's score
    deltas when this step scored one, else 0), ``terminal``,
    ``legal_action_mask``.  Last, the match's deals: every round's hands
    (``deal_hands``: (rounds, players, 2) uint32, the engine's 60-slot masks
    split in two words, rounds before the configuration's start empty) and
    turned-up kind (``deal_turned``).  Why words and not counts there: a
    match carries all its rounds' deals, and a step that copies its state
    copies them too (15 rounds of counts were 3 kB a match, 26 MB a step at
    8,192 matches; as words, 480 bytes).
    """

    phase: Array
    round: Array
    dealer: Array
    current_player: Array
    leader: Array
    trick_size: Array
    tricks_done: Array
    bid_sum: Array
    trump: Array
    turned: Array
    led: Array
    win_seat: Array
    win_kind: Array
    hands: Array
    bids: Array
    tricks_won: Array
    scores: Array
    rewards: Array
    terminal: Array
    legal_action_mask: Array
    deal_hands: Array
    deal_turned: Array


#: What every round opens with (the numpy batch's ``round_start`` values): no trick, no bids.
_ROUND_START = {
    "trick_size": 0, "tricks_done": 0, "bid_sum": 0, "led": -1, "win_seat": -1, "win_kind": -1, "bids": -1,
    "tricks_won": 0,
}  # fmt: skip
#: Where the deals start in :class:`WizardJaxState`: the fields after it never change during a match.
_DEALS = WizardJaxState._fields.index("deal_hands")
#: The fields before it are the match's scalars.
_HANDS = WizardJaxState._fields.index("hands")


class DealArrays(NamedTuple):
    """Matches' deals as :meth:`JaxWizard.init` takes them (numpy, one row per match)."""

    first_dealer: NDArray[np.int32]  # (G,)
    hands: NDArray[np.uint32]  # (G, rounds, players, 2) slot masks: slots 0..31, then 32..59
    turned: NDArray[np.int32]  # (G, rounds)


def hand_counts(masks: NDArray[np.uint64]) -> NDArray[np.int8]:
    """Slot bitmasks (the engine's and numpy batch's hands), any shape, as counts per card kind (shape + (54,))."""
    slots = (masks[..., None] >> np.arange(C.NUM_SLOTS, dtype=np.uint64)) & np.uint64(1)
    counts = np.empty((*masks.shape, C.NUM_KINDS), dtype=np.int8)
    counts[..., :WIZ] = slots[..., :WIZ]
    counts[..., WIZ] = slots[..., 52:56].sum(axis=-1)
    counts[..., JES] = slots[..., 56:60].sum(axis=-1)
    return counts


def slot_words(masks: NDArray[np.uint64]) -> NDArray[np.uint32]:
    """Slot bitmasks, any shape, as two 32-bit words each (shape + (2,)): slots 0..31, then 32..59.

    JAX computes in 32 bits unless ``jax_enable_x64`` is set for the whole process.
    """
    return np.stack([masks & np.uint64(0xFFFFFFFF), masks >> np.uint64(32)], axis=-1).astype(np.uint32)


class JaxWizard:
    """Wizard matches of one configuration as pure JAX functions (``JaxWizard(4)``; options as the engine's).

    ``state = env.new_matches(seeds)`` deals on the host and starts the
    matches (match ``i`` is ``WizardBatch(players, seeds)``'s match ``i``);
    ``state = env.step(state, actions)`` moves every match by one decision
    (jitted, vmapped; ``actions`` (N,) int32); read ``state.legal_action_mask``,
    ``state.rewards``, ``state.terminal``, ``state.scores``.
    :meth:`step_one` and :meth:`init_one` are the unbatched pure functions,
    for an agent that composes its own ``vmap``/``scan``.
    """

    def __init__(self, players: int, *, donate: bool = False, **options: Any) -> None:
        """The engine's game validates the players and options; its constants are baked into the traces.

        ``donate``: :attr:`step` consumes the state it is given (XLA reuses its
        buffers for the result; the old state must not be read again).  Why
        offered: driven from Python, a step otherwise writes a fresh copy of
        every match's state (bench/jax_batch.py measures both); off by
        default, as a pure function's input is expected to survive it.
        """
        self.game = game = WizardGame(players, **options)
        self.players = n = game.players
        self.num_actions = game.num_actions
        self.num_rounds = game.num_rounds
        self.start_round = game.start_round
        self.bid_base = game.bid_base
        self.trump_base = game.trump_base
        self.blind_action = game.blind_action
        self.plus_minus_one = bool(game.options["plus_minus_one"])
        self._seats = jnp.arange(n, dtype=jnp.int32)
        self._ids = jnp.arange(self.num_actions, dtype=jnp.int32)
        self._kinds = jnp.arange(C.NUM_KINDS, dtype=jnp.int32)
        # Suit of each kind; Wizards and Jesters get -3, which no ``led`` value (-2..3) equals.
        self._suit_of_kind = jnp.array([k // C.RANKS for k in range(WIZ)] + [-3, -3], dtype=jnp.int32)
        self._special = self._kinds >= WIZ
        self._bid_values = jnp.arange(game.full_rounds + 1, dtype=jnp.int32)
        # The legal mask is built part by part in the action space's order: check that order.
        layout = (self.bid_base, self.trump_base, self.num_actions)
        expected = (
            C.NUM_KINDS,
            C.NUM_KINDS + game.full_rounds + 1,
            self.trump_base + 4 + (self.blind_action >= 0),
        )
        if layout != expected:  # pragma: no cover - only if the engine's action space changes
            raise ValueError(f"Wizard's action space moved: (bid, trump, size) {layout}, expected {expected}")
        #: (N,) deals -> batched state, jitted.
        self.init = jax.jit(jax.vmap(self.init_one))
        #: (state, (N,) actions) -> state, jitted and vmapped.
        self.step = jax.jit(self._step_batch, donate_argnums=0 if donate else ())
        #: (state, key) -> (N,) uniformly random legal actions (0 where a match is over), jitted.
        self.random_actions = jax.jit(self._random_actions)
        self.rollout = jax.jit(self._rollout, static_argnames="steps")

    # -- the deals (host, numpy) --------------------------------------------------------------
    def deal(self, seeds: Sequence[int]) -> DealArrays:
        """The matches ``seeds``' deals, drawn as the numpy batch draws them (:func:`atout.batch.wizard.deal`)."""
        dealt = deal([int(s) for s in seeds], self.game)
        return DealArrays(
            dealt.first_dealer.astype(np.int32), slot_words(dealt.hands), dealt.turned.astype(np.int32)
        )

    def new_matches(self, seeds: Sequence[int]) -> WizardJaxState:
        """The matches ``seeds``, dealt on the host and started in JAX: ``WizardBatch(players, seeds)``'s first state."""
        if not len(seeds):
            raise ValueError("new_matches needs at least one seed")
        dealt = self.deal(seeds)
        state: WizardJaxState = self.init(
            jnp.asarray(dealt.first_dealer), jnp.asarray(dealt.hands), jnp.asarray(dealt.turned)
        )
        return state

    # -- one match, pure -------------------------------------------------------------------------
    def init_one(self, first_dealer: Array, deal_hands: Array, deal_turned: Array) -> WizardJaxState:
        """A match at its first decision: round ``start_round``, dealt from its deals, the dealer moved on as in a whole match."""
        n = self.players
        i32 = jnp.int32
        zero = jnp.zeros((), i32)
        dealer = (first_dealer.astype(i32) + self.start_round - 1) % n
        seats = jnp.zeros((n,), i32)
        # The round's start sets the trick, the trump, the hands and who acts; the match's fields start here.
        blank = WizardJaxState(
            **dict.fromkeys(WizardJaxState._fields[:_HANDS], zero),
            hands=jnp.zeros((n, 2), jnp.uint32),
            bids=seats,
            tricks_won=seats,
            scores=seats,
            rewards=seats,
            terminal=jnp.zeros((), bool),
            legal_action_mask=jnp.zeros((self.num_actions,), bool),
            deal_hands=deal_hands.astype(jnp.uint32),
            deal_turned=deal_turned.astype(i32),
        )._replace(round=jnp.full((), self.start_round, i32), dealer=dealer)
        started = self._start_round(blank)
        return started._replace(legal_action_mask=self._legal(started))

    def _start_round(self, s: WizardJaxState) -> WizardJaxState:
        """``s`` opens its round ``s.round`` with dealer ``s.dealer``: the round's deal, the trump it turns up, the first to act.

        A turned-up Wizard: the dealer chooses the trump (phase TRUMP); else
        bidding starts left of the dealer; the dealer's left leads.
        """
        n = self.players
        r = jnp.clip(s.round - 1, 0, self.num_rounds - 1)
        turned = s.deal_turned[r]
        wizard = turned == WIZ
        left = (s.dealer + 1) % n
        dealt = {
            "hands": s.deal_hands[r],
            "turned": turned,
            "trump": jnp.where((turned < 0) | (turned >= WIZ), -1, turned // C.RANKS),
            "phase": jnp.where(wizard, TRUMP, BID).astype(jnp.int32),
            "current_player": jnp.where(wizard, s.dealer, left),
            "leader": left,
        }
        fresh = {name: jnp.full_like(getattr(s, name), value) for name, value in _ROUND_START.items()}
        return s._replace(**dealt, **fresh)

    def _legal(self, s: WizardJaxState) -> Array:
        """(num_actions,) the engine's legal actions of ``s`` as a mask (none once over).

        Built as the action space is laid out (cards, bids, trumps, the blind
        play), each part from its own phase, and concatenated; the seat's
        hand is read through a one-hot of the seats.  Why: this was the step's
        largest cost (three selects over every id, and a gather per match,
        which XLA's CPU backend runs as a loop).
        """
        play = s.phase == PLAY
        parts = []
        if self.blind_action >= 0:  # clairvoyance: round 1 is played blind, one action
            blind = play & (s.round == 1)
            play &= ~blind
        hand = self._held(s, self._seats == s.current_player)
        same = hand & (self._suit_of_kind == s.led)
        parts.append(play & jnp.where(same.any(), same | (hand & self._special), hand))
        bids = (s.phase == BID) & (self._bid_values <= s.round)
        if self.plus_minus_one:  # the dealer may not make the bids add up to the tricks
            bids &= ~((s.current_player == s.dealer) & (self._bid_values == s.round - s.bid_sum))
        parts.append(bids)
        parts.append(jnp.broadcast_to(s.phase == TRUMP, (4,)))
        if self.blind_action >= 0:
            parts.append(blind[None])
        return jnp.concatenate(parts)

    @staticmethod
    def _held(s: WizardJaxState, seat_hot: Array) -> Array:
        """(54,) the kinds the seat ``seat_hot`` (a one-hot of the seats; none: nothing) holds.

        Through the one-hot rather than ``hands[seat]``: a per-match index is a
        gather, which XLA's CPU backend runs as a loop.
        """
        words = jnp.sum(jnp.where(seat_hot[:, None], s.hands, 0), axis=0, dtype=jnp.uint32)
        slots = ((words[:, None] >> _SHIFTS) & 1).reshape(64) != 0
        return jnp.concatenate(
            [slots[:WIZ], slots[52:56].any(keepdims=True), slots[56:60].any(keepdims=True)]
        )

    @staticmethod
    def _lowest_slot(hands: Array, kind: Array) -> Array:
        """(players, 2) words: each seat's lowest slot holding ``kind`` (one card: a Wizard or Jester copy, the card itself).

        The numpy batch's ``lowest_bit(hand & slots_of_kind)``, so both batches
        keep the same slots: kinds 0..51 are slots 0..51, the Wizards slots
        52..55 (bits 20..23 of the second word), the Jesters 56..59.
        """
        u32 = jnp.uint32
        ordinary = jnp.uint32(1) << (kind % 32).astype(u32)
        low = jnp.where(kind < 32, ordinary, u32(0))
        high = jnp.where(kind == WIZ, u32(0xF << 20), jnp.where(kind == JES, u32(0xF << 24), u32(0)))
        high = jnp.where((kind >= 32) & (kind < WIZ), ordinary, high)
        held: Array = hands & jnp.stack([low, high])
        lowest: Array = held & (~held + u32(1))  # two's complement: x & -x
        return lowest

    @staticmethod
    def _takes(kind: Array, win: Array, trump: Array) -> Array:
        """Whether ``kind`` takes a trick whose winning card is ``win`` (-1: empty trick): the engine's incremental rule.

        The first Wizard wins; else the highest trump; else the highest card of
        the led suit; all Jesters: the first.  Written out rather than looked up
        in the numpy batch's table (tests/batch/test_jax_wizard.py checks the
        two agree on every case): a lookup per match is a gather, which XLA's
        CPU backend runs as a loop.
        """
        suit, wsuit = kind // C.RANKS, win // C.RANKS
        ordinary = (suit == wsuit) & (kind > win) | (suit == trump) & (wsuit != suit)
        beats = (kind == WIZ) | ((kind != JES) & ((win == JES) | ordinary))
        return (win == -1) | ((win != WIZ) & beats)

    def step_one(self, s: WizardJaxState, action: Array) -> WizardJaxState:
        """One match moved by ``action`` (ignored once the match is over): the numpy batch's ``_move`` for one row."""
        moved, going = self._move(s, action)
        after = self._next_round(moved, going)
        return after._replace(legal_action_mask=self._legal(after))

    def _move(self, s: WizardJaxState, action: Array) -> tuple[WizardJaxState, Array]:
        """``s`` moved by ``action``, and whether it then opens its next round (:meth:`_next_round` deals it).

        Every phase's update is computed and the match's own kept (``where``):
        a card (the trick's winner by the engine's incremental rule, the trick's
        end, the round's score, the next round or the match's end), a bid, a
        trump choice.
        """
        n = self.players
        i32 = jnp.int32
        a = action.astype(i32)
        play = s.phase == PLAY
        bidding = s.phase == BID
        choosing = s.phase == TRUMP
        seat = jnp.clip(s.current_player, 0, n - 1)
        seat_hot = self._seats == seat
        # -- a card -------------------------------------------------------------------------
        kind = a
        if self.blind_action >= 0:  # round 1 of clairvoyance: the blind action plays the one card held
            kind = jnp.where(s.round == 1, jnp.argmax(self._held(s, seat_hot)).astype(i32), kind)
        kind = jnp.clip(kind, 0, C.NUM_KINDS - 1)
        hands = s.hands ^ jnp.where(play & seat_hot[:, None], self._lowest_slot(s.hands, kind), 0)
        take = play & self._takes(kind, s.win_kind, s.trump)
        win_seat = jnp.where(take, seat, s.win_seat)
        win_kind = jnp.where(take, kind, s.win_kind)
        # What a card sets ``led`` to when nothing is led yet: its suit; a Wizard -2 (free); a Jester leaves it.
        first = jnp.where(kind == WIZ, -2, jnp.where(kind == JES, -1, kind // C.RANKS))
        led = jnp.where(play & (s.led == -1), first, s.led)
        size = s.trick_size + play
        current = jnp.where(play, (seat + 1) % n, s.current_player)
        # The trick's end: its winner takes it and leads the next.
        ended = play & (size == n)
        tricks_won = s.tricks_won + (ended & (self._seats == win_seat)).astype(i32)
        leader = jnp.where(ended, win_seat, s.leader)
        current = jnp.where(ended, win_seat, current)
        size = jnp.where(ended, 0, size)
        led = jnp.where(ended, -1, led)
        win_seat = jnp.where(ended, -1, win_seat)
        win_kind = jnp.where(ended, -1, win_kind)
        tricks_done = s.tricks_done + ended
        # The round's end: 20 + 10 a trick when the bid is met, else -10 a trick off.
        scored = ended & (tricks_done == s.round)
        delta = jnp.where(s.bids == tricks_won, 20 + 10 * tricks_won, -10 * jnp.abs(s.bids - tricks_won))
        rewards = jnp.where(scored, delta, 0).astype(i32)
        last = scored & (s.round == self.num_rounds)
        going = scored & ~last
        # -- a bid ------------------------------------------------------------------------------
        bid = a - self.bid_base
        bids = jnp.where(bidding & seat_hot, bid, s.bids)
        bid_sum = s.bid_sum + jnp.where(bidding, bid, 0)
        last_bid = bidding & (seat == s.dealer)
        phase = jnp.where(last_bid, PLAY, s.phase)
        current = jnp.where(bidding, jnp.where(last_bid, s.leader, (seat + 1) % n), current)
        # -- a trump choice (a turned-up Wizard): bidding starts left of the dealer -------------
        trump = jnp.where(choosing, a - self.trump_base, s.trump)
        phase = jnp.where(choosing, BID, phase)
        current = jnp.where(choosing, (s.dealer + 1) % n, current)
        # -- the match's end ---------------------------------------------------------------------
        phase = jnp.where(last, OVER, phase)
        current = jnp.where(last, TERMINAL, current)
        moved = s._replace(
            phase=phase.astype(i32),
            current_player=current.astype(i32),
            leader=leader,
            trick_size=size.astype(i32),
            tricks_done=tricks_done.astype(i32),
            bid_sum=bid_sum,
            trump=trump,
            led=led,
            win_seat=win_seat,
            win_kind=win_kind,
            hands=hands,
            bids=bids,
            tricks_won=tricks_won,
            scores=s.scores + rewards,
            rewards=rewards,
            terminal=s.terminal | last,
        )
        # -- the next round: the dealer moves left, the round is dealt --------------------------
        return moved, going

    def _next_round(self, moved: WizardJaxState, going: Array) -> WizardJaxState:
        """``moved`` opens its next round if ``going`` (it scored a round that is not its last): the dealer moves left."""
        following = self._start_round(
            moved._replace(round=moved.round + 1, dealer=(moved.dealer + 1) % self.players)
        )
        return WizardJaxState(
            *(
                jnp.where(going, new, old)
                for new, old in zip(following[:_DEALS], moved[:_DEALS], strict=True)
            ),
            *moved[_DEALS:],
        )

    def _step_batch(self, s: WizardJaxState, actions: Array) -> WizardJaxState:
        """:meth:`step_one` over every match, the next rounds dealt only in the steps where some match opens one.

        Why not ``vmap(step_one)``: under ``vmap`` a branch is a select, so every
        match would decode a deal every step; a round ends about once in 36
        steps of a 4-player match, and ``lax.cond`` on the whole batch skips the
        deal in the other steps.  The branches return the fields before the
        deals only: the deals never change, and a branch's output is a buffer
        XLA may fill by copying.
        """
        moved, going = jax.vmap(self._move)(s, actions)
        opened = jax.vmap(self._next_round)
        fields: tuple[Array, ...] = jax.lax.cond(
            going.any(),
            lambda m, g: tuple(opened(m, g)[:_DEALS]),
            lambda m, _: tuple(m[:_DEALS]),
            moved,
            going,
        )
        after = WizardJaxState(*fields, *moved[_DEALS:])
        return after._replace(legal_action_mask=jax.vmap(self._legal)(after))

    # -- policies and loops ------------------------------------------------------------------------
    def _random_actions(self, state: WizardJaxState, key: Array) -> Array:
        """(N,) a uniformly random legal action per match (0 where the match is over: ignored).

        One uniform draw per match picks the k-th legal action, as the numpy
        batch's ``random_actions`` does: the mask is packed into 32-bit words
        and the k-th set bit found by popcounts (a binary search of five
        halvings).  Why not a draw per action (Gumbel, argmax): on the CPU the
        generator's cost grows with the draws, and a cumulative sum over the
        mask is not cheap under XLA's CPU backend either (bench/jax_batch.py).
        """
        mask = state.legal_action_mask
        count, width = mask.shape
        words = (width + 31) // 32
        padded = jnp.zeros((count, words * 32), bool).at[:, :width].set(mask).reshape(count, words, 32)
        packed = jnp.sum(padded.astype(jnp.uint32) << _SHIFTS, axis=-1, dtype=jnp.uint32)  # (N, words)
        held = jax.lax.population_count(packed).astype(jnp.int32)
        k = jnp.floor(jax.random.uniform(key, (count,)) * held.sum(-1)).astype(jnp.int32)
        before = jnp.cumsum(held, axis=-1) - held  # legal actions in the earlier words
        w = jnp.minimum(jnp.sum(before + held <= k[:, None], axis=-1), words - 1)
        word = jnp.take_along_axis(packed, w[:, None], axis=1)[:, 0]
        rest = k - jnp.take_along_axis(before, w[:, None], axis=1)[:, 0]
        at = jnp.zeros(count, jnp.uint32)
        for half in (16, 8, 4, 2, 1):  # the rest-th set bit of the word: skip halves with fewer bits
            low = jax.lax.population_count((word >> at) & jnp.uint32((1 << half) - 1)).astype(jnp.int32)
            skip = rest >= low
            rest = jnp.where(skip, rest - low, rest)
            at = jnp.where(skip, at + half, at)
        action = w * 32 + at.astype(jnp.int32)
        return jnp.where(held.sum(-1) > 0, action, 0)

    def _rollout(self, state: WizardJaxState, key: Array, steps: int) -> WizardJaxState:
        """``steps`` steps of uniformly random legal actions, the whole loop in one jitted ``fori_loop``."""

        def body(i: Array, carry: WizardJaxState) -> WizardJaxState:
            return self._step_batch(carry, self._random_actions(carry, jax.random.fold_in(key, i)))

        result: WizardJaxState = jax.lax.fori_loop(0, steps, body, state)
        return result

    # -- the host side -------------------------------------------------------------------------------
    def check(self, state: WizardJaxState, actions: Sequence[int] | NDArray[np.integer[Any]]) -> None:
        """Raise :class:`IllegalActions` when some match not over is given an action its mask does not hold.

        The numpy batch's ``check``, on the host (the jitted step cannot raise):
        it reads the masks back from the device, so call it while debugging,
        not in a training loop.
        """
        a = np.asarray(actions, dtype=np.int64).reshape(-1)
        mask = np.asarray(state.legal_action_mask)
        over = np.asarray(state.terminal)
        if a.shape[0] != mask.shape[0]:
            raise ValueError(f"{a.shape[0]} actions for {mask.shape[0]} matches")
        inside = (a >= 0) & (a < self.num_actions)
        ok = over | (inside & mask[np.arange(a.size), np.clip(a, 0, self.num_actions - 1)])
        if not ok.all():
            bad = np.flatnonzero(~ok)
            g = int(bad[0])
            legal = [self.game.action_to_text(int(x)) for x in np.flatnonzero(mask[g])]
            raise IllegalActions(
                f"{bad.size} match(es) given an illegal action, first match {g} "
                f"(round {int(state.round[g])}, seat {int(state.current_player[g])}): "
                f"action {int(a[g])}; legal: {', '.join(legal)}"
            )
