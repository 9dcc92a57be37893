"""The command line's consoles, exit codes and error line, apart from the commands.

Why a module of its own: the commands live in several modules (main, serve,
serve-bot, tournament); those that need only these can import them without
importing the whole command set (no import cycle).
"""

from __future__ import annotations

import typer
from rich.console import Console

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

EXIT_BAD_INPUT = 2
EXIT_ILLEGAL = 3
#: ``atout play`` stopped by Ctrl-C (128 + SIGINT, as shells report it); the game is saved.
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    # The message quotes what the user gave (a record's line, a file name): it is
    # printed without markup nor emoji codes, so a '[/b]' in it shows as written
    # instead of raising rich's MarkupError.
    err.print("[bold red]error:[/]", end=" ")
    err.print(message, markup=False, emoji=False, soft_wrap=True)
    return typer.Exit(code)
