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
