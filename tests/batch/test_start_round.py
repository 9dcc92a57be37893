"""``start_round`` in the batch: matches starting at any round equal the engine's, step by step.

Why here and not in each game's file: the option and :meth:`BatchBase.restart`
are the base's, and the check is the same for every game — each game's own
``play_along`` (its comparison of the whole state, tensors included, and its
rewards) with ``start_round`` among the options, and single rounds
(``start_round=R`` plus the game's one-round option).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from atout.batch import MalinBatch, NainJauneBatch, StichelnBatch, WizardBatch
from atout.games.malin.game import MalinGame
from atout.games.nain_jaune.game import NainJauneGame
from atout.games.sticheln.game import StichelnGame
from atout.games.wizard.game import WizardGame

from . import test_malin, test_nain_jaune, test_sticheln, test_wizard
from .engine_compare import play_auto_reset, sample_seeds

PLAY_ALONG: dict[str, Any] = {
    "wizard": test_wizard.play_along,
    "sticheln": test_sticheln.play_along,
    "malin": test_malin.play_along,
    "nain-jaune": test_nain_jaune.play_along,
}
BATCHES: dict[str, Any] = {
    "wizard": (WizardBatch, WizardGame),
    "sticheln": (StichelnBatch, StichelnGame),
    "malin": (MalinBatch, MalinGame),
    "nain-jaune": (NainJauneBatch, NainJauneGame),
}


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("wizard", 4, {"start_round": 13}),
        ("wizard", 3, {"start_round": 5, "rounds": 3, "first_dealer": 2}),
        ("wizard", 6, {"start_round": 4, "rounds": 2}),
        ("sticheln", 4, {"start_round": 3}),
        ("sticheln", 5, {"start_round": 7, "hands": 2}),
        ("malin", 4, {"start_round": 3}),
        ("malin", 4, {"start_round": 2, "rounds": 3, "first_dealer": 1}),
        ("malin", 5, {"rounds": 2}),
        ("nain-jaune", 4, {"start_round": 6, "max_deals": 3}),
        ("nain-jaune", 3, {"start_round": 4, "start_tokens": 20}),
    ],
)
def test_start_round_equals_engine(name: str, players: int, options: dict[str, Any]) -> None:
    """Masks, state, both tensors, rewards and scores against the engine's game with the same options."""
    seeds = sample_seeds(6, 70 + players)
    PLAY_ALONG[name](players, seeds, tensors=True, **options)
    PLAY_ALONG[name](players, sample_seeds(5, 90 + players), policy="heuristic", **options)


@pytest.mark.parametrize(
    ("name", "one_round"),
    [("wizard", "rounds"), ("sticheln", "hands"), ("malin", "rounds"), ("nain-jaune", "max_deals")],
)
@pytest.mark.parametrize("start", [1, 2, 7])
def test_single_rounds_equal_engine(name: str, one_round: str, start: int) -> None:
    """``start_round=R`` plus one round: a single round at batch speed, scored as that round of a match."""
    options = {"start_round": start, one_round: 1}
    steps = PLAY_ALONG[name](4, sample_seeds(24, start), **options)
    assert steps is None or steps > 0


@pytest.mark.parametrize("name", list(BATCHES))
def test_single_round_auto_reset_equals_engine(name: str) -> None:
    """Auto-reset single rounds (each ended match replayed in the engine from its seed)."""
    cls, game_cls = BATCHES[name]
    one_round = {"wizard": "rounds", "sticheln": "hands", "malin": "rounds", "nain-jaune": "max_deals"}[name]
    options = {"start_round": 3, one_round: 1}
    batch = cls(4, range(10), auto_reset=True, **options)
    ended = play_auto_reset(batch, game_cls(4, **options), 300, np.random.default_rng(0))
    assert len(ended) >= 10


@pytest.mark.parametrize("name", list(BATCHES))
def test_restart_at_chosen_rounds_equals_engine(name: str) -> None:
    """Matches restarted one by one at different rounds are the engine's games with those start rounds.

    Rules only (masks, round, dealer, scores): the tensors of a batch are its
    configuration's, whose score scale (from ``score_bounds``) counts every
    round from the configuration's start, the same for all its matches.
    """
    cls, game_cls = BATCHES[name]
    batch = cls(4, range(6))
    allowed = batch.start_rounds()
    assert allowed.start == 1 and len(allowed) >= 3
    starts = [1, 3, 2, 3, 1, 2]
    rng = np.random.default_rng(1)
    for _ in range(5):  # some steps first: restarting drops whatever a match held
        batch.step(batch.random_actions(rng))
    seeds = [100 + i for i in range(6)]
    batch.legal_mask()  # cached: restarting must not leave the old matches' legal actions behind
    batch.restart([0, 1, 2, 3, 4, 5], seeds, starts)
    assert batch.seeds == seeds and batch.start_round.tolist() == starts
    states = [game_cls(4, start_round=r).new_state(s) for s, r in zip(seeds, starts, strict=True)]
    while not batch.terminal.all():
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions()), g
            assert int(batch.round[g]) == state.round and int(batch.dealer[g]) == state.dealer
            assert batch.scores[g].tolist() == state.scores()
        actions = batch.random_actions(rng)
        for g, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            assert step.scores[g].tolist() == state.scores()
    assert all(state.is_terminal for state in states)


def test_restart_refusals() -> None:
    batch = WizardBatch(4, range(3), rounds=4)
    assert batch.start_rounds() == range(1, 5)
    with pytest.raises(ValueError, match=r"round 1\.\.4, not 5"):
        batch.restart([0], [1], [5])
    with pytest.raises(ValueError, match="2 seeds for 1 matches"):
        batch.restart([0], [1, 2])
    with pytest.raises(ValueError, match="distinct"):
        batch.restart([0, 0], [1, 2])
    with pytest.raises(ValueError, match="distinct"):
        batch.restart([3], [1])
    with pytest.raises(ValueError, match="start_round must be"):
        WizardBatch(4, range(3), start_round=16)


@pytest.mark.parametrize("name", list(BATCHES))
def test_restart_takes_the_next_dealt_seeds(name: str) -> None:
    """``restart(games)`` without seeds: the next ``reset_seeds``, dealt ahead, at any allowed round."""
    cls, game_cls = BATCHES[name]
    batch = cls(4, range(4), reset_seeds=iter(range(500, 510)))
    assert not batch.auto_reset
    batch.restart([2, 0])
    batch.restart([1], start_rounds=[2])
    assert batch.seeds == [501, 502, 500, 3] and batch.start_round.tolist() == [
        1,
        2,
        1,
        1,
    ]  # in the order given
    states = [game_cls(4, start_round=r).new_state(s) for s, r in zip(batch.seeds, [1, 2, 1, 1], strict=True)]
    rng = np.random.default_rng(2)
    while not batch.terminal.all():
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions()), g
            assert batch.scores[g].tolist() == state.scores()
        actions = batch.random_actions(rng)
        for g, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[g]))
        batch.step(actions)
    batch.restart(range(4))  # 4 of the 7 seeds left
    assert batch.seeds == [503, 504, 505, 506]
    with pytest.raises(ValueError, match="reset_seeds ran out"):
        batch.restart(range(4))  # 3 left

    with pytest.raises(ValueError, match="no seeds given and no reset_seeds"):
        cls(4, range(2)).restart([0])
