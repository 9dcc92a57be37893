"""Game-agnostic machinery: the interface, options, errors, the registry."""

from .bot import Bot
from .errors import (
    AtoutError,
    IllegalAction,
    NotationError,
    OptionError,
    PositionError,
    RecordError,
    UnknownGame,
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
    "game_class",
    "load",
    "names",
    "register",
    "sample_chance",
    "seeded_rng",
]
