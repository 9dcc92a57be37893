"""``last_trick``: the trick that ended a round stays on every seat's view.

The last card of a round scores it and deals the next one at once, so the
round's ``tricks`` leave the view before a table could show the final trick.
``last_trick`` keeps the match's latest finished trick (with its round) until
the new round finishes one.  The expected tricks here are rebuilt from what the
table saw, not from the engine's bookkeeping: the trick in progress just before
its last card, that card, and the taker read off the trick counts (the score
sheet's, when the trick ended the round).
"""

from __future__ import annotations

import random

import pytest

from atout.games.wizard import WizardGame, WizardState, WizardView
from atout.games.wizard.cards import card_text

Cards = tuple[tuple[int, int], ...]


def _view(state: WizardState, seat: int) -> WizardView:
    view = state.view(seat)
    assert isinstance(view, WizardView)
    return view


def _finish_trick(state: WizardState, rng: random.Random) -> tuple[Cards, int]:
    """Random play until a trick is complete; that trick's cards (seat, kind) and its taker."""
    n = state.game.players
    while True:
        before = _view(state, 0)
        seat = state.current_player
        action = rng.choice(state.legal_actions())
        state.apply(action)
        if before.phase == "play" and len(before.trick) == n - 1:
            after = _view(state, 0)
            # The trick that ends a round is counted on the sheet, the others in tricks_won.
            won = after.sheet[-1][1] if after.round != before.round or state.is_terminal else after.tricks_won
            gained = [s for s in range(n) if won[s] != before.tricks_won[s]]
            assert len(gained) == 1 and won[gained[0]] == before.tricks_won[gained[0]] + 1
            return (*before.trick, (seat, action)), gained[0]


def _assert_last_trick(state: WizardState, cards: Cards, winner: int, rnd: int) -> None:
    """Every seat's view shows (cards, winner) of round ``rnd`` as ``last_trick``, in both forms."""
    for seat in range(state.game.players):
        view = _view(state, seat)
        assert view.last_trick == (cards, winner), f"seat {seat}"
        assert view.last_trick_round == rnd
        assert view.to_dict()["last_trick"] == {
            "cards": [[s, card_text(k)] for s, k in cards],
            "winner": winner,
            "round": rnd,
        }


def _to_round_two(players: int, seed: int) -> tuple[WizardState, random.Random, Cards, int]:
    """A seeded match just after round 1's only trick, with that trick and its taker."""
    state = WizardGame(players).new_state(seed)
    rng = random.Random(seed)
    cards, winner = _finish_trick(state, rng)
    assert state.round == 2 and state.phase_name in ("trump", "bid")
    return state, rng, cards, winner


def test_no_last_trick_before_the_first_trick() -> None:
    state = WizardGame(4).new_state(5)
    for seat in range(4):
        d = _view(state, seat).to_dict()
        assert d["last_trick"] is None and d["prev_round_trick"] is None


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_round_one_final_trick_then_round_two_first_trick(players: int, seed: int) -> None:
    state, rng, cards, winner = _to_round_two(players, seed)
    assert len(cards) == players and sorted(s for s, _ in cards) == list(range(players))
    view = _view(state, 0)
    assert view.tricks == () and view.trick == (), "round 1's tricks are gone from the view"
    _assert_last_trick(state, cards, winner, 1)
    assert view.prev_round_trick == (cards, winner)

    cards2, winner2 = _finish_trick(state, rng)
    assert state.round == 2
    _assert_last_trick(state, cards2, winner2, 2)
    view = _view(state, 0)
    assert view.tricks == ((cards2, winner2),)
    assert view.prev_round_trick == (cards, winner), "round 1's final trick is still known"
    assert view.to_dict()["prev_round_trick"]["round"] == 1


def test_round_two_final_trick_replaces_round_one() -> None:
    state, rng, _, _ = _to_round_two(4, 7)
    _finish_trick(state, rng)
    cards, winner = _finish_trick(state, rng)  # round 2's second and last trick
    assert state.round == 3
    _assert_last_trick(state, cards, winner, 2)
    assert _view(state, 1).prev_round_trick == (cards, winner)


def test_the_match_end_shows_the_final_trick() -> None:
    state = WizardGame(3, rounds=2).new_state(4)
    rng = random.Random(4)
    _finish_trick(state, rng)
    _finish_trick(state, rng)
    cards, winner = _finish_trick(state, rng)
    assert state.is_terminal
    _assert_last_trick(state, cards, winner, 2)


def test_sampled_worlds_show_the_same_last_trick() -> None:
    """Public: a world drawn from a view (and one rewound to its round's start) shows it too."""
    state, rng, cards, winner = _to_round_two(4, 3)
    shown = {"cards": [[s, card_text(k)] for s, k in cards], "winner": winner, "round": 1}
    seat = state.current_player
    view = _view(state, seat)
    game = state.game
    for _ in range(3):
        assert game.sample_state(view, rng).view(seat).to_dict() == view.to_dict()
    # Then with a card of round 2 down, and once round 2 has a finished trick of its own.
    while state.phase_name != "play" or not _view(state, 0).trick:
        state.apply(rng.choice(state.legal_actions()))
    for finished in (0, 1):
        if finished:
            _finish_trick(state, rng)
        seat = state.current_player
        view = _view(state, seat)
        assert (view.to_dict()["last_trick"] == shown) == (not finished)
        for _ in range(3):
            assert game.sample_state(view, rng).view(seat).to_dict() == view.to_dict()
            got = game.sample_round(view, rng)
            assert got is not None
            world, actions = got
            assert world.view(seat).to_dict()["last_trick"] == shown, (
                "the round's start shows round 1's trick"
            )
            for action in actions:
                world.apply(action)
            assert world.view(seat).to_dict() == view.to_dict()


def test_clone_keeps_it_and_stays_independent() -> None:
    state, rng, cards, winner = _to_round_two(5, 11)
    copy = state.clone()
    _assert_last_trick(copy, cards, winner, 1)
    while copy.round < 4:
        copy.apply(rng.choice(copy.legal_actions()))
    _assert_last_trick(state, cards, winner, 1)


def test_tensors_do_not_read_it() -> None:
    """Observations stay what they were: tensors build from their own fields, not from last_trick."""
    state, _, _, _ = _to_round_two(4, 9)
    bare = state.clone()
    bare.prev_round_trick = bare.prev_round_trick_shown = None
    game = state.game
    for seat in range(4):
        with_it, without = _view(state, seat), _view(bare, seat)
        assert with_it.last_trick is not None and without.last_trick is None
        assert game.observation_tensor(with_it) == game.observation_tensor(without)
        assert game.information_state_tensor(with_it) == game.information_state_tensor(without)
