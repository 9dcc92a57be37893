"""Load on the web table: many concurrent tables through real ``atout serve`` processes.

Starts ``--processes`` servers on free loopback ports on one database (a throw-away
SQLite file, or ``--db postgresql://...``: a private schema in it, dropped at the end;
several processes need PostgreSQL), then runs one of two scenarios, bounded in count
(``--games``) and time (``--seconds``); loopback only.

``saturation`` (default): ``--tables`` tables whose every seat is a WebSocket client
playing a random legal move as soon as it is its turn, the seats of one table spread
over the processes (seat i on process i mod N: every move crosses processes through
PostgreSQL's notices).  Latency: sending an action → the *last* seat of the table has
received the new view.

``humans``: ``--tables`` tables of one human (a socket client playing at once) and
three ``normal`` bots at the server's pace (``--bot-delay``, default 0.8 s as served).
Latency: the human's move → the human's socket receives the new state, after the first
``--warmup`` seconds (100 tables joining and their bots starting at once).  This is the
issue 17 target: p99 ≤ 50 ms with 100 such tables and 4 tables of ``expert`` bots.

Both: ``--search-tables K`` adds K tables of ``--search-bot`` bots (default ``expert``)
playing on their own meanwhile.  Reported: p50/p99 latency, actions per second
(every stored action, bots' included), and CPU per action (user + system time of the
server processes and their bot workers, from /proc, divided by the actions stored).

Run: ``.venv/bin/python bench/server_load.py [--tables 20] [--seconds 20] [--processes 3
--db postgresql://...] [--scenario humans --tables 100 --search-tables 4]``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect

SHORT = {"rounds": "3", "hands": "1", "max_deals": "1", "start_score": "6"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        #: Moves before this (monotonic) time are not measured: every table starting at once.
        self.warm_until = 0.0
        self.actions = 0
        self.games = 0


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of ``pids`` and their children (bot workers), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
    total = 0.0
    todo = list(pids)
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


async def create(
    http: httpx.AsyncClient, base: str, game: str, options: dict[str, str], seats: list[dict[str, Any]]
) -> dict[str, Any]:
    while True:  # a client's creations are rate-limited (after a burst): wait as told
        r = await http.post(
            f"{base}/api/tables",
            json={"game": game, "players": len(seats), "options": options, "seats": seats},
        )
        if r.status_code != 429:
            break
        await asyncio.sleep(0.05)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


async def saturation_table(
    bases: list[str],
    args: argparse.Namespace,
    options: dict[str, str],
    stats: Stats,
    deadline: float,
    rng: random.Random,
) -> None:
    players = args.players
    async with httpx.AsyncClient(timeout=30) as http:
        data = await create(http, bases[0], args.game, options, [{"name": f"c{i}"} for i in range(players)])
    table = data["table"]
    keys = {s["seat"]: s["key"] for s in data["seats"]}
    conns: dict[int, ClientConnection] = {}
    try:
        latest: dict[int, dict[str, Any]] = {}
        for seat in range(players):
            ws_base = bases[seat % len(bases)].replace("http://", "ws://")
            conns[seat] = await connect(f"{ws_base}/ws/{table}", max_size=2**20)
            await conns[seat].send(json.dumps({"type": "join", "key": keys[seat]}))
            latest[seat] = json.loads(await conns[seat].recv())
        n = latest[0]["n"]
        while not latest[0]["over"] and time.monotonic() < deadline:
            actor = latest[0]["to_act"]
            start = time.perf_counter()
            await conns[actor].send(
                json.dumps({"type": "act", "action": rng.choice(latest[actor]["legal"]), "n": n})
            )
            for seat in range(players):
                while True:  # a process may lag behind another: wait for this move's state
                    msg = json.loads(await conns[seat].recv())
                    if msg.get("type") != "state":
                        raise RuntimeError(f"unexpected message: {msg}")
                    if msg["n"] >= n + 1:
                        break
                latest[seat] = msg
            n += 1
            stats.latencies.append(time.perf_counter() - start)
            stats.actions += 1
        if latest[0]["over"]:
            stats.games += 1
    finally:
        for c in conns.values():
            await c.close()


async def human_table(
    bases: list[str],
    index: int,
    data: dict[str, Any],
    args: argparse.Namespace,
    options: dict[str, str],
    stats: Stats,
    deadline: float,
    rng: random.Random,
) -> None:
    """One human (seat 0, on process ``index`` mod N) and three ``normal`` bots (``data``: the created table)."""
    base = bases[index % len(bases)]
    key = data["seats"][0]["key"]
    async with connect(f"{base.replace('http://', 'ws://')}/ws/{data['table']}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "join", "key": key}))
        msg = json.loads(await ws.recv())
        while not msg["over"] and time.monotonic() < deadline:
            if msg["type"] == "state" and msg["to_act"] == 0:
                n = msg["n"]
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(msg["legal"]), "n": n}))
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] != "state" or msg["n"] > n:
                        break
                if msg["type"] == "state" and time.monotonic() >= stats.warm_until:
                    stats.latencies.append(time.perf_counter() - start)
                continue
            try:
                msg = json.loads(
                    await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline - time.monotonic()))
                )
            except TimeoutError:
                break
        if msg.get("over"):
            stats.games += 1


async def search_table(
    bases: list[str], index: int, args: argparse.Namespace, options: dict[str, str]
) -> None:
    seats = [{"name": f"s{i}", "bot": args.search_bot} for i in range(args.players)]
    async with httpx.AsyncClient(timeout=30) as http:
        await create(http, bases[index % len(bases)], args.game, options, seats)


async def run(bases: list[str], args: argparse.Namespace) -> Stats:
    from atout.core.registry import game_class

    cls = game_class(args.game)
    specs = {s.name for s in cls.option_specs}
    short = {k: v for k, v in SHORT.items() if k in specs}
    stats = Stats()
    for i in range(args.search_tables):  # full games: they keep thinking through the run
        await search_table(bases, i, args, {})
    deadline = time.monotonic() + args.seconds
    rng = random.Random(args.seed)
    if args.scenario == "humans":
        seats = [{"name": "human"}, *({"name": f"bot{i}", "bot": "normal"} for i in range(1, args.players))]
        created = []
        async with httpx.AsyncClient(timeout=30) as http:
            for i in range(args.tables):  # one after another: a client's creations are rate-limited
                created.append(await create(http, bases[i % len(bases)], args.game, {}, seats))
        deadline = time.monotonic() + args.seconds
        stats.warm_until = time.monotonic() + args.warmup
        await asyncio.gather(
            *(
                human_table(bases, i, data, args, {}, stats, deadline, random.Random(rng.random()))
                for i, data in enumerate(created)
            )
        )
        return stats
    started = 0

    async def worker() -> None:
        nonlocal started
        while time.monotonic() < deadline and started < args.games:
            started += 1
            await saturation_table(bases, args, short, stats, deadline, random.Random(rng.random()))

    await asyncio.gather(*(worker() for _ in range(args.tables)))
    return stats


def private_schema(url: str) -> tuple[str, str]:
    schema = f"bench_{secrets.token_hex(4)}"
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(sa.text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}", schema


def drop_schema(url: str, schema: str) -> None:
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.execute(sa.text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


def stored_actions(db: str) -> int:
    url = db if "://" in db else f"sqlite:///{db}"
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM atout_actions")).scalar() or 0)
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=("saturation", "humans"), default="saturation")
    parser.add_argument("--tables", type=int, default=20, help="tables played at the same time")
    parser.add_argument("--games", type=int, default=200, help="at most this many games in all (saturation)")
    parser.add_argument("--seconds", type=float, default=20.0, help="stop after this long")
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes (more than one: PostgreSQL)"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="humans: seconds not measured at the start (all tables join)",
    )
    parser.add_argument(
        "--search-tables", type=int, default=0, help="tables of search bots playing meanwhile"
    )
    parser.add_argument("--search-bot", default="expert")
    parser.add_argument(
        "--bot-delay", type=float, default=None, help="server's bot pace (saturation: 0; humans: 0.8)"
    )
    parser.add_argument(
        "--bot-workers", type=int, default=None, help="each server's search-bot worker processes"
    )
    args = parser.parse_args()
    if args.processes > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("several processes need --db postgresql://...")
    delay = args.bot_delay if args.bot_delay is not None else (0.8 if args.scenario == "humans" else 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        schema = None
        if args.db and args.db.startswith("postgresql"):
            db, schema = private_schema(args.db)
        else:
            db = args.db or str(Path(tmp) / "load.sqlite3")
        procs: list[subprocess.Popen[str]] = []
        try:
            bases = []
            for _ in range(args.processes):
                port = free_port()
                cmd = [
                    sys.executable, "-c", "from atout.cli.main import app; app()", "serve",
                    "--db", db, "--port", str(port), "--bot-delay", str(delay),
                    "--tables-per-minute", "100000", "--http-rate", "100000", "--max-live-tables", "100000",
                    "--sockets-per-client", "100000",
                ]  # fmt: skip
                if args.bot_workers is not None:
                    cmd += ["--bot-workers", str(args.bot_workers)]
                procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True))
                bases.append(f"http://127.0.0.1:{port}")
            for proc, base in zip(procs, bases, strict=True):
                assert proc.stdout is not None
                proc.stdout.readline()
                for _ in range(100):
                    try:
                        httpx.get(base + "/api/games").raise_for_status()
                        break
                    except httpx.HTTPError:
                        time.sleep(0.1)
            pids = [p.pid for p in procs]
            cpu0, stored0 = cpu_seconds(pids), stored_actions(db)
            start = time.perf_counter()
            # The load generator's own garbage collections would be counted as the
            # servers' latency (a full one took 50-130 ms in a profile of this run, the
            # human's moves in flight waiting on it), and a player's browser is another
            # machine: collection is off while this process measures (its few minutes of
            # messages fit in memory; nothing kept forms a cycle).
            gc.collect()
            gc.freeze()
            gc.disable()
            try:
                stats = asyncio.run(run(bases, args))
            finally:
                gc.enable()
                gc.unfreeze()
            elapsed = time.perf_counter() - start
            cpu, stored = cpu_seconds(pids) - cpu0, stored_actions(db) - stored0
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(10)
            if schema is not None and args.db:
                drop_schema(args.db, schema)
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan")
    kind = "PostgreSQL" if schema else "SQLite"
    what = "human move → new state" if args.scenario == "humans" else "action → last seat told"
    extra = f" + {args.search_tables} tables of {args.search_bot} bots" if args.search_tables else ""
    print(
        f"{args.scenario}: {args.game}, {args.players} seats, {args.tables} tables{extra}, {kind}, "
        f"{args.processes} process(es), bot delay {delay:g} s, {elapsed:.1f} s (cores: {os.cpu_count()})"
    )
    warm = f" (after {args.warmup:g} s of warm-up)" if args.scenario == "humans" else ""
    print(f"games finished: {stats.games}, measured moves: {len(lat)}{warm}, actions stored: {stored}")
    print(
        f"throughput: {stored / elapsed:.0f} actions/s; CPU {cpu:.1f} s, {1000 * cpu / max(stored, 1):.2f} ms per action"
    )
    print(f"latency {what}: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
