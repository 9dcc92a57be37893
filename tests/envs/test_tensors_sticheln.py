"""Sticheln's tensor layout (src/atout/i18n/en/rules/sticheln.md, "Tensors"): sizes, read-back, no leak."""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.games.sticheln.game import StichelnGame, StichelnState
from atout.games.sticheln.tensor import PHASES, blocks, hand_bound, led_colour
from atout.games.sticheln.view import StichelnView
from atout.testing import check_tensors

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"two_pain_colours": True},
    {"hidden_pain": True},
    {"all_zero_trick": "void", "zero_lead_colour": "first_nonzero"},
    {"gentle": True, "first_lead": "dealer"},
    {"pain_card_only": True, "hands": 2},
]


def _block(game: StichelnGame, tensor: list[float], name: str) -> list[float]:
    at = 0
    for block, size in blocks(game, information_state=True):
        if block == name:
            return tensor[at : at + size]
        at += size
    raise KeyError(name)


def _expected_size(game: StichelnGame, information_state: bool) -> int:
    n, d, c = game.players, game.deck.size, game.deck.colours
    size = 5 + game.num_hands + 3 * n + d + n * game.pain_count + 2 * n * d + c + 2 * n * c + 2 * n
    if information_state:
        size += game.tricks_per_hand * n * (d + 1)
    return size


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "default")
def test_sizes(players: int, options: dict[str, Any]) -> None:
    game = atout.load("sticheln", players, **options)
    assert isinstance(game, StichelnGame)
    obs, info = game.observation_tensor_size(), game.information_state_tensor_size()
    assert obs == _expected_size(game, False) == sum(s for _, s in blocks(game, False))
    assert info == _expected_size(game, True)
    view = game.new_state(seed=1).view(0)
    assert len(game.observation_tensor(view)) == obs
    assert len(game.information_state_tensor(view)) == info


def test_documented_sizes() -> None:
    """The sizes quoted in the rules page."""
    game = atout.load("sticheln", 4)
    assert (game.observation_tensor_size(), game.information_state_tensor_size()) == (618, 4034)


@pytest.mark.parametrize("players", range(3, 9))
def test_check_tensors_every_player_count(players: int) -> None:
    check_tensors(atout.load("sticheln", players, hands=2), seed=players, every=5)


@pytest.mark.parametrize("options", OPTION_SETS[1:], ids=lambda o: ",".join(o))
def test_check_tensors_with_options(options: dict[str, Any]) -> None:
    options = {"hands": 2, **options}
    check_tensors(atout.load("sticheln", 4, **options), seed=11, every=3, samples=2)


def _play_until(game: StichelnGame, seed: int, stop: Any) -> StichelnState:
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not stop(state):
        state.apply(rng.choice(state.legal_actions()))
    return state


def _captured(view: StichelnView) -> list[list[int]]:
    taken: list[list[int]] = [[] for _ in range(view.game.players)]
    for cards, winner in view.tricks:
        if winner >= 0:
            taken[winner].extend(k for _, k in cards)
    return taken


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_layout_reads_back(players: int) -> None:
    """Reading the documented blocks back gives the view's facts."""
    game = StichelnGame(players)
    n, d, c, v = players, game.deck.size, game.deck.colours, game.deck.values
    state = _play_until(
        game, 7, lambda s: s.round == 2 and s.phase_name == "play" and len(s.tricks) >= 5 and s.trick
    )
    me = state.current_player
    view = state.view(me)
    tensor = game.information_state_tensor(view)
    assert game.observation_tensor(view) == tensor[: game.observation_tensor_size()]

    def rel(seat: int) -> int:
        return (seat - me) % n

    assert _block(game, tensor, "phase") == [1.0 if p == "play" else 0.0 for p in PHASES]
    assert _block(game, tensor, "hand_no").index(1.0) == 1
    assert _block(game, tensor, "dealer").index(1.0) == rel(view.dealer)
    assert _block(game, tensor, "to_act") == [1.0] + [0.0] * (n - 1)
    assert _block(game, tensor, "leader").index(1.0) == rel(view.leader)
    hand = _block(game, tensor, "hand")
    assert [k for k in range(d) if hand[k]] == list(view.hand)
    assert set(hand) <= {0.0, 1.0}
    assert _block(game, tensor, "pain_laid") == [1.0] * n
    pains = _block(game, tensor, "pains")
    for seat in range(n):
        row = pains[rel(seat) * d : (rel(seat) + 1) * d]
        assert [k for k in range(d) if row[k]] == sorted(view.pains[seat] or ())
    trick = _block(game, tensor, "trick")
    assert sum(trick) == len(view.trick)
    for seat, kind in view.trick:
        assert trick[rel(seat) * d + kind] == 1.0
    led = _block(game, tensor, "led_colour")
    assert led.index(1.0) == game.deck.colour_of[view.trick[0][1]] == led_colour(game, view.trick)
    taken, taken_value = _block(game, tensor, "taken"), _block(game, tensor, "taken_value")
    points = _block(game, tensor, "hand_points")
    for seat, taken_cards in enumerate(_captured(view)):
        for colour in range(c):
            mine = [k for k in taken_cards if game.deck.colour_of[k] == colour]
            assert taken[rel(seat) * c + colour] == len(mine) / v
            value = sum(game.deck.value_of[k] for k in mine)
            assert taken_value[rel(seat) * c + colour] == value / (v * (v - 1) // 2)
        pain = view.pains[seat]
        assert pain is not None
        expected = game.hand_score(pain, game.deck.mask_of(taken_cards))
        assert points[rel(seat)] == expected / hand_bound(game)
    scores = _block(game, tensor, "scores")
    for seat, score in enumerate(view.scores):
        assert scores[rel(seat)] == score / (game.num_hands * hand_bound(game))
    assert any(view.scores)
    past, winners = _block(game, tensor, "past_tricks"), _block(game, tensor, "past_winners")
    for t, (played, winner) in enumerate(view.tricks):
        for seat, kind in played:
            assert past[(t * n + rel(seat)) * d + kind] == 1.0
        assert winners[t * n : (t + 1) * n].index(1.0) == rel(winner)
    assert sum(past) == n * len(view.tricks)
    assert sum(winners) == len(view.tricks)


def test_hidden_handicap_is_flagged_not_shown() -> None:
    """While the handicap cards are face down only their count shows; the own card always shows."""
    game = StichelnGame(4, two_pain_colours=True)
    state = _play_until(game, 3, lambda s: s.phase_name == "pain" and s.pain_turns == 3)
    me = state.current_player  # the second seat, one card laid
    view = state.view(me)
    tensor = game.observation_tensor(view)
    first = (view.dealer + 1) % 4
    laid = _block(game, tensor, "pain_laid")
    rel_first, d = (first - me) % 4, game.deck.size
    assert laid[rel_first * 2 : rel_first * 2 + 2] == [1.0, 1.0]
    assert laid[0:2] == [1.0, 0.0]
    pains = _block(game, tensor, "pains")
    own = view.pains[me]
    assert own is not None and len(own) == 1
    assert [k for k in range(d) if pains[k]] == list(own)
    assert sum(pains) == 1.0  # the first seat's two cards are hidden
    assert _block(game, tensor, "hand_points")[rel_first] == 0.0


def test_hidden_pain_variant_keeps_others_hidden_in_play() -> None:
    game = StichelnGame(3, hidden_pain=True)
    state = _play_until(game, 5, lambda s: s.phase_name == "play" and len(s.tricks) >= 3)
    me = state.current_player
    tensor = game.information_state_tensor(state.view(me))
    pains = _block(game, tensor, "pains")
    assert sum(pains) == 1.0 and sum(pains[: game.deck.size]) == 1.0
    assert _block(game, tensor, "pain_laid") == [1.0, 1.0, 1.0]


def test_led_colour_skips_zeros_under_first_nonzero() -> None:
    game = StichelnGame(4, zero_lead_colour="first_nonzero")
    deck = game.deck
    assert led_colour(game, ()) is None
    zero, seven = deck.parse("R0"), deck.parse("B7")
    assert led_colour(game, ((0, zero),)) is None
    assert led_colour(game, ((0, zero), (1, seven))) == 0
    assert led_colour(StichelnGame(4), ((0, zero), (1, seven))) == 2


def test_sampled_worlds_give_the_same_tensors() -> None:
    game = StichelnGame(5, two_pain_colours=True)
    rng = random.Random(4)
    for stop in (
        lambda s: s.phase_name == "pain" and s.pain_turns == 5,
        lambda s: s.phase_name == "play" and len(s.tricks) == 6 and len(s.trick) == 2,
    ):
        state = _play_until(game, 9, stop)
        view = state.view(state.current_player)
        obs, info = game.observation_tensor(view), game.information_state_tensor(view)
        assert game.observation_tensor(state.clone().view(view.seat)) == obs
        for _ in range(5):
            world = game.sample_state(view, rng).view(view.seat)
            assert game.observation_tensor(world) == obs
            assert game.information_state_tensor(world) == info


def test_hand_bound_covers_the_extremes() -> None:
    """Taking every card played, or the whole handicap colour(s), stays within the bound."""
    for options in ({}, {"two_pain_colours": True}, {"gentle": True}, {"pain_card_only": True}):
        game = StichelnGame(3, **options)
        bound, deck = hand_bound(game), game.deck
        colours = range(game.pain_count)  # blue (and green)
        pains = tuple(deck.kind(colour, deck.values - 1) for colour in colours)
        pain_mask = 0
        for colour in colours:
            pain_mask |= deck.colour_mask[colour]
        worst = game.hand_score(pains, pain_mask & ~deck.mask_of(pains))
        others = deck.kinds_in(deck.full & ~pain_mask)[: game.players * game.tricks_per_hand]
        best = game.hand_score((deck.kind(0, 0),) * game.pain_count, deck.mask_of(others))
        assert -bound <= worst <= 0 < best <= bound
    assert (hand_bound(StichelnGame(3)), hand_bound(StichelnGame(4)), hand_bound(StichelnGame(8))) == (
        42,
        66,
        171,
    )


def test_tensor_needs_a_view_of_this_game() -> None:
    game, other = StichelnGame(4), StichelnGame(5)
    with pytest.raises(ValueError, match="Sticheln"):
        game.observation_tensor(other.new_state(seed=1).view(0))
    with pytest.raises(ValueError, match="Sticheln"):
        game.information_state_tensor(atout.load("wizard", 4).new_state(seed=1).view(0))
