"""The model of strong Wizard play in the batch engine: the engine's distribution, card by card."""

from __future__ import annotations

import random

import numpy as np
import pytest

import atout
from atout.batch import batch_class
from atout.batch.wizard import WizardBatch
from atout.batch.wizard_playout import card_probabilities, playout_actions
from atout.bots.batched import BatchSearchBot
from atout.bots.factory import make_bot
from atout.core.game import State
from atout.games.wizard.bot import WizardHeuristicBot
from atout.games.wizard.game import PLAY
from atout.games.wizard.playout import WizardPlayoutBot, probabilities
from atout.games.wizard.view import WizardView


def wizard_view(state: State) -> WizardView:
    view = state.view(state.current_player)
    assert isinstance(view, WizardView)
    return view


def play_decisions(players: int, seeds: range, **options: object) -> list[State]:
    """Card plays with a choice, from random matches (every round, every place in the trick)."""
    game = atout.load("wizard", players=players, **options)
    found: list[State] = []
    for seed in seeds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.phase == PLAY and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return found


def test_the_reference_distribution_is_the_engine_bots() -> None:
    """``probabilities`` is what WizardPlayoutBot draws: its shares over 3,000 seeded draws agree."""
    states = play_decisions(4, range(2))[20::60]
    assert len(states) >= 8
    checked = 0
    for state in states:
        view = wizard_view(state)
        want = probabilities(view, WizardHeuristicBot(0).choose(view))
        assert sum(want.values()) == pytest.approx(1.0)
        bot = WizardPlayoutBot(11)
        bot.start(view.game, view.seat)
        draws = [bot.choose(view) for _ in range(3000)]
        for card, p in want.items():
            share = draws.count(card) / len(draws)
            assert abs(share - p) <= 5 * np.sqrt(p * (1 - p) / len(draws)) + 1e-9, (card, share, p)
        checked += sum(0 < p < 1 for p in want.values()) > 1
    assert checked >= 4  # most of these positions have several likely cards


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {}), (6, {}), (4, {"plus_minus_one": True})])
def test_the_batch_model_draws_every_card_with_the_engine_models_chance(
    players: int, options: dict[str, object]
) -> None:
    states = play_decisions(players, range(3), **options)
    assert len(states) > 300
    batch = WizardBatch.from_states(states)
    chances = card_probabilities(batch, np.arange(len(states)))
    for i, state in enumerate(states):
        view = wizard_view(state)
        want = probabilities(view, WizardHeuristicBot(0).choose(view))
        got = {int(c): float(chances[i, c]) for c in np.flatnonzero(chances[i])}
        assert got == pytest.approx({c: p for c, p in want.items() if p > 0}, abs=1e-12), view


def test_the_batch_model_plays_legally_and_as_often_as_it_says() -> None:
    states = play_decisions(4, range(1))[100:400:50]
    draws = 1500
    rows = np.repeat(np.arange(len(states)), draws)
    batch = WizardBatch.from_states([states[i] for i in rows])
    drawn = playout_actions(batch, np.random.default_rng(5))
    legal = batch.legal_mask()
    assert legal[np.arange(len(rows)), drawn].all()
    chances = card_probabilities(batch, np.arange(len(states)) * draws)
    assert (np.count_nonzero(chances, axis=1) > 1).sum() >= 3
    for i in range(len(states)):
        seen = np.bincount(drawn[rows == i], minlength=54) / draws
        p = chances[i]
        assert np.all(np.abs(seen - p) <= 5 * np.sqrt(p * (1 - p) / draws) + 1e-9)
    # Bids and the trump choice are the heuristic's, as in the engine's model.
    fresh = WizardBatch(4, list(range(20)))
    assert (fresh.playout_model_actions(np.random.default_rng(1)) == fresh.heuristic_actions()).all()


def test_a_game_without_a_model_of_strong_play_plays_its_heuristic() -> None:
    cls = batch_class("malin")
    assert not cls.has_playout_model() and batch_class("wizard").has_playout_model()
    batch = cls(4, list(range(10)))
    assert (batch.playout_model_actions(np.random.default_rng(1)) == batch.heuristic_actions()).all()


def test_the_batch_search_with_the_model_of_strong_play() -> None:
    from tests.bots.test_batched import decision_points

    game = atout.load("wizard", players=4)
    bot = make_bot("batch:64:strong", game, 3)
    assert isinstance(bot, BatchSearchBot) and bot.strong
    points = decision_points("wizard", 4, seed=5, count=4)
    first = [bot.choose(view) for _, view in points]
    again = [make_bot("batch:64:strong", game, 3).choose(view) for _, view in points]
    assert first == again and all(a in v.legal_actions for a, (_, v) in zip(first, points, strict=True))
    for spec in ("batch:64:strong:model", "batch:64:strong:net=/tmp/x.npz"):
        with pytest.raises(atout.OptionError, match="'strong'"):
            make_bot(spec, game, 1)


def test_the_model_of_strong_play_judges_every_action_as_it_plays_them() -> None:
    """``playout_model_probabilities``: the cards' chances where the model draws, else the heuristic's action, certain."""
    game = atout.load("wizard", players=4)
    states: list[State] = []
    for seed in range(2):  # every kind of decision: bids, trump choices, forced and free card plays
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    batch = WizardBatch.from_states(states)
    rows = np.arange(len(states))
    chances = batch.playout_model_probabilities(rows)
    assert chances.shape == (len(states), batch.num_actions)
    assert np.allclose(chances.sum(axis=1), 1.0)
    assert not (chances > 0)[~batch.legal_mask()].any()
    free = np.flatnonzero((batch.phase == PLAY) & (batch.legal_mask().sum(axis=1) > 1))
    assert 100 < len(free) < len(states)
    assert np.array_equal(chances[free, :54], card_probabilities(batch, free))
    rest = np.setdiff1d(rows, free)
    assert np.array_equal(chances[rest].argmax(axis=1), batch.heuristic_actions()[rest])
    assert (chances[rest].max(axis=1) == 1.0).all()
    # A game without a model: its heuristic, certain.
    malin = batch_class("malin")(4, list(range(6)))
    some = np.arange(6)
    plain = malin.playout_model_probabilities(some)
    assert np.array_equal(plain.argmax(axis=1), malin.heuristic_actions()) and (plain.max(axis=1) == 1).all()


def test_inference_with_the_model_of_strong_play_weighs_worlds_by_its_chances() -> None:
    """``batch:N:strong:infer``: the seat model is the model of strong play, not the heuristic's certainty."""
    from tests.bots.test_batched import decision_points

    game = atout.load("wizard", players=4)
    bot = make_bot("batch:64:strong:infer", game, 3)
    assert isinstance(bot, BatchSearchBot) and bot.strong and bot.inference
    points = [(s, v) for s, v in decision_points("wizard", 4, seed=5, count=12) if s.phase == PLAY]
    assert points
    batch = WizardBatch.from_states([s for s, _ in points])
    rows = np.arange(len(points))
    mask = batch.legal_mask()
    judged = bot._seat_model(batch, rows, mask)
    assert np.array_equal(judged, batch.playout_model_probabilities(rows))
    assert (np.count_nonzero(judged, axis=1) > 1).any()  # the model hesitates where the heuristic would not
    plain = make_bot("batch:64:infer", game, 3)
    assert isinstance(plain, BatchSearchBot)
    assert (plain._seat_model(batch, rows, mask).max(axis=1) == 1).all()
    for _, view in points[:3]:
        assert make_bot("batch:64:strong:infer", game, 3).choose(view) in view.legal_actions
