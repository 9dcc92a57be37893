"""Dealing hidden cards under what play has revealed: the step every sampler shares (issue 19).

A search bot's world deals the cards its seat has not seen so that every
constraint the view shows holds: each seat gets as many cards as it holds, and
no seat gets a card it has shown it lacks (a suit it did not follow, a rank it
could not play).  Each game knows its own constraints; placing the cards is
the same everywhere, and lives here.

>>> import random
>>> room = {0: 1, 1: 2}
>>> out = {0: [], 1: []}
>>> place_by_room([(1, 0.5, "A", [1]), (2, 0.1, "B", [0, 1]), (2, 0.9, "C", [0, 1])], room, out, random.Random(1))
True
>>> sorted(out[0] + out[1]), "A" in out[1], room
(['A', 'B', 'C'], True, {0: 0, 1: 0})
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

Card = TypeVar("Card")
Seat = TypeVar("Seat", bound=Hashable)


def place_by_room(
    cards: Iterable[tuple[int, float, Card, Sequence[Seat]]],
    room: dict[Seat, int],
    out: dict[Seat, list[Card]],
    rng: random.Random,
) -> bool:
    """Give each card to one of the seats that may hold it, drawn in proportion to the room left there.

    ``cards`` are ``(number of seats allowed, tie-break, card, seats allowed)``,
    most constrained first (sorted by the caller, who draws the tie-breaks so
    that the order is random among equals); ``room`` counts the cards each seat
    (or pile) still takes and is used up; ``out`` receives the cards.  False on a
    dead end (a card no open seat may hold): the caller starts again.  Weighting
    by room keeps the draw close to uniform over the consistent deals, not
    exactly so, a bias every PIMC bot accepts for speed.
    """
    for _, _, card, seats in cards:
        open_seats = [s for s in seats if room[s] > 0]
        if not open_seats:
            return False
        seat = rng.choices(open_seats, [room[s] for s in open_seats])[0]
        room[seat] -= 1
        out[seat].append(card)
    return True
