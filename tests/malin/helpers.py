"""Build Le Malin states the way a table does: explicit deals, explicit Malheur draws.

Everything goes through the public interface (``apply`` with the text notation,
``view``), so a test reads like a game being played.  The helpers take from the
engine only *who receives the next card* (the seat written in "deal 2 17"):
the test says which cards each seat holds, not the order they are handed out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from atout.core.game import CHANCE
from atout.games.malin import MalinGame, MalinState


def new_state(players: int = 4, dealer: int = 0, **options: Any) -> MalinState:
    """A seedless match whose first dealer is ``dealer``."""
    return MalinGame(players, first_dealer=dealer, **options).new_state()


def phase(state: MalinState, seat: int = 0) -> str:
    return str(state.view(seat).phase)


def vd(state: MalinState, seat: int) -> dict[str, Any]:
    """A seat's view in its JSON form."""
    return state.view(seat).to_dict()


def draw_malheurs(state: MalinState, cards: Mapping[int, Sequence[str]]) -> None:
    """Resolve every pending Malheur draw, giving each seat the listed cards in order."""
    todo = {seat: list(names) for seat, names in cards.items()}
    while phase(state) == "gain":
        words = state.action_to_text(state.legal_actions()[0]).split()
        seat = int(words[1])
        assert todo.get(seat), f"seat {seat} draws a Malheur card the test did not give"
        state.apply(f"draw {seat} {todo[seat].pop(0)}")
    assert not any(todo.values()), f"Malheur cards left undrawn: {todo}"


def deal(state: MalinState, hands: Mapping[int, str] | Sequence[str], removed: str) -> None:
    """Put ``removed`` aside, then deal each seat exactly the given cards ("3 17 TWIN WISH")."""
    state.apply(f"remove {removed}")
    todo = {
        s: cards.split() for s, cards in (hands.items() if isinstance(hands, Mapping) else enumerate(hands))
    }
    while state.current_player == CHANCE and phase(state) == "deal":
        seat = int(state.action_to_text(state.legal_actions()[0]).split()[1])
        assert todo.get(seat), f"the engine deals to seat {seat}, whose cards are all dealt"
        state.apply(f"deal {seat} {todo[seat].pop(0)}")
    assert not any(todo.values()), f"cards left undealt: {todo}"


def bid_all(state: MalinState, bids: Mapping[int, int] | Sequence[int]) -> None:
    """Every seat bids its number, in whatever order the table bids."""
    table = dict(bids.items() if isinstance(bids, Mapping) else enumerate(bids))
    while phase(state) == "bid":
        state.apply(f"bid {table[state.current_player]}")


def play(state: MalinState, *cards: str) -> list[int]:
    """Play ``cards`` ("17", "TWIN 35", "WISH -100") in turn order; returns the seats."""
    seats = []
    for card in cards:
        seats.append(state.current_player)
        state.apply(f"play {card}")
    return seats


def pass_window(state: MalinState) -> None:
    """Everyone passes in the open Malheur window (or windows)."""
    while phase(state) == "window":
        state.apply("pass")


def random_step(state: MalinState, rng: random.Random) -> int:
    """Apply a uniformly random legal action (chance outcomes by probability)."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply(action)
    return action


#: 4 players, 9 cards each: 36 = 34 numbers + 2 Twins + Wish - the card put aside.
HANDS_4P = [
    "1 5 9 13 17 21 25 29 33",
    "2 6 10 14 18 22 26 30 34",
    "3 7 11 15 19 23 27 31 TWIN",
    "4 8 12 16 20 24 28 TWIN WISH",
]
#: The card put aside with HANDS_4P.
REMOVED_4P = "32"


def pass_until(state: MalinState, seat: int) -> None:
    """Everyone before ``seat`` passes in the open window, leaving ``seat`` to act."""
    while phase(state) == "window" and state.current_player != seat:
        state.apply("pass")
    assert phase(state) == "window" and state.current_player == seat, "the window closed first"


def play_lowest(state: MalinState, tricks: int) -> None:
    """Play ``tricks`` tricks with every seat's lowest legal card, passing every window."""
    target = len(state.view(0).tricks) + tricks
    while len(state.view(0).tricks) < target and phase(state) in ("play", "window"):
        if phase(state) == "window":
            state.apply("pass")
        else:
            state.apply(state.legal_actions()[0])


def finish_hand(state: MalinState) -> None:
    """Play the current hand to its end (lowest legal card, passing windows, first legal bid)."""
    start = state.round
    while not state.is_terminal and state.round == start and not state.is_chance:
        if phase(state) == "window":
            state.apply("pass")
        else:
            state.apply(state.legal_actions()[0])
