"""StichelnBatch against the engine: every match, every step (masks, state, scores, terminal, tensors, heuristic)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, StichelnBatch
from atout.batch.sticheln import deal
from atout.games.sticheln.bot import StichelnHeuristicBot
from atout.games.sticheln.game import StichelnGame, StichelnState

from . import engine_compare
from .engine_compare import assert_basics, each_match, play_auto_reset, sample_seeds, sheet_rewards, step_held


def assert_same(batch: StichelnBatch, mask: np.ndarray[Any, Any], g: int, state: StichelnState) -> None:
    assert_basics(batch, mask, g, state)
    if state.is_terminal:
        return
    assert int(batch.phase[g]) == state.phase
    assert int(batch.leader[g]) == state.leader
    for seat in range(state.n):
        assert batch.hand_mask(g, seat) == state.hands[seat]
        lo, hi = batch.captured[g, seat].tolist()
        assert int(lo) | int(hi) << 64 == state.captured[seat]
        assert [k for k in batch.pains[g, seat].tolist() if k >= 0] == state.pains[seat]


def play_along(
    players: int, seeds: list[int], policy: str = "random", tensors: bool = False, **options: Any
) -> None:
    engine_compare.play_along(
        StichelnBatch(players, seeds, **options),
        StichelnGame(players, **options),
        seeds,
        StichelnHeuristicBot(),
        compare=each_match(assert_same),
        rewards=sheet_rewards(1),
        policy=policy,
        tensors=tensors,
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_heuristic_play_equals_engine_bot(players: int) -> None:
    play_along(players, sample_seeds(12 - players, 30 + players), policy="heuristic")


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_tensors_equal_engine(players: int) -> None:
    # Two hands: the second starts from a scored hand (scores, dealer, cleared tricks).
    play_along(players, sample_seeds(1, 40 + players), tensors=True, hands=2)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_random_play_equals_engine(players: int) -> None:
    # 40 matches: the vectorised deal (>= 256 seed texts) for every table size.
    play_along(players, sample_seeds(40, players), hands=2)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (3, {"first_lead": "dealer", "zero_lead_colour": "first_nonzero"}),
        (5, {"all_zero_trick": "void", "hands": 2}),
        (6, {"gentle": True, "two_pain_colours": True, "hands": 2}),
        (7, {"pain_card_only": True, "first_dealer": 3, "hands": 1}),
        (
            8,
            {
                "two_pain_colours": True,
                "all_zero_trick": "void",
                "zero_lead_colour": "first_nonzero",
                "hands": 1,
            },
        ),
        (4, {"hidden_pain": True, "gentle": True, "hands": 2}),
    ],
)
def test_options_equal_engine(players: int, options: dict[str, Any]) -> None:
    seeds = sample_seeds(12, 50 + players)
    play_along(players, seeds, **options)
    play_along(players, seeds[:6], policy="heuristic", **options)
    play_along(players, seeds[:1], tensors=True, **{"hands": 1, **options})


def test_held_matches_do_not_move() -> None:
    batch = StichelnBatch(4, [1, 2, 3], hands=1)
    game = StichelnGame(4, hands=1)
    states = [game.new_state(seed=s) for s in (1, 2, 3)]
    rng = np.random.default_rng(3)
    active = np.array([True, False, True])
    for turn in range(70):
        active = np.roll(active, 1) if turn % 3 == 0 else active
        actions = batch.random_actions(rng)
        actions[~active] = -7  # ignored: held matches take no action, not even an illegal one
        step_held(batch, states, actions, active)
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert_same(batch, mask, g, state)


def test_vectorised_and_python_deals_agree() -> None:
    game = StichelnGame(8, hands=3)
    seeds = sample_seeds(80, 7)
    together = deal(seeds, game)  # 320 seed texts: the vectorised generator
    for i in range(0, 80, 9):
        alone = deal([seeds[i]], game)  # random.Random itself
        assert alone.first_dealer[0] == together.first_dealer[i]
        assert (alone.hands[0] == together.hands[i]).all()


def test_auto_reset_and_refusal() -> None:
    batch = StichelnBatch(3, [1, 2], auto_reset=True, reset_seeds=[3, 4], hands=1)
    game = StichelnGame(3, hands=1)
    rng = np.random.default_rng(0)
    with pytest.raises(IllegalActions, match="match 0"):
        batch.step([0 if not batch.legal_mask()[0, 0] else 1, int(batch.random_actions(rng)[1])])
    ends = play_auto_reset(batch, game, 200, rng)  # each ended match replayed in the engine
    assert sorted(ends) == [1, 2, 3, 4] and batch.terminal.all()
