"""``atout accounts``: the operator's view of the server's optional accounts.

``list``, ``rename``, ``delete`` and ``reset-password``, on the database ``atout
serve`` uses (``--db``, else ``ATOUT_DATABASE_URL``, else ``~/.atout/tables.sqlite3``).
Why a command and no admin page: an operator already has the machine; a web page
that can delete accounts would be one more thing a stranger could try to reach.
A password is asked for at the terminal (never on the command line, which other
users of the machine may see in the process list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape as escape_markup
from rich.table import Table

from .output import fail, needs, out

if TYPE_CHECKING:
    from ..server.storage import Storage
    from ..server.tables import TableError

accounts = typer.Typer(
    help="The web server's optional accounts: list, rename, delete, reset a password.",
    no_args_is_help=True,
)

DbOpt = Annotated[
    str | None,
    typer.Option(help="Database: a SQLite file path or a SQLAlchemy URL (default: as atout serve)."),
]


def _server() -> tuple[Any, type[TableError]]:
    """The server's account store and its refusal, imported when a command runs (they need the
    ``web`` extra, which ``atout --help`` must not)."""
    with needs("web", "accounts"):
        from ..server import accounts as store
        from ..server.tables import TableError as refused
    return store, refused


def _storage(db: str | None) -> Storage:
    store, _ = _server()
    from ..server.storage import Storage, default_url

    storage = Storage(db or default_url())
    store.ensure_tables(storage)
    return storage


@accounts.command("list")
def list_accounts(db: DbOpt = None) -> None:
    """Every account: its name, when it was made, its privacy and how many seats it owns."""
    store, _ = _server()
    storage = _storage(db)
    try:
        rows = store.all_accounts(storage)
    finally:
        storage.close()
    table = Table("name", "created", "public", "leaderboard", "seats")
    for account, seats in rows:
        table.add_row(
            # Names are the players' text: printed as written, never as rich markup.
            escape_markup(account.name),
            account.created.strftime("%Y-%m-%d"),
            "yes" if account.public else "no",
            "yes" if account.leaderboard else "no",
            str(seats),
        )
    out.print(table)
    out.print(f"{len(rows)} account(s)")


@accounts.command()
def rename(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    new_name: Annotated[str, typer.Argument(help="Its new name.")],
    db: DbOpt = None,
) -> None:
    """Rename an account (the games it played keep the names they were played under)."""
    store, refused = _server()
    storage = _storage(db)
    try:
        account = store.rename(storage, name, new_name)
    except refused as exc:
        raise fail(str(exc.message)) from None
    finally:
        storage.close()
    out.print(f"renamed to {escape_markup(account.name)}")


@accounts.command()
def delete(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask for confirmation.")] = False,
    db: DbOpt = None,
) -> None:
    """Delete an account: its seats in the stored games become "former player"; records stay replayable."""
    if not yes:
        typer.confirm(f"Delete the account {name!r}?", abort=True)
    store, refused = _server()
    storage = _storage(db)
    try:
        seats = store.delete_account(storage, name)
    except refused as exc:
        raise fail(str(exc.message)) from None
    finally:
        storage.close()
    out.print(f"deleted; {seats} seat(s) renamed to {store.FORMER_PLAYER!r}")


@accounts.command("reset-password")
def reset_password(
    name: Annotated[str, typer.Argument(help="The account's name (any case).")],
    password: Annotated[
        str, typer.Option(prompt="New password", hide_input=True, confirmation_prompt=True, help="Asked for.")
    ],
    db: DbOpt = None,
) -> None:
    """Give an account a new password; every session of it ends."""
    store, refused = _server()
    storage = _storage(db)
    try:
        store.reset_password(storage, name, password)
    except refused as exc:
        raise fail(str(exc.message)) from None
    finally:
        storage.close()
    out.print("password changed; the account's sessions are ended")
