"""``XBatch.from_states``: a batch loaded from engine states plays on exactly as those states do.

Seeded matches are played with random legal actions and stopped at random
points (every phase of the game, finished matches included); the states, and
worlds sampled from their views, are loaded into one batch, and the batch and
the engine states then take the same random legal actions.  At every step
each match shows the engine's legal set, seat to act, information-state tensor
(for the seat to act and a rotating other seat), scores and end.  A seeded
state is followed to the end of its match (the batch deals its later rounds
from the seed); a sampled world, which has no seed, to the end of its round,
where the batch reports it over; a sampled world given a seed
(``seeds=``) to the end of its match, beside the engine world reseeded so.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pytest

from atout.batch import StichelnBatch, WizardBatch
from atout.core.game import Game, State
from atout.games.sticheln import StichelnGame
from atout.games.wizard import WizardGame


class Case(NamedTuple):
    """A game's batch, a configuration builder, the phases random stops must reach, a stop's length bound."""

    batch: Any
    game: type[Game]
    options: dict[str, Any]
    phases: frozenset[str]
    #: Random stops draw the number of actions played in 0..horizon (beyond a match's length: its end).
    horizon: int


CASES = {
    "wizard": Case(WizardBatch, WizardGame, {"rounds": 5}, frozenset({"trump", "bid", "play", "over"}), 90),
    "sticheln": Case(StichelnBatch, StichelnGame, {"hands": 2}, frozenset({"pain", "play", "over"}), 60),
}
PLAYERS = (3, 4, 5)


def params() -> list[Any]:
    return [pytest.param(name, n, id=f"{name}-{n}p") for name in CASES for n in PLAYERS]


def random_stops(game: Game, count: int, key: int) -> list[State]:
    """``count`` seeded matches, each played with random legal actions for a random number of them.

    Then on to the next state in the phase the match is assigned (the case's
    phases in turn), or to the match's end: rare phases (Wizard's trump
    choice) are met too.
    """
    case = CASES[game.name]
    rng = random.Random(key)
    phases = sorted(case.phases)
    states = []
    seed = key * 1000
    for i in range(count):
        target = phases[i % len(phases)]
        for _ in range(20):  # a match in which the phase does not come again: the next seed
            seed += 1
            state = game.new_state(seed=seed)
            steps = rng.randrange(case.horizon + 1)
            while not state.is_terminal and (steps > 0 or state.phase_name != target):
                state.apply(rng.choice(state.legal_actions()))
                steps -= 1
            if state.phase_name == target:
                break
        states.append(state)
    return states


def worlds(game: Game, states: Sequence[State], key: int) -> list[State]:
    """A world sampled from the view of the seat to act of each unfinished state (no seed)."""
    rng = random.Random(key)
    return [game.sample_state(s.view(s.current_player), rng) for s in states if not s.is_terminal]


def assert_same(batch: Any, game: Game, states: Sequence[State], live: Sequence[bool], turn: int) -> None:
    """Every ``live`` match of ``batch`` shows what its engine state shows (legal set, seat, tensors, scores, end)."""
    mask = batch.legal_mask()
    acting = batch.information_state_tensor()
    others = (np.maximum(batch.current_player, 0) + 1 + turn) % batch.players
    other = batch.information_state_tensor(others)
    for g, state in enumerate(states):
        if not live[g]:
            continue
        where = (g, turn, state.phase_name)
        assert np.flatnonzero(mask[g]).tolist() == sorted(state.legal_actions()), where
        assert int(batch.current_player[g]) == state.current_player, where
        assert batch.scores[g].tolist() == state.scores(), where
        assert bool(batch.terminal[g]) == state.is_terminal, where
        assert np.allclose(
            acting[g], game.information_state_tensor(state.view(max(state.current_player, 0)))
        ), where
        assert np.allclose(other[g], game.information_state_tensor(state.view(int(others[g])))), where


def play_on(batch: Any, game: Game, states: Sequence[State], seed: int) -> None:
    """Step ``batch`` and ``states`` with the same random legal actions until every match is over.

    A match of :attr:`round_only` ends with its round: the engine state is then
    at the next round's chance node (not over), with the same scores, and is
    no longer compared.
    """
    rng = np.random.default_rng(seed)
    live = [True] * len(states)
    turn = 0
    while True:
        assert_same(batch, game, states, live, turn)
        if batch.terminal.all():
            break
        actions = batch.random_actions(rng)
        was_over = [s.is_terminal for s in states]
        for g, state in enumerate(states):
            if live[g] and not state.is_terminal:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            if not live[g]:
                continue
            if batch.round_only[g] and state.is_chance:
                # The round is over: scored alike; the batch ends the match, the engine waits for a deal.
                assert step.terminal[g] and batch.terminal[g], (g, turn)
                assert step.scores[g].tolist() == state.scores(), (g, turn)
                live[g] = False
            else:
                assert bool(step.terminal[g]) == (state.is_terminal and not was_over[g]), (g, turn)
        turn += 1
    assert not any(live[g] and not s.is_terminal for g, s in enumerate(states))


@pytest.mark.parametrize(("name", "players"), params())
def test_seeded_states_play_on_as_the_engine(name: str, players: int) -> None:
    case = CASES[name]
    game = case.game(players, **case.options)
    states = random_stops(game, 40, players)
    assert case.phases <= {s.phase_name for s in states}  # every phase, finished matches too
    batch = case.batch.from_states(states)
    assert not batch.auto_reset and not batch.round_only.any()
    assert batch.seeds == [s.seed for s in states]
    play_on(batch, game, states, players)


@pytest.mark.parametrize(("name", "players"), params())
def test_sampled_worlds_play_their_round_as_the_engine(name: str, players: int) -> None:
    case = CASES[name]
    game = case.game(players, **case.options)
    sampled = worlds(game, random_stops(game, 30, 10 + players), players)
    batch = case.batch.from_states(sampled)
    assert batch.round_only.all() and batch.seeds == [-1] * len(sampled)
    play_on(batch, game, sampled, 10 + players)


@pytest.mark.parametrize(("name", "players"), params())
def test_sampled_worlds_given_seeds_play_the_match_as_reseeded(name: str, players: int) -> None:
    case = CASES[name]
    game = case.game(players, **case.options)
    sampled = worlds(game, random_stops(game, 16, 20 + players), players)
    seeds = [7 * g + 3 for g in range(len(sampled))]
    batch = case.batch.from_states(sampled, seeds=seeds)
    assert not batch.round_only.any() and batch.seeds == seeds
    for world, seed in zip(sampled, seeds, strict=True):
        world.reseed(seed)  # the engine deals the rounds to come from the seed as the batch does
    play_on(batch, game, sampled, 20 + players)


@pytest.mark.parametrize("name", list(CASES))
def test_the_batch_keeps_a_copy(name: str) -> None:
    case = CASES[name]
    game = case.game(4, **case.options)
    states = [s for s in random_stops(game, 12, 50) if not s.is_terminal]
    kept = [s.clone() for s in states]
    batch = case.batch.from_states(states)
    rng = random.Random(0)
    for state in states:  # moved on after loading: the batch still holds the states as they were
        state.apply(rng.choice(state.legal_actions()))
    play_on(batch, game, kept, 50)


@pytest.mark.parametrize("name", list(CASES))
def test_refusals_name_the_state(name: str) -> None:
    case = CASES[name]
    game = case.game(4, **case.options)
    seeded = random_stops(game, 3, 60)
    with pytest.raises(ValueError, match="state 2 is at a chance node"):
        case.batch.from_states([*seeded[:2], game.new_state()])
    other = case.game(5, **case.options).new_state(seed=1)
    with pytest.raises(ValueError, match="state 1 is of another configuration"):
        case.batch.from_states([seeded[0], other])
    with pytest.raises(ValueError, match="at least one state"):
        case.batch.from_states([])
    with pytest.raises(ValueError, match="seeds has 1 entries for 3 states"):
        case.batch.from_states(seeded, seeds=[1])
    foreign = next(c for n, c in CASES.items() if n != name) if len(CASES) > 1 else None
    if foreign is not None:
        with pytest.raises(ValueError, match="state 0 is a"):
            case.batch.from_states([foreign.game(4, **foreign.options).new_state(seed=1)])
