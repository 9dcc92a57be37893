"""Bots that play any game: random, each game's own, external programs; and the factory."""

from .factory import available, make_bot
from .random import RandomBot

__all__ = ["RandomBot", "available", "make_bot"]
