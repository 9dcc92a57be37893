"""``atout serve``: the browser table on this machine.

Defaults are the embedded ones a player wants: a SQLite file under
``~/.atout`` (or ``ATOUT_DATABASE_URL``), 127.0.0.1, a free port, the URL
printed so it can be opened (or shared on a LAN with ``--host 0.0.0.0``).
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from .main import app
from .output import fail


def free_port(host: str) -> int:
    """A port the OS says is free on ``host`` now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


@app.command()
def serve(
    db: Annotated[
        str | None,
        typer.Option(
            help="Database: a SQLite file path or a SQLAlchemy URL (default: ATOUT_DATABASE_URL or ~/.atout/tables.sqlite3)."
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: a free one).", min=0, max=65535)] = 0,
    bot_delay: Annotated[
        float,
        typer.Option(
            help="Seconds a bot waits before each move at a table of normal pace (slow tables wait 1.875x, fast 0.375x).",
            min=0,
        ),
    ] = 0.8,
    allow_bot: Annotated[
        list[str] | None,
        typer.Option(
            help="A bot of yours tables may seat besides the built-in ones (repeatable): "
            "py:MODULE:NAME or cmd:<program>. Web users pick among these names only.",
        ),
    ] = None,
) -> None:
    """Serve the browser table: create tables, invite friends, play against bots."""
    try:
        import uvicorn

        from ..server import create_app
    except ImportError as exc:  # pragma: no cover - the web extra is missing
        raise fail(f"the web table needs the 'web' extra: pip install 'atout[web]' ({exc})") from None
    if db is not None and "://" not in db:
        Path(db).expanduser().parent.mkdir(parents=True, exist_ok=True)
        db = str(Path(db).expanduser())
    from ..core.errors import AtoutError
    from ..server.tables import check_allowed_bots

    try:
        allowed = check_allowed_bots(allow_bot or [])
    except AtoutError as exc:
        raise fail(str(exc)) from None
    try:
        chosen = port or free_port(host)
        application = create_app(db, bot_delay=bot_delay, allowed_bots=allowed)
    except OSError as exc:
        raise fail(f"cannot listen on {host}: {exc}") from None
    except Exception as exc:
        raise fail(f"cannot open the database: {exc}") from None
    shown = f"[{host}]" if ":" in host else host
    print(f"atout web table: http://{shown}:{chosen}/  (Ctrl-C to stop)", flush=True)
    uvicorn.run(application, host=host, port=chosen, log_level="warning", ws_max_size=16384)
