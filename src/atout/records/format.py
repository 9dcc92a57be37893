"""Reading, writing and replaying atout records (spec: docs/records.md).

Design notes:

* One game-agnostic format.  A move is ``(actor, text, round)``: the actor is a
  seat or :data:`~atout.core.CHANCE`, the text is the game's own notation at
  that point (``state.action_to_text``).  The only convention asked of games is
  that a chance text's last word is its variable part, so that a deal is
  written one line per seat (``deal 2: B7 G3 Z``).
* The text and the JSON forms hold exactly the same data, so either converts
  to the other losslessly; ``Record.to_text(Record.parse(t))`` gives ``t`` back
  for any text this module wrote (one saved before the ``MoveCount`` and
  ``Digest`` tags gains them).
* Errors name the line (text form) or the move index, the move and the rule
  broken; nothing is written unless the whole record is valid (atomic save).
* Reading never trusts the file: every field is checked for its type and
  range, numbers are read from ASCII digits only (``str.isdigit`` accepts
  ``'²'``, which ``int`` refuses) and within Python's limit on the length of an
  integer text, and user text is quoted (``repr``, shortened) in messages.  A
  damaged record is a :class:`RecordError`, never another exception.
* Integrity: a written record carries ``MoveCount`` and ``Digest`` tags (a
  SHA-256 of its game, players, options, result and moves, see
  :meth:`Record.digest`), because a deleted or altered move can leave a game
  that still replays legally (Le Nain Jaune's first play of a deal may be any
  card).  They are checked by :meth:`Record.replay` when present; records
  saved before them, or written by hand, have none and still replay.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import AtoutError, IllegalAction, NotationError, OptionError, PositionError, RecordError
from ..core.game import CHANCE, State
from ..core.options import parse_option_pairs, validate_options
from ..core.position import remove_seed
from ..core.registry import game_class

VERSION = 1
HIDDEN = "?"
#: The only digest algorithm of format version 1, written before the hex digits.
DIGEST_PREFIX = "sha256:"
_STANDARD_TAGS = (
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
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
#: An integer as a record writes it: ASCII digits (``[0-9]``, not ``\d``, which is any Unicode digit).
_INTEGER = re.compile(r"[+-]?[0-9]+")
_SEAT_TAG = re.compile(r"Seat[0-9]+")
#: The characters ``str.splitlines`` ends a line at: no text of a record may hold one.
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
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


@dataclass
class Record:
    """A whole game (or a game in progress), as stored and exchanged."""

    game: str
    players: int
    options: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    #: The position the game starts from (the game's notation, without its
    #: seed), or ``None`` for the start of a match: the moves follow it.
    position: str | None = None
    seats: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    result: list[int] | None = None
    #: The seat this export was made for (other seats' hidden moves are ``None``).
    view: int | None = None
    moves: list[Move] = field(default_factory=list)
    #: The move count and digest the file declared when this record was read
    #: (checked by :meth:`replay`); ``None`` for a record built in memory.
    declared: Integrity | None = field(default=None, compare=False, repr=False)
    #: The line of the ``Position`` tag when read from a text record (for errors).
    position_line: int | None = field(default=None, compare=False, repr=False)

    # -- from a state ----------------------------------------------------------------
    @classmethod
    def from_state(
        cls,
        state: State,
        seats: Iterable[str] | None = None,
        tags: dict[str, str] | None = None,
        view: int | None = None,
    ) -> Record:
        """The record of ``state``'s history; ``view`` makes a per-seat export.

        A per-seat export drops the seed and hides every move that seat may not
        know (``state.redacted_history``).  A game started from a position
        (``state.start``) is written with it as its ``Position`` tag; it has no
        per-seat export, since the position shows every hand.
        """
        game = state.game
        if view is not None and state.start is not None:
            raise ValueError(
                "a game started from a position has no per-seat export: the position shows every hand"
            )
        history: list[int | None] = list(state.history) if view is None else state.redacted_history(view)
        replay = game.new_state(None) if state.start is None else game.new_state(position=state.start)
        moves: list[Move] = []
        for original, shown in zip(state.history, history, strict=True):
            actor = replay.current_player
            text = replay.action_to_text(original)
            if shown is None:
                words = text.split()
                text = " ".join([*words[:-1], HIDDEN])
            moves.append(Move(actor, text, replay.round))
            replay.apply(original)
        names = list(seats) if seats is not None else [f"seat {i}" for i in range(game.players)]
        if len(names) != game.players:
            raise ValueError(f"{len(names)} seat names for {game.players} players")
        return cls(
            game=game.name,
            players=game.players,
            options={k: v for k, v in (p.split("=", 1) for p in game.options_text().split())},
            seed=state.seed if view is None else None,
            position=state.start,
            seats=names,
            tags=dict(tags or {}),
            result=state.scores() if state.is_terminal else None,
            view=view,
            moves=moves,
        )

    # -- text form -------------------------------------------------------------------
    def to_text(self) -> str:
        lines = [f'[Atout "{VERSION}"]', f"[Game {_quote(self.game)}]", f'[Players "{self.players}"]']
        if self.options:
            lines.append(f"[Options {_quote(' '.join(f'{k}={v}' for k, v in self.options.items()))}]")
        if self.seed is not None:
            lines.append(f'[Seed "{self.seed}"]')
        if self.position is not None:
            lines.append(f"[Position {_quote(self.position)}]")
        if self.view is not None:
            lines.append(f'[View "{self.view}"]')
        for i, name in enumerate(self.seats):
            lines.append(f"[Seat{i} {_quote(name)}]")
        for key, value in self.tags.items():
            lines.append(f"[{key} {_quote(value)}]")
        if self.result is not None:
            lines.append(f"[Result {_quote(' '.join(str(s) for s in self.result))}]")
        lines.append(f'[MoveCount "{len(self.moves)}"]')
        lines.append(f'[Digest "{self.digest()}"]')
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

        for move in self.moves:
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

    @classmethod
    def parse(cls, text: str) -> Record:
        """Read the text form; :class:`RecordError` names the line of any fault."""
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
        record = cls._from_tags(tags, tag_lines, first + 1)
        record.moves = _parse_moves(lines, body_start)
        return record

    @classmethod
    def _from_tags(cls, tags: dict[str, str], lines: dict[str, int], first: int) -> Record:
        version = tags.get("Atout")
        if version is None:
            raise RecordError('not an atout record: it must start with [Atout "1"]', first)
        if version != str(VERSION):
            raise RecordError(
                f"record format version {_show(version)} is not supported (this atout reads version {VERSION})",
                lines["Atout"],
            )
        for required in ("Game", "Players"):
            if required not in tags:
                raise RecordError(f"the record has no [{required} ...] tag")
        players = _parse_int(tags["Players"], "Players", lines["Players"])
        seats: list[str] = []
        while f"Seat{len(seats)}" in tags:
            seats.append(tags[f"Seat{len(seats)}"])
        seat_keys = {f"Seat{j}" for j in range(len(seats))}
        for key in tags:
            if _SEAT_TAG.fullmatch(key) and key not in seat_keys:
                raise RecordError(
                    f"tag {key} but no Seat{len(seats)}: seats are named consecutively from Seat0", lines[key]
                )
        record = cls(game=tags["Game"], players=players, seats=seats)
        try:
            record.options = parse_option_pairs([tags.get("Options", "")])
        except OptionError as exc:
            raise RecordError(f"Options: {exc}", lines["Options"]) from None
        if "Seed" in tags:
            record.seed = _parse_int(tags["Seed"], "Seed", lines["Seed"])
        if "Position" in tags:
            record.position = _position(tags["Position"], lines["Position"])
            record.position_line = lines["Position"]
        if "View" in tags:
            record.view = _parse_int(tags["View"], "View", lines["View"], minimum=0)
        if "Result" in tags:
            record.result = [
                _parse_int(x, "Result (one integer score per seat)", lines["Result"])
                for x in tags["Result"].split()
            ]
        integrity = Integrity(
            move_count=(
                _parse_int(tags["MoveCount"], "MoveCount", lines["MoveCount"], minimum=0)
                if "MoveCount" in tags
                else None
            ),
            digest=_check_digest(tags["Digest"], "Digest", lines["Digest"]) if "Digest" in tags else None,
            count_where=lines.get("MoveCount"),
            digest_where=lines.get("Digest"),
        )
        if integrity.move_count is not None or integrity.digest is not None:
            record.declared = integrity
        record.tags = {k: v for k, v in tags.items() if k not in _STANDARD_TAGS and k not in seat_keys}
        return record

    # -- JSON twin -------------------------------------------------------------------
    def to_json(self) -> str:
        data: dict[str, Any] = {
            "atout": VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            **({"position": self.position} if self.position is not None else {}),
            "view": self.view,
            "seats": self.seats,
            "tags": self.tags,
            "result": self.result,
            "move_count": len(self.moves),
            "digest": self.digest(),
            "moves": [[m.actor, m.text, m.round] for m in self.moves],
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Record:
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
            shown = _clip(str(version)) if type(version) is int else _describe(version)
            raise RecordError(
                f"record format version {shown} is not supported (this atout reads version {VERSION})"
            )
        unknown = sorted(set(data) - _JSON_KEYS)
        if unknown:
            known = ", ".join(sorted(_JSON_KEYS))
            raise RecordError(
                f"malformed JSON record: unknown key {_show(unknown[0])} (the keys are {known})"
            )
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
                else _position(
                    _json_text(data["position"], "position"), None, "malformed JSON record: position"
                )
            ),
            view=None if data.get("view") is None else _json_int(data["view"], "view", minimum=0),
            seats=[
                _json_text(s, f"seats[{i}]") for i, s in enumerate(_json_list(data.get("seats"), "seats"))
            ],
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
            digest = _check_digest(_json_text(digest, "digest"), "malformed JSON record: digest", None)
        if count is not None or digest is not None:
            record.declared = Integrity(
                move_count=None if count is None else _json_int(count, "move_count", minimum=0),
                digest=digest,
                json=True,
            )
        return record

    # -- integrity ---------------------------------------------------------------------
    def digest(self) -> str:
        """``sha256:`` and the SHA-256, in hex, of this record's canonical form.

        The canonical form (specified in docs/records.md, so that other programs
        can compute it) is UTF-8 lines: ``atout 1``, ``game NAME``, ``players
        N``, ``options`` and the ``name=value`` pairs sorted by name, ``result``
        and the scores, then one ``ACTOR ROUND TEXT`` line per move.  It covers
        what a replay depends on, and not the seat names, free tags or seed,
        which people may edit by hand.  A move's whitespace is collapsed because
        the text form writes chance events that way; a hidden move is ``?``.
        """
        lines = [
            f"atout {VERSION}",
            f"game {self.game}",
            f"players {self.players}",
            " ".join(["options", *(f"{k}={v}" for k, v in sorted(self.options.items()))]),
            " ".join(["result", *(str(s) for s in self.result or [])]),
        ]
        if self.position is not None:  # after the result: records without one keep their digest
            lines.append(f"position {' '.join(self.position.split())}")
        for m in self.moves:
            text = HIDDEN if m.text is None else " ".join(m.text.split())
            lines.append(f"{m.actor} {m.round} {text}")
        canonical = "".join(line + "\n" for line in lines)
        return DIGEST_PREFIX + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()

    def integrity_error(self) -> RecordError | None:
        """Why this record does not match the move count or digest it was read with, if it does not.

        ``None`` when it matches, or when the file declared neither (records
        saved before atout wrote them, hand-written ones).  The error's line is
        that of the tag that does not match.
        """
        return self._integrity_fault(inline=False)

    def _integrity_fault(self, inline: bool) -> RecordError | None:
        """The fault, naming the tag's line in the sentence itself when ``inline``
        (a note appended to another error, which has a line of its own)."""
        declared = self.declared
        if declared is None:
            return None

        def name(label: str, line: int | None) -> str:
            return f"{label} (line {line})" if inline and line is not None else label

        count_name, digest_name = declared.names
        fields = "move_count and digest keys" if declared.json else "MoveCount and Digest tags"
        hint = f"; if that was done on purpose, delete the {fields}"
        if declared.move_count is not None and declared.move_count != len(self.moves):
            have, said = len(self.moves), declared.move_count
            change = f"{said - have} missing" if have < said else f"{have - said} too many"
            return RecordError(
                f"the record was altered after it was written: it has {have} moves but its "
                f"{name(count_name, declared.count_where)} says {said} ({change}){hint}",
                None if inline else declared.count_where,
            )
        if declared.digest is not None and declared.digest != self.digest():
            return RecordError(
                "the record was altered after it was written: its moves, or its game, players, options "
                f"or result, do not match its {name(digest_name, declared.digest_where)}{hint}",
                None if inline else declared.digest_where,
            )
        return None

    def verify(self) -> None:
        """Raise :func:`integrity_error`'s error, if any (without replaying the moves)."""
        error = self.integrity_error()
        if error is not None:
            raise error

    # -- replay ------------------------------------------------------------------------
    def replay(self) -> State:
        """Check every move against the rules and return the final state.

        Raises :class:`RecordError` for a record that names an unknown game or
        bad options, or whose moves are legal but do not match the move count
        or digest it was read with; :class:`ReplayError` at the first illegal
        move (or a truncated record, or a wrong Result), with a note when the
        integrity check shows the record was altered, which is then the likely
        cause.  The moves are replayed first so that an illegal move is always
        located, and keeps its documented exit code.
        """
        if self.view is not None:
            raise RecordError(
                f"this is seat {self.view}'s export: the other seats' hidden cards are not in it, "
                "so it cannot be replayed"
            )
        try:
            state = self._replay()
        except ReplayError as exc:
            note = self._integrity_fault(inline=True)
            if note is None:
                raise
            raise ReplayError(f"{exc.reason} — {note.message}", exc.index, exc.move) from None
        except RecordError as exc:
            note = self._integrity_fault(inline=True)
            if note is None:
                raise
            raise RecordError(f"{exc.message} — {note.message}", exc.line) from None
        self.verify()
        return state

    def _replay(self) -> State:
        try:
            cls = game_class(self.game)
            # Checked before the call: ``cls(players, **options)`` would take an
            # option named ``players`` or ``self`` for its own argument (a TypeError).
            validate_options(cls.option_specs, self.options, cls.name)
            game = cls(self.players, **self.options)
        except AtoutError as exc:
            raise RecordError(f"cannot set up the game: {exc}") from None
        if self.seats and len(self.seats) != game.players:
            raise RecordError(f"{len(self.seats)} seats named for {game.players} players")
        if self.position is None:
            state = game.new_state(None)
        else:
            try:
                state = game.new_state(position=self.position)
            except PositionError as exc:
                raise RecordError(f"Position: {exc}", self.position_line) from None
        for index, move in enumerate(self.moves):
            _replay_move(state, index, move)
        if self.result is not None:
            if not state.is_terminal:
                raise ReplayError(
                    f"the record is truncated: its Result says the game ended, but the moves stop in "
                    f"round {state.round} with {_actor(state.current_player)} to act",
                    len(self.moves),
                    None,
                )
            if state.scores() != self.result:
                raise ReplayError(
                    f"the Result tag says {self.result} but the moves give {state.scores()}",
                    len(self.moves),
                    None,
                )
        return state


def _actor(player: int) -> str:
    return "chance" if player == CHANCE else f"seat {player}"


def _replay_move(state: State, index: int, move: Move) -> None:
    if state.is_terminal:
        raise ReplayError("the game is already over: this move is one too many", index, move)
    words = [] if move.text is None else move.text.split()
    if move.text is not None and not words:
        raise ReplayError("an empty move", index, move)
    if move.text is None or words[-1] == HIDDEN:
        raise ReplayError("a hidden move cannot be replayed", index, move)
    if move.round != state.round:
        raise ReplayError(
            f"the record says round {move.round}, but the game is in round {state.round}", index, move
        )
    if move.actor != state.current_player:
        expected = _actor(state.current_player)
        raise ReplayError(f"{_actor(move.actor)} acts out of turn: it is {expected}'s turn", index, move)
    try:
        action = state.parse(move.text)
        state.apply(action)
    except (IllegalAction, NotationError) as exc:
        raise ReplayError(f"{_show(move.text)} is illegal: {exc}", index, move) from None


def _show(text: str, limit: int = 60) -> str:
    """``repr`` of a piece of the user's text for a message, shortened: a damaged
    record may hold a line of thousands of characters."""
    return _clip(repr(text), limit, len(text))


def _clip(shown: str, limit: int = 60, length: int | None = None) -> str:
    if len(shown) <= limit:
        return shown
    return f"{shown[: limit - 1]}… ({length if length is not None else len(shown)} characters)"


def _parse_int(text: str, what: str, line: int | None, minimum: int | None = None) -> int:
    """An integer of the text form, from ASCII digits only.

    ``int`` alone would accept ``'٣'`` or ``'1_0'`` (not the format's) and
    raise a bare ``ValueError`` past Python's limit on the length of an
    integer text (4300 digits by default).
    """
    value = text.strip()
    if not _INTEGER.fullmatch(value):
        raise RecordError(f"{what} must be an integer, not {_show(text)}", line)
    try:
        number = int(value)
    except ValueError:  # longer than sys.get_int_max_str_digits()
        raise RecordError(f"{what} is a number of {len(value)} digits: too large", line) from None
    if minimum is not None and number < minimum:
        raise RecordError(f"{what} must be at least {minimum}, not {number}", line)
    return number


def _position(value: str, line: int | None, what: str = "Position") -> str:
    """A ``Position`` tag's text: one line, and no seed (a record's seed is its ``Seed`` tag)."""
    if any(c in _LINE_BREAKS for c in value):
        raise RecordError(f"{what}: a position is one line of text", line)
    if remove_seed(value) != " ".join(value.split()):
        raise RecordError(f"{what}: a record's position has no seed= field (the seed is the Seed tag)", line)
    return value


def _check_digest(value: str, what: str, line: int | None) -> str:
    if not _DIGEST.fullmatch(value):
        raise RecordError(
            f"{what} must be {DIGEST_PREFIX} and 64 lowercase hex digits, not {_show(value)}", line
        )
    return value


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parse_tag(line: str, number: int) -> tuple[str, str]:
    malformed = RecordError(f'malformed tag {_show(line)}: write [Name "value"]', number)
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
            raise RecordError(f"malformed tag {_show(line)}: unescaped quote", number)
        else:
            out.append(ch)
    if escaped:  # the closing quote was escaped: the value never ends
        raise RecordError(f"malformed tag {_show(line)}: the value's closing quote is escaped", number)
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
                raise RecordError(f"malformed round line {_show(line)}: write 'round N'", number)
            current_round = _parse_int(words[1], "the round number", number, minimum=1)
            continue
        _need_round(current_round, number)
        if not colon:
            moves.append(Move(CHANCE, line, current_round, number))
            continue
        if not words:
            raise RecordError(f"nothing before the colon in {_show(line)}: write 'SEAT: ACTION'", number)
        items = rest.split()
        if not items:
            raise RecordError(f"nothing after the colon in {_show(line)}", number)
        if len(words) == 1 and words[0].isnumeric():
            # isnumeric: '²' or '٣' are meant as seat numbers, and refused as such.
            seat = _parse_int(words[0], "the seat number (digits 0-9)", number)
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
            raise _JsonFault(f"malformed JSON record: key {_show(key)} appears twice in one object")
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
        return f"the number {_clip(str(value))}"
    if isinstance(value, str):
        return f"the text {_show(value)}"
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
    if any(ch in _LINE_BREAKS for ch in value):
        raise RecordError(f"malformed JSON record: {where} must be one line, not {_show(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            f"malformed JSON record: {where} is not valid Unicode (a lone surrogate): {_show(value)}"
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
            raise RecordError(f"malformed JSON record: {_show(name)} is not an option name")
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
                raise RecordError(f"malformed JSON record: {where} must be one word, not {_show(text)}")
        out[name] = text
    return out


def _json_tags(value: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, raw in _json_dict(value, "tags").items():
        if not key.isidentifier() or key in _STANDARD_TAGS or _SEAT_TAG.fullmatch(key):
            raise RecordError(
                f"malformed JSON record: {_show(key)} cannot be a free tag's name "
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


def parse_record(data: bytes | str) -> Record:
    """Read a record from bytes (must be UTF-8) or text, in either form."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")  # a byte-order mark is dropped by Record.parse
        except UnicodeDecodeError as exc:
            raise RecordError(
                f"the record is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
            ) from None
    else:
        text = data
    return Record.parse(text)


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record file; errors name the file."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {p}: {exc.strerror}") from None
    try:
        return parse_record(data)
    except RecordError as exc:
        raise RecordError(exc.message, exc.line, path=str(p)) from None


def save_record(path: str | os.PathLike[str], record: Record, as_json: bool | None = None) -> None:
    """Write atomically (temporary file, then rename): a crash never leaves half a record.

    JSON when ``as_json`` or when the file name ends in ``.json``.
    """
    p = Path(path)
    use_json = as_json if as_json is not None else p.suffix.lower() == ".json"
    text = record.to_json() if use_json else record.to_text()
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
