"""``atout serve-bot SPEC``: a Python bot on standard input and output, as a ``cmd:`` program.

``--bots "cmd:atout serve-bot mymod:MyBot"`` plays the Python class
``mymod.MyBot`` through the JSON-lines protocol (docs/bots.md), in a process of
its own: the way to enter a bot in a tournament from another environment, or
to test the protocol end to end.  Registered on the main app by one import
line at the bottom of ``main.py``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..bots.factory import make_bot
from ..bots.jsonlines import serve_jsonlines
from ..bots.loader import PREFIX, load_py_bot, resolve
from ..core.bot import Bot
from ..core.errors import AtoutError
from ..core.game import Game
from .output import fail

#: Bot names with a colon that are not import paths.
_BUILT_IN_PREFIXES = ("search:", "cmd:")


def py_spec(spec: str) -> str | None:
    """``spec`` as a ``py:`` name when it is an import path (``mymod:MyBot``), else None (a built-in name)."""
    spec = spec.strip()
    if spec.startswith(PREFIX):
        return spec
    if ":" in spec and not spec.startswith(_BUILT_IN_PREFIXES):
        return PREFIX + spec
    return None


def serve_bot(
    spec: Annotated[
        str,
        typer.Argument(
            help="The bot: MODULE:NAME or path/to/file.py:NAME (an atout.Bot subclass or a view -> action "
            "function), or any bot name ('hard', 'heuristic')."
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="Seed of the bot (each match's start message reseeds it).")
    ] = None,
) -> None:
    """Serve a bot over JSON lines on stdin/stdout: give 'cmd:atout serve-bot SPEC' as a bot name."""
    path = py_spec(spec)
    if path is not None:
        try:
            resolve(path)  # a wrong path fails now, before any match
            bot: Bot = load_py_bot(path, seed)
        except AtoutError as exc:
            raise fail(str(exc)) from None
        serve_jsonlines(bot)
        return
    name = spec.strip()

    def build(game: Game, match_seed: int | None) -> Bot:
        return make_bot(name, game, seed if match_seed is None else match_seed)

    serve_jsonlines(build)
