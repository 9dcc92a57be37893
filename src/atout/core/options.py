"""Typed, validated game options.

A game declares its options as :class:`OptionSpec` tuples; :func:`validate_options`
turns user input (Python values, or strings from a command line or a record
header) into a complete, frozen mapping, and refuses anything else with a
message that names the option and its allowed values.  Keeping this in one place
is what lets the CLI, the record reader and the web form share the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import OptionError
from .reason import GameName, Option, Quoted, Reason, reason

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class OptionSpec:
    """One option: its name, type, default, allowed values and a sentence of help.

    ``kind`` is ``bool``, ``int`` or ``str``.  ``choices`` (for str/int) restricts
    the values; ``minimum``/``maximum`` bound ints.  ``none_ok`` allows ``None``
    (written ``none``), used e.g. for "no limit".  ``seat`` marks a seat number:
    its ``maximum`` is the last seat of the largest table, and the game refuses
    a seat past its own table's (:class:`~atout.core.game.Game` knows the
    number of players, the spec does not).
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    none_ok: bool = False
    seat: bool = False

    def allowed(self) -> str:
        """Human description of the allowed values, used in error messages."""
        if self.kind is bool:
            text = "true or false"
        elif self.choices is not None:
            text = ", ".join(str(c) for c in self.choices)
        elif self.kind is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            text = f"an integer {lo}..{hi}" if (lo or hi) else "an integer"
        else:
            text = "a text"
        return text + (" or none" if self.none_ok else "")

    def allowed_reason(self) -> Reason:
        """:meth:`allowed` as data, for a reader in another language."""
        if self.kind is bool:
            why = reason("option.allowed_bool")
        elif self.choices is not None:
            why = reason("option.allowed_choices", choices=", ".join(str(c) for c in self.choices))
        elif self.kind is int and self.minimum is not None and self.maximum is not None:
            why = reason("option.allowed_range", lo=self.minimum, hi=self.maximum)
        elif self.kind is int and self.minimum is not None:
            why = reason("option.allowed_min", lo=self.minimum)
        elif self.kind is int and self.maximum is not None:
            why = reason("option.allowed_max", hi=self.maximum)
        elif self.kind is int:
            why = reason("option.allowed_int")
        else:
            why = reason("option.allowed_text")
        return reason("option.or_none", allowed=why) if self.none_ok else why

    def coerce(self, value: Any) -> Any:
        """Convert ``value`` (possibly a string) to this option's type, or raise."""
        bad = OptionError(
            reason(
                "option.not_allowed",
                option=Option(self.name),
                value=repr(value),
                allowed=self.allowed_reason(),
            )
        )
        if value is None or (isinstance(value, str) and value.lower() in {"none", "null"}):
            if self.none_ok:
                return None
            raise bad
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
                return value.lower() in _TRUE
            raise bad
        if self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            if self.minimum is not None and value < self.minimum:
                raise bad
            if self.maximum is not None and value > self.maximum:
                raise bad
        elif self.kind is str:
            if not isinstance(value, str):
                raise bad
            value = value.strip().lower().replace("-", "_")
        if self.choices is not None and value not in self.choices:
            raise bad
        return value

    def render(self, value: Any) -> str:
        """Text form of a value, the inverse of :meth:`coerce` on strings."""
        if value is None:
            return "none"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


def first_dealer_option(max_players: int) -> OptionSpec:
    """The ``first_dealer`` option every game offers: a seat, or none to draw it.

    One spec for all games so that the option reads, checks and translates
    alike everywhere (the web table's French help is keyed by its text).  The
    draw is a chance event of the match's start; a seat past the table's is
    refused by the game (a :attr:`OptionSpec.seat` option).
    """
    return OptionSpec(
        "first_dealer",
        int,
        None,
        "Seat of the first dealer; none draws it at random (a chance event).",
        minimum=0,
        maximum=max_players - 1,
        none_ok=True,
        seat=True,
    )


def start_round_option(help: str, maximum: int) -> OptionSpec:
    """The ``start_round`` option every game offers: the round (hand, deal) a match starts at.

    Always 1 by default, at least 1, and the round is dealt and rotated as that
    round of a whole match; each game says in ``help`` what its round is and
    bounds it by ``maximum``.
    """
    return OptionSpec("start_round", int, 1, help, minimum=1, maximum=maximum)


def validate_options(specs: tuple[OptionSpec, ...], given: Mapping[str, Any], game: str) -> Mapping[str, Any]:
    """Complete ``given`` with defaults and check every value; return a frozen mapping."""
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {s.name: s.default for s in specs}
    for key, value in given.items():
        name = key.replace("-", "_")
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(reason("option.unknown", game=GameName(game), option=Quoted(key), known=known))
        out[name] = spec.coerce(value)
    return MappingProxyType(out)


def parse_option_pairs(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Parse ``["k=v", "flag"]`` (command line / record header) into a dict of strings.

    A bare ``flag`` means ``flag=true``.
    """
    out: dict[str, str] = {}
    for pair in pairs:
        for item in pair.split():
            key, sep, value = item.partition("=")
            if not key:
                raise OptionError(f"malformed option {item!r}: write name=value")
            out[key.strip()] = value.strip() if sep else "true"
    return out
