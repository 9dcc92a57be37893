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
from bisect import bisect
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .game import Game

Card = TypeVar("Card")
Seat = TypeVar("Seat", bound=Hashable)
#: What a sampler works out from a view alone.
Known = TypeVar("Known")
#: A sampler's game and view types.
G = TypeVar("G")
V = TypeVar("V")


class LastView(Generic[G, V, Known]):
    """What a sampler worked out from the last view it was asked about (no draw in it), kept for the next.

    Why: a search samples hundreds of worlds of one view per decision, and the
    cards seen, the room left per seat and the constraints play revealed are the
    same in each; a sampler keeps them here and only draws.  The view is told by
    identity (the same object: a view is frozen) and kept alive with its result,
    so no other view can be taken for it; one view only, so nothing grows.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[G, V, Known] | None = None

    def get(self, game: G, view: V, work: Callable[[G, V], Known]) -> Known:
        """``work(game, view)``, from the last call when that was about this very view of this game."""
        last = self._last  # read once: another thread may replace it, never change it
        if last is not None and last[1] is view and last[0] is game:
            return last[2]
        known = work(game, view)
        self._last = (game, view, known)
        return known


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
    draw = rng.random
    for _, _, card, seats in cards:
        # ``rng.choices(open_seats, [room[s] for s in open_seats])[0]``, written out: the same one
        # ``random()`` draw and the same bisection of the running totals, so the same seat.
        open_seats: list[Seat] = []
        totals: list[int] = []
        total = 0
        for s in seats:
            left = room[s]
            if left > 0:
                total += left
                open_seats.append(s)
                totals.append(total)
        if not open_seats:
            return False
        seat = open_seats[bisect(totals, draw() * total, 0, len(totals) - 1)]
        room[seat] -= 1
        out[seat].append(card)
    return True


#: Plain draws (:func:`place_by_room`) a sampler tries before the one that cannot dead-end.
PLAIN_TRIES = 20


def place_on_try(
    attempt: int,
    cards: Sequence[tuple[int, float, Card, Sequence[Seat]]],
    room: dict[Seat, int],
    out: dict[Seat, list[Card]],
    rng: random.Random,
) -> bool:
    """A sampler's try number ``attempt`` (0 to :data:`PLAIN_TRIES`): the plain draw, the sure one last."""
    place = place_by_room if attempt < PLAIN_TRIES else place_surely
    return place(cards, room, out, rng)


def dealt_within_tries(
    need: dict[Seat, int],
    pile: Seat,
    pile_size: int,
    attempt: Callable[[int, dict[Seat, int], dict[Seat, list[Card]]], bool],
    refusal: str,
) -> dict[Seat, list[Card]]:
    """A sampler's deal, tried until one holds: the tries every sampler makes, written once.

    ``attempt(number, room, out)`` deals into ``out`` (every seat's list, and the
    ``pile``'s: the cards no seat holds, a talon or a stack) within ``room``
    (each seat's ``need``, ``pile_size`` for the pile), both fresh at each try,
    and says whether it dealt: :data:`PLAIN_TRIES` plain draws, then the one
    that cannot dead-end (:func:`place_on_try`).  When none deals, no deal
    explains the view: ``ValueError(refusal)``.
    """
    for number in range(PLAIN_TRIES + 1):
        room = dict(need)
        room[pile] = pile_size
        out: dict[Seat, list[Card]] = {s: [] for s in room}
        if attempt(number, room, out):
            return out
    raise ValueError(refusal)


def place_surely(
    cards: Sequence[tuple[int, float, Card, Sequence[Seat]]],
    room: dict[Seat, int],
    out: dict[Seat, list[Card]],
    rng: random.Random,
) -> bool:
    """:func:`place_by_room` without its dead ends: False only when no placement of ``cards`` exists.

    The greedy draw of :func:`place_by_room` can fill a seat with cards another
    seat could have held and strand a card that only the full seat may take.  On a
    tight view (the last rounds of Wizard, several seats void in several suits)
    that happens on nearly every try, and a sampler that only retries gives up on
    a view the true deal proves consistent.  This draws each card's seat exactly
    as :func:`place_by_room` does, but keeps a placement of all the cards still to
    come (a flow of cards to seats, grouped by the seats they may go to) and
    redraws among the other seats whenever a seat would leave the rest without
    one.  On every try where :func:`place_by_room` succeeds the draws, and so the
    result, are the same; it is slower (the flow), so samplers try the plain draw
    first.
    """
    groups: dict[tuple[Seat, ...], int] = {}
    for _, _, _, seats in cards:
        key = tuple(seats)
        groups[key] = groups.get(key, 0) + 1
    flow = _flow(groups, room)
    if flow is None:
        return False
    for _, _, card, seats in cards:
        key = tuple(seats)
        candidates = [s for s in seats if room[s] > 0]
        while True:
            if not candidates:  # unreachable while the flow is a placement of the rest
                return False
            seat = rng.choices(candidates, [room[s] for s in candidates])[0]
            after = _placed(flow, key, seat, room)
            if after is not None:
                break
            candidates.remove(seat)
        flow = after
        room[seat] -= 1
        out[seat].append(card)
    return True


_Flow = dict[tuple[Seat, ...], dict[Seat, int]]


def _flow(groups: dict[tuple[Seat, ...], int], room: dict[Seat, int]) -> _Flow[Seat] | None:
    """A placement of ``groups[seats]`` cards in each group's ``seats``, within ``room``; None if none exists."""
    flow: _Flow[Seat] = {key: {} for key in groups}
    left = dict(room)
    for key, count in groups.items():
        for _ in range(count):
            if not _route(key, flow, left, set()):
                return None
    return flow


def _route(key: tuple[Seat, ...], flow: _Flow[Seat], left: dict[Seat, int], seen: set[Seat]) -> bool:
    """Place one more card of group ``key``, moving others along if needed (an augmenting path)."""
    for seat in key:
        if seat in seen:
            continue
        seen.add(seat)
        if left[seat] > 0:
            left[seat] -= 1
            flow[key][seat] = flow[key].get(seat, 0) + 1
            return True
        for other, places in flow.items():
            if places.get(seat, 0) > 0 and _route(other, flow, left, seen):
                places[seat] -= 1
                flow[key][seat] = flow[key].get(seat, 0) + 1
                return True
    return False


def _placed(
    flow: _Flow[Seat], key: tuple[Seat, ...], seat: Seat, room: dict[Seat, int]
) -> _Flow[Seat] | None:
    """The placement of the rest once a card of ``key`` goes to ``seat``, or None if the rest no longer fits."""
    if flow[key].get(seat, 0) > 0:  # the placement already had one there: it still holds
        flow[key][seat] -= 1
        return flow
    trial = {k: dict(v) for k, v in flow.items()}
    out_of = next(s for s, n in trial[key].items() if n > 0)
    trial[key][out_of] -= 1  # the card leaves the rest...
    left = {s: room[s] - sum(v.get(s, 0) for v in trial.values()) for s in room}
    left[seat] -= 1  # ...and takes a place at ``seat``
    if left[seat] >= 0:
        return trial
    displaced = next(k for k, v in trial.items() if v.get(seat, 0) > 0)
    trial[displaced][seat] -= 1
    left[seat] = 0
    return trial if _route(displaced, trial, left, set()) else None


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
