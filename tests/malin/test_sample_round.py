"""Le Malin's ``sample_round``: round-start worlds that replay to the viewer's view.

Search bots weigh these worlds by how likely the heuristic was to bid and play
what the other seats did, so a world must start at the hand's first decision,
replay legally to the exact view, and vary in what the viewer cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.games.malin import MalinGame, MalinState
from atout.games.malin import cards as C
from atout.games.malin.bot import MalinHeuristicBot
from atout.games.malin.rules import BID, BID_ACTION, CARD, REDECLARE, WINDOW, WISH_PLAY, WISH_REDECLARE
from atout.testing import check_sample_round

# Every table size, and each option that changes what happens in a hand (its
# phases, who acts, which plays are legal or force a re-declaration).
CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (3, {"sum_rule": "running"}),
    (4, {"sum_rule": "running"}),
    (3, {"wish_forbidden_scope": "hand"}),
    (3, {"wish_collision": "last_trick_only"}),
    (3, {"wish_beats_both_twins": "any_trick"}),
    (3, {"wish_beats_both_twins": "never"}),
    (3, {"twin_value": "avoid_taken"}),
    (3, {"clamp_at_zero": True}),
    (3, {"first_dealer": 1}),
    (3, {"fun": True}),
    (4, {"fun": True}),
    (5, {"fun": True}),
    (6, {"fun": True}),
    (3, {"fun": True, "malin_steal": "one_total"}),
    (3, {"fun": True, "malheur_gain": "per_point"}),
    (3, {"fun": True, "halve_rounding": "floor", "reverse_single_digit": "pad_to_two"}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS, ids=[f"{p}-{o}" for p, o in CONFIGS])
def test_round_worlds_replay_to_the_view(players: int, options: dict[str, Any]) -> None:
    assert check_sample_round(atout.load("malin", players, **options), seed=5) > 0


def _collision_step(state: MalinState, rng: random.Random) -> None:
    """A random step that provokes Wish re-declarations: the Wish is declared as
    a number still in play, and a seat holding that number plays it."""
    legal = state.legal_actions()
    wishes = [a for a in legal if a in WISH_PLAY]
    trick = state.view(0).trick
    wish_values = [d for _, k, d, _ in trick if k == C.WISH]
    matching = [a for a in legal if a in CARD and CARD.value(a) in wish_values]
    if matching:
        state.apply(matching[0])
    elif wishes and rng.random() < 0.8:
        numbers = [a for a in wishes if 1 <= WISH_PLAY.value(a) <= state.game.top]
        state.apply(rng.choice(numbers or wishes))
    elif state.phase == REDECLARE and rng.random() < 0.5:
        numbers = [a for a in legal if 1 <= WISH_REDECLARE.value(a) <= state.game.top]
        state.apply(rng.choice(numbers or legal))
    else:
        state.apply(rng.choice(legal))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"wish_forbidden_scope": "hand"},
        {"twin_value": "avoid_taken"},
        {"wish_collision": "last_trick_only"},
    ],
)
def test_wish_redeclarations_replay(options: dict[str, Any]) -> None:
    # Random play almost never makes a card collide with the Wish; force it.
    # (The replay plays the Wish at its last value: see sample_round's docstring.)
    game = MalinGame(3, **options)
    rng = random.Random(7)
    redeclared = checked = 0
    for seed in range(6):
        state = game.new_state(seed)
        while not state.is_terminal:
            actor = state.current_player
            view = state.view(actor)
            wish = [d for _, k, d, _ in view.trick if k == C.WISH]
            redeclared += state.phase == REDECLARE or any(
                k < C.TWIN and d in wish for _, k, d, _ in view.trick
            )  # a re-declaration pending, or a tie left standing (last_trick_only)
            got = game.sample_round(view, rng)
            assert got is not None
            world, actions = got
            for action in actions:
                assert world.illegal_reason(action) is None
                world.apply(action)
            assert world.view(actor).to_dict() == view.to_dict()
            checked += 1
            _collision_step(state, rng)
    assert checked > 0 and redeclared > 0


def test_round_world_starts_at_the_first_decision() -> None:
    for options in ({}, {"fun": True}):
        game = MalinGame(4, **options)
        state = game.new_state(3)
        rng = random.Random(0)
        for _ in range(25):  # into the first trick or two
            state.apply(rng.choice(state.legal_actions()))
        view = state.view(state.current_player)
        got = game.sample_round(view, rng)
        if got is None:  # a Malheur card was played: take the hand's first decision
            state = game.new_state(3)
            view = state.view(state.current_player)
            got = game.sample_round(view, rng)
        assert got is not None
        world, actions = got
        assert isinstance(world, MalinState)
        assert world.round == view.round and world.dealer == view.dealer
        assert not world.history and not world.is_chance
        assert all(h.bit_count() == game.hand_size for h in world.hands)
        assert world.tricks == [] and world.trick == []
        assert all(b < 0 for b in world.bids)
        if any(sum(m) for m in world.mal):  # jeu fun: the window before the bidding
            assert world.phase == WINDOW and world.win_kind != 0 and world.passed == 0
        else:
            assert world.phase == BID and world.to_act == (view.dealer + 1) % 4
        # The replayed bids are the view's, in turn order from the dealer's left.
        bids = [BID_ACTION.value(a) for a in actions if a in BID_ACTION]
        order = [(view.dealer + 1 + i) % 4 for i in range(4)]
        assert bids == [view.bids[s] for s in order if view.bids[s] is not None]


def test_round_worlds_vary() -> None:
    game = MalinGame(4)
    state = game.new_state(9)
    rng = random.Random(1)
    while len(state.view(0).tricks) < 2:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.current_player)
    others = [s for s in range(4) if s != view.seat]
    own: set[int] = set()
    seen: set[tuple[int, ...]] = set()
    for _ in range(10):
        got = game.sample_round(view, rng)
        assert got is not None
        world, _ = got
        assert isinstance(world, MalinState)
        own.add(world.hands[view.seat])
        seen.add(tuple(world.hands[s] for s in others))
    assert len(own) == 1  # the viewer's own round-start hand is known
    assert len(seen) > 1  # the others' are drawn


@pytest.mark.parametrize("players", [3, 4, 6])
def test_round_worlds_after_malheur_cards(players: int) -> None:
    # Heuristic jeu-fun play: Le Malin before the bidding, effects and Avocats
    # in the tricks.  The replay must time them, undo the steals and still
    # reach the view; giving up (None) must stay rare.
    game = MalinGame(players, fun=True)
    bot = MalinHeuristicBot()
    rng = random.Random(2)
    checked = offered = 0
    for seed in range(2 if players < 6 else 1):  # six seats: long matches
        state = game.new_state(seed)
        while not state.is_terminal:
            actor = state.current_player
            view = state.view(actor)
            if view.malheur_log:
                checked += 1
                got = game.sample_round(view, rng)
                if got is not None:
                    offered += 1
                    world, actions = got
                    for action in actions:
                        assert world.illegal_reason(action) is None
                        world.apply(action)
                    assert world.view(actor).to_dict() == view.to_dict()
            state.apply(bot.choose(view))
    assert checked > 20
    assert offered >= 0.9 * checked
