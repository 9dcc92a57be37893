"""The terminal rendering draws a view without leaking and without errors."""

from __future__ import annotations

import random

from rich.console import Console

from atout.games.sticheln import StichelnGame, render

from .helpers import random_step

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def draw(renderable: object) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_views_and_sheet_render_in_every_phase() -> None:
    game = StichelnGame(4, two_pain_colours=True, hands=2, first_dealer=0)
    state = game.new_state(seed=8)
    rng = random.Random(8)
    state.apply(state.legal_actions()[0])  # Bob lays a secret card
    text = draw(render.render_view(state.view(0), NAMES))
    assert "Hand 1/2" in text and "face down" in text
    secret = game.deck.text(state.pains[1][0])
    assert f"{secret} " not in text.split("Your hand:")[0], "an unrevealed handicap card is not shown"
    while not state.is_terminal:
        text = draw(render.render_view(state.view(2), NAMES))
        assert "Your hand:" in text
        random_step(state, rng)
    sheet = draw(render.render_sheet(state.view(0), NAMES))
    assert "Score sheet" in sheet and str(state.scores()[0]) in sheet
    assert "Sticheln, hand 2/2" in str(state)


def test_last_trick_names_each_card_and_the_taker_even_after_the_hand() -> None:
    game = StichelnGame(3, hands=3, first_dealer=0)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    deck = game.deck
    # Follow the cards as they are played (not the view's own record of them).
    trick: list[tuple[int, int]] = []
    while state.round < 2:
        before = state.view(0)
        actor = state.current_player
        action = random_step(state, rng)
        if before.phase == "play":
            trick.append((actor, action))
            if len(trick) == game.players:
                played, trick = trick, []
    view = state.view(0)
    assert view.round == 2 and not view.tricks
    assert view.last_trick is not None
    winner = view.last_trick[1]
    taker = NAMES[winner] if winner >= 0 else "nobody"
    expected = ", ".join(f"{NAMES[s]}: {deck.text(k)}" for s, k in played) + f" → {taker}"
    assert f"Last trick of hand 1: {expected}" in draw(render.render_view(view, NAMES))
    while not state.view(0).tricks:
        random_step(state, rng)
    view = state.view(0)
    cards, winner = view.tricks[-1]
    shown = ", ".join(f"{NAMES[s]}: {deck.text(k)}" for s, k in cards)
    assert f"Last trick: {shown} → " in draw(render.render_view(view, NAMES))
