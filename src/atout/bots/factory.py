"""Bots by name: ``make_bot("heuristic", game, seed=1)``.

Names: ``random`` (any game), a game's own levels (``game.bots``, e.g.
``heuristic``), and ``cmd:<command line>`` for an external program speaking the
JSON-lines protocol of docs/bots.md.
"""

from __future__ import annotations

import importlib

from ..core.bot import Bot
from ..core.errors import OptionError
from ..core.game import Game
from .random import RandomBot


def available(game: Game) -> list[str]:
    """Bot names usable with ``game`` (besides ``cmd:...``)."""
    return ["random", *game.bots]


def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot:
    """A fresh bot for ``game`` from its name; unknown names list the known ones."""
    name = spec.strip()
    if name == "random":
        return RandomBot(seed)
    if name.startswith("cmd:"):
        from .external import ExternalBot

        return ExternalBot(name[4:], seed=seed)
    path = game.bots.get(name)
    if path is None:
        known = ", ".join([*available(game), "cmd:<program>"])
        raise OptionError(f"no bot {spec!r} for {game.name}; choose from: {known}")
    module, _, attr = path.partition(":")
    cls: type[Bot] = getattr(importlib.import_module(module), attr)
    return cls(seed)
