"""Collection rules for the whole run (tests, doctests of src/atout, docs).

In the compiled build (issue 48) the modules mypyc compiled are imported from
their ``.so``: pytest cannot collect their doctests from the ``.py`` (a
different file is imported) and doctest finds no compiled function.  They are
left out then, and run in the pure pass (``ATOUT_PURE=1``, ``./run test``).

One thread for the math libraries' matrix products (numpy's OpenBLAS, PyTorch's
OpenMP), in this process, its xdist workers and every process a test starts (they
inherit the environment), unless the caller set them: the suite runs on as many
workers as cores, each busy, and a BLAS thread per core in each worker made them
wait on each other (spin-waiting threads, as tournament/runner.py's workers and
issue 49's vector env found).  The shipped networks' tests (bots/test_learned.py,
envs/test_vector_learned.py) took 61 s of CPU with the default, 11 s with one
thread; two training tests 44 s, 27 s (same machine, loaded, one run after the
other).  Set here, before anything imports numpy: OpenBLAS reads it once, at load.
"""

from __future__ import annotations

import os
from pathlib import Path

import atout  # (the public face imports no numpy: the threads below are set before it loads)
from atout import _build

for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

_SRC = Path(atout.__file__).resolve().parent.parent
_COMPILED = {(_SRC / path).resolve() for path in _build.COMPILED} if atout.compiled() else set()


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Leave out a compiled module's doctests (they run on the pure build)."""
    return True if collection_path.resolve() in _COMPILED else None
