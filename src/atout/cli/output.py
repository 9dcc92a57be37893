"""The command line's consoles, exit codes, error line and progress line, apart from the commands.

Why a module of its own: the commands live in several modules (main, serve,
serve-bot, tournament); those that need only these can import them without
importing the whole command set (no import cycle).
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

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


def progress_bar(
    *,
    count: bool = False,
    timed: bool = True,
    remaining: bool = False,
    note: str = "",
    console: Console | None = None,
    quiet: bool = False,
) -> Progress:
    """The long commands' progress line, one look for all: the task's name in bold, a bar,
    then ``count`` (done / total), ``timed`` (percent and time spent), ``remaining`` (time
    left) and ``note`` (the task's field of that name, the command's own words).

    ``console``: where it is drawn (rich's default console when None); on ``err`` it is
    shown only when that is a terminal, and never when ``quiet``.
    """
    columns: list[ProgressColumn] = [TextColumn("[bold]{task.description}"), BarColumn()]
    if count:
        columns.append(MofNCompleteColumn())
    if timed:
        columns += [TaskProgressColumn(), TimeElapsedColumn()]
    if remaining:
        columns.append(TimeRemainingColumn())
    if note:
        columns.append(TextColumn(f"{{task.fields[{note}]}}"))
    if console is None:
        return Progress(*columns, disable=quiet)
    return Progress(*columns, console=console, disable=quiet or not console.is_terminal)
