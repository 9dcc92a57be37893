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

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.wizard import cards as C
from ..games.wizard.game import BID, OVER, PLAY
from ..games.wizard.tensor import PHASES, blocks
from .bits import U64, popcount, unpack

if TYPE_CHECKING:
    from .common import TensorFrame
    from .wizard import WizardBatch

__all__ = ["blocks", "encode"]

K = C.NUM_KINDS
_WIZ_MASK = U64(C.WIZARD_MASK)
_JES_MASK = U64(C.JESTER_MASK)


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
