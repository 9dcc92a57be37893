"""Sticheln's action space and chance notation: ids named by their ranges, texts and refusals pinned.

The ids are those of the rules page's table (records saved before still
replay), and every message is the one the engine has always given.
"""

from __future__ import annotations

import pytest

from atout.core.errors import IllegalAction, NotationError
from atout.games.sticheln import StichelnGame

DECK_4 = "(colours B, G, R, Y, O, values 0..11; write e.g. B7)"


def test_the_ranges_are_the_documented_ids() -> None:
    game = StichelnGame(4)
    play, pain = game.space["play"], game.space["pain"]
    # rules page, "Actions and their ids": 4 players, play B7 is id 7, R0 is 24, pain B7 is 67.
    assert (play(7), play(24), pain(7)) == (7, 24, 67)
    assert [r.name for r in game.space.ranges] == ["play", "pain"]
    assert (play.start, pain.start, game.num_actions, game.pain_base) == (0, 60, 120, 60)
    assert game.action_to_text(pain(7)) == "pain B7" and game.action_to_text(play(24)) == "play R0"
    assert game.text_to_action("handicap b7") == pain(7) == game.text_to_action("PAIN B7")
    assert game.text_to_action("R0") == play(24)
    eight = StichelnGame(8)
    assert (eight.space["pain"].start, eight.num_actions) == (114, 228)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("play", f"'play': 'play' is not a card of this deck {DECK_4}"),
        ("handicap", f"'handicap': 'handicap' is not a card of this deck {DECK_4}"),
        ("pain Z1", f"'pain Z1': 'z1' is not a card of this deck {DECK_4}"),
        ("play B7 B8", "'play B7 B8' is not a Sticheln action: write 'play B7' or 'pain B7'"),
        ("bid 3", "'bid 3' is not a Sticheln action: write 'play B7' or 'pain B7'"),
        ("", "'' is not a Sticheln action: write 'play B7' or 'pain B7'"),
    ],
)
def test_a_text_that_is_no_action_says_why(text: str, message: str) -> None:
    with pytest.raises(NotationError) as exc:
        StichelnGame(4).text_to_action(text)
    assert str(exc.value) == message


def test_an_id_out_of_the_space_is_refused() -> None:
    game = StichelnGame(4)
    with pytest.raises(NotationError, match=r"^120 is not a Sticheln action id \(0\.\.119\)$"):
        game.action_to_text(120)
    state = game.new_state(seed=1)
    assert state.illegal_reason(120) == "120 is not a Sticheln action id (0..119)"


def test_a_bare_card_is_a_handicap_card_while_those_are_laid() -> None:
    game = StichelnGame(4, first_dealer=0)
    state = game.new_state(seed=3)
    assert state.phase_name == "pain"
    card = game.deck.text(game.deck.kinds_in(state.hands[1])[0])
    assert state.parse(card) == game.space["pain"](game.deck.parse(card))
    assert state.view(1).parse(card) == state.parse(card)
    with pytest.raises(IllegalAction, match=f"write 'pain {card}' to lay that card"):
        state.apply(f"play {card}")
    assert state.phase_name == "pain" and not any(state.pains)


@pytest.mark.parametrize(
    ("first_dealer", "text", "message"),
    [
        (None, "dealer 7", "'dealer 7': the dealer is a seat 0..3"),
        (None, "dealer x", "'dealer x': invalid literal for int() with base 10: 'x'"),
        (
            None,
            "deal 1 B1",
            "'deal 1 B1' is not the chance event expected here (first-dealer: write e.g. 'dealer 2')",
        ),
        (0, "dealer 1", "'dealer 1' is not the chance event expected here (deal: write e.g. 'deal 1 B7')"),
        (
            0,
            "deal 2 B1",
            "'deal 2 B1': the next card of hand 1 goes to seat 1, not seat 2 (seat 1 has 0 of 15 cards)",
        ),
        (0, "deal 1 B12", f"'deal 1 B12': 'b12' is not a card of this deck {DECK_4}"),
    ],
)
def test_a_chance_text_that_does_not_fit_says_why(first_dealer: int | None, text: str, message: str) -> None:
    state = StichelnGame(4, first_dealer=first_dealer).new_state()
    with pytest.raises(NotationError) as exc:
        state.parse(text)
    assert str(exc.value) == message
    assert state.history == []
