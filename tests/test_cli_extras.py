"""The command line starts whatever extras are installed (issue 49).

Each test runs ``atout`` in a process of its own in which the optional libraries of an extra
cannot be imported (a finder on ``sys.meta_path`` refuses them, as a venv without that extra
would): the commands that do not need them work, and those that do print one line naming the
``pip install`` that brings them, without a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src"

#: The top-level modules each extra brings that atout imports (what a venv without it lacks).
EXTRAS = {
    "web": ("starlette", "uvicorn", "sqlalchemy", "psycopg", "argon2", "confusable_homoglyphs"),
    "train": ("torch",),
    "tournament": ("openskill", "matplotlib"),
}

#: Runs ``python -m atout ARGS`` with the modules named in $BLOCKED refused at import.
RUN_BLOCKED = """
import os, runpy, sys
blocked = set(os.environ["BLOCKED"].split(","))
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Refuse())
sys.argv = ["atout", *sys.argv[1:]]
runpy.run_module("atout", run_name="__main__")
"""


def atout_without(blocked: tuple[str, ...], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "COLUMNS": "100", "BLOCKED": ",".join(blocked)}
    env["ATOUT_HOME"] = str(cwd)  # nothing written outside the test's folder
    return subprocess.run(
        [sys.executable, "-c", RUN_BLOCKED, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


ALL = tuple(m for modules in EXTRAS.values() for m in modules)


@pytest.mark.parametrize(
    "args", [("--help",), ("bots", "wizard"), ("tournament", "--help"), ("train", "--help"), ("games",)]
)
def test_commands_start_without_any_extra(args: tuple[str, ...], tmp_path: Path) -> None:
    done = atout_without(ALL, *args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert "Traceback" not in done.stderr


def test_a_command_that_plays_runs_without_any_extra(tmp_path: Path) -> None:
    done = atout_without(ALL, "simulate", "wizard", "-p", "3", "-n", "1", "--rounds", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "games/s" in done.stdout


@pytest.mark.parametrize(
    ("extra", "args"),
    [
        ("web", ("serve",)),
        ("web", ("accounts", "list")),
        ("train", ("train", "wizard", "-p", "3", "--minutes", "0.01")),
        ("train", ("distill", "wizard", "-p", "3", "--matches", "1")),
        ("tournament", ("tournament", "wizard", "--bots", "random", "-p", "3", "--deals", "1")),
    ],
)
def test_a_missing_extra_is_one_line_naming_its_install(
    extra: str, args: tuple[str, ...], tmp_path: Path
) -> None:
    done = atout_without(EXTRAS[extra], *args, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: atout {args[0]} needs ")
    assert line.endswith(f"pip install 'atout[{extra}]'")
    assert list(tmp_path.iterdir()) == []  # refused before anything was written


def test_starting_the_cli_imports_no_extra() -> None:
    """Whatever is installed: importing the command set loads neither the web server nor PyTorch
    nor the tournament's ratings (they are imported by the commands that use them, when they run)."""
    code = (
        f"import sys, atout.cli.main\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & {set(ALL)!r}))"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
