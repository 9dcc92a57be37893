"""Bots that play any game: random, each game's own, external programs, outside Python bots; and the factory."""

from .factory import available, make_bot
from .jsonlines import serve_jsonlines
from .loader import CallableBot
from .random import RandomBot

__all__ = ["CallableBot", "RandomBot", "available", "make_bot", "serve_jsonlines"]
