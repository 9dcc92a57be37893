"""Policy-based inference in the search bot: worlds weighed by what the other seats did."""

from __future__ import annotations

import pytest

import atout
from atout.bots import make_bot
from atout.bots.search import SearchBot
from atout.core.errors import OptionError
from atout.core.game import State, View
from tests.benchscripts import bench_script

#: Share of the other seats' hidden cards a world puts in the right hand (bench/inference.py's measure).
_placement = bench_script("inference").placement


def _decisions(game: atout.Game, seeds: range, every: int) -> list[tuple[State, View]]:
    """Decision points of heuristic matches (the model inference assumes), past the first bids."""
    out = []
    for seed in seeds:
        state = game.new_state(seed)
        bots = [make_bot("heuristic", game, seed=s) for s in range(game.players)]
        step = 0
        while not state.is_terminal and state.round <= 9:
            seat = state.current_player
            view = state.view(seat)
            step += 1
            if state.round >= 4 and step % every == 0 and len(view.legal_actions) > 1:
                out.append((state.clone(), view))
            state.apply(bots[seat].choose(view))
    return out


def test_inference_puts_hidden_cards_where_they_are() -> None:
    """Against the modelled policy, inferred worlds place more hidden cards right than plain ones.

    Measured at the time of writing (rounds 4–9 of 4-player Wizard, heuristic
    seats): 12.2% of the hidden cards in the right hand without inference,
    15.5% with it.
    """
    game = atout.load("wizard", 4)
    totals = {False: 0.0, True: 0.0}
    points = _decisions(game, range(8), every=9)
    assert len(points) > 100
    for truth, view in points:
        for inference in (False, True):
            bot = SearchBot(seed=1, inference=inference)
            bot.start(game, view.seat)
            draw = bot.world_source(view)
            totals[inference] += sum(_placement(draw(), truth, view.seat) for _ in range(16)) / 16
    plain, inferred = totals[False] / len(points), totals[True] / len(points)
    assert inferred > 1.08 * plain, (plain, inferred)


def test_inferred_worlds_are_consistent_with_the_view() -> None:
    game = atout.load("wizard", 5, bids="hidden_until_end")
    for truth, view in _decisions(game, range(1), every=13):
        bot = SearchBot(seed=2, inference=True)
        bot.start(game, view.seat)
        draw = bot.world_source(view)
        for _ in range(10):
            world = draw()
            assert world.view(view.seat) == view
            assert world.current_player == view.seat
        assert truth.view(view.seat) == view


def test_inference_falls_back_to_plain_worlds_where_not_offered() -> None:
    # Round 1 of the clairvoyance variant: every other card is seen, sample_round says None.
    game = atout.load("wizard", 4, clairvoyance=True)
    state = game.new_state(4)
    view = state.view(state.current_player)
    assert game.sample_round(view, SearchBot(seed=0).rng) is None
    bot = SearchBot(seed=3, playouts=8, inference=True)
    bot.start(game, view.seat)
    assert bot.choose(view) in view.legal_actions


def test_inference_is_reproducible_and_named() -> None:
    game = atout.load("wizard", 4, rounds=3)
    state = game.new_state(9)
    while state.round < 3 or state.current_player < 0:
        state.apply(make_bot("heuristic", game, 0).choose(state.view(state.current_player)))
    view = state.view(state.current_player)

    def decide() -> int:
        bot = make_bot("search:40:infer", game, seed=7)
        assert isinstance(bot, SearchBot) and bot.inference
        bot.start(game, view.seat)
        return bot.choose(view)

    assert decide() == decide()
    plain = make_bot("search:40", game)
    assert isinstance(plain, SearchBot) and not plain.inference
    with pytest.raises(OptionError, match="unknown flag"):
        make_bot("search:40:psychic", game)
