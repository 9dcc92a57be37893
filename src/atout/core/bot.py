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
from collections.abc import Callable
from typing import Any, Generic, TypeVar, cast

from .game import Game, View

V = TypeVar("V", bound=View)

#: A bot's rules as a function of a full state: ``rule(state, seat, legal)`` answers what the bot
#: would answer at ``state.view(seat)``, ``legal`` being ``state.legal_actions()`` (two or more).
#: (``Any``: each game's rule takes its own state class.)
StateRule = Callable[[Any, int, list[int]], int]


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

    def state_rule(self) -> StateRule | None:
        """The same rules as :meth:`choose`, read straight from a state, when the game offers them.

        For the searches' playouts (issue 48; see :func:`state_rule`): a sampled world is a
        whole state, and a seat's view of it, built at every decision of every playout only
        for the rules to read a few of its fields, cost more than the rules themselves.  The
        rule ``f(state, seat, legal)`` must answer exactly what :meth:`choose` answers at
        ``state.view(seat)``, drawing the same numbers from the same generator where the bot
        draws any (each game's test compares them), and read only what that view holds.
        None here: the views.
        """
        return None

    @abstractmethod
    def decide(self, view: V) -> int:
        """One of ``view.legal_actions``, which has two or more."""


def state_rule(bot: Bot) -> StateRule | None:
    """``bot``'s rules as a function of a state (:meth:`RuleBot.state_rule`), or None.

    Only when the bot's own class declares them: a subclass (anyone's bot extending a
    heuristic) may decide otherwise, so it does not inherit them and gets views, as any
    bot does.
    """
    if not isinstance(bot, RuleBot) or "state_rule" not in vars(type(bot)):
        return None
    return bot.state_rule()
