"""The test suite's cost, test by test, in CPU time as well as wall time (issue 48 item 4).

``--durations`` gives wall time, which on the shared 2-core machine says as much about the other
jobs running as about the test.  This script runs pytest (its arguments after ``--``) with itself
as a plugin (``-p suite_time``, in the xdist workers too): each test's wall time, the CPU time of
the worker process during it and that of the processes it reaped meanwhile (its ``atout serve``
servers, the Chromium a browser test closes, a tool it ran), then prints the totals and the
costliest tests by CPU::

    PYTHONPATH=src python bench/suite_time.py --out /tmp/after.json -- -n 2
    python bench/suite_time.py --show /tmp/after.json --before /tmp/before.json --top 30
    PYTHONPATH=src python bench/suite_time.py --servers 10

``--servers N``: the CPU time of a test's server, started and stopped N times as a new process
(``atout serve``, as the suite did) and N times forked by the tests' fork server
(tests/server/conftest.py's Zygote; its own start counted in), interleaved.

A process reaped by another (Chromium's renderers by Playwright's driver) counts when its parent
is reaped: the worker's Chromium at the end of its run of browser tests.  The suite's whole CPU
(every process, the workers' collection included) is the ``total`` line: the run's own children.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

#: Where each worker appends its tests' lines (one JSON object a line), set by main().
LOG_ENV = "ATOUT_SUITE_TIME_LOG"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """Time one test, its set-up and tear-down included (its fixtures' servers are its cost)."""
    wall, cpu, kids = time.perf_counter(), time.process_time(), children_cpu()
    try:
        return (yield)
    finally:
        path = os.environ.get(LOG_ENV)
        if path:
            line = {
                "test": item.nodeid,
                "wall": time.perf_counter() - wall,
                "cpu": time.process_time() - cpu,
                "children": children_cpu() - kids,
                "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
            }
            with open(path, "a") as out:
                out.write(json.dumps(line) + "\n")


def run(out: Path, args: list[str]) -> dict[str, Any]:
    """Run pytest with ``args`` and this plugin; the figures, also written to ``out``."""
    log = out.with_suffix(".lines")
    log.unlink(missing_ok=True)
    here = str(Path(__file__).resolve().parent)
    env = {
        **os.environ,
        LOG_ENV: str(log),
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
    }
    wall, kids = time.perf_counter(), children_cpu()
    status = subprocess.call([sys.executable, "-m", "pytest", "-p", "suite_time", *args], env=env)
    figures: dict[str, Any] = {
        "args": args,
        "status": status,
        "wall": time.perf_counter() - wall,
        "cpu": children_cpu() - kids,
        "load": os.getloadavg()[0],
        "tests": [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else [],
    }
    log.unlink(missing_ok=True)
    out.write_text(json.dumps(figures, indent=1))
    return figures


def show(figures: dict[str, Any], before: dict[str, Any] | None, top: int) -> None:
    tests = figures["tests"]
    own = sum(t["cpu"] for t in tests)
    reaped = sum(t["children"] for t in tests)
    print(
        f"pytest {' '.join(figures['args'])}: {len(tests)} tests, exit status {figures['status']}, "
        f"load {figures['load']:.1f} at the end\n"
        f"  total: {figures['wall']:.0f} s wall, {figures['cpu']:.0f} s CPU of every process "
        f"(tests: {own:.0f} s in the workers, {reaped:.0f} s in the processes they reaped)"
    )
    if before is not None:
        old = before["tests"]
        print(
            f"  before: {before['wall']:.0f} s wall, {before['cpu']:.0f} s CPU "
            f"(tests: {sum(t['cpu'] for t in old):.0f} + {sum(t['children'] for t in old):.0f} s)"
        )
    earlier = {t["test"]: t for t in before["tests"]} if before is not None else {}
    print(f"\n{'CPU s':>7} {'wall s':>7}  {'before':>13}  test (the {top} costliest in CPU)")
    for t in sorted(tests, key=lambda t: -(t["cpu"] + t["children"]))[:top]:
        old = earlier.get(t["test"])
        was = f"{old['cpu'] + old['children']:6.1f} {old['wall']:6.1f}" if old else ""
        print(f"{t['cpu'] + t['children']:7.1f} {t['wall']:7.1f}  {was:>13}  {t['test']}")


def servers(count: int) -> None:
    """Print the CPU time of a test server's start and stop, real and forked (see the module)."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.server.conftest import Server, Zygote

    spent = {True: 0.0, False: 0.0}
    walls = {True: 0.0, False: 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            for real in (True, False):
                kids, wall = children_cpu(), time.perf_counter()
                srv = Server(
                    f"{tmp}/{i}-{real}.sqlite3", bot_delay=0.05, deal_seed=2026, review_playouts=40, real=real
                )
                srv.start()
                srv.stop()
                if not real and i == count - 1:
                    Zygote.close()  # (reaped: its CPU and its children's counted)
                spent[real] += children_cpu() - kids
                walls[real] += time.perf_counter() - wall
    for real in (True, False):
        what = "a new process" if real else "forked (the fork server's start included)"
        print(
            f"{what}: {spent[real] / count:.3f} s CPU, {walls[real] / count:.2f} s wall a server (start and stop)"
        )
    print(f"load {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--out", type=Path, help="run pytest (the arguments after --) and keep the figures here"
    )
    parser.add_argument("--show", type=Path, help="print the figures of an earlier run instead")
    parser.add_argument("--before", type=Path, help="an earlier run's figures to compare with")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--servers", type=int, help="time N servers' start and stop, real and forked")
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    if args.servers is not None:
        servers(args.servers)
        return
    if args.show is not None:
        figures = json.loads(args.show.read_text())
    elif args.out is not None:
        figures = run(args.out, args.pytest_args)
    else:
        parser.error("--out (to run) or --show")
    before = json.loads(args.before.read_text()) if args.before is not None else None
    show(figures, before, args.top)


if __name__ == "__main__":
    main()
