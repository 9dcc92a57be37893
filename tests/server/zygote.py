"""A fork server for the tests' ``atout serve`` processes (issue 48 item 4): run as a script, once
per test worker, it imports what ``atout serve`` imports, then forks a ready server for each
request instead of the test starting a new Python that imports it all again.

A served table's start-up was about 0.7 s of CPU, about 70 times a run: the interpreter, then the
imports (Typer, Starlette, SQLAlchemy, uvicorn, the engine, the bots, the pages' dictionaries),
most of it; creating the app and its database is a tenth of it.  A fork here starts at the
command itself: ``app()``, the same Typer command line with the same arguments as the real
process runs, from a process that has imported the same modules and done nothing else (no
thread, no socket, no database: a fork inherits none of them).  The environment is the
test's at the time of the request (``ATOUT_CLOCK_SCALE`` and the like are read when the app is
made, not at import).  ``random`` reseeds itself in a forked child; the seats' keys come from
``secrets`` (the system's randomness).  tests/server/test_serve_process.py keeps starting the real
command, as a player does.

The protocol, one JSON object a line: the test process writes ``{"argv": [...], "env": {...},
"log": path}``, the zygote answers ``{"pid": n}``, the child's output going to ``log``; or
``{"reap": n}``, answered ``{"status": code}`` once child ``n`` has exited (a negative code: the
signal that ended it, as subprocess says), ``{"status": null}`` while it runs.  Its children
are the zygote's: it reaps them, so their CPU time counts in the test run's (``wait4``).
End of input: the zygote exits (its children, if any still run, are the test's to stop).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import types
from typing import Any


def preload() -> None:
    """Import what ``atout serve`` imports (cli/serve.py), so that a fork has nothing left to load."""
    import uvicorn.config
    import uvicorn.lifespan.on
    import uvicorn.loops.auto
    import uvicorn.protocols.http.auto
    import uvicorn.protocols.websockets.auto  # noqa: F401

    import atout.cli.main
    import atout.server
    import atout.server.botpool
    import atout.server.limits  # noqa: F401
    from atout.core.registry import names

    names()  # the games' modules, which the app imports as it starts (the registry's cache only)
    # What the command imports as it runs (seen with PYTHONPROFILEIMPORTTIME=1 in a forked
    # server's log): Typer's adapters (pydantic), the database's dialect, the event loop.  Their
    # names are the libraries' own affairs: one that moved is imported by the server as before.
    for name in LATE_IMPORTS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


#: See preload.
LATE_IMPORTS = (
    "typer._adapters",
    "sqlite3",
    "sqlalchemy.dialects.sqlite",
    "sqlalchemy.dialects.sqlite.pysqlite",
    "uvloop",
    "uvicorn.loops.uvloop",
    "anyio._core._sockets",
    "anyio._core._streams",
    "encodings.idna",
)


def child(request: dict[str, Any]) -> None:
    """In the forked child: become ``atout serve`` with the request's arguments; never returns."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        # Unbuffered, as the real process is started (PYTHONUNBUFFERED=1): a failed test's report
        # shows the log up to the moment it failed.
        sys.stdin = open(0, closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["-c", *request["argv"]]
        # The real process's main module is its ``-c`` code, no file: a search bots' worker
        # (spawned, multiprocessing) would otherwise import this script as its main module.
        sys.modules["__main__"] = types.ModuleType("__main__")
        from atout.cli.main import app

        app()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def reap(pid: int) -> dict[int, int]:
    """``{pid: exit code}`` once child ``pid`` has ended, ``{}`` while it runs."""
    try:
        done, status, _ = os.wait4(pid, os.WNOHANG)
    except ChildProcessError:  # not this zygote's (an earlier one's, which died): gone or not
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return {pid: 1}  # (its code went to whoever reaped it)
        return {}
    return {pid: os.waitstatus_to_exitcode(status)} if done else {}


def main() -> None:
    preload()
    statuses: dict[int, int] = {}
    out = sys.stdout
    print(json.dumps({"ready": os.getpid()}), file=out, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if "reap" in request:
            pid = request["reap"]
            if pid not in statuses:
                statuses.update(reap(pid))
            answer: dict[str, Any] = {"status": statuses.get(pid)}
        else:
            pid = os.fork()
            if pid == 0:
                child(request)
            answer = {"pid": pid}
        print(json.dumps(answer), file=out, flush=True)


if __name__ == "__main__":
    main()
