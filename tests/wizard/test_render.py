"""The terminal drawing: every view draws, and the last trick says who played what and who took it."""

from __future__ import annotations

import random

from rich.console import Console

from atout.games.wizard import WizardGame, render
from atout.games.wizard import cards as C

from .helpers import random_step

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def draw(renderable: object) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def trick_text(cards: list[tuple[int, int]], winner: int) -> str:
    return ", ".join(f"{NAMES[s]}: {C.card_text(k)}" for s, k in cards) + f" → {NAMES[winner]}"


def test_every_view_and_the_sheet_draw() -> None:
    game = WizardGame(4, rounds=3)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        text = draw(render.render_view(state.view(1), NAMES))
        assert "Your hand:" in text
        random_step(state, rng)
    sheet = draw(render.render_sheet(state.view(0), NAMES))
    assert "Score sheet" in sheet and str(state.scores()[0]) in sheet


def test_last_trick_names_each_card_and_the_taker_even_after_the_round() -> None:
    game = WizardGame(4, rounds=4, first_dealer=0)
    state = game.new_state(seed=11)
    rng = random.Random(11)
    # Follow the cards as they are played (not the view's own record of them).
    trick: list[tuple[int, int]] = []
    while state.round < 3:
        before = state.view(0)
        actor = state.current_player
        action = random_step(state, rng)
        if before.phase == "play":
            trick.append((actor, action))
            if len(trick) == game.players:
                after = state.view(0)
                won = after.sheet[-1][1] if after.round != before.round else after.tricks_won
                winner = next(s for s in range(game.players) if won[s] > before.tricks_won[s])
                last = trick_text(trick, winner)
                trick = []
    # Round 3 has started and none of its tricks is finished: round 2's last one still shows.
    view = state.view(0)
    assert view.round == 3 and not view.tricks
    text = draw(render.render_view(view, NAMES))
    assert f"Last trick of round 2: {last}" in text
    line = draw(render.render_last_trick(view, NAMES))
    assert f"Last trick of round 2: {last}" in line
    # Once round 3 finishes a trick, that one shows, named the same way.
    while not state.view(0).tricks:
        random_step(state, rng)
    view = state.view(0)
    cards, winner = view.tricks[-1]
    assert f"Last trick: {trick_text(list(cards), winner)}" in draw(render.render_view(view, NAMES))
    assert "of round" not in draw(render.render_view(view, NAMES))


def test_the_trick_in_progress_names_each_card() -> None:
    state = WizardGame(3, first_dealer=0).new_state(seed=2)
    rng = random.Random(2)
    while len(state.view(0).trick) < 2:
        random_step(state, rng)
    view = state.view(0)
    played = ", ".join(f"{NAMES[s]}: {C.card_text(k)}" for s, k in view.trick)
    assert f"Trick: {played}" in draw(render.render_view(view, NAMES))
