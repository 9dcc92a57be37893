"""``last_trick``: the trick that ended a hand stays on every seat's view.

The last card of a hand scores it and deals the next one at once, so the
hand's ``tricks`` leave the view before a table could show the final trick.
``last_trick`` keeps the match's latest finished trick (with its hand number)
until the new hand finishes one.  The expected tricks here are rebuilt from
what the table saw, not from the engine's bookkeeping: the trick in progress
just before its last card, that card, and the taker by the rules
(:func:`.helpers.rule_trick_winner`, written from the rule texts).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.games.sticheln import StichelnGame, StichelnState, StichelnView

from .helpers import rule_trick_winner

Cards = tuple[tuple[int, int], ...]


def _view(state: StichelnState, seat: int) -> StichelnView:
    view = state.view(seat)
    assert isinstance(view, StichelnView)
    return view


def _finish_trick(state: StichelnState, rng: random.Random) -> tuple[Cards, int]:
    """Random play until a trick is complete; that trick's cards (seat, kind) and its taker (-1: void)."""
    game = state.game
    n = game.players
    while True:
        before = _view(state, 0)
        seat = state.current_player
        action = rng.choice(state.legal_actions())
        state.apply(action)
        if before.phase == "play" and len(before.trick) == n - 1:
            cards = (*before.trick, (seat, action))
            taker = rule_trick_winner(
                [(s, game.deck.text(k)) for s, k in cards],
                game.options["zero_lead_colour"],
                game.options["all_zero_trick"],
            )
            return cards, -1 if taker is None else taker


def _assert_last_trick(state: StichelnState, cards: Cards, winner: int, rnd: int) -> None:
    """Every seat's view shows (cards, winner) of hand ``rnd`` as ``last_trick``, in both forms."""
    text = state.game.deck.text
    for seat in range(state.game.players):
        view = _view(state, seat)
        assert view.last_trick == (cards, winner), f"seat {seat}"
        assert view.last_trick_round == rnd
        assert view.to_dict()["last_trick"] == {
            "cards": [[s, text(k)] for s, k in cards],
            "winner": winner,
            "round": rnd,
        }


def _finish_hand(state: StichelnState, rng: random.Random) -> tuple[Cards, int]:
    """Random play to the end of the current hand; its final trick and taker."""
    rnd = state.round
    while True:
        cards, winner = _finish_trick(state, rng)
        if state.round != rnd or state.is_terminal:
            return cards, winner


def _to_hand_two(players: int, seed: int, **options: Any) -> tuple[StichelnState, random.Random, Cards, int]:
    """A seeded match just after hand 1's last trick, with that trick and its taker."""
    state = StichelnGame(players, **options).new_state(seed)
    rng = random.Random(seed)
    cards, winner = _finish_hand(state, rng)
    assert state.round == 2 and state.phase_name == "pain"
    return state, rng, cards, winner


def test_no_last_trick_before_the_first_trick() -> None:
    state = StichelnGame(4).new_state(5)
    for seat in range(4):
        d = _view(state, seat).to_dict()
        assert d["last_trick"] is None and d["prev_round_trick"] is None


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {}), (4, {}), (5, {"all_zero_trick": "void"}), (8, {"zero_lead_colour": "first_nonzero"})],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_hand_one_final_trick_then_hand_two_first_trick(
    players: int, options: dict[str, Any], seed: int
) -> None:
    state, rng, cards, winner = _to_hand_two(players, seed, **options)
    assert len(cards) == players and sorted(s for s, _ in cards) == list(range(players))
    view = _view(state, 0)
    assert view.tricks == () and view.trick == (), "hand 1's tricks are gone from the view"
    _assert_last_trick(state, cards, winner, 1)
    assert view.prev_round_trick == (cards, winner)

    cards2, winner2 = _finish_trick(state, rng)
    assert state.round == 2
    _assert_last_trick(state, cards2, winner2, 2)
    view = _view(state, 0)
    assert view.tricks == ((cards2, winner2),)
    assert view.prev_round_trick == (cards, winner), "hand 1's final trick is still known"
    assert view.to_dict()["prev_round_trick"]["round"] == 1


def test_hand_two_final_trick_replaces_hand_one() -> None:
    state, rng, _, _ = _to_hand_two(3, 7)
    cards, winner = _finish_hand(state, rng)
    assert state.round == 3
    _assert_last_trick(state, cards, winner, 2)
    assert _view(state, 1).prev_round_trick == (cards, winner)


def test_sampled_worlds_show_the_same_last_trick() -> None:
    """Public: a world drawn from a view (and one rewound to its hand's start) shows it too."""
    state, rng, cards, winner = _to_hand_two(4, 3, two_pain_colours=True)
    text = state.game.deck.text
    shown = {"cards": [[s, text(k)] for s, k in cards], "winner": winner, "round": 1}
    game = state.game
    # At the hand's first decision, with a card of hand 2 down, and once hand 2 has a trick.
    for step in range(3):
        if step == 1:
            while state.phase_name != "play" or not _view(state, 0).trick:
                state.apply(rng.choice(state.legal_actions()))
        if step == 2:
            _finish_trick(state, rng)
        seat = state.current_player
        view = _view(state, seat)
        assert (view.to_dict()["last_trick"] == shown) == (step < 2)
        for _ in range(3):
            assert game.sample_state(view, rng).view(seat).to_dict() == view.to_dict()
            got = game.sample_round(view, rng)
            assert got is not None, "Sticheln offers a round world at every decision"
            world, actions = got
            assert world.view(seat).to_dict()["last_trick"] == shown, "the hand's start shows hand 1's trick"
            for action in actions:
                world.apply(action)
            assert world.view(seat).to_dict() == view.to_dict()


def test_clone_keeps_it_and_stays_independent() -> None:
    state, rng, cards, winner = _to_hand_two(5, 11)
    copy = state.clone()
    _assert_last_trick(copy, cards, winner, 1)
    _finish_hand(copy, rng)
    assert copy.round == 3
    _assert_last_trick(state, cards, winner, 1)


def test_tensors_do_not_read_it() -> None:
    """Observations stay what they were: tensors build from their own fields, not from last_trick."""
    state, _, _, _ = _to_hand_two(4, 9)
    bare = state.clone()
    bare.prev_round_trick = None
    game = state.game
    for seat in range(4):
        with_it, without = _view(state, seat), _view(bare, seat)
        assert with_it.last_trick is not None and without.last_trick is None
        assert game.observation_tensor(with_it) == game.observation_tensor(without)
        assert game.information_state_tensor(with_it) == game.information_state_tensor(without)
