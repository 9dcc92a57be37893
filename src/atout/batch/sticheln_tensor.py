"""Sticheln's observation and information-state tensors for a whole batch, in the engine's layout.

Why a second encoder: the engine's :func:`atout.games.sticheln.tensor.encode`
builds one view and one Python list per call, far too slow for a batch.  This
one writes an (N, size) array block by block in the order of
:func:`atout.games.sticheln.tensor.blocks` (read from it, so the layouts
cannot drift apart), with the engine's values: seats relative to the viewer,
the other seats' handicap cards only once revealed (never during the handicap
choice, and with ``hidden_pain`` not before the hand is scored), taken cards
per colour as counts over the values and value sums over a colour's total,
hand points and scores over the engine's bounds (:func:`hand_bound`).  Every
division is the engine's (an integer over an integer, in float64), so the
values agree to the last bit; the tests compare the two value for value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.sticheln.game import OVER, PAIN, PLAY
from ..games.sticheln.tensor import PHASES, blocks, hand_bound

if TYPE_CHECKING:
    from .common import TensorFrame
    from .sticheln import StichelnBatch

__all__ = ["blocks", "encode", "hand_points"]

IntArray = NDArray[np.intp]


def _kinds(words: NDArray[np.uint64], size: int) -> NDArray[np.bool_]:
    """(..., size) booleans from (..., 2) two-word masks (bit ``j`` of word ``w``: kind ``64 w + j``)."""
    as_bytes = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    bits = np.unpackbits(as_bytes.reshape(*words.shape[:-1], 16), axis=-1, bitorder="little")
    result: NDArray[np.bool_] = bits[..., :size].view(np.bool_)
    return result


def hand_points(batch: StichelnBatch, counts: IntArray, values: IntArray) -> IntArray:
    """(N, n) ``StichelnGame.hand_score`` of every seat, from its taken cards per colour (integers: exact).

    +1 per card taken outside one's handicap colours; a card of a handicap
    colour costs its value (1 with ``gentle``); the laid handicap cards cost
    the same; with ``pain_card_only`` every taken card is +1.
    """
    options = batch.game.options
    pains = batch.pains  # (N, n, 2), -1 none
    laid = pains >= 0
    kinds = np.maximum(pains, 0)
    cost = np.where(laid, 1 if options["gentle"] else batch._value[kinds], 0).sum(axis=2)
    total = counts.sum(axis=2)
    if options["pain_card_only"]:
        result: IntArray = total - cost
        return result
    colours = np.arange(counts.shape[2])
    painful = ((batch._colour[kinds][..., None] == colours) & laid[..., None]).any(axis=2)  # (N, n, c)
    bad_count = (counts * painful).sum(axis=2)
    loss = bad_count if options["gentle"] else (values * painful).sum(axis=2)
    result = total - bad_count - cost - loss
    return result


def encode(batch: StichelnBatch, frame: TensorFrame, information_state: bool) -> None:
    """Each match's tensor as seen by its viewer ``frame.seats[g]``, into ``frame.out``."""
    game = batch.game
    deck = game.deck
    N, n = batch.num_games, game.players
    d, c, v = deck.size, deck.colours, deck.values
    pain_count = game.pain_count
    # float64 values, rounded once on assignment (as astype would)
    start, out, g, seats = frame.start, frame.out, frame.rows, frame.seats
    all_seats = np.broadcast_to(np.arange(n, dtype=np.intp), (N, n))
    rel = frame.rel(all_seats)  # (N, n): seat -> relative seat
    gg = np.broadcast_to(g[:, None], (N, n))
    phase = batch.phase
    # The engine's phase ids are the indices of PHASES.
    assert PHASES[PAIN] == "pain" and PHASES[PLAY] == "play" and PHASES[OVER] == "over"
    out[g, start["phase"] + phase] = 1.0
    out[g, start["hand_no"] + batch.round - 1] = 1.0
    frame.seat_blocks(dealer=batch.dealer, to_act=batch.current_player, leader=batch.leader)
    at = start["hand"]
    out[:, at : at + d] = _kinds(batch.hands[g, seats], d)
    # Handicap cards: how many each seat laid (a thermometer), which ones once known.
    pains = batch.pains  # (N, n, 2), -1 none
    laid = pains[:, :, :pain_count] >= 0  # (N, n, pain_count)
    thermo = start["pain_laid"] + rel[:, :, None] * pain_count + np.arange(pain_count)
    out[np.broadcast_to(g[:, None, None], laid.shape)[laid], thermo[laid]] = 1.0
    # The engine reveals them when the last seat has laid (hidden_pain: once the hand is scored).
    revealed = phase == OVER if game.options["hidden_pain"] else (phase == PLAY) | (phase == OVER)
    known = revealed[:, None] | (all_seats == seats[:, None])  # (N, n)
    shown = laid & known[:, :, None]
    cols = start["pains"] + rel[:, :, None] * d + np.maximum(pains[:, :, :pain_count], 0)
    out[np.broadcast_to(g[:, None, None], shown.shape)[shown], cols[shown]] = 1.0
    # The trick in progress, and its lead colour (the batch's own: the engine's led_colour).
    trick = batch.trick_cards  # (N, n)
    live = trick >= 0
    out[gg[live], (start["trick"] + rel * d + trick)[live]] = 1.0
    led = batch.lead >= 0
    out[g[led], start["led_colour"] + batch.lead[led]] = 1.0
    # Taken cards per seat and colour: counts / values, value sums / a colour's total.
    counts, values = batch.taken_counts, batch.taken_values  # (N, n, c) integers
    colour_sum = v * (v - 1) // 2
    block = start["taken"] + rel[:, :, None] * c + np.arange(c)  # (N, n, c)
    out[np.broadcast_to(g[:, None, None], block.shape), block] = counts / v
    out[np.broadcast_to(g[:, None, None], block.shape), block + n * c] = values / colour_sum
    # This hand's points so far, for the seats whose handicap the viewer knows.
    bound = hand_bound(game)
    points = hand_points(batch, counts, values)  # (N, n)
    out[gg[known], (start["hand_points"] + rel)[known]] = points[known] / bound
    scale = float(game.num_hands * bound)
    out[gg.reshape(-1), (start["scores"] + rel).reshape(-1)] = (batch.scores / scale).reshape(-1)
    if information_state:
        t = game.tricks_per_hand
        past = batch.played  # (N, t, n)
        done = (np.arange(t)[None, :] < batch.tricks_done[:, None])[:, :, None] & (past >= 0)
        pg, pt, ps = np.nonzero(done)
        out[pg, start["past_tricks"] + (pt * n + rel[pg, ps]) * d + past[pg, pt, ps]] = 1.0
        winners = batch.trick_winners
        won = (np.arange(t)[None, :] < batch.tricks_done[:, None]) & (winners >= 0)
        wg, wt = np.nonzero(won)
        out[wg, start["past_winners"] + wt * n + rel[wg, winners[wg, wt]]] = 1.0
