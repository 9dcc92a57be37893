"""The position notation every game shares: one line of ``field=value`` words.

A position is to a match what FEN is to chess or a PBN deal to bridge: the
whole state at one moment, written so that a person can read and edit it, and
``game.new_state(position=text)`` rebuilds a state that behaves exactly as the
one that wrote it (``state.position()``).  This module holds what every game's
notation shares; each game's own fields live in ``games/<game>/position.py``
(the :attr:`~atout.core.game.Game.positions` import path), documented in its
rules page.

Shared conventions, so that the four notations read alike:

* fields are ``name=value`` words separated by spaces, in any order, each at
  most once; a value never holds a space;
* ``-`` is "nothing" (an empty hand, a bid not made yet, no turned card);
* lists of cards or numbers are comma-separated; one item per seat, seat 0
  first, separated by ``/`` (``hands=B7,W/G3/-``);
* ``seed=N`` (optional, always last when written) lets ``N`` draw the chance
  events *after* the position, exactly as a match created with that seed would
  draw them (each game derives a round's deal from the seed and the round
  number only).  Without it the state stops at every chance node for the
  caller to apply an outcome.

A position holds no history: the rebuilt state's ``history`` is empty, and its
:attr:`~atout.core.game.State.start` is the position (without the seed), which
records write as their ``Position`` tag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from .errors import PositionError

if TYPE_CHECKING:
    from .game import State

T = TypeVar("T")

#: A value standing for "nothing here".
NONE = "-"
#: The longest position text read (a 6-player Wizard match's longest is about 1,500 characters).
MAX_LENGTH = 20_000


def split_fields(text: str, known: Sequence[str]) -> dict[str, str]:
    """The ``name=value`` words of ``text``, each name known and given once."""
    if not isinstance(text, str):
        raise PositionError(f"a position is a text, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise PositionError(f"a position is at most {MAX_LENGTH} characters, this one has {len(text)}")
    if any(c in text for c in "\n\r\v\f\x85\u2028\u2029"):
        raise PositionError("a position is one line of text")
    fields: dict[str, str] = {}
    for word in text.split():
        name, eq, value = word.partition("=")
        if not eq or not name:
            raise PositionError(f"{_show(word)} is not a field: write name=value (e.g. round=3)")
        if name not in known and name != "seed":
            raise PositionError(f"unknown field {_show(name)} (the fields are {', '.join([*known, 'seed'])})")
        if name in fields:
            raise PositionError("the field is given twice", name)
        fields[name] = value
    return fields


def require(fields: dict[str, str], name: str) -> str:
    """A mandatory field's value."""
    if name not in fields:
        raise PositionError("missing (every position states it)", name)
    return fields[name]


def integer(text: str, field: str, low: int | None = None, high: int | None = None, what: str = "") -> int:
    """An integer in ``low..high`` (either bound optional), read from ASCII digits only."""
    body = text[1:] if text[:1] in "+-" else text
    if not body or not body.isascii() or not body.isdigit() or len(body) > 12:
        raise PositionError(f"{_show(text)} is not an integer{' ' + what if what else ''}", field)
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (
            f"{low}..{high}"
            if low is not None and high is not None
            else (f">= {low}" if low is not None else f"<= {high}")
        )
        raise PositionError(f"{value} is out of range{' for ' + what if what else ''} ({bounds})", field)
    return value


def per_seat(text: str, field: str, players: int, sep: str = "/") -> list[str]:
    """One item per seat (``sep``-separated), exactly ``players`` of them."""
    items = text.split(sep)
    if len(items) != players:
        raise PositionError(
            f"{len(items)} entries for {players} seats (one per seat, separated by {sep!r})", field
        )
    return items


def items(text: str) -> list[str]:
    """A comma-separated list; ``-`` (or nothing) is the empty list."""
    if text in (NONE, ""):
        return []
    return text.split(",")


def optional(text: str, read: Callable[[str], T]) -> T | None:
    """``None`` for ``-``, else ``read(text)``."""
    return None if text == NONE else read(text)


def join(values: Sequence[object], sep: str = ",") -> str:
    """Items joined, ``-`` for none."""
    return sep.join(str(v) for v in values) if values else NONE


def remove_seed(text: str) -> str:
    """``text`` without its ``seed=`` field (records keep the seed in their own tag)."""
    return " ".join(w for w in text.split() if not w.startswith("seed="))


def _show(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def check_partial_deal(sizes: Sequence[int], first: int, hand_size: int, step: int = 1) -> None:
    """Refuse hands that a deal in progress cannot show.

    Games deal one seat's whole hand at a time from ``first`` (the dealer's
    left, or right when ``step`` is -1): full hands, at most one partial, then
    empty ones.  ``sizes`` is per seat.
    """
    n = len(sizes)
    order = [(first + step * i) % n for i in range(n)]
    for i, seat in enumerate(order):
        if sizes[seat] > hand_size:
            raise PositionError(f"seat {seat} holds {sizes[seat]} cards: a hand here is {hand_size}", "hands")
        later = [s for s in order[i + 1 :] if sizes[s]]
        if sizes[seat] < hand_size and later:
            raise PositionError(
                f"seat {later[0]} has cards while seat {seat} has only {sizes[seat]} of {hand_size}: "
                f"the deal gives each seat its whole hand in turn, from seat {first}",
                "hands",
            )


def move_text(text: str) -> str:
    """An action's notation as one word of a ``moves=`` list (spaces become ``_``)."""
    return "_".join(text.split())


def moves_since_deal(
    state: State, dealing: Callable[[State], bool], known: Sequence[str]
) -> tuple[State | None, list[str]]:
    """The state just after this round's deal, and the notations of the moves since.

    For games whose round cannot be written as a table alone (Le Malin's
    Malheur windows, Le Nain Jaune's sequences): their position is the round as
    dealt plus its moves.  Found by replaying ``state.history`` from its start
    (the match's, or ``state.start`` and its own ``moves``); ``dealing(s)`` says
    whether ``s`` is still before the end of a deal.  ``(None, [])`` while the
    current round is not dealt yet.  A state whose history does not lead to it
    (a sampled world) is refused.
    """
    game = state.game
    if state.start is None:
        replay = game.new_state(None)
        moves: list[str] = []
    else:
        fields = split_fields(state.start, known)
        moves = items(fields.pop("moves", NONE))
        replay = game.read_position(" ".join(f"{k}={v}" for k, v in fields.items()))
    snap = None if dealing(replay) else replay.clone()
    for text in moves:
        replay.apply(text.replace("_", " "))
    for action in state.history:
        before = replay.round
        text = replay.action_to_text(action)
        was_dealing = dealing(replay)
        replay.apply(action)
        if replay.round != before:
            snap, moves = None, []
        if was_dealing and not dealing(replay):
            snap, moves = replay.clone(), []
        elif snap is not None and not was_dealing:
            moves.append(move_text(text))
    if (
        replay.round != state.round
        or replay.current_player != state.current_player
        or any(replay.view(s) != state.view(s) for s in range(game.players))
    ):
        raise PositionError(
            "this state's history does not lead to it (a sampled world has none): "
            f"{game.title} positions list the moves of the round since its deal"
        )
    return snap, moves
