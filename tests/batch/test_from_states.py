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

import pkgutil
import random
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import pytest

from atout.batch import MalinBatch, NainJauneBatch, StichelnBatch, WizardBatch
from atout.core.game import Game, State
from atout.games.malin import MalinGame
from atout.games.malin.game import WISH_BASE, WISH_MAX, WISH_MIN
from atout.games.nain_jaune import NainJauneGame
from atout.games.sticheln import StichelnGame
from atout.games.wizard import WizardGame


class Case(NamedTuple):
    """A game's batch and engine, a configuration, the phases random stops must reach, a stop's length bound."""

    batch: Any
    game: type[Game]
    options: dict[str, Any]
    phases: frozenset[str]
    #: Random stops draw the number of actions played in 0..horizon (beyond a match's length: its end).
    horizon: int
    #: The scores at the end of the round just played, from the engine state waiting for the next deal
    #: (where a round-only match of the batch ends): by default the state's scores.
    round_end_scores: Callable[[Any], list[int]] = lambda state: list(state.scores())
    #: The actions random stops choose from (by default every legal action).
    choices: Callable[[Any], list[int]] = lambda state: list(state.legal_actions())

    def make(self, players: int) -> Game:
        return self.game(players, **self.options)


def malin_choices(state: Any) -> list[int]:
    """The legal actions but the Wish values outside 0..15: so that a card collides with the Wish now and then."""
    legal = list(state.legal_actions())
    wish = range(WISH_BASE + WISH_MIN, WISH_BASE + WISH_MAX + 1)
    kept = [a for a in legal if a not in wish or 0 <= a - WISH_BASE <= 15]
    return kept or legal


def nain_jaune_deal_end(state: Any) -> list[int]:
    """The tokens when the deal ended (the sheet's last line): the engine has since put the next stakes in."""
    return list(state.sheet[-1].tokens)


CASES = {
    "wizard": Case(WizardBatch, WizardGame, {"rounds": 5}, frozenset({"trump", "bid", "play", "over"}), 90),
    "wizard-options": Case(
        WizardBatch,
        WizardGame,
        {"rounds": 3, "clairvoyance": True, "bids": "hidden_until_play"},
        frozenset({"bid", "play", "over"}),
        30,
    ),
    "sticheln": Case(StichelnBatch, StichelnGame, {"hands": 2}, frozenset({"pain", "play", "over"}), 60),
    "nain-jaune": Case(
        NainJauneBatch,
        NainJauneGame,
        {"max_deals": 3, "start_tokens": 30},
        frozenset({"play", "over"}),
        100,
        nain_jaune_deal_end,
    ),
    "nain-jaune-options": Case(
        NainJauneBatch,
        NainJauneGame,
        {
            "max_deals": 2,
            "voluntary_stop": True,
            "manual_claim": True,
            "sequence_bonus": True,
            "first_card": "lowest",
            "direction": "counterclockwise",
        },
        frozenset({"play", "over"}),
        80,
        nain_jaune_deal_end,
    ),
    "malin": Case(
        MalinBatch,
        MalinGame,
        {},
        frozenset({"bid", "play", "redeclare", "over"}),
        60,
        choices=malin_choices,
    ),
    "malin-options": Case(
        MalinBatch,
        MalinGame,
        {
            "sum_rule": "running",
            "wish_forbidden_scope": "hand",
            "wish_collision": "redeclare_any_trick",
            "twin_value": "avoid_taken",
            "start_score": 4,
        },
        frozenset({"bid", "play", "redeclare", "over"}),
        40,
        choices=malin_choices,
    ),
}
PLAYERS = (3, 4, 5)


def params() -> list[Any]:
    return [pytest.param(name, n, id=f"{name}-{n}p") for name in CASES for n in PLAYERS]


def random_stops(case: Case, game: Game, count: int, key: int) -> list[State]:
    """``count`` seeded matches, each played with random legal actions for a random number of them.

    Then on to the next state in the phase the match is assigned (the case's
    phases in turn), or to the match's end: rare phases (Wizard's trump
    choice) are met too.
    """
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
                state.apply(rng.choice(case.choices(state)))
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


def play_on(case: Case, batch: Any, game: Game, states: Sequence[State], seed: int, bot: Any = None) -> None:
    """Step ``batch`` and ``states`` with the same random legal actions until every match is over.

    A match of :attr:`round_only` ends with its round: the engine state is then
    at the next round's chance node (not over), with the same scores at the
    round's end, and is no longer compared.  With a ``bot`` (the game's
    heuristic), the batch's heuristic plays instead, checked against the
    bot's choice in every position.
    """
    rng = np.random.default_rng(seed)
    live = [True] * len(states)
    turn = 0
    while True:
        assert_same(batch, game, states, live, turn)
        for g, state in enumerate(states):
            if state.is_terminal:
                live[g] = False  # seen over alike once: a finished match no longer changes
        if batch.terminal.all():
            break
        if bot is None:
            actions = batch.random_actions(rng)
        else:
            actions = batch.heuristic_actions()
            for g, state in enumerate(states):
                if live[g]:
                    assert int(actions[g]) == bot.choose(state.view(state.current_player)), (g, turn)
        for g, state in enumerate(states):
            if live[g]:
                state.apply(int(actions[g]))
        step = batch.step(actions)
        for g, state in enumerate(states):
            if not live[g]:
                continue
            if batch.round_only[g] and state.is_chance:
                # The round is over: scored alike; the batch ends the match, the engine waits for a deal.
                assert step.terminal[g] and batch.terminal[g], (g, turn)
                assert step.scores[g].tolist() == case.round_end_scores(state), (g, turn)
                live[g] = False
            else:
                assert bool(step.terminal[g]) == state.is_terminal, (g, turn)
        turn += 1
    assert not any(live)


@pytest.mark.parametrize(("name", "players"), params())
def test_seeded_states_play_on_as_the_engine(name: str, players: int) -> None:
    case = CASES[name]
    game = case.make(players)
    states = random_stops(case, game, 30, players)
    assert case.phases <= {s.phase_name for s in states}  # every phase, finished matches too
    batch = case.batch.from_states(states)
    assert not batch.auto_reset and not batch.round_only.any()
    assert batch.seeds == [s.seed for s in states]
    play_on(case, batch, game, states, players)


@pytest.mark.parametrize(("name", "players"), params())
def test_sampled_worlds_play_their_round_as_the_engine(name: str, players: int) -> None:
    case = CASES[name]
    game = case.make(players)
    sampled = worlds(game, random_stops(case, game, 20, 10 + players), players)
    batch = case.batch.from_states(sampled)
    assert batch.round_only.all() and batch.seeds == [-1] * len(sampled)
    play_on(case, batch, game, sampled, 10 + players)


@pytest.mark.parametrize(("name", "players"), params())
def test_sampled_worlds_given_seeds_play_the_match_as_reseeded(name: str, players: int) -> None:
    case = CASES[name]
    game = case.make(players)
    sampled = worlds(game, random_stops(case, game, 12, 20 + players), players)
    seeds = [7 * g + 3 for g in range(len(sampled))]
    batch = case.batch.from_states(sampled, seeds=seeds)
    assert not batch.round_only.any() and batch.seeds == seeds
    for world, seed in zip(sampled, seeds, strict=True):
        world.reseed(seed)  # the engine deals the rounds to come from the seed as the batch does
    play_on(case, batch, game, sampled, 20 + players)


@pytest.mark.parametrize("name", list(CASES))
def test_the_heuristic_plays_loaded_states_as_the_engine_bot(name: str) -> None:
    # What a search bot's playouts run: the heuristic from states met in play, and from worlds.
    case = CASES[name]
    game = case.make(4)
    bot = pkgutil.resolve_name(game.bots["heuristic"])()
    seeded = random_stops(case, game, 8, 70)
    sampled = worlds(game, random_stops(case, game, 8, 80), 4)
    play_on(case, case.batch.from_states([*seeded, *sampled]), game, [*seeded, *sampled], 70, bot)


@pytest.mark.parametrize("name", list(CASES))
def test_the_batch_keeps_a_copy(name: str) -> None:
    case = CASES[name]
    game = case.make(4)
    states = [s for s in random_stops(case, game, 12, 50) if not s.is_terminal]
    kept = [s.clone() for s in states]
    batch = case.batch.from_states(states)
    rng = random.Random(0)
    for state in states:  # moved on after loading: the batch still holds the states as they were
        state.apply(rng.choice(state.legal_actions()))
    play_on(case, batch, game, kept, 50)


@pytest.mark.parametrize("name", list(CASES))
def test_refusals_name_the_state(name: str) -> None:
    case = CASES[name]
    game = case.make(4)
    seeded = random_stops(case, game, 3, 60)
    with pytest.raises(ValueError, match="state 2 is at a chance node"):
        case.batch.from_states([*seeded[:2], game.new_state()])
    other = case.make(5).new_state(seed=1)
    with pytest.raises(ValueError, match="state 1 is of another configuration"):
        case.batch.from_states([seeded[0], other])
    with pytest.raises(ValueError, match="at least one state"):
        case.batch.from_states([])
    with pytest.raises(ValueError, match="seeds has 1 entries for 3 states"):
        case.batch.from_states(seeded, seeds=[1])
    foreign = next(c for c in CASES.values() if c.game is not case.game)
    with pytest.raises(ValueError, match=r"state 0 is a .* state: .* loads"):
        case.batch.from_states([foreign.make(4).new_state(seed=1)])


def test_malin_refuses_the_jeu_fun() -> None:
    state = MalinGame(4, fun=True).new_state(seed=1)
    with pytest.raises(ValueError, match="base game only"):
        MalinBatch.from_states([state])
