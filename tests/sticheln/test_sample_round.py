"""Sticheln's ``sample_round``: worlds at a hand's first decision, replayed to the view.

Policy-based inference (``atout.bots.search``) replays these worlds and asks
the heuristic about every other seat's handicap card and play, so a world must
start at the hand's first handicap choice, replay legally to the viewer's own
view, and differ from one draw to the next where the viewer cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.bots.search import SearchBot
from atout.games.sticheln import StichelnGame, StichelnState
from atout.games.sticheln.bot import StichelnHeuristicBot
from atout.games.sticheln.view import StichelnView
from atout.testing import check_sample_round

#: Options that change the structure of a hand (who leads, how many handicap
#: cards, when they are revealed, how tricks are won) or what a view holds.
ROUND_OPTIONS: list[dict[str, Any]] = [
    {"two_pain_colours": True},
    {"hidden_pain": True},
    {"two_pain_colours": True, "hidden_pain": True},
    {"first_lead": "dealer"},
    {"all_zero_trick": "void"},
    {"zero_lead_colour": "first_nonzero"},
    {"first_dealer": 2},
    {"hands": 2},
    {"gentle": True},
    {"pain_card_only": True},
]


@pytest.mark.parametrize("players", range(StichelnGame.min_players, StichelnGame.max_players + 1))
def test_round_worlds_replay_to_the_view_at_every_table_size(players: int) -> None:
    assert check_sample_round(atout.load("sticheln", players), seed=players) > 0


@pytest.mark.parametrize("options", ROUND_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_round_worlds_replay_to_the_view_with_each_option(options: dict[str, Any]) -> None:
    assert check_sample_round(atout.load("sticheln", 3, **options), seed=7) > 0
    assert check_sample_round(atout.load("sticheln", 6, **options), seed=8) > 0


def _game(players: int, **options: Any) -> StichelnGame:
    game = atout.load("sticheln", players, **options)
    assert isinstance(game, StichelnGame)
    return game


def _state(game: StichelnGame, seed: int) -> StichelnState:
    state = game.new_state(seed)
    assert isinstance(state, StichelnState)
    return state


def _view(state: StichelnState, seat: int) -> StichelnView:
    view = state.view(seat)
    assert isinstance(view, StichelnView)
    return view


def _round(game: StichelnGame, view: StichelnView, rng: random.Random) -> tuple[StichelnState, list[int]]:
    got = game.sample_round(view, rng)
    assert got is not None
    world, actions = got
    assert isinstance(world, StichelnState)
    return world, actions


def _play_until(state: StichelnState, rng: random.Random, stop: Any) -> None:
    while not stop(state):
        state.apply(rng.choice(state.legal_actions()))


def test_round_start_is_the_hands_first_decision() -> None:
    # Play into the second hand, remembering the true state at its first decision.
    game = _game(4, two_pain_colours=True)
    state = _state(game, 3)
    rng = random.Random(3)
    _play_until(state, rng, lambda s: s.round == 2 and s.phase_name == "pain")
    start = state.clone()
    _play_until(state, rng, lambda s: len(s.tricks) == 3 and len(s.trick) == 2)
    seat = state.current_player
    view = _view(state, seat)
    for _ in range(5):
        world, actions = _round(game, view, rng)
        assert world.phase_name == "pain"
        assert world.current_player == (view.dealer + 1) % 4
        assert world.pains == [[], [], [], []] and world.tricks == [] and world.trick == []
        assert [h.bit_count() for h in world.hands] == [game.deck.hand_size] * 4
        # The viewer sees exactly what it saw at the true hand's first decision.
        assert world.view(seat).to_dict() == start.view(seat).to_dict()
        # Two handicap cards per seat, then 3 tricks and 2 cards: no chance event within a hand.
        assert len(actions) == 2 * 4 + 3 * 4 + 2


def _hidden_at_start(world: StichelnState, seat: int) -> tuple[int, ...]:
    return tuple(h for s, h in enumerate(world.hands) if s != seat)


def test_worlds_vary_in_hidden_hands_and_hidden_handicap_cards() -> None:
    game = _game(4, hidden_pain=True)
    pain = game.space["pain"]
    state = _state(game, 11)
    rng = random.Random(11)
    _play_until(state, rng, lambda s: s.phase_name == "play" and len(s.tricks) == 2)
    seat = state.current_player
    view = _view(state, seat)
    hands: set[tuple[int, ...]] = set()
    pains: set[tuple[int, ...]] = set()
    for _ in range(20):
        world, actions = _round(game, view, rng)
        hands.add(_hidden_at_start(world, seat))
        # The hidden handicap choices are in the actions; each is a card its world dealt to that seat.
        laid = tuple(pain.value(a) for a in actions if a in pain)
        pains.add(tuple(k for i, k in enumerate(laid) if (view.dealer + 1 + i) % 4 != seat))
        replay = world.clone()
        for action in actions:
            if replay.current_player >= 0 and action in pain:
                assert replay.hands[replay.current_player] >> pain.value(action) & 1
            replay.apply(action)
        assert replay.view(seat).to_dict() == view.to_dict()
    assert len(hands) > 1
    assert len(pains) > 1


def test_revealed_handicap_cards_are_replayed_as_laid() -> None:
    game = _game(3)
    state = _state(game, 5)
    rng = random.Random(5)
    _play_until(state, rng, lambda s: s.phase_name == "play" and len(s.tricks) == 1)
    view = _view(state, state.current_player)
    _, actions = _round(game, view, rng)
    dealer_left = (view.dealer + 1) % 3
    pain = game.space["pain"]
    truth = [pain(state.pains[(dealer_left + i) % 3][0]) for i in range(3)]
    assert actions[:3] == truth


def test_heuristic_can_be_asked_at_every_replayed_decision() -> None:
    # The heuristic keeps no memory between calls, so asking it about each seat
    # of each world (what SearchBot._weighted_world does) is safe.
    game = _game(5, two_pain_colours=True)
    state = _state(game, 2)
    rng = random.Random(2)
    _play_until(state, rng, lambda s: s.phase_name == "play" and len(s.tricks) == 4)
    view = _view(state, state.current_player)
    bot = StichelnHeuristicBot(seed=0)
    world, actions = _round(game, view, rng)
    for action in actions:
        actor = world.current_player
        assert bot.choose(world.view(actor)) in world.legal_actions()
        world.apply(action)
    searcher = SearchBot(seed=0, playouts=8, inference=True)
    searcher.start(game, view.seat)
    assert searcher.choose(view) in view.legal_actions


def test_refuses_a_view_of_another_game() -> None:
    other = atout.load("sticheln", 4).new_state(1)
    with pytest.raises(ValueError):
        atout.load("sticheln", 3).sample_round(other.view(other.current_player), random.Random(0))
