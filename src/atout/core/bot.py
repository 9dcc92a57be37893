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
from typing import Generic, TypeVar, cast

from .game import Game, View

V = TypeVar("V", bound=View)


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


class RuleBot(Bot, Generic[V]):
    """A bot deciding by rules over one game's view: each game's ``heuristic`` level.

    What they all share is here: the view must be of ``view_type`` (a bot
    handed another game's view says so rather than misreading it), and a
    forced move is played without thought.  Subclasses write :meth:`decide`.
    """

    name = "heuristic"
    #: The view class of the bot's game (each subclass sets it).
    view_type: type[View]

    def choose(self, view: View) -> int:
        if not isinstance(view, self.view_type):
            raise TypeError(
                f"{type(self).__name__} plays from a {self.view_type.__name__}, not {type(view).__name__}"
            )
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        return self.decide(cast(V, view))

    @abstractmethod
    def decide(self, view: V) -> int:
        """One of ``view.legal_actions``, which has two or more."""
