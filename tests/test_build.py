"""The compiled and the pure rules engine (issue 48): which one runs, and that ATOUT_PURE=1 is obeyed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import atout
from atout import _build

SRC = Path(atout.__file__).resolve().parent.parent


def _which(env: dict[str, str]) -> list[str]:
    """``atout.compiled()`` and the file each compiled module was loaded from, in a fresh process."""
    code = (
        "import importlib, atout, atout._build as b\n"
        "print(atout.compiled())\n"
        "for p in b.COMPILED: print(importlib.import_module(b._module_name(p)).__file__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(SRC), **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.split()


def test_pure_is_obeyed_even_beside_compiled_modules() -> None:
    flag, *files = _which({"ATOUT_PURE": "1"})
    assert flag == "False"
    assert files and all(f.endswith(".py") for f in files)


def test_the_build_said_is_the_build_loaded() -> None:
    """``atout.compiled()`` is true exactly when every compiled module comes from its extension."""
    flag, *files = _which({"ATOUT_PURE": ""})
    assert len(files) == len(_build.COMPILED)
    assert (
        all(f.endswith(".py") for f in files)
        if flag == "False"
        else not any(f.endswith(".py") for f in files)
    )
    assert (flag == "True") == (not _build.stale())


def test_the_compiled_modules_exist() -> None:
    """The list setup.py compiles names real modules (a module renamed would silently stay pure)."""
    for path in _build.COMPILED:
        assert (SRC / path).is_file(), path
