"""The terminal rendering draws every kind of view of a jeu fun match without error."""

from __future__ import annotations

import io
import random

from rich.console import Console

from atout.games.malin import MalinGame
from atout.games.malin.render import render_sheet, render_view

from .helpers import random_step


def test_render_every_view_of_a_match() -> None:
    game = MalinGame(4, fun=True)
    state = game.new_state(seed=4)
    names = ["Ann", "Bob", "Cy", "Dee"]
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    rng = random.Random(4)
    phases = set()
    while not state.is_terminal:
        seat = max(state.current_player, 0)
        view = state.view(seat)
        phases.add(view.phase)
        console.print(render_view(view, names))
        random_step(state, rng)
    console.print(render_sheet(state.view(0), names))
    text = out.getvalue()
    assert {"bid", "play", "window", "react"} <= phases
    assert "Your Malheur cards" in text and "Score sheet" in text and "put aside" in text
    assert "hand" in str(state).lower()
