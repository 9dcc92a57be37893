"""Configurations the adapter tests run on: every registered game."""

from __future__ import annotations

from typing import Any

import pytest

from atout.core.registry import game_class, names


def table_sizes() -> list[Any]:
    """Every registered game at every player count (options at their defaults)."""
    out = []
    for name in names():
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            out.append(pytest.param(name, players, id=f"{name}-{players}"))
    return out


def one_table_per_game() -> list[Any]:
    """Every registered game once, at 4 players when it can be (else the nearest count)."""
    out = []
    for name in names():
        cls = game_class(name)
        out.append(pytest.param(name, min(max(4, cls.min_players), cls.max_players), id=name))
    return out
