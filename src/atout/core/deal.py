"""What every sampler shares (issue 19): hidden cards dealt under what play revealed, and the world's frame.

A search bot's world deals the cards its seat has not seen so that every
constraint the view shows holds: each seat gets as many cards as it holds, and
no seat gets a card it has shown it lacks (a suit it did not follow, a rank it
could not play).  Each game knows its own constraints; placing the cards is
the same everywhere, and lives here (:func:`place_by_room`).  So does the
frame of the state a sampler builds from the view (:func:`frame`): a world is
seedless, has no history, and is at the view's round and dealer.

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
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .game import Game

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


def frame(game: Game, round_: int, dealer: int) -> dict[str, Any]:
    """The fields every game's state has and every sampled world sets alike, for ``StateFields.build``.

    A world is seedless (chance after the sampled moment is the search's to
    draw), has no ``start`` position and an empty history (it is searched, not
    replayed), and is at the view's round (``round_``) and ``dealer``.  The
    caller names the rest, its game's own fields (hands, scores, sheet,
    phase...): ``XState.fields.build(XState, **frame(...), hands=...)``, which
    refuses a missing or an unknown one, so a field added to a state and
    forgotten by its sampler is caught at once.  A dict merged into that one
    call, not a wrapper around it: samplers run at every decision of a search,
    and passing some forty fields through a second call costs about 1.5 µs.
    """
    return {
        "game": game,
        "seed": None,
        "start": None,
        "history": [],
        "n": game.players,
        "round": round_,
        "dealer": dealer,
    }
