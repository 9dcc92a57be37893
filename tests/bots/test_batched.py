"""The batch-engine search: its playouts are the engine's, step by step; it answers legally from views."""

from __future__ import annotations

import random

import numpy as np
import pytest

import atout
from atout.batch import batch_class
from atout.bots.batched import BatchSearchBot, model_playouts
from atout.bots.factory import make_bot
from atout.bots.path import bot_from_path
from atout.core.game import State, View

GAMES = ["wizard", "malin", "sticheln", "nain-jaune"]


def decision_points(game_name: str, players: int, seed: int, count: int) -> list[tuple[State, View]]:
    """States of a random match where the player to act has a choice, with that player's view."""
    game = atout.load(game_name, players=players)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    found: list[tuple[State, View]] = []
    while not state.is_terminal and len(found) < count:
        view = state.view(state.current_player)
        if len(view.legal_actions) > 1 and rng.random() < 0.3:
            found.append((state.clone(), view))
        state.apply(rng.choice(state.legal_actions()))
    return found


def engine_margin(world: State, action: int, seat: int) -> float:
    """The engine's heuristic playout of ``action`` in ``world`` to the end of the round: the seat's margin."""
    game = world.game
    bots = [bot_from_path(game.bots["heuristic"], 0) for _ in range(game.players)]
    for s, bot in enumerate(bots):
        bot.start(game, s)
    state = world.clone()
    before = list(state.scores())
    start_round = state.round
    state.apply(action)
    while not state.is_terminal and state.round == start_round:
        actor = state.current_player
        state.apply(bots[actor].choose(state.view(actor)))
    after = list(state.scores())
    gain = [a - b for a, b in zip(after, before, strict=True)]
    n = game.players
    return gain[seat] - (sum(gain) - gain[seat]) / (n - 1)


@pytest.mark.parametrize("game_name", GAMES)
def test_batched_playouts_are_the_engines_heuristic_playouts(game_name: str) -> None:
    """Same worlds, same first actions: the batch's margins equal the engine's, playout by playout."""
    for state, view in decision_points(game_name, 4, seed=21, count=4):
        bot = BatchSearchBot(7)
        actions = list(view.legal_actions)
        margins = bot._playouts(batch_class(game_name), view, actions, worlds=3)
        rng = random.Random(7)
        worlds = [state.game.sample_state(view, rng) for _ in range(3)]
        engine = np.array([[engine_margin(world, a, view.seat) for world in worlds] for a in actions])
        # What the search compares: how much better one action does than another in the same world.
        assert margins - margins[0] == pytest.approx(engine - engine[0])
        if game_name != "nain-jaune":
            # Le Nain Jaune's engine has already taken the next deal's stakes when its round ends
            # (the same for every action); the batch's loaded worlds stop before them.
            assert margins == pytest.approx(engine)


@pytest.mark.parametrize("game_name", GAMES)
def test_the_batch_search_answers_legally_and_reproducibly(game_name: str) -> None:
    points = decision_points(game_name, 4, seed=5, count=3)
    assert points
    for _, view in points:
        one = BatchSearchBot(3, playouts=64).choose(view)
        assert one in view.legal_actions
        assert BatchSearchBot(3, playouts=64).choose(view) == one


def test_a_learned_model_can_play_the_playouts() -> None:
    from tests.bots.test_learned import random_model

    game = atout.load("wizard", players=4)
    model = random_model(game, seed=2)
    bot = BatchSearchBot(1, playouts=48, model=model)
    for _, view in decision_points("wizard", 4, seed=8, count=3):
        assert bot.choose(view) in view.legal_actions
    assert bot.simulations > 0
    policy = model_playouts(model)
    batch = batch_class("wizard")(4, [1, 2, 3])
    legal = batch.legal_mask()
    chosen = policy(batch)
    assert legal[np.arange(3), chosen].all()


def test_drawn_playout_actions_follow_the_policy() -> None:
    """With an rng the model's action is drawn from the softmax of its legal logits (Gumbel-max), legally."""
    from atout.bots.learned import PolicyModel
    from tests.bots.test_learned import random_model

    game = atout.load("wizard", players=4)
    wild = random_model(game, seed=5)
    # Logits of a few units, so that several actions are likely (a raw random model's are huge).
    w, b = wild.policy
    model = PolicyModel(wild.meta, wild.trunk, (w * 0.02, b * 0.02), wild.value)
    batch = batch_class("wizard")(4, [7] * 4000)
    rows = np.arange(4000)
    logits = model.masked_logits(batch.information_state_tensor()[:1], batch.legal_mask()[:1])[0]
    legal = np.flatnonzero(np.isfinite(logits))
    want = np.exp(logits[legal] - logits[legal].max())
    want /= want.sum()
    drawn = model.batch_actions(batch, rows, np.random.default_rng(3))
    assert set(drawn) <= set(legal) and want.max() < 0.9
    seen = np.array([(drawn == a).mean() for a in legal])
    # 4,000 draws: each share within 5 standard errors of its probability.
    assert np.all(np.abs(seen - want) <= 5 * np.sqrt(want * (1 - want) / 4000) + 1e-9)
    # The greedy reading is unchanged: the most probable legal action, every row alike.
    assert (model.batch_actions(batch, rows[:5]) == legal[np.argmax(logits[legal])]).all()
    # At temperature T the draws follow the softmax of the logits over T: sharper below 1.
    hot = np.exp((logits[legal] - logits[legal].max()) / 0.25)
    hot /= hot.sum()
    drawn = model.batch_actions(batch, rows, np.random.default_rng(4), temperature=0.25)
    seen = np.array([(drawn == a).mean() for a in legal])
    assert set(drawn) <= set(legal) and hot.max() > want.max() + 0.1
    assert np.all(np.abs(seen - hot) <= 5 * np.sqrt(hot * (1 - hot) / 4000) + 1e-9)


def test_a_search_with_drawn_playouts_answers_legally_and_reproducibly() -> None:
    from tests.bots.test_learned import random_model

    game = atout.load("wizard", players=4)
    model = random_model(game, seed=2)
    points = decision_points("wizard", 4, seed=9, count=3)
    first = [BatchSearchBot(4, playouts=40, model=model, sample=True).choose(v) for _, v in points]
    again = [BatchSearchBot(4, playouts=40, model=model, sample=True).choose(v) for _, v in points]
    assert first == again
    assert all(a in v.legal_actions for a, (_, v) in zip(first, points, strict=True))


def test_batch_search_specs_are_checked() -> None:
    game = atout.load("wizard", players=4)
    assert make_bot("batch:32", game, 1).name == "batch:32"
    with pytest.raises(atout.OptionError, match="write batch:N"):
        make_bot("batch:many", game, 1)
    with pytest.raises(atout.OptionError, match="the flags are"):
        make_bot("batch:32:fast", game, 1)
    # Drawing actions needs a network to draw from.
    with pytest.raises(atout.OptionError, match="'sample'"):
        make_bot("batch:32:sample", game, 1)
    drawn = make_bot("batch:32:model:sample", game, 1)
    assert isinstance(drawn, BatchSearchBot) and drawn.sample and drawn.temperature == 1.0
    hot = make_bot("batch:32:model:sample:temp=1.5", game, 1)
    assert isinstance(hot, BatchSearchBot) and hot.temperature == 1.5
    # A temperature is bounded, a number, said once, and only for drawn actions.
    for spec, why in [
        ("batch:32:model:sample:temp=0", "must be 0.05..20"),
        ("batch:32:model:sample:temp=inf", "must be 0.05..20"),
        ("batch:32:model:sample:temp=nan", "must be 0.05..20"),
        ("batch:32:model:sample:temp=warm", "T a number"),
        ("batch:32:model:sample:temp=1:temp=2", "write one temp=T"),
        ("batch:32:model:temp=2", "the flags are"),
    ]:
        with pytest.raises(atout.OptionError, match=why):
            make_bot(spec, game, 1)
    with pytest.raises(ValueError, match="temperature"):
        BatchSearchBot(1, temperature=2.0)
    with pytest.raises(atout.OptionError, match="not a model file"):
        make_bot("batch:32:net=/nonexistent/model.npz", game, 1)


def test_batched_inference_puts_hidden_cards_where_they_are() -> None:
    """Against the modelled policy (the heuristic), inferred worlds place more hidden cards right than plain ones."""
    from tests.bots.test_inference import _decisions, _placement

    game = atout.load("wizard", 4)
    totals = {False: 0.0, True: 0.0}
    points = _decisions(game, range(6), every=9)
    assert len(points) > 60
    for truth, view in points:
        for inference in (False, True):
            bot = BatchSearchBot(seed=1, inference=inference, candidates=3)
            worlds = bot.sample_worlds(view, 16)
            assert all(w.view(view.seat) == view and w.current_player == view.seat for w in worlds)
            totals[inference] += sum(_placement(w, truth, view.seat) for w in worlds) / 16
    plain, inferred = totals[False] / len(points), totals[True] / len(points)
    assert inferred > 1.08 * plain, (plain, inferred)


@pytest.mark.parametrize("game_name", GAMES)
def test_batched_inference_worlds_match_the_view_in_every_game(game_name: str) -> None:
    from tests.bots.test_learned import random_model

    game = atout.load(game_name, players=4)
    bot = BatchSearchBot(4, playouts=40, inference=True, model=random_model(game, seed=1))
    for _, view in decision_points(game_name, 4, seed=13, count=4):
        worlds = bot.sample_worlds(view, 6)
        assert len(worlds) == 6
        assert all(w.view(view.seat) == view for w in worlds)
        assert bot.choose(view) in view.legal_actions


@pytest.mark.parametrize("game_name", GAMES)
def test_the_batch_search_reads_nothing_but_the_view(game_name: str) -> None:
    """Two states that look alike from the seat (same view, other hidden cards) get the same answer."""
    game = atout.load(game_name, players=4)
    rng = random.Random(3)
    for truth, view in decision_points(game_name, 4, seed=17, count=3):
        other = game.sample_state(view, rng)
        assert other.view(view.seat) == view
        answers = [
            BatchSearchBot(9, playouts=48, inference=True).choose(state.view(view.seat))
            for state in (truth, other)
        ]
        assert answers[0] == answers[1]
