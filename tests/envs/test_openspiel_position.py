"""Positions reachable from OpenSpiel game parameters: ``position=`` (issue 27, point 6).

Why: an OpenSpiel user studies a situation (a round's start, a hand half
played) with OpenSpiel's own algorithms; the game parameter is the only door
``pyspiel.load_game`` has, and every state of that game must start there,
clone, serialize and replay from there.
"""

from __future__ import annotations

import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is an optional extra")

import atout  # noqa: E402
import atout.envs.openspiel  # noqa: E402  (registers the games)

ROUND_5 = "round=5 dealer=0 scores=10,-20,30 hands=-/-/-"


def test_position_parameter_starts_every_state_there() -> None:
    game = pyspiel.load_game("python_atout_wizard", {"players": 3, "position": ROUND_5})
    state = game.new_initial_state()
    assert state.atout_state.round == 5 and state.atout_state.scores() == [10, -20, 30]
    assert state.is_chance_node()  # the deal of round 5, explicit
    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if len(state.history()) == 20:
            clone = state.clone()
            assert clone.atout_state.position() == state.atout_state.position()
            again = pickle.loads(pickle.dumps(state))
            assert again.history() == state.history() and again.atout_state.round == state.atout_state.round
    engine = atout.load("wizard", players=3).new_state(position=ROUND_5)
    for action in state.history():
        engine.apply(action)
    assert engine.is_terminal and state.returns() == [float(s) for s in engine.scores()]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_seeded_position_and_mid_round_position() -> None:
    game = pyspiel.load_game("python_atout_sticheln", {"players": 4, "hands": 2})
    state = game.new_initial_state()
    rng = random.Random(1)
    while len(state.history()) < 70:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = state.atout_state.position()
    mid = pyspiel.load_game("python_atout_sticheln", {"players": 4, "hands": 2, "position": text})
    start = mid.new_initial_state()
    assert start.atout_state.position() == text and start.legal_actions() == state.legal_actions()
    seeded = pyspiel.load_game("python_atout_wizard", {"players": 3, "position": ROUND_5 + " seed=7"})
    first = seeded.new_initial_state()
    assert not first.is_chance_node()  # the seed deals round 5 as that round of match 7
    assert (
        first.atout_state.position()
        == atout.load("wizard", players=3).new_state(position=ROUND_5, seed=7).position()
    )


def test_bad_position_refused_when_loaded() -> None:
    with pytest.raises(ValueError, match=r"position parameter: .*round"):
        pyspiel.load_game("python_atout_wizard", {"players": 3, "position": "round=99 dealer=0"})
