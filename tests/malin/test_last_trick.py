"""``last_trick``: the trick that ended a hand stays on every seat's view.

Once a hand's last trick is resolved the hand is scored and (after any Malheur
draws) the next one is dealt, so the hand's ``tricks`` leave the view before a
table could show the final trick.  ``last_trick`` keeps the match's latest
finished trick (with its hand number) until the new hand finishes one.  The
expected tricks here are rebuilt from what the table saw, not from the
engine's bookkeeping: the trick on the table just before it was resolved (plus
the card, or the Wish's new value, that completed it), and the taker read off
the trick counts (the score sheet's, when the trick ended the hand).  Windows
are always passed, so no Malheur card changes a value after it is seen.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.games.malin import MalinGame, MalinState, MalinView
from atout.games.malin.cards import card_text, value_json
from atout.games.malin.rules import PASS, play_kind_value
from atout.games.malin.view import TableCard

Cards = tuple[TableCard, ...]


def _view(state: MalinState, seat: int) -> MalinView:
    view = state.view(seat)
    assert isinstance(view, MalinView)
    return view


def _choose(state: MalinState, rng: random.Random) -> int:
    """A random legal action, passing every Malheur window and reaction."""
    legal = state.legal_actions()
    return PASS if PASS in legal else rng.choice(legal)


def _finish_trick(state: MalinState, rng: random.Random) -> tuple[Cards, int]:
    """Play until a trick is resolved; that trick's cards (seat, kind, declared, value) and its taker."""
    n = state.game.players
    while True:
        before = _view(state, 0)
        seat = state.current_player
        action = _choose(state, rng)
        state.apply(action)
        after = _view(state, 0)
        if not before.trick or after.trick:
            continue  # the trick on the table is not resolved yet
        cards: Cards = before.trick
        if len(cards) == n - 1:  # the last card closed the trick
            assert before.phase == "play"
            kind, value = play_kind_value(action, state.game.twin_high)
            cards = (*cards, (seat, kind, value, value))
        else:  # the Malheur window after the last card closed, everybody passing (jeu fun)
            assert before.phase == "window" and action == PASS and len(cards) == n
        # The trick that ends a hand is counted on the sheet, the others in tricks_won.
        won = after.sheet[-1][1] if after.round != before.round or state.is_terminal else after.tricks_won
        gained = [s for s in range(n) if won[s] != before.tricks_won[s]]
        assert len(gained) == 1 and won[gained[0]] == before.tricks_won[gained[0]] + 1
        return cards, gained[0]


def _finish_hand(state: MalinState, rng: random.Random) -> tuple[Cards, int]:
    """Play to the end of the current hand; its final trick and taker."""
    rnd = state.round
    while True:
        cards, winner = _finish_trick(state, rng)
        if state.round != rnd or state.is_terminal:
            return cards, winner


def _shown(cards: Cards, winner: int, rnd: int) -> dict[str, Any]:
    return {
        "cards": [
            {"seat": s, "card": card_text(k), "declared": d, "value": value_json(v)} for s, k, d, v in cards
        ],
        "winner": winner,
        "round": rnd,
    }


def _assert_last_trick(state: MalinState, cards: Cards, winner: int, rnd: int) -> None:
    """Every seat's view shows (cards, winner) of hand ``rnd`` as ``last_trick``, in both forms."""
    for seat in range(state.game.players):
        view = _view(state, seat)
        assert view.last_trick == (cards, winner), f"seat {seat}"
        assert view.last_trick_round == rnd
        assert view.to_dict()["last_trick"] == _shown(cards, winner, rnd)


def _to_hand_two(players: int, seed: int, **options: Any) -> tuple[MalinState, random.Random, Cards, int]:
    """A seeded match just after hand 1's last trick, with that trick and its taker."""
    state = MalinGame(players, **options).new_state(seed)
    rng = random.Random(seed)
    cards, winner = _finish_hand(state, rng)
    assert state.round == 2 and state.phase_name in ("bid", "window")
    return state, rng, cards, winner


def test_no_last_trick_before_the_first_trick() -> None:
    state = MalinGame(4).new_state(5)
    for seat in range(4):
        d = _view(state, seat).to_dict()
        assert d["last_trick"] is None and d["prev_round_trick"] is None


@pytest.mark.parametrize(
    ("players", "options"),
    [(3, {}), (4, {}), (5, {"fun": True}), (6, {"wish_collision": "last_trick_only"})],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_hand_one_final_trick_then_hand_two_first_trick(
    players: int, options: dict[str, Any], seed: int
) -> None:
    state, rng, cards, winner = _to_hand_two(players, seed, **options)
    assert sorted(s for s, _, _, _ in cards) == list(range(players))
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
    state, rng, _, _ = _to_hand_two(4, 7)
    cards, winner = _finish_hand(state, rng)
    assert state.round == 3
    _assert_last_trick(state, cards, winner, 2)
    assert _view(state, 1).prev_round_trick == (cards, winner)


@pytest.mark.parametrize("options", [{}, {"fun": True}], ids=["plain", "fun"])
def test_sampled_worlds_show_the_same_last_trick(options: dict[str, Any]) -> None:
    """Public: a world drawn from a view (and one rewound to its hand's start) shows it too."""
    state, rng, cards, winner = _to_hand_two(4, 3, **options)
    shown = _shown(cards, winner, 1)
    game = state.game
    # At the hand's first decision, with a card of hand 2 down, and once hand 2 has a trick.
    for step in range(3):
        if step == 1:
            while state.phase_name != "play" or not _view(state, 0).trick:
                state.apply(_choose(state, rng))
        if step == 2:
            _finish_trick(state, rng)
        seat = state.current_player
        view = _view(state, seat)
        assert (view.to_dict()["last_trick"] == shown) == (step < 2)
        for _ in range(3):
            assert game.sample_state(view, rng).view(seat).to_dict() == view.to_dict()
            got = game.sample_round(view, rng)
            assert got is not None, "no Malheur card was played: the hand replays linearly"
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
