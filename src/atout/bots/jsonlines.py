"""The bot's end of the JSON-lines protocol: a Python bot served to any atout (docs/bots.md).

:class:`~atout.bots.external.ExternalBot` is atout's end: it starts a program
and writes ``start`` and ``act`` messages to it.  :func:`serve_jsonlines` is the
program: it reads those messages, rebuilds the real game (``atout.load`` from
the ``start`` message) and the real view (:meth:`atout.View.from_dict`), asks a
Python :class:`~atout.Bot`, and answers the action's id.  So a bot written
against the Python API plays, unchanged, wherever a ``cmd:`` program is
accepted — in another process, another virtual environment, another machine
over ssh: ``cmd:atout serve-bot mymod:MyBot``.

A message it cannot read, or a bot that raises, is answered
``{"error": "..."}`` (the match is then stopped with that reason, which names
the fault) and the server goes on reading: the next match may be fine.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from ..core.bot import Bot
from ..core.errors import AtoutError
from ..core.game import Game, View
from ..core.registry import load
from .external import PROTOCOL


class ProtocolError(AtoutError):
    """A message that is not what atout sends."""


def serve_jsonlines(
    bot: Bot | Callable[[Game, int | None], Bot],
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
) -> int:
    """Play ``bot`` over JSON lines until ``stdin`` ends; returns the number of decisions answered.

    ``bot`` is a bot, or a factory ``(game, seed) -> bot`` called at each
    ``start`` whose game differs from the last one (for bots that need the game
    to be built, such as atout's own levels).  At each ``start`` the bot's
    ``rng`` is seeded from the message's ``seed`` when it has one.
    """
    reader = sys.stdin if stdin is None else stdin
    writer = sys.stdout if stdout is None else stdout
    make = None if isinstance(bot, Bot) else bot
    current: Bot | None = bot if isinstance(bot, Bot) else None
    game: Game | None = None
    answered = 0

    def send(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message) + "\n")
        writer.flush()

    #: Why the last ``start`` failed: the answer to the next ``act`` (one answer per ``act``).
    refused: str | None = None
    for number, line in enumerate(reader, 1):
        if not line.strip():
            continue
        try:
            message = _read(line, number)
            if message["type"] == "start":
                previous, refused, game = game, None, None
                try:
                    game, current = _start(message, number, previous, current, make)
                except Exception as exc:
                    refused = _reason(exc)
            elif message["type"] == "act":
                if refused is not None:
                    raise ProtocolError(refused)
                if game is None or current is None:
                    raise ProtocolError(f"line {number}: 'act' before any 'start'")
                view = View.from_dict(_field(message, "view", dict, number), game)
                action = current.choose(view)
                if isinstance(action, bool) or not isinstance(action, int):
                    raise ProtocolError(f"the bot answered {action!r:.60}, not an action id")
                send({"action": action})
                answered += 1
            # Other message types are for newer bots: ignored, as the protocol asks.
        except Exception as exc:
            send({"error": _reason(exc)})
    if current is not None:
        current.close()
    return answered


def _reason(exc: Exception) -> str:
    return str(exc) if isinstance(exc, AtoutError) else f"{type(exc).__name__}: {exc}"


def _read(line: str, number: int) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"line {number}: not JSON ({exc.msg})") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError(f"line {number}: a message is an object with a 'type'")
    return message


def _field(message: dict[str, Any], key: str, kind: type, number: int) -> Any:
    value = message.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ProtocolError(f"line {number}: {message['type']!r} needs {key!r} as {kind.__name__}")
    return value


def _start(
    message: dict[str, Any],
    number: int,
    game: Game | None,
    current: Bot | None,
    make: Callable[[Game, int | None], Bot] | None,
) -> tuple[Game, Bot]:
    protocol = message.get("protocol", PROTOCOL)
    if protocol != PROTOCOL:
        raise ProtocolError(f"line {number}: protocol {protocol!r}; this server speaks {PROTOCOL}")
    name = _field(message, "game", str, number)
    players = _field(message, "players", int, number)
    options = message.get("options") or {}
    if not isinstance(options, dict):
        raise ProtocolError(f"line {number}: 'options' must be an object")
    seat = _field(message, "seat", int, number)
    seed = message.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ProtocolError(f"line {number}: 'seed' must be an integer")
    new = load(name, players, **options)
    if make is not None and (current is None or new != game):
        if current is not None:
            current.close()
        current = make(new, seed)
    assert current is not None
    if seed is not None:
        current.rng.seed(seed)
    current.start(new, seat)
    return new, current


__all__ = ["ProtocolError", "serve_jsonlines"]
