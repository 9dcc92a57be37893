"""Reprs a person can read and paste back (issue 30).

A state's repr is an expression that rebuilds it through its position; a view's
shows its cards as text; an action space lists its ranges.
"""

from __future__ import annotations

import random

import pytest

import atout
from atout.core.game import State
from atout.core.registry import game_class


def _configs() -> list[tuple[str, int]]:
    return [
        (name, n)
        for name in atout.names()
        for n in range(game_class(name).min_players, game_class(name).max_players + 1)
    ]


#: A match's history longer than this goes on from its position, as a game resumed from a saved
#: position does (the same seed deals the same cards): a position that lists the moves since the
#: deal (Le Malin, Le Nain Jaune) is found by replaying the history, so each repr costs its
#: history's length, and the longest match (Le Nain Jaune for 3, 6,000 moves) cost 20 s.
REBASE = 1000


def _states(name: str, players: int, seed: int) -> list[State]:
    """States met in one seeded random match (every 7th), and the first chance node of an unseeded one.

    Past :data:`REBASE` moves the match goes on from its position: the states after are those
    of a game resumed from a position (``start`` and a history since), which repr rebuilds too.
    """
    game = atout.load(name, players=players)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    out = [game.new_state()]
    while not state.is_terminal:
        if len(state.history) >= REBASE:
            state = game.new_state(position=state.position(), seed=seed)
        if len(state.history) % 7 == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    out.append(state)
    return out


@pytest.mark.parametrize(("name", "players"), _configs())
def test_a_state_repr_rebuilds_the_state(name: str, players: int) -> None:
    for state in _states(name, players, seed=players):
        text = repr(state)
        assert text.startswith(f"atout.load({name!r}, players={players}"), text
        rebuilt = eval(text, {"atout": atout})  # the repr is the expression, nothing else
        assert rebuilt.position() == state.position()
        assert rebuilt.current_player == state.current_player
        if not state.is_chance:
            assert rebuilt.legal_actions() == state.legal_actions()
        for seat in range(players):
            assert rebuilt.view(seat) == state.view(seat)


def test_a_view_repr_shows_cards_as_text() -> None:
    game = atout.load("wizard", players=3)
    state = game.new_state(
        position="round=2 dealer=0 scores=0,0,0 hands=B3,Z/G7,N/R1,Y13 turned=B5 trump=blue"
    )
    text = repr(state.view(0))
    assert text.startswith("WizardView(game=atout.load('wizard', players=3), seat=0, ")
    assert "hand=['B3', 'Z']" in text
    assert "turned='B5'" in text and "trump='blue'" in text
    assert "G7" not in text  # seat 1's hand is not seat 0's to see


def test_an_action_space_repr_lists_its_ranges() -> None:
    assert repr(atout.load("wizard", players=3).space) == (
        "ActionSpace('Wizard', 79 ids: play 0..53 ('play B1'..'play N'); bid 54..74 ('bid 0'..'bid 20'); "
        "trump 75..78 ('trump blue'..'trump yellow'))"
    )
    assert "pass 52 ('pass'); claim 53 ('claim')" in repr(atout.load("nain-jaune", players=3).space)
