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


def test_last_trick_names_each_card_and_the_taker_even_after_the_hand() -> None:
    from rich.text import Text

    from atout.games.malin.render import card_markup

    game = MalinGame(4)
    state = game.new_state(seed=6)
    rng = random.Random(6)
    names = ["Ann", "Bob", "Cy", "Dee"]
    while state.round < 2:
        before = state.view(0)
        actor = state.current_player
        random_step(state, rng)
    # Who took the hand's last trick, from the score sheet (not the view's record of the trick).
    view = state.view(0)
    taken = view.sheet[-1][1]
    winner = next(s for s in range(4) if taken[s] > before.tricks_won[s])
    assert view.round == 2 and not view.tricks and view.last_trick is not None
    cards, _ = view.last_trick
    seats = [s for s, *_ in before.trick]
    assert [s for s, *_ in cards] == (seats if len(seats) == 4 else [*seats, actor])
    shown = ", ".join(
        f"{names[s]} #{s}: {Text.from_markup(card_markup(k, v, d)).plain}" for s, k, d, v in cards
    )
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(render_view(view, names))
    assert f"Last trick of hand 1: {shown} → {names[winner]}" in out.getvalue()
