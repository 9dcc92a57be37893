"""Collection rules for the whole run (tests, doctests of src/atout, docs).

In the compiled build (issue 48) the modules mypyc compiled are imported from
their ``.so``: pytest cannot collect their doctests from the ``.py`` (a
different file is imported) and doctest finds no compiled function.  They are
left out then, and run in the pure pass (``ATOUT_PURE=1``, ``./run test``).
"""

from __future__ import annotations

from pathlib import Path

import atout
from atout import _build

_SRC = Path(atout.__file__).resolve().parent.parent
_COMPILED = {(_SRC / path).resolve() for path in _build.COMPILED} if atout.compiled() else set()


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Leave out a compiled module's doctests (they run on the pure build)."""
    return True if collection_path.resolve() in _COMPILED else None
