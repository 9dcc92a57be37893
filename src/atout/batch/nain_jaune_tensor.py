"""Le Nain Jaune's observation and information-state tensors for a whole batch, in the engine's layout.

Why a second encoder: the engine's :func:`atout.games.nain_jaune.tensor.encode`
builds one view and one Python list per call, too slow for a batch.  This one
writes an (N, size) array block by block, in the order of
:func:`atout.games.nain_jaune.tensor.blocks` (read from it, so the layouts
cannot drift apart), with the same values computed the same way (the same
float64 divisions, then one cast to ``dtype``): seats relative to the viewer
in the direction of play, tokens over the tokens in play, the deal number
squashed.  What a seat may not know is not read: the other hands enter only
as their sizes, the legal-action flags only for the seat to act.  The tests
compare the two value for value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.nain_jaune import cards as C
from ..games.nain_jaune.game import CLAIM, OVER, PASS
from ..games.nain_jaune.tensor import PHASES, blocks
from .bits import U64, popcount

if TYPE_CHECKING:
    from .common import TensorFrame
    from .nain_jaune import NainJauneBatch

__all__ = ["blocks", "encode"]

K = C.NUM_CARDS
R = C.RANKS


def _bits(x: NDArray[np.uint64], width: int) -> NDArray[np.uint8]:
    """(..., width) 0/1: bit ``j`` of each element (``unpackbits`` on the little-endian bytes)."""
    as_bytes = np.ascontiguousarray(x, dtype="<u8").view(np.uint8).reshape(*x.shape, 8)
    result: NDArray[np.uint8] = np.unpackbits(as_bytes, axis=-1, count=width, bitorder="little")
    return result


def encode(batch: NainJauneBatch, frame: TensorFrame, information_state: bool) -> None:
    """Each match's tensor as seen by its viewer ``frame.seats[g]``, into ``frame.out``."""
    game = batch.game
    N, n, step = batch.num_games, game.players, game.step
    start, out, g, me, block = frame.start, frame.out, frame.rows, frame.seats, frame.block
    # order[g, r]: the seat ``r`` places after the viewer in the direction of play (block entry r).
    order = (me[:, None] + step * np.arange(n)) % n
    rows = g[:, None]
    over = batch.phase == OVER
    out[g, start["phase"] + np.where(over, PHASES.index("over"), PHASES.index("play"))] = 1.0
    out[:, start["deal"]] = 1.0 - 1.0 / batch.round.astype(np.float64)
    limit = game.options["max_deals"]
    if limit is not None:
        out[:, start["deal"] + 1] = np.minimum(batch.round, limit) / limit
    frame.seat_blocks(dealer=batch.dealer, opener=batch.opener, to_act=batch.current_player, last=batch.last)
    hands = batch.hands
    block("hand", K)[:] = _bits(hands[g, me], K)
    block("hand_sizes", n)[:] = (popcount(hands) / game.hand_size)[rows, order]
    need = batch.need
    needing = need > 0
    out[g[needing], start["need"] + need[needing] - 1] = 1.0
    out[g[~needing & ~over], start["need"] + R] = 1.0  # the next card starts a new run
    out[g, start["asked"] + batch.asked] = 1.0
    block("pile", K)[:] = _bits(batch.pile, K)
    # batch._lacking (N, R): per rank, the seats lacking it; the block is per relative seat, then rank.
    lacks = (batch._lacking[:, None, :] >> order[:, :, None]) & 1  # (N, n, R)
    block("lacks", n * R)[:] = lacks.reshape(N, n * R)
    window = batch.claim_box >= 0
    out[g[window], start["claim_box"] + batch.claim_box[window]] = 1.0
    # The legal actions are in the view of the seat to act only.
    mine = np.where(batch.current_player == me, batch.legal_word(), U64(0))
    out[:, start["decision"]] = (mine >> U64(PASS)) & U64(1)
    out[:, start["decision"] + 1] = (mine >> U64(CLAIM)) & U64(1)
    out[:, start["bonus_due"]] = batch.bonus_due
    total = float(n * game.options["start_tokens"])
    block("boxes", 5)[:] = batch.boxes / total
    block("tokens", n)[:] = (batch.tokens / total)[rows, order]
    if information_state:
        block("played_by", n * K)[:] = _bits(batch.played_by[rows, order], K).reshape(N, n * K)
        block("pile_order", K)[:] = batch.pile_order / K
