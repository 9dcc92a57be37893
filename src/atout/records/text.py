"""The text form of a record (like PGN): tags, then one line a move, chance events grouped.

Why a module of its own: the text form is the one people read and edit by hand, so its
grammar (a tag's quoting, ``round N`` lines, a deal written ``deal 2: B7 G3 Z``) and
every refusal naming the line at fault belong together, apart from the JSON twin
(:mod:`.jsonform`) and from what a record means once read (:mod:`.format`: replay,
digest).  :class:`~.format.Record` builds itself with :func:`read_text` and writes
itself with :func:`write_text`; the record class is handed in, so this module stays
below :mod:`.format`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import OptionError, RecordError
from ..core.game import CHANCE
from ..core.options import parse_option_pairs
from .checks import (  # the format's parts  # what reading checks
    HIDDEN,
    SEAT_TAG,
    VERSION,
    Integrity,
    Move,
    check_digest,
    check_position,
    is_free_tag,
    parse_int,
    show,
)

if TYPE_CHECKING:
    from .format import Record


def write_text(record: Record) -> str:
    """The text form of ``record``, with its ``MoveCount`` and ``Digest`` tags."""
    lines = [f'[Atout "{VERSION}"]', f"[Game {_quote(record.game)}]", f'[Players "{record.players}"]']
    if record.options:
        lines.append(f"[Options {_quote(' '.join(f'{k}={v}' for k, v in record.options.items()))}]")
    if record.seed is not None:
        lines.append(f'[Seed "{record.seed}"]')
    if record.position is not None:
        lines.append(f"[Position {_quote(record.position)}]")
    if record.view is not None:
        lines.append(f'[View "{record.view}"]')
    for i, name in enumerate(record.seats):
        lines.append(f"[Seat{i} {_quote(name)}]")
    for key, value in record.tags.items():
        lines.append(f"[{key} {_quote(value)}]")
    if record.result is not None:
        lines.append(f"[Result {_quote(' '.join(str(s) for s in record.result))}]")
    lines.append(f'[MoveCount "{len(record.moves)}"]')
    lines.append(f'[Digest "{record.digest()}"]')
    lines.append("")
    current_round = 0
    # Consecutive chance moves sharing all words but the last form one line.
    group: list[str] = []
    prefix: list[str] | None = None

    def flush() -> None:
        nonlocal prefix
        if prefix is not None:
            head = " ".join(prefix)
            lines.append(f"{head} {group[0]}" if len(group) == 1 else f"{head}: {' '.join(group)}")
        prefix = None
        group.clear()

    for move in record.moves:
        if move.round != current_round:
            flush()
            current_round = move.round
            lines.append(f"round {current_round}")
        if move.actor == CHANCE:
            words = (move.text or HIDDEN).split()
            if words[:-1] != prefix or not words[:-1]:
                flush()
                prefix = words[:-1]
            group.append(words[-1])
            if not prefix:
                lines.append(words[-1])
                prefix = None
                group.clear()
        else:
            flush()
            lines.append(f"{move.actor}: {move.text if move.text is not None else HIDDEN}")
    flush()
    return "\n".join(lines) + "\n"


def read_text(cls: type[Record], text: str) -> Record:
    """Read the text form into a ``cls``; :class:`RecordError` names the line of any fault."""
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors add
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise RecordError("the record is empty")
    if lines[first].lstrip().startswith("{"):
        return cls.from_json(text)
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    body_start = len(lines)
    for i, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not line.startswith("["):
            body_start = i - 1
            break
        key, value = _parse_tag(line, i)
        if key in tags:
            raise RecordError(f"tag {key} appears twice (first on line {tag_lines[key]})", i)
        tags[key] = value
        tag_lines[key] = i
    record = _from_tags(cls, tags, tag_lines, first + 1)
    record.moves = _parse_moves(lines, body_start)
    return record


def _from_tags(cls: type[Record], tags: dict[str, str], lines: dict[str, int], first: int) -> Record:
    version = tags.get("Atout")
    if version is None:
        raise RecordError('not an atout record: it must start with [Atout "1"]', first)
    if version != str(VERSION):
        raise RecordError(
            f"record format version {show(version)} is not supported (this atout reads version {VERSION})",
            lines["Atout"],
        )
    for required in ("Game", "Players"):
        if required not in tags:
            raise RecordError(f"the record has no [{required} ...] tag")
    players = parse_int(tags["Players"], "Players", lines["Players"])
    seats: list[str] = []
    while f"Seat{len(seats)}" in tags:
        seats.append(tags[f"Seat{len(seats)}"])
    seat_keys = {f"Seat{j}" for j in range(len(seats))}
    for key in tags:
        if SEAT_TAG.fullmatch(key) and key not in seat_keys:
            raise RecordError(
                f"tag {key} but no Seat{len(seats)}: seats are named consecutively from Seat0", lines[key]
            )
    record = cls(game=tags["Game"], players=players, seats=seats)
    try:
        record.options = parse_option_pairs([tags.get("Options", "")])
    except OptionError as exc:
        raise RecordError(f"Options: {exc}", lines["Options"]) from None
    if "Seed" in tags:
        record.seed = parse_int(tags["Seed"], "Seed", lines["Seed"])
    if "Position" in tags:
        record.position = check_position(tags["Position"], lines["Position"])
        record.position_line = lines["Position"]
    if "View" in tags:
        record.view = parse_int(tags["View"], "View", lines["View"], minimum=0)
    if "Result" in tags:
        record.result = [
            parse_int(x, "Result (one integer score per seat)", lines["Result"])
            for x in tags["Result"].split()
        ]
    integrity = Integrity(
        move_count=(
            parse_int(tags["MoveCount"], "MoveCount", lines["MoveCount"], minimum=0)
            if "MoveCount" in tags
            else None
        ),
        digest=check_digest(tags["Digest"], "Digest", lines["Digest"]) if "Digest" in tags else None,
        count_where=lines.get("MoveCount"),
        digest_where=lines.get("Digest"),
    )
    if integrity.move_count is not None or integrity.digest is not None:
        record.declared = integrity
    # Every seat tag is one of seat_keys by now (any other was refused above).
    record.tags = {k: v for k, v in tags.items() if is_free_tag(k)}
    return record


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parse_tag(line: str, number: int) -> tuple[str, str]:
    malformed = RecordError(f'malformed tag {show(line)}: write [Name "value"]', number)
    if not line.endswith("]"):
        raise malformed
    inner = line[1:-1].strip()
    key, _, rest = inner.partition(" ")
    rest = rest.strip()
    if not key.isidentifier() or len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise malformed
    out = []
    escaped = False
    for ch in rest[1:-1]:
        if escaped:
            out.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            raise RecordError(f"malformed tag {show(line)}: unescaped quote", number)
        else:
            out.append(ch)
    if escaped:  # the closing quote was escaped: the value never ends
        raise RecordError(f"malformed tag {show(line)}: the value's closing quote is escaped", number)
    return key, "".join(out)


def _parse_moves(lines: list[str], start: int) -> list[Move]:
    moves: list[Move] = []
    current_round = 0
    for number, raw in enumerate(lines[start:], start=start + 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            raise RecordError("a tag after the moves: tags belong at the top", number)
        head, colon, rest = line.partition(":")
        words = head.split()
        if words and words[0] == "round":
            # No game's notation has the word 'round' (docs/records.md): this
            # line can only mean a round, so a malformed one is refused here.
            if colon or len(words) != 2:
                raise RecordError(f"malformed round line {show(line)}: write 'round N'", number)
            current_round = parse_int(words[1], "the round number", number, minimum=1)
            continue
        _need_round(current_round, number)
        if not colon:
            moves.append(Move(CHANCE, line, current_round, number))
            continue
        if not words:
            raise RecordError(f"nothing before the colon in {show(line)}: write 'SEAT: ACTION'", number)
        items = rest.split()
        if not items:
            raise RecordError(f"nothing after the colon in {show(line)}", number)
        if len(words) == 1 and words[0].isnumeric():
            # isnumeric: '²' or '٣' are meant as seat numbers, and refused as such.
            seat = parse_int(words[0], "the seat number (digits 0-9)", number)
            text = rest.strip()
            moves.append(Move(seat, None if text == HIDDEN else text, current_round, number))
        else:
            for item in items:
                text = f"{head.strip()} {item}"
                moves.append(Move(CHANCE, text, current_round, number))
    return moves


def _need_round(current: int, number: int) -> None:
    if current == 0:
        raise RecordError("a move before any 'round N' line", number)
