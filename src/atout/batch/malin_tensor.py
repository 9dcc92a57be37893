"""Le Malin's observation and information-state tensors for a whole batch, in the engine's layout.

Why a second encoder: the engine's :func:`atout.games.malin.tensor.encode`
builds one view and one Python list per call, far too slow for a batch.  This
one writes an (N, size) array with a few numpy operations per block, block by
block in the order of :func:`atout.games.malin.tensor.blocks` (read from it,
so the two cannot drift apart in layout), with the same values and the same
float operations (card values / 100 clipped to [-1, 1], hand sizes / H, the
hand number over the longest possible match, scores over the score bounds):
seats relative to the viewer, the own hand one entry per physical card.  The
jeu fun blocks do not arise (the batch plays the base game).  The tests
compare the two value for value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..games.malin import cards as C
from ..games.malin.game import BID, OVER, PLAY, REDECLARE
from ..games.malin.tensor import PHASES, TABLE, VALUE_SCALE, blocks, max_hands
from .bits import popcount, unpack

if TYPE_CHECKING:
    from .common import TensorFrame
    from .malin import MalinBatch

__all__ = ["blocks", "encode"]

K = C.NUM_KINDS


def encode(batch: MalinBatch, frame: TensorFrame, information_state: bool) -> None:
    """Each match's tensor as seen by its viewer ``frame.seats[g]``, into ``frame.out``."""
    game = batch.game
    N, n, H = batch.num_games, game.players, game.hand_size
    bid_width = max(H, 8) + 1
    start, out, g, seats, rel = frame.start, frame.out, frame.rows, frame.seats, frame.rel
    # The engine's phase ids are the indices of PHASES.
    assert PHASES[BID] == "bid" and PHASES[PLAY] == "play" and PHASES[REDECLARE] == "redeclare"
    assert PHASES[OVER] == "over"
    out[g, start["phase"] + batch.phase] = 1.0
    out[:, start["hand_number"]] = np.minimum(1.0, batch.round / max_hands(game))
    frame.seat_blocks(
        dealer=batch.dealer, to_act=batch.current_player, leader=batch.leader, last_actor=batch.last_actor
    )
    at = start["hand"]
    out[:, at : at + C.NUM_SLOTS] = unpack(batch.hands[g, seats], C.NUM_SLOTS)
    # The card set aside: a Twin shows in the first Twin's entry (34), as its slot mask does.
    out[g, start["removed"] + batch.removed] = 1.0
    all_seats = np.broadcast_to(np.arange(n, dtype=np.intp), (N, n))
    rel_seats = rel(all_seats)
    gg = np.broadcast_to(g[:, None], (N, n))
    out[gg, start["hand_sizes"] + rel_seats] = popcount(batch.hands) / H
    bids = batch.bids
    made = bids >= 0
    out[gg[made], (start["bids"] + rel_seats * bid_width + bids)[made]] = 1.0
    out[gg, start["tricks_won"] + rel_seats * (H + 1) + batch.tricks_won] = 1.0
    row = np.minimum(batch.tricks_done, H)  # row H (a finished hand) holds no card
    _table(out, start["trick"], batch.card_kind[g, row], batch.card_value[g, row], rel_seats, gg)
    low, high = game.score_bounds()
    scale = float(max(-low, high))
    out[gg, start["scores"] + rel_seats] = np.clip(batch.scores / scale, -1.0, 1.0)
    if information_state:
        width = n * TABLE + n
        base = start["past_tricks"]
        for t in range(H):
            done = np.flatnonzero(batch.tricks_done > t)
            if not done.size:
                break
            match = np.broadcast_to(done[:, None], (done.size, n))
            _table(
                out,
                base + t * width,
                batch.card_kind[done, t],
                batch.card_value[done, t],
                rel_seats[done],
                match,
            )
            out[done, base + t * width + n * TABLE + rel(batch.trick_winner[:, t])[done]] = 1.0


def _table(
    out: NDArray[np.floating[Any]],
    base: int,
    kinds: NDArray[np.intp],
    values: NDArray[np.intp],
    rel_seats: NDArray[np.intp],
    rows: NDArray[np.intp],
) -> None:
    """Cards on the table, (G, n) by absolute seat (kind -1: none): kind one-hot, declared and current value."""
    live = kinds >= 0
    r = rows[live]
    at = base + rel_seats[live] * TABLE
    out[r, at + kinds[live]] = 1.0
    value = np.clip(values[live] / VALUE_SCALE, -1.0, 1.0)
    out[r, at + K] = value  # declared: without Malheur cards the value a card was declared keeps
    out[r, at + K + 1] = value
