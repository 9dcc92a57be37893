"""MalinBatch against the engine: every match, every step (masks, state, scores, rewards, terminal, tensors).

The batch and ``MalinGame.new_state(seed)`` play side by side as
:mod:`.engine_compare` says, deals included (both deal from the seed).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, MalinBatch, common, pyrandom
from atout.batch import malin as batch_malin
from atout.batch.malin import deal, deal_hands
from atout.games.malin import cards as C
from atout.games.malin.bot import MalinHeuristicBot
from atout.games.malin.game import MalinGame, MalinState

from . import engine_compare
from .engine_compare import (
    assert_basics,
    each_match,
    final_scores,
    play_auto_reset,
    sample_seeds,
    score_changes,
    step_held,
)


def assert_same(batch: MalinBatch, mask: np.ndarray[Any, Any], g: int, state: MalinState) -> None:
    assert_basics(batch, mask, g, state)
    assert int(batch.phase[g]) == state.phase
    assert int(batch.removed[g]) == state.removed
    assert batch.bids[g].tolist() == state.bids
    assert batch.tricks_won[g].tolist() == state.tricks_won
    assert int(batch.leader[g]) == state.leader
    assert int(batch.last_actor[g]) == state.last_actor
    assert int(batch.tricks_done[g]) == len(state.tricks)
    assert batch.trick(g) == [(p.seat, p.kind, p.value) for p in state.trick]
    for seat in range(state.n):
        assert batch.hand_kinds(g, seat) == C.cards_in(state.hands[seat])


def play_along(
    players: int,
    seeds: list[int],
    policy: str = "random",
    tensors: bool = False,
    **options: Any,
) -> int:
    """Play the batch and the engine side by side; returns the steps taken (rewards: score changes)."""
    game = MalinGame(players, **options)
    return engine_compare.play_along(
        MalinBatch(players, seeds, **options),
        game,
        seeds,
        MalinHeuristicBot(),
        compare=each_match(assert_same),
        rewards=score_changes,
        policy=policy,
        tensors=tensors,
        start=game.options["start_score"],
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_play_equals_engine(players: int) -> None:
    # 90 matches: the vectorised deal (>= 256 seed texts: 3 hands each) for every table size.
    play_along(players, sample_seeds(90, players))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_play_equals_engine_bot(players: int) -> None:
    play_along(players, sample_seeds(12, 10 + players), policy="heuristic")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_in_random_positions_equals_engine_bot(players: int) -> None:
    # Positions the bot would not reach by itself (leading a Twin at 0, ducking under a low Wish ...).
    play_along(players, sample_seeds(30, 50 + players), policy="mixed")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_tensors_equal_engine(players: int) -> None:
    play_along(players, sample_seeds(2, 20 + players), tensors=True)
    play_along(players, sample_seeds(1, 25 + players), policy="heuristic", tensors=True)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {"sum_rule": "running", "start_score": 6}),
        (3, {"wish_forbidden_scope": "hand"}),
        (5, {"wish_collision": "last_trick_only", "start_score": 4}),
        (4, {"wish_beats_both_twins": "any_trick", "twin_value": "avoid_taken"}),
        (
            3,
            {
                "wish_beats_both_twins": "never",
                "twin_value": "avoid_taken",
                "wish_collision": "last_trick_only",
            },
        ),
        (6, {"clamp_at_zero": True, "first_dealer": 4}),
        (4, {"first_dealer": 0, "start_score": 1}),
    ],
)
def test_options_equal_engine(players: int, options: dict[str, Any]) -> None:
    seeds = sample_seeds(16, 30 + players)
    play_along(players, seeds, **options)
    play_along(players, seeds[:6], policy="heuristic", **options)
    play_along(players, seeds[:1], tensors=True, **options)


def collisions_play(players: int, seeds: list[int], **options: Any) -> None:
    """Random play that, when it can, plays a card whose value equals the Wish's (to reach re-declarations)."""
    batch = MalinBatch(players, seeds, **options)
    game = MalinGame(players, **options)
    states = [game.new_state(seed=s) for s in seeds]
    rng = np.random.default_rng(5)
    redeclared = 0
    anywhere = game.options["wish_collision"] == "redeclare_any_trick"
    while not batch.terminal.all():
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert_same(batch, mask, g, state)
        actions = batch.random_actions(rng)
        for g, state in enumerate(states):
            if state.is_terminal:
                continue
            redeclared += state.phase_name == "redeclare"
            wish = [p.value for p in state.trick if p.kind == C.WISH]
            if wish and state.phase_name == "play":
                same = [a for a in state.legal_actions() if a < 36 and game_value(a, game) == wish[0]]
                if same:
                    actions[g] = same[0]
            elif state.phase_name == "play" and state.hands[state.current_player] & C.WISH_MASK:
                legal = state.legal_actions()
                # last_trick_only: odd matches collide before the last trick too (no re-declaration
                # there), from a trick that depends on the match.
                if (
                    anywhere
                    or state.is_last_trick
                    or (g % 2 and len(state.tricks) >= g // 2 % game.hand_size)
                ):
                    # A value some later player can still match (the helper peeks at the hands).
                    later = {
                        value
                        for seat in range(players)
                        if seat != state.current_player
                        for k in C.cards_in(state.hands[seat])
                        for value in ((0, game.twin_high) if k == C.TWIN else (k + 1,))
                    }
                    wishes = [a for a in legal if 36 <= a <= 236 and a - 136 in later]
                    if wishes and rng.random() < 0.7:
                        actions[g] = wishes[int(rng.integers(len(wishes)))]
                elif legal[0] < 36:  # keep the Wish for the last trick
                    actions[g] = legal[int(rng.integers(sum(a < 36 for a in legal)))]
            state.apply(int(actions[g]))
        batch.step(actions)
    assert redeclared > 0


def game_value(action: int, game: MalinGame) -> int:
    if action < 34:
        return action + 1
    return 0 if action == 34 else game.twin_high


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (3, {"wish_forbidden_scope": "hand"}),
        (5, {"wish_collision": "last_trick_only"}),
        (6, {"twin_value": "avoid_taken"}),
    ],
)
def test_wish_collisions_equal_engine(players: int, options: dict[str, Any]) -> None:
    collisions_play(players, sample_seeds(20, 40 + players), **options)


def test_fun_is_refused() -> None:
    with pytest.raises(ValueError, match="jeu fun"):
        MalinBatch(4, [1], fun=True)


@pytest.mark.parametrize("words", [227, 90, 2])
def test_vectorised_and_python_deals_agree(words: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # 227 outputs: all vectorised; 90: most double shuffles run out and take the random.Random
    # path; 2: the first-dealer draws too.
    real = pyrandom.outputs_in_key_order

    def limited(raw: Any, count: int) -> Any:
        return real(raw, min(count, words))

    monkeypatch.setattr(pyrandom, "outputs_in_key_order", limited)  # the batch's and common's generator
    monkeypatch.setattr(common, "words_for", lambda size: words)
    game = MalinGame(5)
    seeds = sample_seeds(260, 99)
    together = deal(seeds, game)  # 780 hand texts, 260 first-dealer draws: vectorised
    for i, s in enumerate(seeds[::3]):
        alone = deal([s], game)  # random.Random itself
        assert alone.first_dealer[0] == together.first_dealer[3 * i]
        assert (alone.hands[0] == together.hands[3 * i]).all()
        assert (alone.removed[0] == together.removed[3 * i]).all()
    starts = np.arange(1, len(seeds) + 1, dtype=np.intp) % 37 + 1  # the later hands of long matches
    later, removed = deal_hands(seeds, starts, together.first_dealer, 4, game)
    for i in range(0, len(seeds), 13):
        state = game.new_state(seed=seeds[i])
        # Hand starts[i] + 1 of the engine, reached by replaying nothing: its deal is keyed by the hand only.
        state.round = int(starts[i]) + 1
        state.dealer = (int(together.first_dealer[i]) + state.round - 1) % 5
        state.new_hand()
        state._resolve_chance()
        assert int(removed[i, 1]) == state.removed
        for seat in range(5):
            assert C.cards_in(int(later[i, 1, seat])) == C.cards_in(state.hands[seat])


def test_auto_reset_restarts_from_the_next_seeds() -> None:
    players, seeds, later = 3, [5, 6], [100, 101, 102, 103, 104]
    batch = MalinBatch(players, seeds, auto_reset=True, reset_seeds=iter(later), start_score=3)
    # Each finished match is replayed in the engine; every seed is played once, and once the
    # seeds run out the matches stay over.
    finished = play_auto_reset(batch, MalinGame(players, start_score=3), 600, np.random.default_rng(1))
    assert sorted(finished) == [5, 6, 100, 101, 102, 103, 104]
    assert batch.terminal.all() and batch.matches_done == 7


def test_long_matches_deal_past_the_first_hands() -> None:
    # Heuristic play at 3 players from 10 points lasts beyond DEALT_AHEAD hands: the later deals too.
    seeds = sample_seeds(4, 77)
    play_along(3, seeds, policy="heuristic")
    batch = MalinBatch(3, seeds)
    while not batch.terminal.all():
        batch.step(batch.heuristic_actions())
    assert int(batch.round.max()) > batch_malin.DEALT_AHEAD


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    batch = MalinBatch(4, [1, 2, 3])
    before = (batch.current_player.copy(), batch.phase.copy(), batch.hands.copy(), batch.bids.copy())
    actions = batch.random_actions(np.random.default_rng(0))
    actions[1] = 3  # a card during the bidding
    with pytest.raises(IllegalActions, match="match 1"):
        batch.step(actions)
    assert (batch.current_player == before[0]).all() and (batch.phase == before[1]).all()
    assert (batch.hands == before[2]).all() and (batch.bids == before[3]).all()
    batch.step(batch.random_actions(np.random.default_rng(0)))


def test_inactive_matches_keep_their_state() -> None:
    batch = MalinBatch(4, [7, 8, 9, 10])
    game = MalinGame(4)
    states = [game.new_state(seed=s) for s in [7, 8, 9, 10]]
    rng = np.random.default_rng(3)
    for turn in range(150):
        active = np.arange(4) != turn % 4
        active[3] = active[3] and turn % 3 != 0
        actions = batch.random_actions(rng)
        if batch.terminal.all():
            break
        illegal = actions.copy()
        illegal[~active] = -7  # ignored for held matches, even with check on
        step_held(batch, states, illegal, active)
        mask = batch.legal_mask()
        for g, state in enumerate(states):
            assert_same(batch, mask, g, state)


def test_same_seeds_same_matches() -> None:
    def run() -> np.ndarray[Any, Any]:
        return final_scores(MalinBatch(5, range(40)), 9)

    assert (run() == run()).all()
