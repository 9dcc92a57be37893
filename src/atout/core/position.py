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

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from .errors import AtoutError, PositionError

if TYPE_CHECKING:
    from .game import Game, State

T = TypeVar("T")
S = TypeVar("S", bound="State")

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


def integers(
    text: str, field: str, count: int, low: int | None = None, high: int | None = None, what: str = ""
) -> list[int]:
    """``count`` comma-separated integers (one per seat, or per box...), each read by :func:`integer`."""
    return [integer(t, field, low, high, what) for t in per_seat(text, field, count, ",")]


def records(text: str) -> list[str]:
    """A ``;``-separated list of records (tricks, score sheet lines); ``-`` is none."""
    return [] if text == NONE else text.split(";")


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


def check_partial_deal(
    sizes: Sequence[int],
    first: int,
    hand_size: int,
    step: int = 1,
    *,
    seeded: bool = False,
    unit: str = "hand",
    whole: str = "every hand",
) -> None:
    """Refuse hands that a deal in progress cannot show.

    Games deal one seat's whole hand at a time from ``first`` (the dealer's
    left, or right when ``step`` is -1): full hands, at most one partial, then
    empty ones.  ``sizes`` is per seat.  A ``seeded`` position deals its round
    (``unit``) from the seed, so it gives ``whole`` (the round's hands) or none.
    """
    order = seats_from(first, len(sizes), step)
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
    if seeded and any(sizes):
        raise PositionError(f"a seed deals whole {unit}s: with seed=, give {whole} or none", "hands")


def check_full_deal(sizes: Sequence[int], hand_size: int) -> None:
    """Refuse a dealt round whose hands (``sizes``, per seat) are not all ``hand_size``."""
    for seat, size in enumerate(sizes):
        if size != hand_size:
            raise PositionError(
                f"seat {seat} holds {size} cards: {len(sizes)} players are dealt {hand_size} each", "hands"
            )


def round_fields(round_: int, dealer: int | None) -> dict[str, str]:
    """The ``round=`` and ``dealer=`` fields every position starts with, as :func:`read_dealer` reads them.

    ``dealer`` is ``None`` (written ``-``) while the first dealer is still to be drawn.
    """
    return {"round": str(round_), "dealer": NONE if dealer is None else str(dealer)}


def read_round(state: State, fields: dict[str, str], first: int, last: int | None, what: str) -> int:
    """The mandatory ``round=`` field, in ``first..last`` (``what`` names them), set as ``state.round``."""
    state.round = integer(require(fields, "round"), "round", first, last, what)
    return state.round


def read_hands(fields: dict[str, str], players: int, cards: Callable[[str, int], list[T]]) -> list[list[T]]:
    """The mandatory ``hands=`` field: per seat, seat 0 first, the cards ``cards(text, seat)`` reads."""
    return [
        cards(text, seat) for seat, text in enumerate(per_seat(require(fields, "hands"), "hands", players))
    ]


def read_head(
    state: State,
    fields: dict[str, str],
    first: int,
    last: int | None,
    what: str,
    cards: Callable[[str, int], list[T]],
) -> tuple[int, str, list[int], list[list[T]]]:
    """The fields a position written as a table (Wizard, Sticheln) starts with, read in this order.

    ``round=`` (:func:`read_round`: ``what`` names the rounds ``first..last``),
    ``dealer=`` (its text: :func:`read_dealer` reads it once the caller knows
    whether the match is :func:`at_start`), ``scores=`` (one integer per seat)
    and ``hands=`` (:func:`read_hands`).  Each is refused in that order, so the
    first field at fault is the one named.
    """
    round_ = read_round(state, fields, first, last, what)
    dealer = require(fields, "dealer")
    scores = integers(require(fields, "scores"), "scores", state.game.players, what="(a score)")
    return round_, dealer, scores, read_hands(fields, state.game.players, cards)


def at_start(
    fields: dict[str, str],
    round_: int,
    first: int,
    hands: Sequence[Sequence[object]],
    sheet: Sequence[object],
    later: Sequence[str] = (),
) -> bool:
    """Whether a position is the match's very start, where ``dealer=-`` may stand (:func:`read_dealer`).

    Its first round (``round_`` is the game's ``first``), no card in any hand,
    no line on the score sheet, and none of ``later``, the fields only a round
    under way writes.
    """
    return round_ == first and not any(hands) and not sheet and not any(name in fields for name in later)


def read_dealer(text: str, game: Game, unit: str, at_start: bool) -> int | None:
    """The ``dealer=`` field: a seat, or ``None`` for ``-`` (the first dealer still to be drawn).

    ``-`` is only for the match's start, which the caller knows (``at_start``:
    its first round, nothing dealt nor scored); with the ``first_dealer``
    option there is no draw.  ``unit`` is the game's word for a round.
    """
    if text != NONE:
        return integer(text, "dealer", 0, game.players - 1, "a seat")
    if not at_start or game.options["first_dealer"] is not None:
        raise PositionError(
            "'-' (the first dealer is still to be drawn) is only for the match's start: "
            f"the first {unit}, no card dealt, and no first_dealer option",
            "dealer",
        )
    return None


def last_trick(
    fields: dict[str, str],
    round_: int,
    unit: str,
    players: int,
    example: str,
    cards: Callable[[str], list[T]],
    void: bool = False,
) -> tuple[int, list[T], int] | None:
    """The ``last=LEADER:CARDS:WINNER`` field (the previous round's last trick), ``None`` when absent.

    Trick games show that trick until the next one is played, so a position
    must carry it.  ``cards`` reads the cards (one per seat); ``void``: the
    winner may be ``-`` (a trick nobody takes), read as -1.
    """
    if "last" not in fields:
        return None
    if round_ == 1:
        raise PositionError(f"{unit} 1 has no previous {unit}, so no last trick of one", "last")
    text = fields["last"]
    parts = text.split(":")
    if len(parts) != 3:
        raise PositionError(f"{text!r}: write LEADER:CARDS:WINNER (e.g. {example})", "last")
    lead = integer(parts[0], "last", 0, players - 1, "the leader's seat")
    played = cards(parts[1])
    if len(played) != players:
        raise PositionError(f"{len(played)} cards: a trick has one per seat ({players})", "last")
    if void and parts[2] == NONE:
        return lead, played, -1
    return lead, played, integer(parts[2], "last", 0, players - 1, "the winner's seat")


def check_tricks(tricks: Sequence[Sequence[object]], trick: Sequence[object], players: int) -> None:
    """Refuse a ``tricks=`` trick without one card per seat, or a ``trick=`` in progress that is complete."""
    for i, t in enumerate(tricks):
        if len(t) != players:
            raise PositionError(
                f"trick {i + 1} has {len(t)} cards: a finished trick has one per seat ({players})", "tricks"
            )
    if len(trick) >= players:
        raise PositionError(f"{len(trick)} cards: a trick in progress has fewer than {players}", "trick")


def sheet_lines(text: str, form: str, example: str = "") -> Iterator[list[str]]:
    """The ``sheet=`` lines, each split into the ``|``-separated columns ``form`` names (``BIDS|TRICKS``).

    Lazily, so that the caller reads a line before the next one is checked.
    """
    for i, line in enumerate(records(text)):
        parts = line.split("|")
        if len(parts) != form.count("|") + 1:
            shown = f"{form} (e.g. {example})" if example else form
            raise PositionError(f"line {i + 1} {line!r}: write {shown}", "sheet")
        yield parts


def check_sheet(lines: int, round_: int, unit: str, over: bool = False) -> None:
    """A score sheet holds one line per finished round: those before ``round_``, and its own once ``over``."""
    if over and lines > round_:
        raise PositionError(f"{lines} {unit}s on the sheet after {unit} {round_}", "sheet")
    if not over and lines > round_ - 1:
        raise PositionError(f"{lines} finished {unit}s before {unit} {round_}", "sheet")


def sheet_rounds(fields: dict[str, str], round_: int, first: int, last: int, tricks: int) -> int:
    """How many lines a whole sheet holds at ``round_``: the rounds from the match's ``first``
    before it, and ``round_`` itself when it is the ``last`` and its ``tricks`` are all written
    (the match is over: its final position carries the last round's line too).

    Why from the text, before the round is replayed: the sheet is checked before a position
    whose round is not dealt returns early, and the partial sheet of an over match (a position
    that started later without its sheet, played to the end) has exactly as many lines as a
    whole sheet of the rounds before the last: counted as whole, it was refused wrongly.
    """
    text = fields.get("tricks", NONE)
    written = 0 if text in ("", NONE) else len(text.split(";"))
    return round_ - first + (1 if round_ == last and written == tricks else 0)


def check_sheet_scores(
    scores: Sequence[int],
    start: Sequence[int],
    changes: Sequence[Sequence[int]],
    finished: int,
    unit: str,
    floor: int | None = None,
) -> None:
    """A sheet that holds every finished round must add up to the position's scores.

    ``changes``: each sheet line's score change per seat; ``start``: the
    scores a match starts with; ``finished``: the rounds finished since the
    match's first (a sheet with fewer lines is partial and says nothing of the
    scores); ``floor``: a score never goes below it (clamped after each line).
    Why: the sheet and the scores are two records of the same rounds; a
    position in which they disagree is one play cannot give.
    """
    if len(changes) != finished or not changes:
        return
    total = list(start)
    for line in changes:
        total = [t + d for t, d in zip(total, line, strict=True)]
        if floor is not None:
            total = [max(t, floor) for t in total]
    if total != list(scores):
        lines = f"{len(changes)} {unit}" + ("s" if len(changes) > 1 else "")
        raise PositionError(
            f"the sheet ({lines}) adds up to scores {join(total)} from {join(start)}, "
            f"but the position says scores={join(scores)}",
            "sheet",
        )


def seats_from(first: int, players: int, step: int = 1) -> list[int]:
    """The seats in turn from ``first`` (to the left, or to the right when ``step`` is -1)."""
    return [(first + step * i) % players for i in range(players)]


def players_of(state: S, plays: Sequence[T], play: Callable[[S, T], None]) -> list[int]:
    """The seat that plays each of ``plays``, in order, from ``state`` on.

    A position writes a round's tricks as cards only: who led each and who
    followed is what the rules make of them (a trick's winner leads the next),
    so they are found by playing the cards with ``play`` on a copy of ``state``.
    """
    scratch = state.clone()
    seats = []
    for p in plays:
        seats.append(scratch.current_player)
        play(scratch, p)
    return seats


def give_back(
    hands: list[int],
    seats: Sequence[int],
    cards: Sequence[int],
    held: Sequence[int],
    size: int,
    wrong: Callable[[int, int], str],
) -> None:
    """Give each card played back to the hand of the seat that played it, and check every hand's size.

    A position written as a table is replayed from its round's deal, so each
    seat is dealt what it holds and what it has played: ``hands`` are the hand
    masks, ``cards[i]`` the bit of the card ``seats[i]`` played
    (:func:`players_of`), ``held[s]`` how many cards seat ``s`` is dealt besides
    its plays.  A seat then dealt other than ``size`` cards is refused, with
    ``wrong(seat, count)`` saying why (its count dealt).
    """
    count = list(held)
    for seat, card in zip(seats, cards, strict=True):
        hands[seat] |= card
        count[seat] += 1
    for seat, dealt in enumerate(count):
        if dealt != size:
            raise PositionError(wrong(seat, dealt), "hands")


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


def undealt(state: S, fields: dict[str, str], names: Sequence[str], message: str) -> S:
    """``state``, a round not dealt yet, once ``fields`` holds none of ``names`` (what only a dealt round has)."""
    for name in names:
        if name in fields:
            raise PositionError(message, name)
    return state


def as_dealt(state: S, dealing: Callable[[State], bool], known: Sequence[str]) -> tuple[S, list[str]]:
    """The round as dealt (``state`` itself while it is still being dealt) and the moves since.

    What :func:`moves_since_deal` finds, typed as ``state``: what a position
    written as a deal plus ``moves=`` writes from.
    """
    snap, moves = moves_since_deal(state, dealing, known)
    base = state if snap is None else snap
    assert isinstance(base, type(state))
    return base, moves


def replay_moves(state: S, moves: str, round_: int, unit: str) -> S:
    """``state`` (round ``round_`` just dealt) after the ``moves=`` list ``moves``, all within that round.

    Each move goes through ``State.apply``, so an illegal one is refused with
    the rule it breaks and its place; a position is one round, so the moves may
    not end it.  The moves become part of the position, not of the history.
    """
    for i, text in enumerate(items(moves)):
        if state.is_terminal or state.round != round_:
            raise PositionError(
                f"move {i + 1} {text!r}: the {unit} is over before it (a position is one {unit})", "moves"
            )
        try:
            state.apply(text.replace("_", " "))
        except AtoutError as exc:
            raise PositionError(f"move {i + 1} {text!r}: {exc}", "moves") from None
    if state.round != round_:
        raise PositionError(f"the moves end the {unit}: write the next {unit}'s position", "moves")
    state.history.clear()  # a position has no history: its moves are part of it
    return state
