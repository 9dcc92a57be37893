"""atout: exact, seeded simulators and tables for Wizard, Le Malin, Sticheln and Le Nain Jaune.

>>> import atout
>>> game = atout.load("wizard", players=4)
>>> state = game.new_state(seed=7)
>>> state.round
1

The public names are :mod:`atout.core`'s (listed once, in ``core/__init__.py``).
"""

from . import core
from .core import *  # noqa: F403  (the names of core.__all__, below)

__version__ = "0.1.0"

__all__: list[str] = []
__all__ += core.__all__
