"""atout: exact, seeded simulators and tables for Wizard, Le Malin, Sticheln and Le Nain Jaune.

>>> import atout
>>> game = atout.load("wizard", players=4)
>>> state = game.new_state(seed=7)
>>> state.round
1

The public names are :mod:`atout.core`'s (listed once, in ``core/__init__.py``).
"""

from ._build import choose, compiled

choose()  # the compiled or the pure engine (src/atout/_build.py), before the engine is imported

from . import core  # noqa: E402
from .core import *  # noqa: E402, F403  (the names of core.__all__, below)

__version__ = "0.1.0"

__all__: list[str] = ["compiled"]
__all__ += core.__all__
