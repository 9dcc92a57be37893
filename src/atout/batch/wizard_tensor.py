"""Wizard's observation and information-state tensors for a whole batch, in the engine's layout.

Why a second encoder: the engine's :func:`atout.games.wizard.tensor.encode`
builds one view and one Python list per call (≈ 55 µs), too slow for a batch.
This one writes an (N, size) array with a few numpy operations per block, block
by block in the order of :func:`atout.games.wizard.tensor.blocks` (read from
it, so the two cannot drift apart in layout), with the same values: seats are
relative to the viewer, a Wizard or Jester counts 0.25, hidden bids show as
"bid, still secret", scores are scaled by the game's score bounds.  The tests
compare the two value for value.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..games.wizard import cards as C
from ..games.wizard.game import BID, OVER, PLAY
from ..games.wizard.tensor import PHASES, blocks
from .bits import U64, popcount, unpack
from .common import SparseTensor

if TYPE_CHECKING:
    from .common import TensorFrame
    from .wizard import WizardBatch

__all__ = ["blocks", "encode", "encode_dense", "encode_sparse"]

K = C.NUM_KINDS
_WIZ_MASK = U64(C.WIZARD_MASK)
_JES_MASK = U64(C.JESTER_MASK)


@lru_cache(maxsize=16)
def _past_slots(n: int, r: int, step: int) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """The past tricks' slots ``t * n + k`` (trick ``t``, the viewer's ``k``-th seat), for ``n`` players
    and ``r`` tricks: ``[viewer, slot]`` where the slot's card lies in a match's ``played`` rows
    (``t * n`` plus the seat ``(viewer + step * k) % n``); ``[slot]`` its column in the block
    (``slot * K``); ``[slot]`` its trick ``t``."""
    slot = np.arange(r * n, dtype=np.intp)
    trick, k = slot // n, slot % n
    viewers = np.arange(n, dtype=np.intp)[:, None]
    offsets = trick * n + (viewers + step * k) % n
    return offsets, slot * K, trick


def _hand_values(hands: NDArray[np.uint64]) -> NDArray[np.float64]:
    """(N, 54): 1.0 per ordinary card held, 0.25 per Wizard / Jester (the engine's ``_card``)."""
    out = np.zeros((hands.shape[0], K), dtype=np.float64)
    out[:, : C.WIZARD] = unpack(hands, C.WIZARD)
    out[:, C.WIZARD] = popcount(hands & _WIZ_MASK) * 0.25
    out[:, C.JESTER] = popcount(hands & _JES_MASK) * 0.25
    return out


def encode(batch: WizardBatch, frame: TensorFrame, information_state: bool) -> None:
    """Each match's tensor as seen by its viewer ``frame.seats[g]``, into ``frame.out``."""
    game = batch.game
    N, n, r = batch.num_games, game.players, game.full_rounds
    start, out, g, seats, rel = frame.start, frame.out, frame.rows, frame.seats, frame.rel
    phase = batch.phase
    # The engine's phase ids are the indices of PHASES.
    assert PHASES[PLAY] == "play" and PHASES[OVER] == "over"
    out[g, start["phase"] + phase] = 1.0
    out[g, start["round"] + batch.round - 1] = 1.0
    frame.seat_blocks(dealer=batch.dealer, to_act=batch.current_player, leader=batch.leader)
    clairvoyant = (batch.round == 1) if game.options["clairvoyance"] else np.zeros(N, dtype=bool)
    own = batch.hands[g, seats]
    own = np.where(clairvoyant, U64(0), own)  # round 1 of clairvoyance: one's own card is unseen
    at = start["hand"]
    out[:, at : at + K] = _hand_values(own)
    if "seen_hands" in start:
        at = start["seen_hands"]
        for seat in range(n):
            other = (seats != seat) & clairvoyant
            if not other.any():
                continue
            values = _hand_values(batch.hands[:, seat])
            rows = np.flatnonzero(other)
            block = at + (rel(np.full(N, seat, dtype=np.intp))[rows] - 1) * K
            out[rows[:, None], block[:, None] + np.arange(K)] = values[rows]
    turned = batch.turned >= 0
    out[g[turned], start["turned"] + batch.turned[turned]] = 1.0
    trump = batch.trump >= 0
    out[g[trump], start["trump"] + batch.trump[trump]] = 1.0
    none = ~trump & ((phase == BID) | (phase == PLAY) | (phase == OVER))
    out[g[none], start["trump"] + 4] = 1.0
    # Bids: visible when open, or (hidden until play) once every bid is in, or one's own.
    bids = batch.bids
    mode = game.options["bids"]
    made = bids >= 0
    public: NDArray[np.bool_]
    if mode == "open":
        public = np.ones(N, dtype=bool)
    elif mode == "hidden_until_play":
        public = np.asarray(made.all(axis=1))
    else:
        public = np.zeros(N, dtype=bool)
    all_seats = np.broadcast_to(np.arange(n, dtype=np.intp), (N, n))
    shown = made & (public[:, None] | (all_seats == seats[:, None]))
    secret = made & ~shown
    rel_seats = rel(all_seats)
    base = start["bids"] + rel_seats * (r + 2)
    gg = np.broadcast_to(g[:, None], (N, n))
    out[gg[shown], (base + bids)[shown]] = 1.0
    out[gg[secret], (base + r + 1)[secret]] = 1.0
    out[gg.reshape(-1), (start["tricks_won"] + rel_seats * (r + 1) + batch.tricks_won).reshape(-1)] = 1.0
    # The trick in progress: its row of ``played`` (rows are -1 until played).
    current = np.minimum(batch.tricks_done, r - 1)
    trick = batch.played[g, current].astype(np.intp)  # (N, n)
    live = (trick >= 0) & (batch.trick_size > 0)[:, None]
    value = np.where(trick < C.WIZARD, 1.0, 0.25)
    out[gg[live], (start["trick"] + rel_seats * K + trick)[live]] = value[live]
    low, high = game.score_bounds()
    scale = float(max(-low, high))
    out[gg.reshape(-1), (start["scores"] + rel_seats).reshape(-1)] = (batch.scores / scale).reshape(-1)
    if information_state:
        past = batch.played[:, :r].astype(np.intp)  # (N, r, n)
        done = (past >= 0) & (np.arange(r)[None, :, None] < batch.tricks_done[:, None, None])
        pg, pt, ps = np.nonzero(done)
        kinds = past[pg, pt, ps]
        cols = start["past_tricks"] + (pt * n + rel_seats[pg, ps]) * K + kinds
        out[pg, cols] = np.where(kinds < C.WIZARD, 1.0, 0.25)


def encode_sparse(batch: WizardBatch, frame: TensorFrame, information_state: bool) -> SparseTensor | None:
    """:func:`encode`'s tensors as compressed rows, written directly: the same entries as the sparse
    frame records from :func:`encode` (the same columns in the same order, the same values), or None
    for a configuration it does not cover (clairvoyance's seen hands: the recorder then runs).

    Why: the vector env's learned opponents read these at every step, for about 500 rows at 1,024
    envs, and the recorder's generic route (every write flattened, then one sort of every entry by
    row and column, then the duplicates dropped) cost more than the network's first layer it
    feeds (bench/RESULTS.md, issue 49).  Here each row's possible entries are *slots*, laid out in
    the tensor's column order: one per one-hot block, one per card kind of the hand, one per seat
    of the per-seat blocks (in the viewer's seat order), one per (trick, seat) of the past tricks;
    an (N, slots) table of columns, one of values and one of which slots hold an entry, read in
    row-major order, are the rows' entries already grouped by row with their columns ascending.
    """
    found = _entries(batch, frame, information_state)
    if found is None:
        return None
    kept, width, indices, values = found
    # Each row's entries start at its first kept slot: a search of the sorted positions (a count of
    # each row's kept slots cost four times more).
    indptr = np.searchsorted(kept, np.arange(batch.num_games + 1, dtype=np.intp) * width)
    return SparseTensor(indptr, indices, values, frame.out.shape)


def encode_dense(batch: WizardBatch, frame: TensorFrame, information_state: bool) -> bool:
    """:func:`encode`'s tensors written into ``frame.out`` (zeros) from :func:`encode_sparse`'s entries;
    False (nothing written) for a configuration it does not cover (then :func:`encode` runs).

    Why: the vector env's agent observes the dense tensor at every step (1,024 rows), and
    :func:`encode`'s past tricks (a ``nonzero`` over every (trick, seat), then gathers and a 2-D
    scatter) were most of its cost; the slots' entries, scattered once, are the same values in the
    same cells (the encoders' tests compare these tensors with the engine's).  :func:`encode` stays
    the reference the sparse encoder is tested against.
    """
    found = _entries(batch, frame, information_state)
    if found is None:
        return False
    kept, width, indices, values = found
    out = frame.out
    rows = kept // width
    if out.flags.c_contiguous:
        out.reshape(-1)[rows * out.shape[1] + indices] = values
    else:  # a view of a wider array (the vector env's flattened observations)
        out[rows, indices] = values
    return True


def _entries(
    batch: WizardBatch, frame: TensorFrame, information_state: bool
) -> tuple[NDArray[np.intp], int, NDArray[np.intp], NDArray[np.floating[Any]]] | None:
    """The rows' entries, row by row in column order: (their flat positions in the (N, width) slots,
    width, their columns, their values); None for clairvoyance's seen hands (see :func:`encode_sparse`)."""
    if "seen_hands" in frame.start:
        return None
    game = batch.game
    N, n, r = batch.num_games, game.players, game.full_rounds
    start, seats = frame.start, frame.seats
    # The absolute seat at each of the viewer's relative seats (0: the viewer, then in the direction of
    # play), and where each lies in the flat per-seat arrays: one ``take`` of a flat (N, n) array
    # reads a block in the viewer's order (a 2-D fancy index cost three times as much).
    offsets, columns, trick_of = _past_slots(n, r, frame.step)
    seat_at = offsets[seats, :n]  # (N, n): trick 0's offsets are the seats
    seat_flat = seat_at + (frame.rows * n)[:, None]
    # The past tricks' slots up to the most tricks any row has done: the later ones hold nothing.
    past_tricks = min(r, int(batch.tricks_done.max())) if information_state and N else 0
    width = 7 + K + 4 * n + past_tricks * n
    cols = np.empty((N, width), dtype=np.intp)  # every slot is written below
    vals = np.ones((N, width), dtype=frame.dtype)  # values cast as they are stored, as the recorder casts
    keep = np.ones((N, width), dtype=bool)
    phase = batch.phase
    cols[:, 0] = start["phase"] + phase
    cols[:, 1] = start["round"] + batch.round - 1
    for slot, name, who in ((2, "dealer", batch.dealer), (3, "to_act", batch.current_player)):
        cols[:, slot] = start[name] + frame.rel(who)
        keep[:, slot] = who >= 0
    at = 4  # the hand: one slot per card kind
    clairvoyant = (batch.round == 1) if game.options["clairvoyance"] else np.zeros(N, dtype=bool)
    own = np.where(clairvoyant, U64(0), batch.hands[frame.rows, seats])
    # :func:`_hand_values` without its (N, 54) floats: an ordinary card is 1.0 (``vals``' ones),
    # the Wizards' and the Jesters' columns 0.25 a card held.
    cols[:, at : at + K] = start["hand"] + np.arange(K)
    keep[:, at : at + C.WIZARD] = unpack(own, C.WIZARD)
    for kind, special in ((C.WIZARD, _WIZ_MASK), (C.JESTER, _JES_MASK)):
        count = popcount(own & special)
        vals[:, at + kind] = count * 0.25
        keep[:, at + kind] = count != 0
    at += K
    cols[:, at] = start["turned"] + batch.turned
    keep[:, at] = batch.turned >= 0
    at += 1
    trump = batch.trump >= 0
    none = ~trump & ((phase == BID) | (phase == PLAY) | (phase == OVER))
    cols[:, at] = start["trump"] + np.where(trump, batch.trump, 4)
    keep[:, at] = trump | none
    at += 1
    # Per seat of the viewer's order: bids, tricks won, the trick in progress.
    bids = batch.bids.reshape(-1).take(seat_flat)
    made = bids >= 0
    mode = game.options["bids"]
    if mode == "open":
        shown = made
    elif mode == "hidden_until_play":
        shown = made & made.all(axis=1, keepdims=True)
    else:
        shown = np.zeros((N, n), dtype=bool)
    shown[:, 0] |= made[:, 0]  # one's own bid (the viewer's first seat)
    j = np.arange(n, dtype=np.intp)
    cols[:, at : at + n] = start["bids"] + j * (r + 2) + np.where(shown, bids, r + 1)
    keep[:, at : at + n] = made
    at += n
    cols[:, at : at + n] = start["tricks_won"] + j * (r + 1) + batch.tricks_won.reshape(-1).take(seat_flat)
    at += n
    current = np.minimum(batch.tricks_done, r - 1)
    stride = batch.played.shape[1] * n  # a match's cells of ``played``
    # (N, n) the trick in progress in the viewer's order (int8, -1: no card yet).
    trick = batch.played.reshape(-1).take(seat_at + (frame.rows * stride + current * n)[:, None])
    cols[:, at : at + n] = start["trick"] + j * K + trick
    np.copyto(vals[:, at : at + n], 0.25, where=trick >= C.WIZARD)  # a Wizard or Jester; the rest stay 1.0
    keep[:, at : at + n] = (trick >= 0) & (batch.trick_size > 0)[:, None]
    at += n
    cols[:, at] = start["leader"] + frame.rel(batch.leader)
    keep[:, at] = batch.leader >= 0
    at += 1
    low, high = game.score_bounds()
    scores = batch.scores.reshape(-1).take(seat_flat) / float(max(-low, high))
    cols[:, at : at + n] = start["scores"] + j
    vals[:, at : at + n] = scores
    keep[:, at : at + n] = scores != 0
    at += n
    if past_tricks:
        # One slot per (trick, seat in the viewer's order), in that column order: each trick's cards
        # in the viewer's seat order by one take from the flat ``played`` (N, rounds + 1, n), then
        # the slots' columns, values and presence, each one pass over the rows' (N, tricks * n)
        # slots (a (N, tricks, n) view's inner loops of n entries cost twice as much).
        slots = past_tricks * n
        where = offsets[seats, :slots]
        where += (frame.rows * stride)[:, None]
        past = batch.played.reshape(-1).take(where)  # int8, -1: no card
        np.add(start["past_tricks"] + columns[:slots], past, out=cols[:, at:])
        np.copyto(vals[:, at:], 0.25, where=past >= C.WIZARD)  # a Wizard or Jester; the rest stay 1.0
        np.greater_equal(past, 0, out=keep[:, at:])
        keep[:, at:] &= trick_of[:slots] < batch.tricks_done[:, None]
    # The kept slots' flat positions, then two takes: a boolean mask's own compress was six times
    # slower, fancy indexing half again as slow as ``take``.
    kept = np.flatnonzero(keep)
    return kept, width, cols.reshape(-1).take(kept), vals.reshape(-1).take(kept)
