"""StichelnBatch against the engine: every match, every step (masks, state, scores, terminal, tensors, heuristic)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, StichelnBatch
from atout.batch.sticheln import deal
from atout.games.sticheln.bot import StichelnHeuristicBot
from atout.games.sticheln.game import StichelnGame, StichelnState


def sample_seeds(count: int, key: int) -> list[int]:
    rng = random.Random(key)
    return [rng.getrandbits(rng.choice((8, 32, 63))) for _ in range(count)]


def assert_same(batch: StichelnBatch, mask: np.ndarray[Any, Any], g: int, state: StichelnState) -> None:
    assert int(batch.current_player[g]) == state.current_player
    assert bool(batch.terminal[g]) == state.is_terminal
    assert batch.scores[g].tolist() == state.scores()
    assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions())
    assert int(batch.round[g]) == state.round
    assert int(batch.dealer[g]) == state.dealer
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
    batch = StichelnBatch(players, seeds, **options)
    game = StichelnGame(players, **options)
    states = [game.new_state(seed=s) for s in seeds]
    bot = StichelnHeuristicBot()
    rng = np.random.default_rng(len(seeds) * 7 + players)
    totals = np.zeros((len(seeds), players), dtype=np.int64)
    steps = 0
    while True:
        mask = batch.legal_mask()
        assert (mask.sum(axis=1) == batch.legal_counts()).all()
        for g, state in enumerate(states):
            assert_same(batch, mask, g, state)
        if tensors:
            check_tensors(batch, game, states, steps)
        if batch.terminal.all():
            break
        if policy == "heuristic":
            actions = batch.heuristic_actions()
            for g, state in enumerate(states):
                expected = -1 if state.is_terminal else bot.choose(state.view(state.current_player))
                assert int(actions[g]) == expected, (g, steps)
        else:
            actions = batch.random_actions(rng)
        steps += 1
        was_over = [s.is_terminal for s in states]
        lines = [len(s.sheet) for s in states]
        for g, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            assert bool(step.terminal[g]) == (state.is_terminal and not was_over[g])
            scored = len(state.sheet) > lines[g]
            assert step.rewards[g].tolist() == (list(state.sheet[-1][1]) if scored else [0] * players)
        totals += step.rewards
    for g, state in enumerate(states):
        assert totals[g].tolist() == state.scores()


def check_tensors(batch: StichelnBatch, game: StichelnGame, states: list[StichelnState], step: int) -> None:
    others = (np.arange(batch.num_games) + step) % batch.players
    for info in (False, True):
        encode = game.information_state_tensor if info else game.observation_tensor
        acting = batch.observation_tensor(information_state=info, dtype=np.float64)
        chosen = batch.observation_tensor(others, information_state=info)
        assert chosen.dtype == np.float32
        for g, state in enumerate(states):
            seat = max(state.current_player, 0)
            assert acting[g].tolist() == encode(state.view(seat))
            assert chosen[g].tolist() == [np.float32(x) for x in encode(state.view(int(others[g])))]


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
        for g, state in enumerate(states):
            if active[g] and not state.is_terminal:
                state.apply(int(actions[g]))
        batch.step(actions, active=active)
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
    histories: list[list[int]] = [[], []]
    started = [1, 2]
    ends = []
    for _ in range(200):
        actions = batch.random_actions(rng)
        for g in range(2):
            if actions[g] >= 0:
                histories[g].append(int(actions[g]))
        step = batch.step(actions)
        for g in np.flatnonzero(step.terminal).tolist():
            state = game.new_state(seed=started[g])
            for action in histories[g]:
                state.apply(action)
            assert state.is_terminal and state.scores() == step.scores[g].tolist()
            ends.append(started[g])
            histories[g], started[g] = [], batch.seeds[g]
    assert sorted(ends) == [1, 2, 3, 4] and batch.terminal.all()
