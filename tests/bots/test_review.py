"""Game review: the figures are the search bot's own, from the seat's view only, and add up."""

from __future__ import annotations

import random

import pytest

import atout
from atout.bots.batched import BatchSearchBot
from atout.bots.evaluation import SearchEvaluation
from atout.bots.factory import make_bot
from atout.bots.review import (
    evaluate_view,
    level_of,
    review_decision,
    review_game,
    review_plan,
)
from atout.bots.search import SearchBot
from atout.core.game import State, View
from atout.match import play_match

from .test_batched import decision_points

GAMES = ["wizard", "malin", "sticheln", "nain-jaune"]


@pytest.mark.parametrize("game_name", GAMES)
def test_the_review_figures_are_the_batch_search_bots_own(game_name: str) -> None:
    """Same seed, same view: the review's means are the bot's totals over its worlds, its best the bot's choice."""
    for _, view in decision_points(game_name, 4, seed=3, count=3):
        review = evaluate_view(view, playouts=120, seed=11)
        bot = BatchSearchBot(11, playouts=120)
        own = bot.evaluate(view)
        assert own.margins == review.margins and own.totals == review.totals
        for action in view.legal_actions:
            assert review.mean(action) == own.totals[action] / len(own.margins[action])
            assert review.worlds(action) >= 8  # min_worlds: every action tried in the first slice
        assert BatchSearchBot(11, playouts=120).choose(view) == review.choice


def test_the_engine_search_bot_exposes_the_same_evaluation() -> None:
    """The engine's PIMC bot (the review's fallback for a game without a batch simulator) too."""
    for _, view in decision_points("wizard", 4, seed=4, count=2):
        bot = SearchBot(5, playouts=60)
        evaluation = bot.evaluate(view)
        assert SearchBot(5, playouts=60).choose(view) == evaluation.choice
        assert set(evaluation.margins) == set(view.legal_actions)
        for action in evaluation.survivors:  # the survivors share every world
            assert evaluation.worlds(action) == max(evaluation.worlds(a) for a in view.legal_actions)


def test_a_cost_is_paired_and_never_negative_for_the_choice() -> None:
    evaluation = SearchEvaluation(
        margins={1: [10.0, 0.0, 20.0, 10.0], 2: [4.0, -2.0], 3: [10.0, 0.0, 14.0, 12.0]},
        totals={1: 40.0, 2: 2.0, 3: 36.0},
        survivors=[1, 3],
        choice=1,
    )
    assert evaluation.mean(2) == 1.0
    assert evaluation.cost(1) == (0.0, 0.0)
    cost, stderr = evaluation.cost(2)  # paired over the two worlds action 2 saw: (6 + 2) / 2
    assert cost == 4.0 and stderr == pytest.approx(2.0)
    assert evaluation.cost(3)[0] == 1.0  # (0 + 0 + 6 - 2) / 4
    assert evaluation.stderr(2) == pytest.approx(3.0)


def test_levels_need_both_the_points_and_significance() -> None:
    limits = (5.0, 15.0)
    assert level_of(0.0, 0.0, limits) == ""
    assert level_of(4.9, 0.0, limits) == ""
    assert level_of(5.0, 0.0, limits) == "mistake"
    assert level_of(15.0, 1.0, limits) == "blunder"
    assert level_of(15.0, 15.0, limits) == ""  # within two standard errors: noise


def test_the_thresholds_are_the_games() -> None:
    """Points weigh differently per game: Le Malin's scores move by a point or two a hand."""
    assert atout.load("wizard", 4).review_thresholds == (5.0, 15.0)
    assert atout.load("malin", 4).review_thresholds == (0.5, 1.5)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_decision_is_reviewed_from_the_seats_view_only(game_name: str) -> None:
    """A world that differs from the game in every hidden card but agrees with the seat's view reviews alike."""
    for state, view in decision_points(game_name, 4, seed=6, count=2):
        other = view.game.sample_state(view, random.Random(1))
        assert other.view(view.seat).to_dict() == view.to_dict()
        chosen = view.legal_actions[0]
        at = (len(state.history), 0, state.round)
        true = review_decision(state.view(view.seat), chosen, at, playouts=60, seed=2)
        fake = review_decision(other.view(view.seat), chosen, at, playouts=60, seed=2)
        assert true == fake


def test_a_whole_game_review_covers_every_decision_with_a_choice() -> None:
    game = atout.load("wizard", 4, rounds="3")
    bots = [make_bot("normal", game, seed=s) for s in range(4)]
    state = play_match(game, bots, seed=8).state
    review = review_game(state, seats=[2], playouts=60, seed=4)
    replay = game.new_state(None)
    expected, step = [], 0
    for index, action in enumerate(state.history):
        actor = replay.current_player
        if actor >= 0:
            if actor == 2 and len(replay.legal_actions()) > 1:
                expected.append((index, step, action, replay.round))
            step += 1
        replay.apply(action)
    assert [(d.index, d.step, d.chosen, d.round) for d in review.decisions] == expected
    for d in review.decisions:
        assert d.seat == 2 and d.cost >= 0.0
        assert d.chosen in [o.action for o in d.options] and d.best in [o.action for o in d.options]
        if d.level:
            assert d.cost >= game.review_thresholds[0] and d.cost > 2 * d.cost_stderr
        if d.chosen == d.best:
            assert d.cost == 0.0 and d.level == ""
        again = review_decision(
            replay_view(state, d.index), d.chosen, (d.index, d.step, d.round), playouts=60, seed=4
        )
        assert again.options == d.options  # each decision's seed is its own: reproducible alone
    rounds = review.rounds()
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert sum(r["lost"] for r in rounds) == pytest.approx(sum(d.cost for d in review.decisions))


def test_the_progress_is_told_once_counted_then_after_each_decision() -> None:
    """``progress(done, total)``: (0, n) before the first search, then (k, n) after the k-th: a bar's data."""
    game = atout.load("wizard", 3, rounds="2")
    state = play_match(game, [make_bot("random", game, seed=s) for s in range(3)], seed=5).state
    calls: list[tuple[int, int]] = []
    review = review_game(state, seats=[1], playouts=20, seed=3, progress=lambda d, t: calls.append((d, t)))
    n = len(review.decisions)
    assert n > 1 and calls == [(k, n) for k in range(n + 1)]
    plan = review_plan(state, [1])
    assert [(action, at) for _, action, at in plan] == [
        (d.chosen, (d.index, d.step, d.round)) for d in review.decisions
    ]
    assert all(view.seat == 1 and view.current_player == 1 for view, _, _ in plan)
    # Searched alone, a decision of the plan is the review's (the web reviewer's parts rely on it).
    view, action, at = plan[-1]
    assert review_decision(view, action, at, playouts=20, seed=3) == review.decisions[-1]


def replay_view(state: State, index: int) -> View:
    """The view of the player to act before history action ``index``."""
    replay = state.game.new_state(None)
    for action in state.history[:index]:
        replay.apply(action)
    return replay.view(replay.current_player)


def test_an_unfinished_game_is_reviewed_up_to_its_last_finished_round() -> None:
    game = atout.load("wizard", 3, rounds="3")
    state = game.new_state(seed=2)
    rng = random.Random(2)
    while state.round < 3:
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(4):  # into round 3
        state.apply(rng.choice(state.legal_actions()))
    review = review_game(state, playouts=30, seed=1)
    assert review.decisions and {d.round for d in review.decisions} == {1, 2}
    with pytest.raises(ValueError, match=r"seats are 0\.\.2"):
        review_game(state, seats=[3])


def test_a_rule_the_batch_leaves_out_is_reviewed_and_played_by_the_engine_search() -> None:
    """Le Malin's jeu fun (the Malheur cards) has no batch simulator: its review, ``master`` and
    ``batch:N`` must not meet the batch's refusal in the middle of a game (the web review of a
    jeu fun game failed so): the review and master search with the engine, batch:N is refused
    when asked for, saying why."""
    from atout.batch import MalinBatch, batch_class_for
    from atout.bots.review import review_bot
    from atout.core.errors import OptionError

    fun = atout.load("malin", 4, fun=True, rounds=1)
    base = atout.load("malin", 4, rounds=1)
    assert batch_class_for(base) is MalinBatch
    with pytest.raises(ValueError, match="jeu fun"):
        batch_class_for(fun)
    assert isinstance(review_bot(fun, playouts=20), SearchBot)
    assert isinstance(review_bot(base, playouts=20), BatchSearchBot)
    assert not isinstance(make_bot("master", fun, 1), BatchSearchBot)
    with pytest.raises(OptionError, match="jeu fun"):
        make_bot("batch:50", fun, 1)
    state = fun.new_state(5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    review = review_game(state, seats=[0], playouts=20, seed=1)
    assert review.decisions and all(d.seat == 0 for d in review.decisions)
