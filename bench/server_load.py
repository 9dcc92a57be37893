"""Load on the web table: many concurrent tables of client bots through a real server.

Starts ``atout serve`` on a free loopback port with a throw-away SQLite file
(or ``--db URL``), then keeps ``--tables`` tables busy: every seat of every table
is a WebSocket client playing a random legal move as soon as it is its turn.
Bounded in count (``--games``) and time (``--seconds``); loopback only.

Prints actions per second through the whole pipeline (socket → rules engine →
database commit → broadcast of every seat's view) and the latency from sending
an action to the moment the *last* seat of the table has received the new view
(p50, p99).

Run: ``.venv/bin/python bench/server_load.py [--tables 20] [--seconds 20] [--game wizard]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
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
        self.actions = 0
        self.games = 0


async def play_table(
    base: str,
    game: str,
    players: int,
    options: dict[str, str],
    stats: Stats,
    deadline: float,
    rng: random.Random,
) -> None:
    async with httpx.AsyncClient() as http:
        r = await http.post(
            f"{base}/api/tables",
            json={
                "game": game,
                "players": players,
                "options": options,
                "seats": [{"name": f"c{i}"} for i in range(players)],
            },
        )
        r.raise_for_status()
        data = r.json()
    table = data["table"]
    keys = {s["seat"]: s["key"] for s in data["seats"]}
    ws_base = base.replace("http://", "ws://")
    conns: dict[int, ClientConnection] = {}
    try:
        latest: dict[int, dict[str, Any]] = {}
        for seat in range(players):
            conns[seat] = await connect(f"{ws_base}/ws/{table}", max_size=2**20)
            await conns[seat].send(json.dumps({"type": "join", "key": keys[seat]}))
            latest[seat] = json.loads(await conns[seat].recv())
        while not latest[0]["over"] and time.monotonic() < deadline:
            actor = latest[0]["to_act"]
            n = latest[actor]["n"]
            start = time.perf_counter()
            await conns[actor].send(
                json.dumps({"type": "act", "action": rng.choice(latest[actor]["legal"]), "n": n})
            )
            for seat in range(players):
                msg = json.loads(await conns[seat].recv())
                if msg.get("type") != "state" or msg["n"] != n + 1:
                    raise RuntimeError(f"unexpected message: {msg}")
                latest[seat] = msg
            stats.latencies.append(time.perf_counter() - start)
            stats.actions += 1
        if latest[0]["over"]:
            stats.games += 1
    finally:
        for c in conns.values():
            await c.close()


async def run(base: str, args: argparse.Namespace) -> Stats:
    from atout.core.registry import game_class

    cls = game_class(args.game)
    specs = {s.name for s in cls.option_specs}
    options = {k: v for k, v in SHORT.items() if k in specs}
    players = args.players or cls.min_players
    stats = Stats()
    deadline = time.monotonic() + args.seconds
    started = 0
    rng = random.Random(args.seed)

    async def worker() -> None:
        nonlocal started
        while time.monotonic() < deadline and started < args.games:
            started += 1
            await play_table(base, args.game, players, options, stats, deadline, random.Random(rng.random()))

    await asyncio.gather(*(worker() for _ in range(args.tables)))
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables played at the same time")
    parser.add_argument("--games", type=int, default=200, help="at most this many games in all")
    parser.add_argument("--seconds", type=float, default=20.0, help="stop after this long")
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "load.sqlite3")
        port = free_port()
        cmd = [
            sys.executable,
            "-c",
            "from atout.cli.main import app; app()",
            "serve",
            "--db",
            db,
            "--port",
            str(port),
            "--bot-delay",
            "0",
        ]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            proc.stdout.readline()
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    httpx.get(base + "/api/games").raise_for_status()
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            start = time.perf_counter()
            stats = asyncio.run(run(base, args))
            elapsed = time.perf_counter() - start
        finally:
            proc.terminate()
            proc.wait(10)
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan")
    kind = (
        "SQLite"
        if args.db is None or args.db.startswith("sqlite") or "://" not in args.db
        else args.db.split(":")[0]
    )
    print(f"{args.game}, {args.players} seats, {args.tables} concurrent tables, {kind}, {elapsed:.1f} s")
    print(f"games finished: {stats.games}, actions: {stats.actions}")
    print(f"throughput: {stats.actions / elapsed:.0f} actions/s")
    print(f"latency action → last seat told: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms")


if __name__ == "__main__":
    main()
