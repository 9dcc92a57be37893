"""The action space, declared: named ranges of ids with their notation (issue 19).

A game's player actions are a few kinds ("play a card", "bid n", "pass"), each a
run of consecutive ids.  Writing the offsets by hand (``BID_BASE = 438``) and an
if-chain each way between ids and texts repeats the table three times and lets
the three drift apart.  Here a game lists its ranges once, in id order, and
everything else is derived: the ids (each range starts where the previous one
stops), the notation both ways, the documented id table, and names for tests
and bots (``BID(3)`` rather than ``441``).

>>> PLAY = ActionRange("play", 4, lambda i: f"play {'ABCD'[i]}")
>>> BID = ActionRange("bid", 3, lambda v: f"bid {v}")
>>> PASS = ActionRange("pass", 1, lambda _: "pass")
>>> space = ActionSpace("Toy", (PLAY, BID, PASS), examples=("play A", "bid 2", "pass"))
>>> BID(2), PASS(), space.size
(6, 7, 8)
>>> space.text(BID(2)), BID.value(6), space.range_of(6).name
('bid 2', 2, 'bid')
>>> space.read("BID 1"), space.read("pass"), space.read("play c")
(5, 7, 2)
>>> space.read("bid 7")
Traceback (most recent call last):
...
atout.core.errors.NotationError: 'bid 7': bid is 0..2
>>> space.read("fold")
Traceback (most recent call last):
...
atout.core.errors.NotationError: 'fold' is not a Toy action: write 'play A', 'bid 2' or 'pass'

A range's reader is derived from its texts when it has none (one dictionary
lookup); a game whose notation takes more than a lookup (a declared value, a
number out of range to explain) gives the keyword its own reader, which returns
an id and raises :class:`ValueError` with the reason.

Chance outcomes have their notation too, but it depends on the state (the seat a
card is dealt to, the seat a Malheur card is drawn for): :func:`read_chance`
holds what the four games share, each phase's event named by its keyword.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from .errors import Explained, NotationError
from .reason import Choices, Param, Quoted, Reason, Seat, Word, reason

Reader = Callable[[list[str]], int]
"""Reads the words after a keyword (``["3"]`` of ``"bid 3"``) to an id; raises ValueError."""


class ActionRange:
    """A run of ``size`` consecutive action ids of one kind, and its notation.

    ``show(value)`` writes the notation of the range's action of that value,
    where the value of the range's first id is ``low`` (a bid range of 0..8 has
    ``low=0``; Le Malin's Wish values -100..100 have ``low=-100``).  Calling the
    range names one of its actions: ``BID(3)`` is the id of "bid 3".  The start
    is set when an :class:`ActionSpace` takes the range, so that no offset is
    typed by hand.
    """

    __slots__ = ("low", "name", "show", "size", "start")

    def __init__(self, name: str, size: int, show: Callable[[int], str], low: int = 0) -> None:
        if size < 1:
            raise ValueError(f"action range {name!r} needs at least one action, not {size}")
        self.name = name
        self.size = size
        self.show = show
        self.low = low
        self.start = -1

    @property
    def stop(self) -> int:
        """One past the range's last id."""
        return self.start + self.size

    @property
    def high(self) -> int:
        """The value of the range's last id."""
        return self.low + self.size - 1

    def __call__(self, value: int | None = None) -> int:
        """The id of the action of ``value`` (no value: a one-action range such as "pass")."""
        if self.start < 0:
            raise RuntimeError(f"action range {self.name!r} is in no action space yet")
        if value is None:
            if self.size != 1:
                raise Explained(reason("notation.takes_value", name=self.name, lo=self.low, hi=self.high))
            return self.start
        if isinstance(value, bool) or not isinstance(value, int) or not self.low <= value <= self.high:
            raise Explained(self.out_of_range())
        return self.start + value - self.low

    def __contains__(self, action: object) -> bool:
        return isinstance(action, int) and self.start <= action < self.start + self.size

    def out_of_range(self) -> Reason:
        """Why a value outside the range is refused: ``bid is 0..8``."""
        return reason("notation.range", name=self.name, lo=self.low, hi=self.high)

    def value(self, action: int) -> int:
        """The value of one of the range's ids (``BID.value(BID(3)) == 3``)."""
        return action - self.start + self.low

    def text(self, action: int) -> str:
        """The notation of one of the range's ids."""
        return self.show(action - self.start + self.low)

    def __repr__(self) -> str:
        return f"ActionRange({self.name!r}, ids {self.start}..{self.stop - 1})"


def check_digits(text: str) -> None:
    """Refuse a number written with other digits than 0-9 (``bid ١``, ``bid ²``).

    ``int`` reads any Unicode decimal digit, so without this check ``bid ١`` would
    be read as ``bid 1`` while a record's numbers are ASCII only: live input and
    records must accept the same texts.
    """
    for c in text:
        if c.isdigit() and not c.isascii():
            raise NotationError(reason("notation.digits", text=Quoted(text)))


def integer(word: str) -> int:
    """``word`` read as an integer, or an :class:`Explained` ValueError saying it is none
    (the words Python's ``int`` says, as data)."""
    try:
        return int(word)
    except ValueError:
        raise Explained(reason("notation.not_int", v=Quoted(word))) from None


def words_of(text: str) -> list[str]:
    """The words of an action text, case folded: ``"Bid 3 "`` -> ``["bid", "3"]``."""
    return text.strip().lower().split()


class ActionSpace:
    """A game's player actions: its ranges in id order, and the notation both ways.

    ``readers`` maps a keyword (the first word of a text) to its reader;
    ``fallback`` reads a text whose first word is no keyword (a bare card, a
    bare number).  A range without a reader of its own is read by a lookup of
    its texts, keyed by the first word of its first text.
    """

    def __init__(
        self,
        title: str,
        ranges: Sequence[ActionRange],
        *,
        examples: Sequence[str],
        readers: Mapping[str, Reader] | None = None,
        fallback: Reader | None = None,
        words: Callable[[str], list[str]] = words_of,
    ) -> None:
        self.title = title
        self.ranges = tuple(ranges)
        start = 0
        for r in self.ranges:
            if r.start not in (-1, start):
                raise ValueError(f"action range {r.name!r} is already in another space")
            r.start = start
            start += r.size
        self.size = start
        self._starts = [r.start for r in self.ranges]
        self._by_name = {r.name: r for r in self.ranges}
        if len(self._by_name) != len(self.ranges):
            raise ValueError("two action ranges share a name")
        self.examples = tuple(examples)
        self.readers: dict[str, Reader] = dict(readers or {})
        self._lookup: dict[str, int] = {}
        self._keyword_ranges: dict[str, list[ActionRange]] = {}
        for r in self.ranges:
            keyword = words(r.text(r.start))[0]
            if keyword in self.readers:
                continue
            for a in range(r.start, r.stop):
                self._lookup[" ".join(words(r.text(a)))] = a
            self._keyword_ranges.setdefault(keyword, []).append(r)
        for keyword in self._keyword_ranges:
            self.readers[keyword] = self._read_lookup(keyword)
        self.fallback = fallback
        self.words = words
        #: Every id's notation, by id: written once, read at every view's ``to_dict`` (its legal actions).
        self._texts = [r.text(a) for r in self.ranges for a in range(r.start, r.stop)]

    def __repr__(self) -> str:
        """The ranges in id order with their first and last texts: what the ids mean at a glance."""
        parts = []
        for r in self.ranges:
            ends = repr(r.text(r.start)) if r.size == 1 else f"{r.text(r.start)!r}..{r.text(r.stop - 1)!r}"
            ids = str(r.start) if r.size == 1 else f"{r.start}..{r.stop - 1}"
            parts.append(f"{r.name} {ids} ({ends})")
        return f"ActionSpace({self.title!r}, {self.size} ids: {'; '.join(parts)})"

    def _read_lookup(self, keyword: str) -> Reader:
        lookup = self._lookup
        ranges = self._keyword_ranges[keyword]

        def read(rest: list[str]) -> int:
            action = lookup.get(" ".join((keyword, *rest)))
            if action is not None:
                return action
            if len(ranges) == 1 and len(rest) == 1 and rest[0].lstrip("-").isdigit():
                raise Explained(ranges[0].out_of_range())
            raise LookupError(keyword)

        return read

    def __getitem__(self, name: str) -> ActionRange:
        """The range of that name (``space["bid"](3)``)."""
        return self._by_name[name]

    def __iter__(self) -> Iterator[ActionRange]:
        return iter(self.ranges)

    def range_of(self, action: int) -> ActionRange:
        """The range an id belongs to; raises NotationError for an id out of the space."""
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.size:
            raise NotationError(
                reason("notation.not_an_id", v=repr(action), game=self.title, hi=self.size - 1)
            )
        return self.ranges[bisect_right(self._starts, action) - 1]

    def text(self, action: int) -> str:
        """The notation of an id ("bid 3")."""
        if type(action) is int and 0 <= action < self.size:
            return self._texts[action]
        return self.range_of(action).text(action)  # refused there, saying why

    def read(self, text: str) -> int:
        """The id a text names; raises NotationError saying what is wrong with it."""
        check_digits(text)
        words = self.words(text)
        reader = self.readers.get(words[0]) if words else None
        rest = words[1:]
        if reader is None and self.fallback is not None and words:
            reader, rest = self.fallback, words
        if reader is not None:
            try:
                return reader(rest)
            except NotationError:
                raise
            except LookupError:
                pass
            except ValueError as exc:
                raise in_text(text, exc) from None
        raise NotationError(
            reason(
                "notation.not_an_action", text=Quoted(text), game=self.title, examples=Choices(self.examples)
            )
        )

    def table(self) -> list[tuple[int, str]]:
        """Every id and its notation: the table the rules pages document."""
        return [(a, r.text(a)) for r in self.ranges for a in range(r.start, r.stop)]


def in_text(text: str, exc: ValueError) -> NotationError:
    """The error of a reader's ValueError, after the text read (``'bid 9': a bid is 0..3``).

    A reader says why as data (:class:`Explained`); a bare ValueError (a bug in a
    reader) keeps its English words and reaches a reader as they are.
    """
    if isinstance(exc, Explained):
        return NotationError(reason("notation.in_text", text=Quoted(text), reason=exc.why))
    return NotationError(f"{text!r}: {exc}")


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """The chance event a phase waits for: its keyword, its number of words, its reader and an example.

    ``read`` gets the words after the keyword and returns the outcome id; it
    raises ValueError (or NotationError, already worded) when the words are
    wrong for this state, e.g. a card dealt to the wrong seat.
    """

    keyword: str
    arity: int
    read: Reader
    example: str


def read_chance(text: str, phase_name: str, event: ChanceEvent | None) -> int:
    """The outcome ``text`` names at a chance node whose phase expects ``event``.

    One wording for the four games: the reader's reason after the text, or what
    to write when the text is not the event expected here.
    """
    check_digits(text)
    words = words_of(text)
    if event is not None and len(words) == event.arity + 1 and words[0] == event.keyword:
        try:
            return event.read(words[1:])
        except NotationError:
            raise
        except ValueError as exc:
            raise in_text(text, exc) from None
    if event is None:
        raise NotationError(
            reason("notation.no_chance_event", text=Quoted(text), phase=Word("phase", phase_name))
        )
    raise NotationError(
        reason(
            "notation.not_the_chance_event",
            text=Quoted(text),
            phase=Word("phase", phase_name),
            example=Quoted(event.example),
        )
    )


def deal_reader(
    target: int, read_card: Callable[[str], int], where: str, number: int, held: tuple[int, int] | None = None
) -> Reader:
    """The reader of "deal <seat> <card>": the cards go round in order, so the seat must be ``target``.

    ``where`` ("round", "hand" or "deal") and ``number`` complete "the next card of
    ...": ``held`` says how many cards the target holds, of how many.
    """

    def read(words: list[str]) -> int:
        seat = integer(words[0])
        if seat != target:
            common: dict[str, Param] = {"n": number, "seat": Seat(target), "other": Seat(seat)}
            if held is None:
                raise Explained(reason(f"notation.next_card_{where}", **common))
            raise Explained(reason(f"notation.next_card_{where}_held", **common, held=held[0], size=held[1]))
        return read_card(words[1])

    return read
