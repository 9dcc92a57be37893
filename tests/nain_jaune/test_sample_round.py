"""Le Nain Jaune's ``sample_round``: worlds at a deal's first decision, replayed to the view.

Policy-based inference (``atout.bots.search``) replays these worlds and asks
the heuristic about every other seat's card (which card opened a run, which
suit of the needed rank), so a world must start at the deal's opening free
start, replay legally to the viewer's own view, and differ from one draw to
the next where the viewer cannot see.  A view keeps the face-up pile but not
the passes and claims between its cards; those are rebuilt, and the tests
below make sure they are (``voluntary_stop``, ``manual_claim``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.bots.search import SearchBot
from atout.games.nain_jaune import NainJauneGame, NainJauneView, sampling
from atout.games.nain_jaune.bot import NainJauneHeuristicBot
from atout.games.nain_jaune.cards import BOX_OF
from atout.games.nain_jaune.game import NainJauneState
from atout.games.nain_jaune.rules import CLAIM_BOX, PASS_TURN, PLAY_CARD
from atout.testing import check_sample_round

#: Options that change the structure of a deal (who opens, which card may open,
#: what passing means, claim windows, runs after a stuck rank), what the tokens
#: and board hold at its start, or who deals; and the pairs where the rebuilt
#: passes interact with the tokens.
ROUND_OPTIONS: list[dict[str, Any]] = [
    {"stuck_rule": "free_restart"},
    {"voluntary_stop": True},
    {"first_card": "lowest"},
    {"direction": "counterclockwise"},
    {"manual_claim": True},
    {"sequence_bonus": True},
    {"next_dealer": "deal_winner"},
    {"first_dealer": 1},
    {"grand_opera": "take_all_boxes"},
    {"grand_opera": "double_payments"},
    {"payment": "per_card"},
    {"kept_pay_card": "base_stake"},
    {"kept_pay_card": "no_penalty"},
    {"stake_unit": 3, "start_tokens": 200},
    {"voluntary_stop": True, "sequence_bonus": True},
    {"voluntary_stop": True, "manual_claim": True},
    {"voluntary_stop": True, "sequence_bonus": True, "manual_claim": True, "stuck_rule": "free_restart"},
]


def _load(players: int, **options: Any) -> NainJauneGame:
    game = atout.load("nain-jaune", players, **options)
    assert isinstance(game, NainJauneGame)
    return game


def _ids(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


@pytest.mark.parametrize("players", range(NainJauneGame.min_players, NainJauneGame.max_players + 1))
def test_round_worlds_replay_to_the_view_at_every_table_size(players: int) -> None:
    assert check_sample_round(_load(players), seed=players) > 0


@pytest.mark.parametrize("options", ROUND_OPTIONS, ids=_ids)
def test_round_worlds_replay_to_the_view_with_each_option(options: dict[str, Any]) -> None:
    assert check_sample_round(_load(3, **options), seed=7) > 0
    assert check_sample_round(_load(5, **options), seed=8) > 0


def _play_until(state: NainJauneState, rng: random.Random, stop: Any) -> None:
    while not stop(state):
        assert not state.is_terminal, "the match ended before the position looked for"
        state.apply(rng.choice(state.legal_actions()))


def _sample_round(
    game: NainJauneGame, view: NainJauneView, rng: random.Random
) -> tuple[NainJauneState, list[int]] | None:
    """``game.sample_round`` (core's, which loads the sampler), its world narrowed to this game's state."""
    got = game.sample_round(view, rng)
    if got is None:
        return None
    world, actions = got
    assert isinstance(world, NainJauneState)
    return world, actions


def _replay(world: NainJauneState, actions: list[int]) -> NainJauneState:
    replay = world.clone()
    for action in actions:
        replay.apply(action)
    return replay


def test_round_start_is_the_deals_first_decision() -> None:
    # Play into the second deal, remembering the true state at its first decision.
    game = _load(4, sequence_bonus=True)
    state = game.new_state(3)
    rng = random.Random(3)
    _play_until(state, rng, lambda s: s.round == 2 and s.phase_name == "play")
    start = state.clone()
    assert not start.played
    _play_until(state, rng, lambda s: len(s.played) >= 9)
    seat = state.current_player
    view = state.view(seat)
    for _ in range(5):
        got = _sample_round(game, view, rng)
        assert got is not None
        world, actions = got
        assert world.phase_name == "play" and world.round == 2
        assert world.current_player == view.opener == (view.dealer + 1) % 4
        assert world.played == [] and world.need == 0 and world.lacks == [0] * 4
        assert [h.bit_count() for h in world.hands] == [game.hand_size] * 4
        assert world.history == []
        # The viewer sees exactly what it saw at the true deal's first decision
        # (its hand, the tokens and the board right after the stakes).
        assert world.view(seat).to_dict() == start.view(seat).to_dict()
        # No pass is an action here (they are automatic): the actions are the pile.
        assert actions == [PLAY_CARD(c) for _, c in view.played]
        assert _replay(world, actions).view(seat).to_dict() == view.to_dict()


def test_round_start_at_the_first_decision_is_the_view_itself() -> None:
    game = _load(3)
    state = game.new_state(4)
    view = state.view(state.current_player)
    got = _sample_round(game, view, random.Random(4))
    assert got is not None
    world, actions = got
    assert actions == []
    assert world.view(view.seat).to_dict() == view.to_dict()


def _hidden_at_start(world: NainJauneState, seat: int) -> tuple[int, ...]:
    return tuple(h for s, h in enumerate(world.hands) if s != seat)


def test_worlds_vary_in_hidden_hands_and_keep_the_pile() -> None:
    game = _load(4)
    state = game.new_state(11)
    rng = random.Random(11)
    _play_until(state, rng, lambda s: len(s.played) >= 12)
    seat = state.current_player
    view = state.view(seat)
    hands: set[tuple[int, ...]] = set()
    talons: set[int] = set()
    for _ in range(20):
        got = _sample_round(game, view, rng)
        assert got is not None
        world, actions = got
        hands.add(_hidden_at_start(world, seat))
        talons.add(world.dealt)
        # Each card of the pile starts in the hand of the seat that played it.
        for who, c in view.played:
            assert world.hands[who] >> c & 1
        assert _replay(world, actions).view(seat).to_dict() == view.to_dict()
    assert len(hands) > 1
    assert len(talons) > 1


def test_voluntary_passes_are_rebuilt_between_the_cards() -> None:
    # With voluntary_stop every pass is an action the view does not list.
    game = _load(4, voluntary_stop=True)
    state = game.new_state(5)
    rng = random.Random(5)
    _play_until(state, rng, lambda s: len(s.played) >= 10 and PASS_TURN() in s.history[-3:])
    view = state.view(state.current_player)
    got = _sample_round(game, view, rng)
    assert got is not None
    world, actions = got
    assert PASS_TURN() in actions
    assert [a for a in actions if a != PASS_TURN()] == [PLAY_CARD(c) for _, c in view.played]
    assert _replay(world, actions).view(view.seat).to_dict() == view.to_dict()


@pytest.mark.skipif(
    atout.compiled(),
    reason="spies on a call inside sampling.py, which compiled code makes in C: runs on the pure pass (ATOUT_PURE=1)",
)
def test_restarts_paying_the_sequence_bonus_are_drawn_to_match_the_tokens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # voluntary_stop + sequence_bonus: a seat continuing its own run may have done
    # so after the whole table passed round (paying the bonus); the tokens tell.
    drawn: list[frozenset[int] | None] = []
    original = sampling._draw_restarts

    def spy(*args: Any) -> frozenset[int] | None:
        got = original(*args)
        drawn.append(got)
        return got

    monkeypatch.setattr(sampling, "_draw_restarts", spy)
    game = _load(4, voluntary_stop=True, sequence_bonus=True)
    for seed in (3, 4):  # matches where random players do restart so
        rng = random.Random(1)
        state = game.new_state(seed)
        while not state.is_terminal and state.round <= 2:
            view = state.view(state.current_player)
            got = _sample_round(game, view, rng)
            assert got is not None
            world, actions = got
            assert _replay(world, actions).view(view.seat).to_dict() == view.to_dict()
            state.apply(rng.choice(state.legal_actions()))
    assert any(drawn), "no view needed a restart: the test no longer covers the case"
    assert None not in drawn


def test_claims_are_replayed_exactly_where_the_board_was_emptied() -> None:
    game = _load(3, manual_claim=True)
    rng = random.Random(2)
    seen_unclaimed = seen_claimed = False
    for seed in range(8):
        state = game.new_state(seed)
        _play_until(state, rng, lambda s: s.is_terminal or (len(s.played) >= 20 and s.claim_box < 0))
        if state.is_terminal:
            continue
        view = state.view(state.current_player)
        got = _sample_round(game, view, rng)
        assert got is not None
        world, actions = got
        board = [BOX_OF[c] for _, c in view.played if BOX_OF[c] >= 0]
        claimed = [b for b in board if view.boxes[b] == 0]
        assert actions.count(CLAIM_BOX()) == len(claimed)
        seen_claimed |= bool(claimed)
        seen_unclaimed |= len(claimed) < len(board)
        assert _replay(world, actions).view(view.seat).to_dict() == view.to_dict()
    assert seen_claimed and seen_unclaimed


def test_heuristic_can_be_asked_at_every_replayed_decision() -> None:
    # The heuristic keeps no memory between calls (it reads the view only), so
    # asking it about each seat of each world (SearchBot._weighted_world) is safe.
    game = _load(5, voluntary_stop=True, manual_claim=True)
    state = game.new_state(2)
    rng = random.Random(2)
    _play_until(state, rng, lambda s: len(s.played) >= 15)
    view = state.view(state.current_player)
    bot = NainJauneHeuristicBot(seed=0)
    got = _sample_round(game, view, rng)
    assert got is not None
    world, actions = got
    for action in actions:
        actor = world.current_player
        assert bot.choose(world.view(actor)) in world.legal_actions()
        world.apply(action)
    searcher = SearchBot(seed=0, playouts=8, inference=True)
    searcher.start(game, view.seat)
    assert searcher.choose(view) in view.legal_actions


def test_refuses_a_view_of_another_game() -> None:
    other = _load(4).new_state(1)
    with pytest.raises(ValueError):
        _load(3).sample_round(other.view(other.current_player), random.Random(0))
