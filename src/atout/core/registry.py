"""The registry of games: ``atout.load("wizard", players=4)``.

Games are registered by import path and imported on first use, so ``import
atout`` stays fast and a fifth game is one more line here (or one call to
:func:`register` from a user's own package).
"""

from __future__ import annotations

from typing import Any

from .errors import UnknownGame
from .game import Game
from .reason import Quoted, reason

_PATHS: dict[str, str] = {
    "wizard": "atout.games.wizard.game:WizardGame",
    "malin": "atout.games.malin.game:MalinGame",
    "sticheln": "atout.games.sticheln.game:StichelnGame",
    "nain-jaune": "atout.games.nain_jaune.game:NainJauneGame",
}
_CLASSES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class under ``cls.name`` (usable as a decorator)."""
    _CLASSES[cls.name] = cls
    _PATHS.setdefault(cls.name, f"{cls.__module__}:{cls.__qualname__}")
    return cls


def game_class(name: str) -> type[Game]:
    """The class registered under ``name``; :class:`UnknownGame` names the known ones."""
    key = name.strip().lower().replace("_", "-")
    if key in _CLASSES:
        return _CLASSES[key]
    path = _PATHS.get(key)
    if path is None:
        raise UnknownGame(reason("option.unknown_game", game=Quoted(name), known=", ".join(names())))
    import pkgutil  # here, not on top: ``import atout`` imports no more than it must

    try:
        cls: type[Game] = pkgutil.resolve_name(path)
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(reason("option.game_unavailable", game=Quoted(name), why=str(exc))) from None
    _CLASSES[key] = cls
    return cls


def names() -> list[str]:
    """Names of the games that can be loaded here."""
    out = []
    for key in _PATHS:
        try:
            game_class(key)
        except UnknownGame:
            continue
        out.append(key)
    return out


def load(name: str, players: int, **options: Any) -> Game:
    """The game ``name`` for ``players`` seats with ``options`` (validated)."""
    return game_class(name)(players, **options)
