"""Game-agnostic machinery: the interface, options, errors, the registry; its names are ``atout``'s public ones."""

from .bot import Bot
from .errors import (
    AtoutError,
    IllegalAction,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGame,
    ViewError,
)
from .game import CHANCE, TERMINAL, Game, State, View, sample_chance, seeded_rng
from .options import OptionSpec
from .registry import game_class, load, names, register

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AtoutError",
    "Bot",
    "Game",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "PositionError",
    "RecordError",
    "State",
    "UnknownGame",
    "View",
    "ViewError",
    "game_class",
    "load",
    "names",
    "register",
    "sample_chance",
    "seeded_rng",
]
