"""Views rebuilt from their JSON form: ``View.from_dict(view.to_dict(), game)``.

Why: a bot that plays over JSON lines (docs/bots.md) receives ``view.to_dict()``;
written in Python it wants the real :class:`~atout.core.game.View` back, with
its fields, ``legal_actions``, ``parse`` and ``game.sample_state(view, rng)``.
Each game reads its own fields (its view class's ``read_dict``); what every game
shares is here: the :class:`Reader` that names what is wrong and where
(``view.tricks[2].cards[0][1]: 'X9' is not a Wizard card``), and the final
check that the view rebuilt writes back exactly the dict it was read from, so a
rebuilt view can never silently differ from the one that was sent.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Protocol, TypedDict, TypeVar, cast

from .errors import ViewError

if TYPE_CHECKING:
    from .game import Game, View, ViewHead

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: A card played, as a trick game's view keeps it: (seat, card).
Play = tuple[int, int]
#: A finished trick, as a trick game's view keeps it: (plays in order, winner).
PastTrick = tuple[tuple[Play, ...], int]

#: A view class :func:`made_view` builds (a frozen dataclass: :class:`~atout.core.view.BaseView`'s).
V = TypeVar("V")

#: The field names of each view class :func:`made_view` has built, in order (read once a class).
_FIELD_ORDER: Final[dict[type, tuple[str, ...]]] = {}


def made_view(cls: type[V], values: dict[str, Any]) -> V:
    """:meth:`BaseView.made <atout.core.view.BaseView.made>`: the view of class ``cls`` whose fields are ``values``.

    Here, compiled, rather than in :mod:`.view` (pure: see :data:`atout._build.COMPILED`): each
    game's ``make_view`` calls it at every view, and as a Python method it was a fifth of a view's
    cost (issue 48).  In this module, which imports no other of the engine's, so that
    :mod:`.view` and :mod:`.game` (which re-exports it for the games) both reach it without an
    import cycle.  ``values`` becomes the instance's dict (not copied: ``make_view`` hands over
    a dict of its own); the names are checked in the fields' order first (identical strings: a
    few pointer comparisons), and as sets only when that differs, which accepts another order
    and refuses a missing or unknown name as the dataclass's ``__init__`` would.
    """
    order = _FIELD_ORDER.get(cls)
    if order is None:
        order = _FIELD_ORDER[cls] = tuple([f.name for f in dataclass_fields(cast(Any, cls))])
    if tuple(values) != order:
        names, given = set(order), set(values)  # sets, typed so for mypyc (a dict view minus a set is a set)
        if given != names:
            missing = sorted(names - given)
            unknown = sorted(given - names)
            raise TypeError(f"{cls.__name__}.made: missing fields {missing}, unknown fields {unknown}")
    view = cls.__new__(cls)
    object.__setattr__(view, "__dict__", values)
    return view


class Reader:
    """One value of a view dict and where it sits in it, with typed accessors.

    Every accessor raises :class:`ViewError` naming the path and what was
    expected, never a ``KeyError`` or ``TypeError``.
    """

    __slots__ = ("path", "value")

    def __init__(self, value: Any, path: str = "view") -> None:
        self.value = value
        self.path = path

    def fail(self, message: str) -> ViewError:
        return ViewError(f"{self.path}: {message}", self.path)

    def _expected(self, what: str) -> ViewError:
        return self.fail(f"expected {what}, not {self.value!r:.60}")

    def __getitem__(self, key: str) -> Reader:
        if not isinstance(self.value, Mapping):
            raise self._expected("an object")
        if key not in self.value:
            raise self.fail(f"missing field {key!r}")
        return Reader(self.value[key], f"{self.path}.{key}")

    def integer(self, lo: int | None = None, hi: int | None = None) -> int:
        """An integer (not a bool), within ``lo..hi`` when given."""
        v = self.value
        if isinstance(v, bool) or not isinstance(v, int):
            raise self._expected("an integer")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise self.fail(
                f"{v} is out of range {lo if lo is not None else ''}..{hi if hi is not None else ''}"
            )
        return v

    def seat(self, players: int) -> int:
        return self.integer(0, players - 1)

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self._expected("true or false")
        return self.value

    def text(self, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(self.value, str):
            raise self._expected("a text")
        if choices is not None and self.value not in choices:
            raise self.fail(f"{self.value!r} is not one of {', '.join(map(repr, choices))}")
        return self.value

    def is_none(self) -> bool:
        return self.value is None

    def optional(self, read: Callable[[Reader], T]) -> T | None:
        """``None`` for a JSON null, else ``read(self)``."""
        return None if self.value is None else read(self)

    def items(self, size: int | None = None) -> list[Reader]:
        """The elements of a list (of exactly ``size`` when given)."""
        if not isinstance(self.value, list | tuple):
            raise self._expected("a list")
        if size is not None and len(self.value) != size:
            raise self.fail(f"expected {size} elements, not {len(self.value)}")
        return [Reader(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def each(self, read: Callable[[Reader], T], size: int | None = None) -> tuple[T, ...]:
        """``read`` applied to every element of a list, as a tuple."""
        return tuple(read(r) for r in self.items(size))

    def keys(self) -> list[str]:
        if not isinstance(self.value, Mapping):
            raise self._expected("an object")
        return list(self.value)

    def parse(self, parser: Callable[[str], T]) -> T:
        """``parser`` (a game's card or action reader) on a text; its ``ValueError`` says why."""
        text = self.text()
        try:
            return parser(text)
        except ValueError as exc:
            raise self.fail(str(exc)) from None


class CardReader:
    """Reads one game's cards in a view dict, with the game's own card notation.

    Alone (``hand``), in lists, as ``[seat, card]`` plays (a trick in progress)
    and as finished tricks ``{"cards": [[seat, card], ...], "winner": seat}``:
    the shapes the trick games' ``to_dict`` writes.
    """

    __slots__ = ("_parse", "_void", "players")

    def __init__(self, players: int, parse: Callable[[str], int], void: bool = False) -> None:
        """``parse``: the game's card reader; ``void``: a trick's winner may be -1 (nobody took it)."""
        self.players = players
        self._parse = parse
        self._void = void

    def card(self, r: Reader) -> int:
        return r.parse(self._parse)

    def cards(self, r: Reader) -> tuple[int, ...]:
        return r.each(self.card)

    def played(self, r: Reader) -> tuple[int, int]:
        seat, kind = r.items(2)
        return seat.seat(self.players), self.card(kind)

    def trick(self, r: Reader) -> PastTrick:
        cards = r["cards"].each(self.played)
        winner = r["winner"]
        return cards, winner.integer(-1, self.players - 1) if self._void else winner.seat(self.players)

    def trick_fields(self, r: Reader) -> TrickFields:
        """The fields :meth:`CardWriter.trick_fields` wrote (``last_trick`` is derived, not read)."""
        return {
            "trick": r["trick"].each(self.played),
            "tricks": r["tricks"].each(self.trick),
            "prev_round_trick": r["prev_round_trick"].optional(self.trick),
        }


class TrickFields(TypedDict):
    """The trick fields of a view whose plays are :data:`Play`: ``XView(..., **kit.trick_fields(r))``."""

    trick: tuple[Play, ...]
    tricks: tuple[PastTrick, ...]
    prev_round_trick: PastTrick | None


class PastTricks(Protocol[T_co]):
    """What :func:`past_tricks` reads: a view with :class:`~atout.core.tricks.LastTrick`, its tricks shaped ``T_co``."""

    @property
    def round(self) -> int: ...

    @property
    def prev_round_trick(self) -> T_co | None: ...

    @property
    def last_trick(self) -> T_co | None: ...

    @property
    def last_trick_round(self) -> int | None: ...


class TrickTable(PastTricks[PastTrick], Protocol):
    """What :meth:`CardWriter.trick_fields` reads: also the trick in progress and this round's tricks, as :data:`Play`."""

    @property
    def trick(self) -> tuple[Play, ...]: ...

    @property
    def tricks(self) -> tuple[PastTrick, ...]: ...


class CardWriter:
    """Writes one game's cards in a view dict, in the shapes :class:`CardReader` reads back."""

    __slots__ = ("text",)

    def __init__(self, text: Callable[[int], str]) -> None:
        """``text``: the game's card notation."""
        self.text = text

    def plays(self, plays: Iterable[Play]) -> list[list[Any]]:
        """``[[seat, card], ...]``: a trick in progress, a pile."""
        text = self.text
        return [[s, text(k)] for s, k in plays]

    def trick(self, trick: PastTrick) -> dict[str, Any]:
        """``{"cards": [[seat, card], ...], "winner": seat}``."""
        return {"cards": self.plays(trick[0]), "winner": trick[1]}

    def trick_fields(self, view: TrickTable) -> dict[str, Any]:
        """ "trick", "tricks", "last_trick", "prev_round_trick", in this order (:meth:`CardReader.trick_fields`)."""
        return {
            "trick": self.plays(view.trick),
            "tricks": [self.trick(t) for t in view.tricks],
            **past_tricks(view, self.trick),
        }


def past_tricks(view: PastTricks[T], write: Callable[[T], dict[str, Any]]) -> dict[str, Any]:
    """ "last_trick" and "prev_round_trick" of a trick game's view dict, each with the round it was played in.

    ``write`` gives a finished trick's dict as in ``tricks``; ``None`` stays
    ``None``.  Neither is read back as such: ``last_trick`` is derived, and
    ``prev_round_trick``'s round is ``round - 1``.
    """

    def past(trick: T | None, round_: int | None) -> dict[str, Any] | None:
        return None if trick is None else {**write(trick), "round": round_}

    return {
        "last_trick": past(view.last_trick, view.last_trick_round),
        "prev_round_trick": past(view.prev_round_trick, view.round - 1),
    }


def ints(r: Reader) -> int:
    """Reader function for a list of integers: ``r["scores"].each(ints)``."""
    return r.integer()


def opt_ints(r: Reader) -> int | None:
    return r.optional(ints)


def read_head(r: Reader, game: Game, phases: tuple[str, ...]) -> ViewHead:
    """The :class:`~atout.core.game.ViewHead` fields of the view dict ``r`` (``phases``: the game's phase names)."""
    return {
        "game": game,
        "seat": r["seat"].seat(game.players),
        "current_player": r["current_player"].integer(),
        "legal_actions": r["legal_actions"].each(lambda a: a.parse(game.text_to_action)),
        "phase": r["phase"].text(phases),
    }


@lru_cache(maxsize=64)
def view_class(game: Game) -> type[View]:
    """The class of ``game``'s views (that of a fresh state's view: no game declares it twice)."""
    return type(game.new_state(0).view(0))


def _plain(value: Any) -> Any:
    """``value`` with tuples as lists (a dict built in Python rather than read from JSON)."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def view_from_dict(cls: type[View], data: Any, game: Game) -> View:
    """What :meth:`View.from_dict` does once it has checked ``game``: dispatch to the game's view class, read, check.

    Imports nothing of :mod:`.game` at run time (game.py imports this module).
    """
    concrete = view_class(game)
    if not issubclass(concrete, cls):
        raise TypeError(f"{game.title} views are {concrete.__name__}, not {cls.__name__}")
    root = Reader(data)
    name = root["game"].text()
    if name != game.name:
        raise root["game"].fail(f"this is a view of {name!r}, not of {game.name!r}")
    read = getattr(concrete, "read_dict", None)
    if read is None:
        raise TypeError(f"{concrete.__name__} cannot be rebuilt from a dict (no read_dict)")
    view: View = read(root, game)
    written = view.to_dict()
    for key in data:
        if key not in written:
            raise root.fail(f"unknown field {key!r}")
    for key, value in written.items():
        if data[key] != value and _plain(data[key]) != value:
            raise root[key].fail(
                f"{data[key]!r:.80} does not match the rest of the view (it reads back as {value!r:.80})"
            )
    if not isinstance(view, cls):  # pragma: no cover - a game's read_dict returning nonsense
        raise TypeError(f"{concrete.__name__}.read_dict returned {type(view).__name__}")
    return view


__all__ = [
    "CardReader",
    "CardWriter",
    "PastTrick",
    "PastTricks",
    "Play",
    "Reader",
    "TrickFields",
    "TrickTable",
    "ints",
    "opt_ints",
    "past_tricks",
    "read_head",
    "view_class",
    "view_from_dict",
]
