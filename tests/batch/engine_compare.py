"""What the batch tests share: seeded samples, and a batch played beside the engine, step by step.

Why one place: every game's batch is checked against its engine the same way —
a seeded sample of matches in a batch and the same matches as engine states
(``game.new_state(seed)``), fed the same actions, compared before every step
(legal sets, state, tensors value for value, the heuristic against the
engine's bot), the step's rewards and terminal flags against the engine's
score sheet, auto-reset matches replayed in the engine.  Each test file keeps
what is its game's own: which state to compare, what a round's reward is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from atout.core.game import Game

Mask = NDArray[np.bool_]
#: ``compare(batch, mask, states)``: asserts that every match of the batch is its engine state.
Compare = Callable[[Any, Mask, Sequence[Any]], None]


class Before(NamedTuple):
    """An engine state just before a step: its score sheet's length and its scores."""

    lines: int
    scores: list[int]


#: ``rewards(state, before)``: the rewards the batch's step must report for the engine state ``state``.
Rewards = Callable[[Any, Before], list[int]]


def sample_seeds(count: int, key: int) -> list[int]:
    """``count`` seeds of mixed sizes (8, 32 and 63 bits), the same for the same ``key``."""
    rng = random.Random(key)
    return [rng.getrandbits(rng.choice((8, 32, 63))) for _ in range(count)]


def assert_basics(batch: Any, mask: Mask, g: int, state: Any, where: str = "") -> None:
    """What every game's match shows alike: the seat to act, the end, the scores, the legal set, round and dealer."""
    assert int(batch.current_player[g]) == state.current_player, where
    assert bool(batch.terminal[g]) == state.is_terminal, where
    assert batch.scores[g].tolist() == state.scores(), where
    assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions()), where
    assert int(batch.round[g]) == state.round, where
    assert int(batch.dealer[g]) == state.dealer, where


def each_match(check: Callable[[Any, Mask, int, Any], None]) -> Compare:
    """A :data:`Compare` from ``check(batch, mask, g, state)``, one match at a time."""

    def compare(batch: Any, mask: Mask, states: Sequence[Any]) -> None:
        for g, state in enumerate(states):
            check(batch, mask, g, state)

    return compare


def sheet_rewards(column: int) -> Rewards:
    """The rewards of a step: column ``column`` of the score sheet's new line (the round's deltas), else zeros."""

    def rewards(state: Any, before: Before) -> list[int]:
        return list(state.sheet[-1][column]) if len(state.sheet) > before.lines else [0] * state.n

    return rewards


def score_changes(state: Any, before: Before) -> list[int]:
    """The rewards of a step: each seat's score change over it."""
    return [a - b for a, b in zip(state.scores(), before.scores, strict=True)]


def check_tensors(batch: Any, game: Game, states: Sequence[Any], step: int) -> None:
    """Both tensors, for the seat to act and for another seat, value for value the engine's (float64 and float32)."""
    others = (np.arange(batch.num_games) + step) % batch.players
    for info in (False, True):
        encode = game.information_state_tensor if info else game.observation_tensor
        acting = batch.observation_tensor(information_state=info, dtype=np.float64)
        chosen = batch.observation_tensor(others, information_state=info)
        assert chosen.dtype == np.float32
        assert acting.shape[1] == (
            game.information_state_tensor_size() if info else game.observation_tensor_size()
        )
        for g, state in enumerate(states):
            seat = max(state.current_player, 0)
            assert acting[g].tolist() == encode(state.view(seat))
            assert chosen[g].tolist() == [np.float32(x) for x in encode(state.view(int(others[g])))]


def play_along(
    batch: Any,
    game: Game,
    seeds: list[int],
    bot: Any,
    *,
    compare: Compare,
    rewards: Rewards,
    policy: str = "random",
    tensors: bool = False,
    start: int = 0,
) -> int:
    """Play ``batch`` (of the matches ``seeds``) and the engine side by side until every match is over.

    ``policy``: ``random`` (the batch's random actions), ``heuristic`` (the
    batch's heuristic, checked against ``bot`` in every position) or
    ``mixed`` (the heuristic checked everywhere, random play half the time);
    ``tensors``: check them at every step too; ``start``: every seat's score
    before the match (the rewards add up to the final scores minus it).
    Returns the steps taken.
    """
    players = batch.players
    states: list[Any] = [game.new_state(seed=s) for s in seeds]
    rng = np.random.default_rng(len(seeds) * 7 + players)
    totals = np.zeros((len(seeds), players), dtype=np.int64)
    steps = 0
    while True:
        mask = batch.legal_mask()
        assert (mask.sum(axis=1) == batch.legal_counts()).all()
        compare(batch, mask, states)
        if tensors:
            check_tensors(batch, game, states, steps)
        if batch.terminal.all():
            break
        if policy in ("heuristic", "mixed"):
            actions = batch.heuristic_actions()
            for g, state in enumerate(states):
                expected = -1 if state.is_terminal else bot.choose(state.view(state.current_player))
                assert int(actions[g]) == expected, (g, steps)
            if policy == "mixed":  # the bot's choice checked everywhere, random play half the time
                actions = np.where(rng.random(len(seeds)) < 0.5, actions, batch.random_actions(rng))
        else:
            actions = batch.random_actions(rng)
        was_over = [s.is_terminal for s in states]
        before = [Before(len(s.sheet), s.scores()) for s in states]
        for g, state in enumerate(states):
            if not state.is_terminal:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            assert bool(step.terminal[g]) == (state.is_terminal and not was_over[g])
            assert step.scores[g].tolist() == state.scores()
            assert step.rewards[g].tolist() == rewards(state, before[g]), (g, steps)
        totals += step.rewards
        steps += 1
    for g, state in enumerate(states):
        assert (totals[g] + start).tolist() == state.scores()  # the per-round rewards add up to the score
    return steps


def play_auto_reset(batch: Any, game: Game, turns: int, rng: np.random.Generator) -> list[int]:
    """Random play of an auto-reset ``batch`` for ``turns`` steps, every match that ends replayed in the engine.

    Each ended match, replayed from its seed with the actions it was given,
    must end in the engine too, with the scores the step reported.  Returns
    the seeds of the matches that ended, in the order they ended.
    """
    histories: list[list[int]] = [[] for _ in range(batch.num_games)]
    started = list(batch.seeds)
    ended: list[int] = []
    for _ in range(turns):
        actions = batch.random_actions(rng)
        for g in range(batch.num_games):
            if actions[g] >= 0:
                histories[g].append(int(actions[g]))
        step = batch.step(actions)
        for g in np.flatnonzero(step.terminal).tolist():
            state = game.new_state(seed=started[g])
            for action in histories[g]:
                state.apply(action)
            assert state.is_terminal and state.scores() == step.scores[g].tolist()
            ended.append(started[g])
            histories[g], started[g] = [], batch.seeds[g]
    return ended


def step_held(batch: Any, states: Sequence[Any], actions: NDArray[np.intp], active: Mask) -> None:
    """One step of the ``active`` matches only, in the batch and in the engine (the others hold)."""
    for g, state in enumerate(states):
        if active[g] and not state.is_terminal:
            state.apply(int(actions[g]))
    batch.step(actions, active=active)


def final_scores(batch: Any, seed: int) -> NDArray[np.int32]:
    """The scores of ``batch`` played out by its random policy (``seed``: the policy's generator)."""
    rng = np.random.default_rng(seed)
    while not batch.terminal.all():
        batch.step(batch.random_actions(rng))
    result: NDArray[np.int32] = batch.scores.copy()
    return result
