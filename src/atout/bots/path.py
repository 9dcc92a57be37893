"""A bot named by its import path, the way games name their bots and models.

Why a module of its own: both the factory (every bot name) and the search bot
(its playout model) build bots from a path; kept here, neither imports the
other (no import cycle).
"""

from __future__ import annotations

import importlib

from ..core.bot import Bot


def bot_from_path(path: str, seed: int | None) -> Bot:
    """A bot from an import path ``"pkg.mod:Class"`` (how games name their bots and models)."""
    module, _, attr = path.partition(":")
    cls: type[Bot] = getattr(importlib.import_module(module), attr)
    return cls(seed)


__all__ = ["bot_from_path"]
