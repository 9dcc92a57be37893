"""The bench/ scripts as modules, for their tests (bench/ is not a package: each is run as a script)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench_script(name: str) -> ModuleType:
    """``bench/<name>.py`` freshly loaded (a new module object each call)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
