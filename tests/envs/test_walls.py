"""The core keeps no dependency on the research extras."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys, atout, atout.testing, atout.envs
from atout.core.registry import game_class, names
for name in names():
    cls = game_class(name)
    game = cls(cls.min_players)
    game.information_state_tensor(game.new_state(1).view(0))
banned = {"pettingzoo", "gymnasium", "pyspiel", "open_spiel", "numpy"}
print(sorted(banned & {m.split(".")[0] for m in sys.modules}))
"""


def test_core_imports_no_optional_library() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
