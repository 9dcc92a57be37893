"""Reading, writing and replaying atout records (spec: docs/records.md): the :class:`Record`.

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

Where each part lives: this module is what a record *is* (its fields, its history
from a state, its digest, its replay against the rules) and the file functions
(:func:`parse_record`, :func:`load_record`, :func:`save_record`); the text form's
grammar is :mod:`.text`, the JSON twin's :mod:`.jsonform`, and the parts and checks
both readers share (:class:`Move`, :class:`Integrity`, :class:`ReplayError`, the
constants) :mod:`.checks`, all importable from here as before.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import AtoutError, IllegalAction, NotationError, PositionError, RecordError
from ..core.game import CHANCE, State
from ..core.options import validate_options
from ..core.registry import game_class
from .checks import DIGEST_PREFIX, HIDDEN, VERSION, Integrity, Move, ReplayError, show
from .jsonform import read_json, write_json
from .text import read_text, write_text

__all__ = [
    "DIGEST_PREFIX",
    "HIDDEN",
    "VERSION",
    "Integrity",
    "Move",
    "Record",
    "ReplayError",
    "load_record",
    "parse_record",
    "save_record",
]


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

    # -- the two forms (.text, .jsonform) -------------------------------------------------
    def to_text(self) -> str:
        return write_text(self)

    @classmethod
    def parse(cls, text: str) -> Record:
        """Read the text form (or the JSON twin, if the text starts with ``{``); :class:`RecordError`
        names the line of any fault."""
        return read_text(cls, text)

    def to_json(self) -> str:
        return write_json(self)

    @classmethod
    def from_json(cls, text: str) -> Record:
        """Read the JSON twin; a fault names the key (``moves[12][0]``) or the line.

        Every value is checked for its type, and texts for what the text form
        can hold (one line), so that either form converts to the other.
        """
        return read_json(cls, text)

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
        raise ReplayError(f"{show(move.text)} is illegal: {exc}", index, move) from None


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
