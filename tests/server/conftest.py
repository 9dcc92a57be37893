"""Fixtures for the web table: an app on a temporary SQLite file, socket helpers,
and ``atout serve`` processes for the browser and crash tests (forked ready: :class:`Zygote`)."""

from __future__ import annotations

import atexit
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, Locator, Page, sync_playwright

# Starlette 1.x suggests httpx2 for its test client; httpx works and is what we ship.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from starlette.testclient import TestClient  # noqa: E402

from atout.core.registry import game_class, names  # noqa: E402
from atout.server import create_app  # noqa: E402
from atout.server.storage import url_for  # noqa: E402

#: Options that make a game short, applied to every game that has them.
SHORT_OPTIONS: dict[str, Any] = {"rounds": 2, "hands": 1, "max_deals": 1, "start_score": 6}


def short_options(game: str) -> dict[str, Any]:
    specs = {s.name for s in game_class(game).option_specs}
    return {k: v for k, v in SHORT_OPTIONS.items() if k in specs}


def game_names() -> list[str]:
    return names()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite3")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    # Whole games are played here as fast as the machine allows (a Malin seat may
    # answer dozens of reaction windows a second): the per-connection rate limit
    # would make them depend on the machine's speed.  It has its own test
    # (test_socket.py::test_rate_limit_per_connection) with its own app.
    with TestClient(create_app(db_path, bot_delay=0, rate=1000.0, burst=1000)) as c:
        yield c


def create_table(
    client: TestClient,
    game: str = "wizard",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    bots: dict[int, str] | None = None,
) -> tuple[str, dict[int, str]]:
    """Create a table (humans everywhere but ``bots``); returns its id and seat keys."""
    cls = game_class(game)
    n = players or cls.min_players
    bots = bots or {}
    seats = [{"name": f"P{i}", "bot": bots.get(i)} for i in range(n)]
    r = client.post(
        "/api/tables",
        json={
            "game": game,
            "players": n,
            "options": short_options(game) if options is None else options,
            "seats": seats,
        },
    )
    assert r.status_code == 200, r.text
    data = r.json()
    return data["table"], {s["seat"]: s["key"] for s in data["seats"]}


def send(ws: Any, data: Any) -> None:
    ws.send_text(data if isinstance(data, str) else json.dumps(data))


def join(ws: Any, key: str) -> dict[str, Any]:
    send(ws, {"type": "join", "key": key})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


#: Where the browser tests leave what a person may look at after a run (the pictures, a stuck page).
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
#: The pictures of the pages the browser tests go through (every lesson step, each whole game's
#: end, the review...) are for a person reviewing a layout or a translation, not checks: each
#: costs a frame drawn and a PNG encoded (0.3 to 1.5 s), some 150 times a run, so they are taken
#: only with ``ATOUT_SCREENSHOTS=1`` in the environment (``ATOUT_SCREENSHOTS=1 ./run test
#: tests/server/test_browser_lesson.py``).  A page a test is stuck on is always kept (stuck.png).
SCREENSHOTS = os.environ.get("ATOUT_SCREENSHOTS", "") not in ("", "0")


def screenshot(target: Page | Locator, name: str, full_page: bool = False) -> None:
    """Save ``target`` (a page, or an element by its locator) as artifacts/``name``, when
    ``ATOUT_SCREENSHOTS`` asks for the pictures (see :data:`SCREENSHOTS`)."""
    if not SCREENSHOTS:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    if isinstance(target, Page):
        target.screenshot(path=str(ARTIFACTS / name), full_page=full_page)
    else:
        target.screenshot(path=str(ARTIFACTS / name))


def server_environment() -> dict[str, str]:
    """The environment a test's server runs in: the test's, its output unbuffered (a failed test's
    report shows its log up to the failure), never the caller's database."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("ATOUT_DATABASE_URL", None)
    return env


class Forked:
    """A server forked by the :class:`Zygote`, handled as ``subprocess.Popen`` handles one (the
    calls the tests make: poll, wait, send_signal, terminate); the zygote reaps it and says how
    it ended."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = Zygote.ask({"reap": self.pid})["status"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"atout serve (pid {self.pid})", timeout or 0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class Zygote:
    """The worker's fork server of ``atout serve`` processes (tests/server/zygote.py): started at
    the first server a worker needs, ended with the worker; it saves each server the start of a
    Python and its imports, about 0.6 s of CPU a server, some 70 a run."""

    proc: subprocess.Popen[str] | None = None

    @classmethod
    def ask(cls, request: dict[str, Any]) -> dict[str, Any]:
        if cls.proc is None or cls.proc.poll() is not None:
            # Run as ``python -c`` runs the real server (its path starts at the working directory).
            cls.proc = subprocess.Popen(
                [sys.executable, "-c", f"import runpy; runpy.run_path({str(ZYGOTE)!r}, run_name='__main__')"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=server_environment(),
            )
            atexit.register(cls.close)
            cls.answer()  # (ready: everything imported)
        assert cls.proc.stdin is not None
        cls.proc.stdin.write(json.dumps(request) + "\n")
        cls.proc.stdin.flush()
        return cls.answer()

    @classmethod
    def answer(cls) -> dict[str, Any]:
        assert cls.proc is not None and cls.proc.stdout is not None
        line = cls.proc.stdout.readline()
        if not line:
            raise RuntimeError("the tests' fork server of atout serve exited (tests/server/zygote.py)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    @classmethod
    def fork(cls, args: list[str], env: dict[str, str], log: str) -> Forked:
        """``atout serve`` with ``args`` in ``env``, its output appended to the file ``log``."""
        return Forked(cls.ask({"argv": args, "env": env, "log": log})["pid"])

    @classmethod
    def close(cls) -> None:
        if cls.proc is not None:
            assert cls.proc.stdin is not None
            cls.proc.stdin.close()
            cls.proc.wait(30)
            cls.proc = None


#: The servers started by the test being run (this process's: each xdist worker has its own).
SERVERS: list[Server] = []
#: How much of a server's log a failure report shows (its end); the whole log goes to artifacts/.
LOG_TAIL = 12_000
SERVER_LOGS = ARTIFACTS / "server-logs"
#: Every server started as a new process, none forked (``ATOUT_TEST_REAL_SERVERS=1``: to compare,
#: or to run one under a profiler).
REAL_SERVERS = os.environ.get("ATOUT_TEST_REAL_SERVERS", "") not in ("", "0")
#: The fork server's script (see :class:`Zygote`).
ZYGOTE = Path(__file__).resolve().parent / "zygote.py"


class Server:
    """``atout serve`` in a subprocess on a loopback port (restartable on the same port): forked
    ready from the worker's :class:`Zygote`, or, ``real``, started as a new Python process.

    It logs at ``log_level`` (debug: every socket's messages and every stored move, with the
    time), into a file beside its database; a failed test's report ends with that log's tail,
    and the whole log is kept under artifacts/server-logs/ (pytest_runtest_makereport below).
    """

    def __init__(
        self,
        db: str,
        bot_delay: float = 0.0,
        deal_seed: int | None = None,
        review_playouts: int | None = None,
        log_level: str = "debug",
        real: bool = False,
        bot_workers: int | None = None,
    ) -> None:
        self.db = db
        self.real = real
        self.bot_delay = bot_delay
        self.deal_seed = deal_seed
        self.review_playouts = review_playouts
        self.log_level = log_level
        self.bot_workers = bot_workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | Forked | None = None
        self.log = db + ".log"
        SERVERS.append(self)

    def start(self) -> None:
        """Start the process and wait until it listens."""
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the process without waiting for it (:meth:`wait_ready` does): forked from the
        worker's :class:`Zygote`, or ``real``, a new Python running the command."""
        args = [
            "serve", "--db", self.db, "--port", str(self.port), "--bot-delay", str(self.bot_delay),
            "--log-level", self.log_level,
        ]  # fmt: skip
        if self.deal_seed is not None:
            args += ["--deal-seed", str(self.deal_seed)]
        if self.review_playouts is not None:
            args += ["--review-playouts", str(self.review_playouts)]
        if self.bot_workers is not None:
            args += ["--bot-workers", str(self.bot_workers)]
        env = server_environment()
        if not (self.real or REAL_SERVERS):
            self.proc = Zygote.fork(args, env, self.log)
            return
        # The server's output goes to a file: a pipe nobody reads could fill up and block it.
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from atout.cli.main import app; app()", *args],
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
            )

    def wait_ready(self) -> None:
        """Wait until the launched process accepts connections on its port and has said its URL.

        One that does not (on a machine so loaded that 30 s were not enough) is stopped: left
        running, unwatched, its table's bots played on for the rest of the run."""
        try:
            self.await_listening()
        except BaseException:
            self.stop()
            raise

    def await_listening(self) -> None:
        assert self.proc is not None, "launch() first"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.output()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError(f"the server did not start: {self.output()}")
        assert f"http://127.0.0.1:{self.port}/" in self.output()

    def create_table(self, **body: Any) -> dict[str, Any]:
        """``POST /api/tables`` with ``body``'s fields: the new table's answer (a refusal fails the test)."""
        r = httpx.post(f"{self.url}/api/tables", json=body)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer

    def output(self) -> str:
        return Path(self.log).read_text(errors="replace") if Path(self.log).exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


class Spares:
    """The next test's ``server``, started while the current test runs.

    A served table takes time to start, about 70 times a run (a second or more as a new Python;
    forked by the :class:`Zygote`, still the app, the database's tables, uvicorn); the browser
    tests that use it mostly wait (on the page, the bots' pace), so starting the next one's
    server meanwhile takes that wait off every test but the first.  Each test still gets a server of its own, fresh: its own
    process and database, its deals the same fixed sequence from the first table on.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.count = 0
        self.next: Server | None = None

    def new(self) -> Server:
        self.count += 1
        folder = self.directory / f"served-{self.count}"
        folder.mkdir()
        srv = Server(
            str(folder / "served.sqlite3"), bot_delay=0.05, deal_seed=2026, review_playouts=10, bot_workers=0
        )
        SERVERS.remove(srv)  # the test it goes to registers it (see take), not the running one
        srv.launch()
        return srv

    def take(self) -> Server:
        """A started server (this test's), and the next one launched."""
        srv = self.next or self.new()
        self.next = self.new()
        SERVERS.append(srv)
        srv.wait_ready()
        return srv

    def close(self) -> None:
        if self.next is not None:
            self.next.stop()


@pytest.fixture(scope="session")
def spare_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Spares]:
    spares = Spares(tmp_path_factory.mktemp("servers"))
    yield spares
    spares.close()


@pytest.fixture
def server(spare_servers: Spares) -> Iterator[Server]:
    """A served table for the browser tests: its deals drawn from a fixed seed (a failure
    replays with the same cards), the least review and hint budget ``atout serve`` takes (10
    playouts a decision: the pages are checked, not the advice, which tests/server/test_review.py
    checks; a whole game's review is then a quarter of the search it was at 40).  Started ahead, while
    the previous test ran (:class:`Spares`).

    Its review and hints search in a thread (``--bot-workers 0``): its tables' bots are cheap
    ones (threads anyway), and a worker process of the bot pool is a new Python spawned and
    importing the engine, started at a test's first hint and again at its review (the review
    has a pool of its own), some 5 to 10 s of a whole game's wall on the loaded machine for a
    search of a second.  The pool itself is tests/server/test_botpool.py's."""
    srv = spare_servers.take()
    yield srv
    srv.stop()


@pytest.fixture
def servers(spare_servers: Spares) -> Iterator[Callable[[], Server]]:
    """Servers as :func:`server` gives, one a call, for a test that plays several cases at once
    (:func:`play_together`): each case on a server of its own sees the deals it saw alone (the
    fixed seed's first table), not the next table's."""
    taken: list[Server] = []

    def take() -> Server:
        taken.append(spare_servers.take())
        return taken[-1]

    yield take
    for srv in taken:
        srv.stop()


#: The Chromium the browser tests drive (Playwright cannot download browsers here: .ci/run
#: installs Debian's with apt).  Debian's ``chromium-headless-shell`` first: Chromium's own
#: headless build from the same source and version as its ``chromium`` (the same Blink, layout,
#: fonts and scripts; the build Playwright itself runs for headless tests), without the desktop
#: browser's user interface, which the full binary's headless mode keeps running.  Measured on
#: the 2-core machine (issue 48 item 4): every browser test (``-n 3``) made Chromium use 453 s of
#: CPU with the full binary, 284 s with the shell, their wall 312 -> 221 s; Chromium had been 530
#: of ``./run test``'s 1,140 core-seconds.  The full ``chromium`` where only it is installed; the gallery
#: (scripts/gallery.py), which takes pictures for people, keeps the full browser.
CHROMIUM = next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.exists(path)),
    "/usr/bin/chromium",
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Chromium:
    """The worker's one Chromium, shared by the browser tests it runs one after another: each test
    opens contexts of its own (their cookies, storage and pages), so the tests share the process
    only, and the launch (a second or two) is paid once a run of browser tests, not once a test.
    Closed before a test that does not use it: while Playwright's sync API lives it keeps an
    asyncio loop running in this thread, and a later test's ``asyncio.run()`` is refused ("cannot
    be called from a running event loop": the bot pool's and the password hashes' tests)."""

    playwright: Any = None
    browser: Browser | None = None

    @classmethod
    def get(cls) -> Browser:
        if cls.browser is None:
            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        return cls.browser

    @classmethod
    def close(cls) -> None:
        if cls.browser is not None:
            cls.browser.close()
            cls.playwright.stop()
            cls.browser = cls.playwright = None


@pytest.fixture
def browser() -> Browser:
    """The worker's Chromium (see :class:`Chromium`)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium-headless-shell (.ci/run does)")
    return Chromium.get()


def play_together(walks: dict[str, Iterator[None]]) -> None:
    """Run the ``walks`` (generators, each a page's walk through a game, named) in turns until
    all are done: each yields where its page waits on the table (its move made, the bots' turn),
    and while one waits for its table, the others' tables play on, in the same Chromium.  Cases
    that mostly wait (the bots' pace, a trick held, a lesson's steps) then take about the time of
    the longest, not their sum: "browser tests batched" (issue 48 item 4).

    Every check of each walk is made as it would be alone; a failure names its walk (a note on
    the error, shown under it) and ends the others."""
    running = dict(walks)
    while running:
        for name, walk in list(running.items()):
            try:
                next(walk)
            except StopIteration:
                del running[name]
            except BaseException as exc:
                exc.add_note(f"(in {name})")
                raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """Close the shared Chromium once the next test is not a browser test (or none is left),
    after this test's own fixtures (its contexts and pages) are closed."""
    try:
        return (yield)
    finally:
        if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
            Chromium.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The fork server ends with the worker's run, reaped by it: its servers' CPU time counts in
    the run's (bench/suite_time.py)."""
    Zygote.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    SERVERS.clear()  # (before the test's fixtures start theirs)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed test's report shows the end of each server's log (its warnings, tracebacks and,
    at debug, the moves it received and stored), and keeps the whole log under artifacts/:
    a browser test that failed once in CI ("a click went unanswered") is then read against what
    the server heard."""
    report = yield
    if report.failed and SERVERS:
        SERVER_LOGS.mkdir(parents=True, exist_ok=True)
        for i, srv in enumerate(SERVERS):
            text = srv.output()
            name = "".join(c if c.isalnum() or c in "-_." else "_" for c in item.nodeid)[-150:]
            kept = SERVER_LOGS / f"{name}-{report.when}-{i}.log"
            kept.write_text(text, encoding="utf-8")
            report.sections.append(
                (f"atout serve log ({srv.url}, the end; all of it in {kept})", text[-LOG_TAIL:])
            )
    return report


@contextmanager
def private_schema(base: str) -> Iterator[str]:
    """A fresh schema in the PostgreSQL database ``base``, dropped afterwards; yields its URL.

    The URL sets ``search_path`` through libpq's ``options``, so every connection (and
    every ``atout serve`` process given it) works in the schema alone.
    """
    schema = f"atout_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(url_for(base))
    with admin.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
