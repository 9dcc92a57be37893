"""atout: exact, seeded simulators and tables for Wizard, Le Malin, Sticheln and Le Nain Jaune.

>>> import atout
>>> game = atout.load("wizard", players=4)
>>> state = game.new_state(seed=7)
>>> state.round
1
"""

from .core import (
    CHANCE,
    TERMINAL,
    AtoutError,
    Game,
    IllegalAction,
    NotationError,
    OptionError,
    RecordError,
    State,
    UnknownGame,
    View,
    load,
    names,
    register,
)
from .core.bot import Bot
from .core.errors import ViewError

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AtoutError",
    "Bot",
    "Game",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "RecordError",
    "State",
    "UnknownGame",
    "View",
    "ViewError",
    "load",
    "names",
    "register",
]
