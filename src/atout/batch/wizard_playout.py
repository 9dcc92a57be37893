"""The engine's model of strong Wizard play (:mod:`atout.games.wizard.playout`), vectorised.

Why: ``expert`` plays its playouts with this model (the search bot's own
choices, measured by kind of play) because the heuristic is a poor model of
strong players; in the engine a playout costs about half a millisecond, so
expert affords 800 a decision.  Here a whole batch of worlds draws its cards
at once, so the batch-engine search (:mod:`atout.bots.batched`) can weigh ten
times more worlds with the same model of the other seats in the same time.

The model's randomness is its point (it plays as often as strong players
did), so the batch cannot replay the engine bot's draws: its test compares the
*distribution* of every card, position by position, with
:func:`atout.games.wizard.playout.probabilities` instead.  Bids and the trump
choice are the heuristic's, as in the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..games.wizard.game import PLAY
from ..games.wizard.playout import HEURISTIC_WEIGHT
from ..games.wizard.playout_table import COUNTS
from .bits import popcount
from .wizard_heuristic import heuristic_actions, play_masks

if TYPE_CHECKING:
    from .wizard import WizardBatch

IntArray = NDArray[np.intp]

#: The kinds of play, in this module's column order (names as :func:`atout.games.wizard.playout.kinds`).
KINDS = tuple(f"{tag}_{size}" for tag in ("lead", "win", "duck") for size in ("max", "mid", "min"))
#: The tricks-needed part of a situation key, by index (see :func:`_need_index`).
_NEEDS = ("n+0", "n+1", "n+2", "n+3", "n01", "n02", "n03", "nX")
#: The place-in-the-trick part, by index: leading, then (middle, last) × (all, some, none) win.
_PLACES = ("lead", *(f"{place}|{reach}" for place in ("mid", "last") for reach in ("all", "some", "none")))


def _count_table() -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """(situations, kinds) the measured counts, and (situations,) whether a situation was measured."""
    counts = np.zeros((len(_NEEDS) * len(_PLACES), len(KINDS)), dtype=np.float64)
    known = np.zeros(len(_NEEDS) * len(_PLACES), dtype=bool)
    for n, need in enumerate(_NEEDS):
        for p, place in enumerate(_PLACES):
            measured = COUNTS.get(f"{need}|{place}")
            if measured is not None:
                known[n * len(_PLACES) + p] = True
                for k, name in enumerate(KINDS):
                    counts[n * len(_PLACES) + p, k] = measured.get(name, 0)
    return counts, known


_COUNTS, _KNOWN = _count_table()


def _need_index(need: IntArray, left: IntArray) -> IntArray:
    """The engine's ``n+S`` (S spare cards, 0..3), ``n0L`` (bid made, L cards left, 1..3) or ``nX`` as an index."""
    wanting = np.minimum(np.maximum(left - need, 0), 3)
    made = 3 + np.minimum(np.maximum(left, 1), 3)
    result: IntArray = np.where(need > 0, wanting, np.where(need == 0, made, 7))
    return result


def card_probabilities(
    batch: WizardBatch, rows: IntArray, heuristic: IntArray | None = None
) -> NDArray[np.float64]:
    """(len(rows), 54) the chance the model plays each card kind, for card-play ``rows`` with a choice.

    Row for row the same numbers as :func:`atout.games.wizard.playout.probabilities`
    (tests/batch/test_wizard_playout.py).  ``heuristic``: the batch's
    :func:`heuristic_actions` when the caller has them already.
    """
    bits, _ = batch.legal_bits()
    seat = batch.current_player[rows]
    legal, power, winners, need = play_masks(batch, rows, seat, bits[rows])
    favourite = (heuristic_actions(batch) if heuristic is None else heuristic)[rows]
    size = batch.trick_size[rows]
    leading = size == 0
    # The three pools of the situation: lead (leading), win and duck (following).
    pools = np.stack(
        [legal & leading[:, None], winners & ~leading[:, None], legal & ~winners & ~leading[:, None]], 1
    )
    masked = np.where(pools, power[:, None, :], -1000)
    high = masked.max(axis=2, keepdims=True)
    low = np.where(pools, power[:, None, :], 1000).min(axis=2, keepdims=True)
    at_high = pools & (power[:, None, :] == high)
    at_low = pools & (power[:, None, :] == low) & ~at_high
    middle = pools & ~at_high & ~at_low
    members = np.stack([at_high, middle, at_low], axis=2).reshape(len(rows), len(KINDS), -1)  # (P, 9, 54)
    sizes = members.sum(axis=2)
    present = sizes > 0
    reach = np.where(present[:, 3:6].any(axis=1), np.where(present[:, 6:9].any(axis=1), 1, 0), 2)
    place = np.where(leading, 0, 1 + 3 * (size == batch.players - 1) + reach)
    left = popcount(batch.hands[rows, seat])
    situation = _need_index(need, left) * len(_PLACES) + place
    own = members[np.arange(len(rows)), :, favourite]  # (P, 9): the favourite's kind
    weights = np.where(present, _COUNTS[situation], 0.0) + np.where(own, HEURISTIC_WEIGHT, 0.0)
    share = weights / weights.sum(axis=1, keepdims=True)
    others = np.where(own, 0.0, share / np.maximum(sizes, 1))  # each card of another kind
    chances: NDArray[np.float64] = (members * others[:, :, None]).sum(axis=1)
    chances[np.arange(len(rows)), favourite] += (share * own).sum(axis=1)
    unknown = ~_KNOWN[situation]
    chances[unknown] = 0.0
    chances[np.flatnonzero(unknown), favourite[unknown]] = 1.0
    return chances


def action_probabilities(batch: WizardBatch, rows: IntArray) -> NDArray[np.float64]:
    """(len(rows), num_actions) the model's chance of each action at ``rows`` (matches not over).

    Card plays with a choice: :func:`card_probabilities`; bids, the trump choice
    and forced moves: the heuristic's action, certain (the model draws nothing
    there).  Why: the batch search weighs its sampled worlds by how likely the
    other seats' actions were (inference), and with the model it plays its
    playouts by, it judges the other seats as it imagines them.
    """
    actions = heuristic_actions(batch)
    chances = np.zeros((len(rows), batch.num_actions), dtype=np.float64)
    chances[np.arange(len(rows)), actions[rows]] = 1.0
    bits, _ = batch.legal_bits()
    choosing = (batch.phase[rows] == PLAY) & (popcount(bits[rows]) > 1)
    if choosing.any():
        at = np.flatnonzero(choosing)
        cards = card_probabilities(batch, rows[at], actions)
        chances[at] = 0.0
        chances[at, : cards.shape[1]] = cards
    return chances


def playout_actions(batch: WizardBatch, rng: np.random.Generator) -> IntArray:
    """Per match, an action drawn from the model of strong play (-1 once over): cards drawn, bids and trump the heuristic's."""
    actions = heuristic_actions(batch)
    bits, _ = batch.legal_bits()
    rows = np.flatnonzero((batch.phase == PLAY) & (popcount(bits) > 1))
    if rows.size:
        chances = np.cumsum(card_probabilities(batch, rows, actions), axis=1)
        draw = rng.random(rows.size) * chances[:, -1]
        actions[rows] = np.argmax(chances > draw[:, None], axis=1)
    return actions
