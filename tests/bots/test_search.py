"""The generic search bot and the difficulty levels: legal on every game, deterministic, stronger than random."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import atout
from atout.bots import make_bot
from atout.bots.batched import BatchSearchBot
from atout.bots.factory import LEVELS, available
from atout.bots.noisy import NoisyBot
from atout.bots.search import SearchBot
from atout.core.errors import OptionError
from atout.core.registry import game_class, names
from atout.match import derive_seed, play_match


def small_game(name: str) -> atout.Game:
    cls = game_class(name)
    return atout.load(name, max(cls.min_players, min(4, cls.max_players)))


@pytest.mark.parametrize("name", names())
def test_search_bot_answers_legal_actions_in_every_game(name: str) -> None:
    """Every seat a search bot, 30 decisions from a seeded start: each answer is legal."""
    game = small_game(name)
    bots = [SearchBot(seed=s, playouts=6, min_worlds=2) for s in range(game.players)]
    for seat, bot in enumerate(bots):
        bot.start(game, seat)
    state = game.new_state(seed=3)
    for _ in range(30):
        if state.is_terminal:
            break
        seat = state.current_player
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions
        state.apply(action)
    assert bots[0].simulations + bots[1].simulations > 0


@pytest.mark.parametrize("name", names())
def test_every_level_is_available_and_plays(name: str) -> None:
    game = small_game(name)
    levels = {"random", "easy", "normal", "hard", "expert", "master", "policy"}
    assert levels == {"random", *LEVELS} <= set(available(game))
    state = game.new_state(seed=8)
    for level in ["hard", "expert"]:
        bot = make_bot(level, game, seed=1)
        assert isinstance(bot, SearchBot) and bot.name == level
    assert make_bot("expert", game).playouts > make_bot("hard", game).playouts  # type: ignore[attr-defined]
    master = make_bot("master", game, seed=1)
    assert isinstance(master, BatchSearchBot) and master.name == "master"
    # Its playouts: the game's model of strong play where it has one (expert's), else a network or the heuristic.
    assert master.strong == (game.playout_model is not None) and (master.model is None or not master.strong)
    assert master.strong == (name == "wizard")
    for level in ["easy", "normal", "search:4", "random", "master"]:
        bot = make_bot(level, game, seed=1)
        assert bot.name == level
        bot.start(game, state.current_player)
        view = state.view(state.current_player)
        assert bot.choose(view) in view.legal_actions


def test_search_budget_names_are_checked() -> None:
    game = atout.load("wizard", 4)
    for bad in ("search:x", "search:0", "grandmaster"):
        with pytest.raises(OptionError):
            make_bot(bad, game)
    assert isinstance(make_bot("search:12", game), SearchBot)
    with pytest.raises(ValueError):
        SearchBot(playouts=0)
    with pytest.raises(ValueError):
        NoisyBot(make_bot("random", game), 1.5)


def test_search_bot_is_reproducible_from_its_seed() -> None:
    game = atout.load("wizard", 4, rounds=3)

    def run() -> list[int]:
        bots = [SearchBot(seed=5, playouts=20), *(make_bot("heuristic", game, s) for s in range(3))]
        return play_match(game, bots, seed=21).state.scores()

    assert run() == run()


def test_search_bot_beats_random_on_wizard() -> None:
    """One search bot against three random bots, 3 fixed deals × 4 seat rotations (5-round games)."""
    game = atout.load("wizard", 4, rounds=5)
    margins = []
    for deal in range(3):
        seed = derive_seed(99, "deal", deal)
        for seat in range(4):
            bots = [make_bot("random", game, derive_seed(seed, s)) for s in range(4)]
            bots[seat] = SearchBot(seed=derive_seed(seed, "search"), playouts=30)
            scores = play_match(game, bots, seed).state.scores()
            margins.append(scores[seat] - (sum(scores) - scores[seat]) / 3)
    assert sum(margins) / len(margins) > 40  # ≈ +25 a round; random loses ≈ 25 a round
    assert sum(m > 0 for m in margins) >= 10


def test_noisy_bot_follows_its_inner_bot_except_for_its_noise() -> None:
    game = atout.load("wizard", 4, rounds=5)
    state = game.new_state(seed=4)
    while len(state.legal_actions()) < 4:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    heuristic = make_bot("heuristic", game, 1).choose(view)
    quiet = NoisyBot(make_bot("heuristic", game, 1), 0.0, seed=2)
    loud = NoisyBot(make_bot("heuristic", game, 1), 1.0, seed=2)
    assert {quiet.choose(view) for _ in range(20)} == {heuristic}
    assert len({loud.choose(view) for _ in range(40)}) > 1
    easy = make_bot("easy", game, seed=3)
    assert isinstance(easy, NoisyBot) and 0 < easy.noise < 1


def wide_decision() -> atout.View:
    """A Wizard decision with at least five legal actions (heuristic play up to it)."""
    game = atout.load("wizard", 4)
    state = game.new_state(seed=6)
    bot = make_bot("heuristic", game)
    while len(state.legal_actions()) < 5:
        state.apply(bot.choose(state.view(state.current_player)))
    return state.view(state.current_player)


def test_a_time_limit_stops_the_search_after_one_world() -> None:
    view = wide_decision()
    bot = SearchBot(seed=1, playouts=10_000, time_limit=0.0)
    assert bot.choose(view) in view.legal_actions
    assert bot.simulations == len(view.legal_actions)  # one world, every action tried on it
    unlimited = SearchBot(seed=1, playouts=200)
    unlimited.choose(view)
    assert unlimited.simulations >= 200 - len(view.legal_actions)


def test_halving_spends_most_of_the_budget_on_the_best_actions() -> None:
    view = wide_decision()
    k = len(view.legal_actions)
    bot = SearchBot(seed=1, playouts=400, min_worlds=1)
    bot.choose(view)
    # Slices of 400 / log2(k) playouts each: about the budget, never k times it.
    assert 300 <= bot.simulations <= 400 + 2 * k


def test_a_playout_scores_the_margin_over_the_other_seats() -> None:
    from atout.bots.search import _gain

    # Seat 0 gains 20; the others gain 30, 0 and -30 (mean 0) or 30, 30, 30 (mean 30).
    assert _gain([0, 0, 0, 0], [20, 30, 0, -30], 0) == 20
    assert _gain([0, 0, 0, 0], [20, 30, 30, 30], 0) == -10
    assert _gain([5, 0, 0], [15, 4, -4], 0) == 10


@pytest.mark.parametrize("flag", ["own", "flat"])
def test_the_flags_measured_worse_are_refused(flag: str) -> None:
    """``own`` and ``flat`` were removed (issue 19): the error names the flags left."""
    with pytest.raises(OptionError, match=f"unknown flag '{flag}' \\(flags: infer, model\\)"):
        make_bot(f"search:30:{flag}", atout.load("wizard", 4), seed=1)


def test_the_extension_points_see_every_world_and_playout() -> None:
    """world_source and playout_done are public hooks (bench/oracle.py, bench/bid_calibration.py)."""
    view = wide_decision()
    truth = view.game.sample_state(view, random.Random(9))
    seen: list[tuple[int, int]] = []

    class Oracle(SearchBot):
        def world_source(self, view: atout.View) -> Callable[[], atout.State]:
            return truth.clone

        def playout_done(self, action: int, seat: int, end: atout.State) -> None:
            assert end.round != truth.round or end.is_terminal  # the round was played out
            seen.append((action, seat))

    bot = Oracle(seed=1, playouts=64)
    action = bot.choose(view)
    assert action in view.legal_actions
    assert len(seen) == bot.simulations > 0
    assert {seat for _, seat in seen} == {view.seat}
    assert {a for a, _ in seen} == set(view.legal_actions)  # every action tried in the first slice
