"""Reading, writing and replaying atout records (spec: docs/records.md).

Design notes:

* One game-agnostic format.  A move is ``(actor, text, round)``: the actor is a
  seat or :data:`~atout.core.CHANCE`, the text is the game's own notation at
  that point (``state.action_to_text``).  The only convention asked of games is
  that a chance text's last word is its variable part, so that a deal is
  written one line per seat (``deal 2: B7 G3 Z``).
* The text and the JSON forms hold exactly the same data, so either converts
  to the other losslessly; ``Record.to_text(Record.parse(t))`` gives ``t`` back
  for any text this module wrote.
* Errors name the line (text form) or the move index, the move and the rule
  broken; nothing is written unless the whole record is valid (atomic save).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import AtoutError, IllegalAction, NotationError, OptionError, RecordError
from ..core.game import CHANCE, State
from ..core.options import parse_option_pairs
from ..core.registry import load

VERSION = 1
HIDDEN = "?"
_STANDARD_TAGS = ("Atout", "Game", "Players", "Options", "Seed", "View", "Result")


@dataclass(frozen=True)
class Move:
    """One history entry: who acted, the notation (``None`` if hidden), the round."""

    actor: int
    text: str | None
    round: int
    line: int | None = field(default=None, compare=False)


class ReplayError(RecordError):
    """A record whose moves break the rules: names the move index, the move and the rule."""

    def __init__(self, message: str, index: int, move: Move | None) -> None:
        self.index = index
        self.move = move
        where = f"move {index}"
        if move is not None and move.line is not None:
            where += f" (line {move.line})"
        super().__init__(f"{where}: {message}")


@dataclass
class Record:
    """A whole game (or a game in progress), as stored and exchanged."""

    game: str
    players: int
    options: dict[str, str] = field(default_factory=dict)
    seed: int | None = None
    seats: list[str] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    result: list[int] | None = None
    #: The seat this export was made for (other seats' hidden moves are ``None``).
    view: int | None = None
    moves: list[Move] = field(default_factory=list)

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
        know (``state.redacted_history``).
        """
        game = state.game
        history: list[int | None] = list(state.history) if view is None else state.redacted_history(view)
        replay = game.new_state(None)
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
        if self.view is not None:
            lines.append(f'[View "{self.view}"]')
        for i, name in enumerate(self.seats):
            lines.append(f"[Seat{i} {_quote(name)}]")
        for key, value in self.tags.items():
            lines.append(f"[{key} {_quote(value)}]")
        if self.result is not None:
            lines.append(f"[Result {_quote(' '.join(str(s) for s in self.result))}]")
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
        lines = text.splitlines()
        first = next((i for i, line in enumerate(lines) if line.strip()), None)
        if first is None:
            raise RecordError("the record is empty")
        if lines[first].lstrip().startswith("{"):
            return cls.from_json(text)
        tags: dict[str, str] = {}
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
                raise RecordError(f"tag {key} appears twice", i)
            tags[key] = value
        record = cls._from_tags(tags, first + 1)
        record.moves = _parse_moves(lines, body_start)
        return record

    @classmethod
    def _from_tags(cls, tags: dict[str, str], line: int) -> Record:
        version = tags.get("Atout")
        if version is None:
            raise RecordError('not an atout record: it must start with [Atout "1"]', line)
        if version != str(VERSION):
            raise RecordError(
                f"record format version {version!r} is not supported (this atout reads version {VERSION})",
                line,
            )
        for required in ("Game", "Players"):
            if required not in tags:
                raise RecordError(f"the record has no [{required} ...] tag")
        try:
            players = int(tags["Players"])
        except ValueError:
            raise RecordError(f"Players must be a number, not {tags['Players']!r}") from None
        seats = []
        i = 0
        while f"Seat{i}" in tags:
            seats.append(tags[f"Seat{i}"])
            i += 1
        record = cls(game=tags["Game"], players=players, seats=seats)
        try:
            record.options = parse_option_pairs([tags.get("Options", "")])
        except OptionError as exc:
            raise RecordError(f"Options: {exc}") from None
        record.seed = _int_tag(tags, "Seed")
        record.view = _int_tag(tags, "View")
        if "Result" in tags:
            try:
                record.result = [int(x) for x in tags["Result"].split()]
            except ValueError:
                raise RecordError(
                    f"Result must be one integer score per seat, not {tags['Result']!r}"
                ) from None
        seat_keys = {f"Seat{j}" for j in range(len(seats))}
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
            "view": self.view,
            "seats": self.seats,
            "tags": self.tags,
            "result": self.result,
            "moves": [[m.actor, m.text, m.round] for m in self.moves],
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"invalid JSON: {exc.msg}", exc.lineno) from None
        if not isinstance(data, dict):
            raise RecordError("a JSON record is an object")
        if data.get("atout") != VERSION:
            raise RecordError(
                f"record format version {data.get('atout')!r} is not supported (this atout reads version {VERSION})"
            )
        try:
            moves = [Move(int(a), None if t is None else str(t), int(r)) for a, t, r in data.get("moves", [])]
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                options={str(k): str(v) for k, v in (data.get("options") or {}).items()},
                seed=None if data.get("seed") is None else int(data["seed"]),
                seats=[str(s) for s in data.get("seats") or []],
                tags={str(k): str(v) for k, v in (data.get("tags") or {}).items()},
                result=None if data.get("result") is None else [int(x) for x in data["result"]],
                view=None if data.get("view") is None else int(data["view"]),
                moves=moves,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"malformed JSON record: {type(exc).__name__} {exc}") from None

    # -- replay ------------------------------------------------------------------------
    def replay(self) -> State:
        """Check every move against the rules and return the final state.

        Raises :class:`RecordError` for a record that names an unknown game or
        bad options, and :class:`ReplayError` at the first illegal move.
        """
        if self.view is not None:
            raise RecordError(
                f"this is seat {self.view}'s export: the other seats' hidden cards are not in it, "
                "so it cannot be replayed"
            )
        try:
            game = load(self.game, self.players, **self.options)
        except AtoutError as exc:
            raise RecordError(f"cannot set up the game: {exc}") from None
        if self.seats and len(self.seats) != game.players:
            raise RecordError(f"{len(self.seats)} seats named for {game.players} players")
        state = game.new_state(None)
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
    if move.text is None or move.text.split()[-1] == HIDDEN:
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
        raise ReplayError(f"{move.text!r} is illegal: {exc}", index, move) from None


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _parse_tag(line: str, number: int) -> tuple[str, str]:
    if not line.endswith("]"):
        raise RecordError(f'malformed tag {line!r}: write [Name "value"]', number)
    inner = line[1:-1].strip()
    key, _, rest = inner.partition(" ")
    rest = rest.strip()
    if not key.isidentifier() or len(rest) < 2 or rest[0] != '"' or rest[-1] != '"':
        raise RecordError(f'malformed tag {line!r}: write [Name "value"]', number)
    out = []
    escaped = False
    for ch in rest[1:-1]:
        if escaped:
            out.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            raise RecordError(f"malformed tag {line!r}: unescaped quote", number)
        else:
            out.append(ch)
    return key, "".join(out)


def _int_tag(tags: dict[str, str], key: str) -> int | None:
    if key not in tags:
        return None
    try:
        return int(tags[key])
    except ValueError:
        raise RecordError(f"{key} must be an integer, not {tags[key]!r}") from None


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
        if not colon:
            if len(words) == 2 and words[0] == "round" and words[1].isdigit():
                current_round = int(words[1])
                continue
            _need_round(current_round, number)
            moves.append(Move(CHANCE, line, current_round, number))
            continue
        _need_round(current_round, number)
        items = rest.split()
        if not items:
            raise RecordError(f"nothing after the colon in {line!r}", number)
        if len(words) == 1 and words[0].isdigit():
            text = rest.strip()
            moves.append(Move(int(words[0]), None if text == HIDDEN else text, current_round, number))
        else:
            for item in items:
                text = f"{head.strip()} {item}"
                moves.append(Move(CHANCE, text, current_round, number))
    return moves


def _need_round(current: int, number: int) -> None:
    if current == 0:
        raise RecordError("a move before any 'round N' line", number)


def parse_record(data: bytes | str) -> Record:
    """Read a record from bytes (must be UTF-8) or text, in either form."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
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
        raise RecordError(f"{p}: {exc}") from None


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
