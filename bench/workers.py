"""Run a bench script's worker in a process of its own, on a given source tree, and read its JSON line.

Why: a figure that compares builds (a source tree, compiled or ``ATOUT_PURE=1``) needs one
process per build, as two trees cannot share one interpreter; the scripts that compare
builds (``bench/aec.py``, ``bench/loop_speed.py``) start their own ``--worker`` so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys


def run_json(script: str, src: str, pure: bool, args: list[str]) -> dict[str, object]:
    """``script --worker *args`` run with ``src`` first on ``sys.path`` (``ATOUT_PURE=1`` if ``pure``):
    the last line it prints, read as JSON."""
    env = {k: v for k, v in os.environ.items() if k != "ATOUT_PURE"}
    env["PYTHONPATH"] = src
    if pure:
        env["ATOUT_PURE"] = "1"
    command = [sys.executable, script, "--worker", *args]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result
