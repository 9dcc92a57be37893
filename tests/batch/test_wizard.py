"""WizardBatch against the engine: every match, every step (masks, state, scores, terminal).

Each test plays a seeded sample of matches in a batch and the same matches in
the engine (``WizardGame.new_state(seed)``), feeding both the same actions, and
compares them before every step.  Deals are part of it: the engine deals itself
from the seed, the batch from the same seed.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, WizardBatch, common
from atout.batch.wizard import deal
from atout.games.wizard import WizardGame, WizardState
from atout.games.wizard import cards as C
from atout.games.wizard.bot import WizardHeuristicBot


def sample_seeds(count: int, key: int) -> list[int]:
    rng = random.Random(key)
    return [rng.getrandbits(rng.choice((8, 32, 63))) for _ in range(count)]


def assert_same(batch: WizardBatch, mask: np.ndarray[Any, Any], g: int, state: WizardState) -> None:
    assert int(batch.current_player[g]) == state.current_player
    assert bool(batch.terminal[g]) == state.is_terminal
    assert batch.scores[g].tolist() == state.scores()
    assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions())
    assert int(batch.round[g]) == state.round
    assert int(batch.dealer[g]) == state.dealer
    if state.is_terminal:
        return
    assert int(batch.phase[g]) == state.phase
    assert int(batch.trump[g]) == state.trump
    assert int(batch.turned[g]) == state.turned
    assert batch.bids[g].tolist() == state.bids
    assert batch.tricks_won[g].tolist() == state.tricks_won
    assert int(batch.leader[g]) == state.leader
    for seat in range(state.n):
        assert batch.hand_kinds(g, seat) == C.cards_in(state.hands[seat])


def play_along(
    players: int,
    seeds: list[int],
    policy: str = "random",
    tensors: bool = False,
    **options: Any,
) -> int:
    """Play the batch and the engine side by side; returns the steps taken."""
    batch = WizardBatch(players, seeds, **options)
    game = WizardGame(players, **options)
    states = [game.new_state(seed=s) for s in seeds]
    bot = WizardHeuristicBot()
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
        was_over = [s.is_terminal for s in states]
        lines = [len(s.sheet) for s in states]
        for g, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            assert bool(step.terminal[g]) == (state.is_terminal and not was_over[g])
            scored = len(state.sheet) > lines[g]
            assert step.rewards[g].tolist() == (list(state.sheet[-1][2]) if scored else [0] * players)
        totals += step.rewards
        steps += 1
    for g, state in enumerate(states):
        assert totals[g].tolist() == state.scores()  # the per-round rewards add up to the score
    return steps


def check_tensors(batch: WizardBatch, game: WizardGame, states: list[WizardState], step: int) -> None:
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


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_play_equals_engine(players: int) -> None:
    # 24 matches: the vectorised deal (>= 256 seed rows) for every table size.
    play_along(players, sample_seeds(24, players))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_play_equals_engine_bot(players: int) -> None:
    play_along(players, sample_seeds(6, 10 + players), policy="heuristic")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tensors_equal_engine(players: int) -> None:
    play_along(players, sample_seeds(3, 20 + players), tensors=True, rounds=4)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"plus_minus_one": True}),
        (5, {"plus_minus_one": True, "rounds": 6}),
        (3, {"clairvoyance": True, "rounds": 3}),
        (6, {"first_dealer": 4, "rounds": 4}),
        (4, {"bids": "hidden_until_play", "rounds": 3}),
        (5, {"bids": "hidden_until_end", "rounds": 3}),
    ],
)
def test_options_equal_engine(players: int, options: dict[str, Any]) -> None:
    seeds = sample_seeds(8, 30 + players)
    play_along(players, seeds, **options)
    play_along(players, seeds[:4], policy="heuristic", **options)
    play_along(players, seeds[:1], tensors=True, **options)


@pytest.mark.parametrize("words", [128, 70, 2])
def test_vectorised_and_python_deals_agree(words: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # 70 words: most shuffles run out and take the fallback (random.Random) path; 2: the
    # first-dealer draws too.
    monkeypatch.setattr(common, "words_for", lambda size: words)
    # Passes of 60 matches (300 seed texts, vectorised) and a last one of 20 (Python).
    monkeypatch.setattr(common, "DEAL_ROWS", 300)
    game = WizardGame(5, rounds=4)
    seeds = sample_seeds(80, 99)
    together = deal(seeds, game)
    for i, s in enumerate(seeds[::3]):
        alone = deal([s], game)  # 5 seed texts: random.Random itself
        assert alone.first_dealer[0] == together.first_dealer[3 * i]
        assert (alone.hands[0] == together.hands[3 * i]).all()
        assert (alone.turned[0] == together.turned[3 * i]).all()


def test_auto_reset_restarts_from_the_next_seeds() -> None:
    players, seeds, later = 3, [5, 6], [100, 101, 102, 103, 104]
    batch = WizardBatch(players, seeds, auto_reset=True, reset_seeds=iter(later), rounds=2)
    game = WizardGame(players, rounds=2)
    rng = np.random.default_rng(1)
    histories: list[list[int]] = [[], []]
    finished: list[tuple[int, list[int], list[int]]] = []
    started = list(seeds)
    for _ in range(200):
        actions = batch.random_actions(rng)
        for g in range(2):
            if actions[g] >= 0:
                histories[g].append(int(actions[g]))
        step = batch.step(actions)
        for g in np.flatnonzero(step.terminal).tolist():
            finished.append((started[g], histories[g], step.scores[g].tolist()))
            histories[g] = []
            started[g] = batch.seeds[g]
    # Every seed played once; once the seeds run out the matches stay over.
    assert sorted(s for s, _, _ in finished) == [5, 6, 100, 101, 102, 103, 104]
    assert batch.terminal.all() and batch.matches_done == 7
    for seed, history, scores in finished:  # each finished match, replayed in the engine
        state = game.new_state(seed=seed)
        for action in history:
            state.apply(action)
        assert state.is_terminal and state.scores() == scores


def test_auto_reset_match_equals_engine() -> None:
    batch = WizardBatch(4, [11], auto_reset=True, reset_seeds=[12], rounds=2)
    game = WizardGame(4, rounds=2)
    rng = np.random.default_rng(2)
    for seed in (11, 12):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            assert_same(batch, batch.legal_mask(), 0, state)
            action = batch.random_actions(rng)
            state.apply(int(action[0]))
            step = batch.step(action)
        assert step.terminal[0] and step.scores[0].tolist() == state.scores()
    assert batch.terminal[0]  # no seed left: the match stays over


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    batch = WizardBatch(4, [1, 2, 3])
    before = (batch.current_player.copy(), batch.phase.copy(), batch.hands.copy())
    actions = batch.random_actions(np.random.default_rng(0))
    actions[1] = 3 if actions[1] != 3 else 4  # a card during the bidding
    with pytest.raises(IllegalActions, match="match 1"):
        batch.step(actions)
    assert (batch.current_player == before[0]).all() and (batch.phase == before[1]).all()
    assert (batch.hands == before[2]).all()
    batch.step(batch.random_actions(np.random.default_rng(0)))


def test_same_seeds_same_matches() -> None:
    def run() -> np.ndarray[Any, Any]:
        batch = WizardBatch(5, range(40), rounds=3)
        rng = np.random.default_rng(9)
        while not batch.terminal.all():
            batch.step(batch.random_actions(rng))
        return batch.scores.copy()

    assert (run() == run()).all()
