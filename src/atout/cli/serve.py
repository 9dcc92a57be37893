"""``atout serve``: the browser table on this machine.

Defaults are the embedded ones a player wants: a SQLite file under
``~/.atout`` (or ``ATOUT_DATABASE_URL``), 127.0.0.1, a free port, the URL
printed so it can be opened (or shared on a LAN with ``--host 0.0.0.0``).
"""

from __future__ import annotations

import copy
import gc
import socket
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..bots.review import REVIEW_PLAYOUTS
from .output import fail, needs


def free_port(host: str) -> int:
    """A port the OS says is free on ``host`` now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


class LogLevel(StrEnum):
    """What the server writes to stderr: its warnings (a dropped socket, a failed bot), its
    notices too (and each HTTP request), or every socket's messages and every stored move (for
    tests and debugging; never a seat's key, so uvicorn's frames are not logged)."""

    warning = "warning"
    info = "info"
    debug = "debug"


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging set-up, plus atout's own loggers at ``level`` with the time and the
    logger's name on each line (so that a test's failure can be read against the server's log)."""
    import uvicorn.config

    config: dict[str, Any] = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["formatters"]["atout"] = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    config["handlers"]["atout"] = {
        "class": "logging.StreamHandler",
        "formatter": "atout",
        "stream": "ext://sys.stderr",
    }
    config["loggers"]["atout"] = {"handlers": ["atout"], "level": level.upper(), "propagate": False}
    return config


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
    bot_workers: Annotated[
        int | None,
        typer.Option(
            help="Worker processes for the search bots (hard, expert); 0: think in threads (default: cores - 1, at least 1).",
            min=0,
            max=64,
        ),
    ] = None,
    max_live_tables: Annotated[
        int, typer.Option(help="Unfinished tables this process holds at most.", min=1)
    ] = 500,
    tables_per_minute: Annotated[
        float,
        typer.Option(help="Tables one client address may create per minute (after a burst of 10).", min=0),
    ] = 6.0,
    http_rate: Annotated[
        float,
        typer.Option(help="Requests per second one client address may make (after a burst of 200).", min=0),
    ] = 20.0,
    sockets_per_client: Annotated[
        int, typer.Option(help="Sockets one client address may hold open at once.", min=1)
    ] = 64,
    review_playouts: Annotated[
        int,
        typer.Option(
            help="Playouts the search spends on each decision of a game review and on each hint "
            "(fewer: weaker advice, sooner, on a slow machine).",
            min=10,
            max=5000,
        ),
    ] = REVIEW_PLAYOUTS,
    deal_seed: Annotated[
        int | None,
        typer.Option(
            help="Draw the deals from this seed (the n-th table created always gets the same one) "
            "instead of the system's randomness. For tests and demonstrations only: whoever knows "
            "the seed knows every hand.",
            min=0,
        ),
    ] = None,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            help="Reverse proxies trusted for X-Forwarded-For (the client address the limits use); comma-separated."
        ),
    ] = "127.0.0.1",
    log_level: Annotated[
        LogLevel,
        typer.Option(
            help="What the server logs on stderr: warnings, notices too (info), or every socket's "
            "messages and every stored move (debug)."
        ),
    ] = LogLevel.warning,
) -> None:
    """Serve the browser table: create tables, invite friends, play against bots.

    Several processes may serve one PostgreSQL database (docs/deploy.md): any of
    them serves any table, and the bots of each table are driven by one of them.
    """
    with needs("web", "serve"):
        import uvicorn

        from ..server import create_app
        from ..server.botpool import default_workers
        from ..server.limits import Limits
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
        limits = Limits(
            bot_workers=default_workers() if bot_workers is None else bot_workers,
            max_live_tables=max_live_tables,
            create_per_minute=tables_per_minute,
            http_rate=http_rate,
            max_sockets=sockets_per_client,
            review_playouts=review_playouts,
        )
        application = create_app(
            db, bot_delay=bot_delay, limits=limits, allowed_bots=allowed, deal_seed=deal_seed
        )
    except OSError as exc:
        raise fail(f"cannot listen on {host}: {exc}") from None
    except Exception as exc:
        raise fail(f"cannot open the database: {exc}") from None
    shown = f"[{host}]" if ":" in host else host
    print(f"atout web table: http://{shown}:{chosen}/  (Ctrl-C to stop)", flush=True)
    # Everything made so far (the modules, the games' tables, the app: about 110,000
    # objects) lives as long as the process.  Frozen, it is no longer walked by each full
    # garbage collection, which otherwise held the event loop 30-100 ms of CPU a few
    # times a minute on a server of a hundred tables: every move in flight waited.
    gc.collect()
    gc.freeze()
    uvicorn.run(
        application,
        host=host,
        port=chosen,
        # uvicorn's own debug lines would show each frame, a join's key among them: never.
        log_level="info" if log_level is LogLevel.debug else log_level.value,
        log_config=log_config(log_level.value),
        ws_max_size=16384,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
    )
