"""Errors raised by the rules engines and the tools around them.

Every error carries a sentence meant for a human (a player at the table, a bot
author reading a log), because the mission is that a refused move *explains*
itself.  Callers that need structure get it from the attributes.
"""

from __future__ import annotations

from .reason import Reason


class AtoutError(Exception):
    """Base class of every error atout raises on purpose (never a bug).

    Raised with a :class:`~atout.core.reason.Reason` (``NotationError(reason(...))``),
    the error is that reason in the engine's English (``str(error)``) and keeps it
    as data in ``why``, so that a table renders it in its reader's language; raised
    with a text (a tool's message meant for its log), ``why`` is ``None``.
    """

    why: Reason | None = None

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], Reason):
            self.why = args[0]
            args = (str(args[0]),)
        super().__init__(*args)


class Explained(ValueError):
    """A ValueError whose message is data: what a card or notation reader raises.

    ``why`` is the reason (a key and parameters), ``str`` its English; the action
    space wraps it in a :class:`NotationError` with the text read
    (``'bid 9': a bid is 0..3``), and any other caller sees the plain ValueError it
    always saw.
    """

    def __init__(self, why: Reason) -> None:
        super().__init__(str(why))
        self.why = why


class IllegalAction(AtoutError):
    """An action that the rules forbid here.

    Raised *before* anything changes: the state is exactly as it was.
    ``reason`` is the rule broken, in the engine's English words ("you must follow
    blue: you hold B3, B11"); ``why`` is the same as data (a key and parameters,
    :class:`~atout.core.reason.Reason`) when the rules engine refused, for a reader
    who wants it in another language, else ``None``.
    """

    def __init__(self, reason: str | Reason, action: int | str | None = None) -> None:
        text = str(reason)
        super().__init__(text)
        self.reason = text
        self.why = None if isinstance(reason, str) else reason
        self.action = action


class NotationError(AtoutError, ValueError):
    """A text that is not an action in the game's notation."""


class PositionError(NotationError):
    """A position text (``game.new_state(position=...)``) that is malformed or impossible.

    ``field`` names the part of the position at fault (``"hands"``, ``"bids"``...),
    or is ``None`` for the text as a whole; the message says what is wrong there.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        self.message = message
        super().__init__(f"position, {field}: {message}" if field is not None else f"position: {message}")


class OptionError(AtoutError, ValueError):
    """An unknown option, or a value outside an option's allowed values."""


class UnknownGame(AtoutError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class RecordError(AtoutError, ValueError):
    """A game record that cannot be read: names what is wrong and where (file, line).

    ``message``, ``line`` and ``path`` stay separate attributes so that a tool
    can report them as structured data (``atout replay --json``) as well as in
    the one sentence ``str(error)`` gives.
    """

    def __init__(self, message: str, line: int | None = None, path: str | None = None) -> None:
        self.line = line
        self.message = message
        self.path = path
        text = f"line {line}: {message}" if line is not None else message
        super().__init__(f"{path}: {text}" if path is not None else text)


class ViewError(AtoutError, ValueError):
    """A view dict (``View.from_dict``) that is not what a view of this game writes.

    ``path`` is where the fault is (``"view.tricks[2].cards[0][1]"``); the message
    says what is wrong there.
    """

    def __init__(self, message: str, path: str | None = None) -> None:
        self.path = path
        super().__init__(message)
