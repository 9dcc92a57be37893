"""The JSON twin of a record: the same data as the text form, for programs.

Why a module of its own: JSON is read by ``json.loads``, whose own failures (a bare
``ValueError`` for a huge integer, ``NaN``, a duplicated key, nesting past the
recursion limit) must each become a :class:`~atout.core.errors.RecordError` naming the
key or the line; those hooks and the per-field type checks are this form's alone.
Every text is held to what the text form can hold (one line), so either form converts
to the other (:meth:`~.format.Record.from_json` and ``to_json`` call
:func:`read_json` and :func:`write_json`).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from ..core.errors import RecordError
from ..core.game import CHANCE
from .checks import (  # the format's parts  # what reading checks
    LINE_BREAKS,
    VERSION,
    Integrity,
    Move,
    check_digest,
    check_position,
    clip,
    is_free_tag,
    show,
)

if TYPE_CHECKING:
    from .format import Record

_JSON_KEYS = frozenset(
    {
        "atout",
        "game",
        "players",
        "options",
        "seed",
        "position",
        "view",
        "seats",
        "tags",
        "result",
        "move_count",
        "digest",
        "moves",
    }
)


def write_json(record: Record) -> str:
    """The JSON twin of ``record``, with its ``move_count`` and ``digest``."""
    data: dict[str, Any] = {
        "atout": VERSION,
        "game": record.game,
        "players": record.players,
        "options": record.options,
        "seed": record.seed,
        **({"position": record.position} if record.position is not None else {}),
        "view": record.view,
        "seats": record.seats,
        "tags": record.tags,
        "result": record.result,
        "move_count": len(record.moves),
        "digest": record.digest(),
        "moves": [[m.actor, m.text, m.round] for m in record.moves],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def read_json(cls: type[Record], text: str) -> Record:
    """Read the JSON twin; a fault names the key (``moves[12][0]``) or the line.

    Every value is checked for its type, and texts for what the text form
    can hold (one line), so that either form converts to the other.
    """
    data = _load_json(text)
    if not isinstance(data, dict):
        raise RecordError(f"malformed JSON record: it must be an object {{...}}, not {_describe(data)}")
    if "atout" not in data:
        raise RecordError('not an atout record: a JSON record has "atout": 1')
    version = data["atout"]
    if type(version) is not int or version != VERSION:
        shown = clip(str(version)) if type(version) is int else _describe(version)
        raise RecordError(
            f"record format version {shown} is not supported (this atout reads version {VERSION})"
        )
    unknown = sorted(set(data) - _JSON_KEYS)
    if unknown:
        known = ", ".join(sorted(_JSON_KEYS))
        raise RecordError(f"malformed JSON record: unknown key {show(unknown[0])} (the keys are {known})")
    for required in ("game", "players"):
        if required not in data:
            raise RecordError(f"malformed JSON record: no key {required!r}")
    result = data.get("result")
    record = cls(
        game=_json_text(data["game"], "game"),
        players=_json_int(data["players"], "players"),
        options=_json_options(data.get("options")),
        seed=None if data.get("seed") is None else _json_int(data["seed"], "seed"),
        position=(
            None
            if data.get("position") is None
            else check_position(
                _json_text(data["position"], "position"), None, "malformed JSON record: position"
            )
        ),
        view=None if data.get("view") is None else _json_int(data["view"], "view", minimum=0),
        seats=[_json_text(s, f"seats[{i}]") for i, s in enumerate(_json_list(data.get("seats"), "seats"))],
        tags=_json_tags(data.get("tags")),
        result=(
            None
            if result is None
            else [_json_int(x, f"result[{i}]") for i, x in enumerate(_json_list(result, "result"))]
        ),
        moves=[_json_move(m, i) for i, m in enumerate(_json_list(data.get("moves"), "moves"))],
    )
    count, digest = data.get("move_count"), data.get("digest")
    if digest is not None:
        digest = check_digest(_json_text(digest, "digest"), "malformed JSON record: digest", None)
    if count is not None or digest is not None:
        record.declared = Integrity(
            move_count=None if count is None else _json_int(count, "move_count", minimum=0),
            digest=digest,
            json=True,
        )
    return record


# -- reading JSON ----------------------------------------------------------------------------


class _TooLong:
    """A JSON integer past Python's limit on the length of an integer text.

    ``json.loads`` would raise a bare ``ValueError`` without a position; kept as
    this marker, the field it sits in names the fault.
    """

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _JsonFault(Exception):
    """Raised from inside ``json.loads`` (its hooks), turned into a RecordError by _load_json."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: A token to locate in the text for the line number (NaN, Infinity).
        self.token = token


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|NaN|-?Infinity', re.DOTALL)
_MAX_SHOWN_DEPTH = 32


def _json_integer(digits: str) -> int | _TooLong:
    try:
        return int(digits)
    except ValueError:
        return _TooLong(len(digits.lstrip("-")))


def _json_constant(name: str) -> Any:
    raise _JsonFault(f"invalid JSON: {name} is not a JSON number (JSON has no NaN nor Infinity)", name)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JsonFault(f"malformed JSON record: key {show(key)} appears twice in one object")
        out[key] = value
    return out


def _json_line(text: str, token: str | None, deeper_than: int | None = None) -> int | None:
    """The line of ``token`` (outside strings), or where nesting first passes ``deeper_than``.

    Only called once ``json.loads`` has read the text up to that point, so the
    strings before it are well formed and the scan is exact.
    """
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        item = match.group()
        if item in "[{":
            depth += 1
            if deeper_than is not None and depth > deeper_than:
                return text.count("\n", 0, match.start()) + 1
        elif item in "]}":
            depth -= 1
        elif item == token:
            return text.count("\n", 0, match.start()) + 1
    return None


def _load_json(text: str) -> Any:
    try:
        return json.loads(
            text, parse_int=_json_integer, parse_constant=_json_constant, object_pairs_hook=_json_object
        )
    except json.JSONDecodeError as exc:
        raise RecordError(f"invalid JSON: {exc.msg}", exc.lineno) from None
    except _JsonFault as exc:
        raise RecordError(exc.message, _json_line(text, exc.token) if exc.token else None) from None
    except RecursionError:
        raise RecordError(
            f"invalid JSON: arrays or objects nested too deeply (more than {_MAX_SHOWN_DEPTH} levels "
            "from this line on; a record nests three)",
            _json_line(text, None, _MAX_SHOWN_DEPTH),
        ) from None


def _describe(value: Any) -> str:
    """What a JSON value is, in words, for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, _TooLong):
        return f"a number of {value.digits} digits (too large)"
    if isinstance(value, int | float):
        return f"the number {clip(str(value))}"
    if isinstance(value, str):
        return f"the text {show(value)}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return "an object"


def _malformed(where: str, expected: str, value: Any) -> RecordError:
    return RecordError(f"malformed JSON record: {where} must be {expected}, not {_describe(value)}")


def _json_int(value: Any, where: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _malformed(where, "an integer", value)
    if minimum is not None and value < minimum:
        raise _malformed(where, f"an integer from {minimum}", value)
    return value


def _json_text(value: Any, where: str) -> str:
    """A text the text form can hold too: one line of valid Unicode."""
    if not isinstance(value, str):
        raise _malformed(where, "a text", value)
    if any(ch in LINE_BREAKS for ch in value):
        raise RecordError(f"malformed JSON record: {where} must be one line, not {show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            f"malformed JSON record: {where} is not valid Unicode (a lone surrogate): {show(value)}"
        ) from None
    return value


def _json_list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise _malformed(where, "a list", value)
    return value


def _json_dict(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _malformed(where, "an object {...}", value)
    return value


def _json_options(value: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, raw in _json_dict(value, "options").items():
        name = _json_text(key, "an option name")
        if not name or any(ch.isspace() for ch in name) or "=" in name:
            raise RecordError(f"malformed JSON record: {show(name)} is not an option name")
        where = f"options.{name}"
        if isinstance(raw, bool):
            text = "true" if raw else "false"
        elif raw is None:
            text = "none"
        elif isinstance(raw, int):
            text = str(raw)
        else:
            text = _json_text(raw, where)
            if any(ch.isspace() for ch in text):
                raise RecordError(f"malformed JSON record: {where} must be one word, not {show(text)}")
        out[name] = text
    return out


def _json_tags(value: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, raw in _json_dict(value, "tags").items():
        if not key.isidentifier() or not is_free_tag(key):
            raise RecordError(
                f"malformed JSON record: {show(key)} cannot be a free tag's name "
                "(a name like Date or Event, not one of the standard tags)"
            )
        out[key] = _json_text(raw, f"tags.{key}")
    return out


def _json_move(value: Any, index: int) -> Move:
    where = f"moves[{index}]"
    if not isinstance(value, list) or len(value) != 3:
        raise _malformed(where, "[actor, text, round]", value)
    actor = _json_int(value[0], f"{where}[0] (the actor: a seat, or {CHANCE} for chance)", minimum=CHANCE)
    text = None if value[1] is None else _json_text(value[1], f"{where}[1] (the move)")
    if text is not None and not text.strip():
        raise RecordError(f"malformed JSON record: {where}[1] is an empty move")
    round_ = _json_int(value[2], f"{where}[2] (the round)", minimum=1)
    return Move(actor, text, round_)
