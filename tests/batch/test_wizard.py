"""WizardBatch against the engine: every match, every step (masks, state, scores, terminal).

The batch and ``WizardGame.new_state(seed)`` play side by side as
:mod:`.engine_compare` says, deals included (both deal from the seed).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, WizardBatch, common
from atout.batch.wizard import deal
from atout.games.wizard import WizardGame, WizardState
from atout.games.wizard import cards as C
from atout.games.wizard.bot import WizardHeuristicBot

from . import engine_compare
from .engine_compare import (
    assert_basics,
    each_match,
    final_scores,
    play_auto_reset,
    sample_seeds,
    sheet_rewards,
)


def assert_same(batch: WizardBatch, mask: np.ndarray[Any, Any], g: int, state: WizardState) -> None:
    assert_basics(batch, mask, g, state)
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
    return engine_compare.play_along(
        WizardBatch(players, seeds, **options),
        WizardGame(players, **options),
        seeds,
        WizardHeuristicBot(),
        compare=each_match(assert_same),
        rewards=sheet_rewards(2),
        policy=policy,
        tensors=tensors,
    )


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
    # Each finished match is replayed in the engine; every seed is played once, and once the
    # seeds run out the matches stay over.
    finished = play_auto_reset(batch, WizardGame(players, rounds=2), 200, np.random.default_rng(1))
    assert sorted(finished) == [5, 6, 100, 101, 102, 103, 104]
    assert batch.terminal.all() and batch.matches_done == 7


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
        return final_scores(WizardBatch(5, range(40), rounds=3), 9)

    assert (run() == run()).all()


def _argmax_plays(batch: WizardBatch, rows: Any, seat: Any, bits: Any, n: int) -> Any:
    """The heuristic's card play as it was read before the bitmask tables: argmax/argmin over (P, 54) powers."""
    from atout.batch import wizard_heuristic as H

    legal, power, winners, need = H.play_masks(batch, rows, seat, bits)
    size = batch.trick_size[rows]
    losers = legal & ~winners

    def highest(mask: Any) -> Any:
        return np.argmax(np.where(mask, power, np.int16(-10_000)), axis=1)

    def lowest(mask: Any) -> Any:
        return np.argmin(np.where(mask, power, np.int16(10_000)), axis=1)

    safe = winners & ((np.arange(C.NUM_KINDS) == C.WIZARD)[None, :] | (power >= H._SAFE_POWER))
    wants = need > 0
    follow_want = np.where(
        winners.any(axis=1),
        np.where(size == n - 1, lowest(winners), np.where(safe.any(axis=1), lowest(safe), highest(winners))),
        lowest(legal),
    )
    follow_duck = np.where(losers.any(axis=1), highest(losers), highest(winners))
    lead = np.where(wants, highest(legal), lowest(legal))
    return np.where(size == 0, lead, np.where(wants, follow_want, follow_duck))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_the_heuristics_card_play_from_bitmasks_is_the_argmax_reading(players: int) -> None:
    """Random situations (any trump, card winning, bid, tricks, trick size and set of legal cards,
    possible or not): the bitmask tables pick the card the powers' argmax/argmin picked, ties and
    all (the batch heuristic's card play, issue 49's rewrite)."""
    from atout.batch import wizard_heuristic as H

    rng = np.random.default_rng(49)
    P = 4000
    batch = WizardBatch(players, range(P))
    batch.trump[:] = rng.integers(-1, 4, P)
    batch.win_kind[:] = rng.integers(-1, C.NUM_KINDS, P)
    batch.trick_size[:] = rng.integers(0, players, P)
    batch.bids[:] = rng.integers(-1, 4, (P, players))
    batch.tricks_won[:] = rng.integers(0, 3, (P, players))
    # Sets of 1 to 54 legal kinds: a few sparse, some dense, some of Wizards and Jesters only.
    density = rng.choice([0.05, 0.2, 0.6, 1.0], P)
    legal = rng.random((P, C.NUM_KINDS)) < density[:, None]
    legal[np.arange(P), rng.integers(0, C.NUM_KINDS, P)] = True
    legal[: P // 10, : C.WIZARD] = False
    bits = np.bitwise_or.reduce(
        np.where(legal, np.uint64(1) << np.arange(C.NUM_KINDS, dtype=np.uint64), np.uint64(0)), axis=1
    )
    rows = np.arange(P)
    seat = rng.integers(0, players, P)
    expected = _argmax_plays(batch, rows, seat, bits, players)
    assert (H._plays(batch, rows, seat, bits, players) == expected).all()


@pytest.mark.parametrize("options", [{}, {"clairvoyance": True}])
def test_forced_actions_are_the_only_legal_action(options: dict[str, Any]) -> None:
    """``forced_actions``: a match's one legal action where it has exactly one, else -1 (over, or a
    choice): what the vector env's learned opponents play without their network."""
    rng = np.random.default_rng(5)
    batch = WizardBatch(4, range(40), **options)
    forced = 0
    while not batch.terminal.all():
        mask = batch.legal_mask()
        expected = np.where(mask.sum(axis=1) == 1, mask.argmax(axis=1), -1)
        assert np.array_equal(batch.forced_actions(), expected)
        forced += int((expected >= 0).sum())
        batch.step(batch.random_actions(rng), active=~batch.terminal)
    assert forced > 500
