"""What several commands share: the game argument and options, and loading the game they name.

Its own module so that the sub-commands in :mod:`.serve` and :mod:`.tournament`
need not import :mod:`.main`, which registers them (no import cycle).
"""

from __future__ import annotations

from typing import Annotated

import typer

from ..core.errors import AtoutError, OptionError
from ..core.game import Game
from ..core.options import parse_option_pairs
from ..core.registry import game_class, load
from .output import fail


def escape(text: str) -> str:
    return text.replace("[", "\\[")


def load_game(
    game: str, players: int | None, options: list[str] | None, extra: list[str] | None = None
) -> Game:
    try:
        cls = game_class(game)
        default = cls.min_players + (1 if cls.max_players > cls.min_players else 0)
        given = {**parse_option_pairs(options or []), **flag_options(extra or [])}
        return load(game, players if players is not None else default, **given)
    except AtoutError as exc:
        raise fail(str(exc)) from None


def flag_options(args: list[str]) -> dict[str, str]:
    """Game options written as flags: ``--fun``, ``--rounds 3``, ``--bids=hidden_until_play``.

    Every option of every game is reachable this way without the command line
    knowing any game: the game validates the names and values.
    """
    out: dict[str, str] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) == 2:
            raise OptionError(f"unexpected argument {arg!r}")
        name, sep, value = arg[2:].partition("=")
        if not sep:
            if i + 1 < len(args) and not args[i + 1].startswith("--"):
                value = args[i + 1]
                i += 1
            elif name.startswith("no-"):
                name, value = name[3:], "false"
            else:
                value = "true"
        out[name.replace("-", "_")] = value
        i += 1
    return out


GameArg = Annotated[str, typer.Argument(help="Game: wizard, malin, sticheln or nain-jaune.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Number of seats.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option name=value (repeatable); see 'atout games'."),
]
