"""The command line's consoles, exit codes, error line and progress line, apart from the commands.

Why a module of its own: the commands live in several modules (main, serve,
serve-bot, tournament); those that need only these can import them without
importing the whole command set (no import cycle).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

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
#: A command whose optional extra is not installed (:func:`needs`).
EXIT_MISSING_EXTRA = 1
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


@contextmanager
def needs(extra: str, command: str) -> Iterator[None]:
    """Imports a command needs, made when it runs: a library of an optional extra that is not
    installed ends the command with one line naming the ``pip install`` that brings it.

    Why here and not at the top of each module: ``atout --help`` and every other command must
    start whatever extras are installed (a researcher's venv has no web server, a player's no
    PyTorch).  Only a third-party module is meant: a missing module of atout's own is a bug,
    and its traceback is kept.
    """
    try:
        yield
    except ImportError as exc:
        missing = (exc.name or "").split(".")[0]
        if not missing or missing == "atout":
            raise
        raise fail(
            f"atout {command} needs {missing}, which is not installed: pip install 'atout[{extra}]'",
            EXIT_MISSING_EXTRA,
        ) from None


def require(extra: str, command: str, *modules: str) -> None:
    """:func:`needs` for libraries a command imports later, deep in its work (the tournament's
    ratings after its matches): whether they are installed, asked before anything is done,
    without importing them here."""
    with needs(extra, command):
        for module in modules:
            if importlib.util.find_spec(module) is None:
                raise ModuleNotFoundError(f"No module named {module!r}", name=module)
