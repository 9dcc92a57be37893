"""The parts of a record and the checks both of its readers apply to them.

Why a module of its own: a record arrives as text (:mod:`.text`) or as JSON
(:mod:`.jsonform`), and reading never trusts the file in either form: integers from
ASCII digits only and within Python's limit, a position on one line and without a seed,
a digest of the one algorithm, user text quoted and shortened in messages.  Those
checks, the format's constants and the small records a record is made of
(:class:`Move`, :class:`Integrity`, :class:`ReplayError`) sit here, below both readers
and :mod:`.format`, so each is written once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core.errors import RecordError
from ..core.position import remove_seed

VERSION = 1
HIDDEN = "?"
#: The only digest algorithm of format version 1, written before the hex digits.
DIGEST_PREFIX = "sha256:"
STANDARD_TAGS = (
    "Atout",
    "Game",
    "Players",
    "Options",
    "Seed",
    "Position",
    "View",
    "Result",
    "MoveCount",
    "Digest",
)
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
#: An integer as a record writes it: ASCII digits (``[0-9]``, not ``\d``, which is any Unicode digit).
INTEGER = re.compile(r"[+-]?[0-9]+")
SEAT_TAG = re.compile(r"Seat[0-9]+")


def is_free_tag(key: str) -> bool:
    """Whether ``key`` names a free tag (``Date``, ``Event``...), not one the format reads.

    >>> [is_free_tag(k) for k in ("Event", "Digest", "Seat3")]
    [True, False, False]
    """
    return key not in STANDARD_TAGS and not SEAT_TAG.fullmatch(key)


#: The characters ``str.splitlines`` ends a line at: no text of a record may hold one.
LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")


@dataclass(frozen=True)
class Move:
    """One history entry: who acted, the notation (``None`` if hidden), the round."""

    actor: int
    text: str | None
    round: int
    line: int | None = field(default=None, compare=False)


class ReplayError(RecordError):
    """A record whose moves break the rules: names the move index, the move and the rule.

    ``reason`` is the rule broken alone; ``line`` is the move's line (text form).
    """

    def __init__(self, message: str, index: int, move: Move | None) -> None:
        self.index = index
        self.move = move
        self.reason = message
        where = f"move {index}"
        if move is not None and move.line is not None:
            where += f" (line {move.line})"
        super().__init__(f"{where}: {message}")
        self.line = move.line if move is not None else None


@dataclass(frozen=True)
class Integrity:
    """What a record read from a file says of itself: how many moves, and their digest.

    Either may be absent (a hand-written record, or one saved before atout
    wrote them).  ``*_where`` says where the file says it, for error messages:
    the tag's line (text form), or ``None`` for the JSON twin (``json``), whose
    messages name the key instead.
    """

    move_count: int | None = None
    digest: str | None = None
    count_where: int | None = None
    digest_where: int | None = None
    json: bool = False

    @property
    def names(self) -> tuple[str, str]:
        """The two fields as the form read calls them: tags, or JSON keys."""
        return ("move_count key", "digest key") if self.json else ("MoveCount tag", "Digest tag")


def show(text: str, limit: int = 60) -> str:
    """``repr`` of a piece of the user's text for a message, shortened: a damaged
    record may hold a line of thousands of characters."""
    return clip(repr(text), limit, len(text))


def clip(shown: str, limit: int = 60, length: int | None = None) -> str:
    if len(shown) <= limit:
        return shown
    return f"{shown[: limit - 1]}… ({length if length is not None else len(shown)} characters)"


def parse_int(text: str, what: str, line: int | None, minimum: int | None = None) -> int:
    """An integer of the text form, from ASCII digits only.

    ``int`` alone would accept ``'٣'`` or ``'1_0'`` (not the format's) and
    raise a bare ``ValueError`` past Python's limit on the length of an
    integer text (4300 digits by default).
    """
    value = text.strip()
    if not INTEGER.fullmatch(value):
        raise RecordError(f"{what} must be an integer, not {show(text)}", line)
    try:
        number = int(value)
    except ValueError:  # longer than sys.get_int_max_str_digits()
        raise RecordError(f"{what} is a number of {len(value)} digits: too large", line) from None
    if minimum is not None and number < minimum:
        raise RecordError(f"{what} must be at least {minimum}, not {number}", line)
    return number


def check_position(value: str, line: int | None, what: str = "Position") -> str:
    """A ``Position`` tag's text: one line, and no seed (a record's seed is its ``Seed`` tag)."""
    if any(c in LINE_BREAKS for c in value):
        raise RecordError(f"{what}: a position is one line of text", line)
    if remove_seed(value) != " ".join(value.split()):
        raise RecordError(f"{what}: a record's position has no seed= field (the seed is the Seed tag)", line)
    return value


def check_digest(value: str, what: str, line: int | None) -> str:
    if not DIGEST.fullmatch(value):
        raise RecordError(
            f"{what} must be {DIGEST_PREFIX} and 64 lowercase hex digits, not {show(value)}", line
        )
    return value
