"""What a bot is: something that picks a legal action from a seat's view.

This is the whole contract a hobby programmer implements::

    import atout

    class FirstLegal(atout.Bot):
        name = "first-legal"

        def choose(self, view: atout.View) -> int:
            return view.legal_actions[0]

A bot is handed a :class:`~atout.core.game.View` (never a state) and answers one
of ``view.legal_actions``.  Bots that search sample worlds consistent with
their view through ``view.game.sample_state(view, rng)``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from .game import Game, View


class Bot(ABC):
    """Base class of every bot, built in or external."""

    #: Short name shown in tables and records ("random", "heuristic", ...).
    name: str = "bot"

    def __init__(self, seed: int | None = None) -> None:
        #: The bot's own random generator: a seeded bot is reproducible.
        self.rng = random.Random(seed)

    def start(self, game: Game, seat: int) -> None:
        """Called once before a match; override to set up per-match memory."""
        self.game = game
        self.seat = seat

    @abstractmethod
    def choose(self, view: View) -> int:
        """Return one of ``view.legal_actions``."""

    def close(self) -> None:
        """Release resources (an external process, say)."""
        return None
