"""Every registered game, at every player count and with each option switched on,
passes the conformance suite of :mod:`atout.testing`."""

from __future__ import annotations

from typing import Any

import pytest

import atout
from atout.core.errors import OptionError
from atout.core.registry import game_class, names
from atout.testing import (
    check_chance_explicit,
    check_clone_independence,
    check_determinism,
    check_no_leak,
    check_random_play,
    check_record_round_trip,
    check_sample_round,
    check_view_dict,
)


def _configurations() -> list[Any]:
    out = []
    for name in names():
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            out.append(pytest.param(name, players, {}, id=f"{name}-{players}"))
        # Each non-default choice of each option, at the smallest table.
        for spec in cls.option_specs:
            values: list[Any] = []
            if spec.kind is bool:
                values = [not spec.default]
            elif spec.choices is not None:
                values = [c for c in spec.choices if c != spec.default]
            for value in values:
                try:
                    cls(cls.min_players, **{spec.name: value})
                except OptionError:
                    continue
                out.append(
                    pytest.param(name, cls.min_players, {spec.name: value}, id=f"{name}-{spec.name}={value}")
                )
    return out


CONFIGS = _configurations()


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_random_play_and_refusals(name: str, players: int, options: dict[str, Any]) -> None:
    game = atout.load(name, players, **options)
    check_random_play(game, seed=players)
    check_chance_explicit(game, seed=players)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_determinism_records_clones(name: str, players: int, options: dict[str, Any]) -> None:
    game = atout.load(name, players, **options)
    check_determinism(game, seed=11)
    check_record_round_trip(game, seed=12)
    check_clone_independence(game, seed=13)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_views_do_not_leak(name: str, players: int, options: dict[str, Any]) -> None:
    check_no_leak(atout.load(name, players, **options), seed=21)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_round_worlds_replay_to_the_view(name: str, players: int, options: dict[str, Any]) -> None:
    check_sample_round(atout.load(name, players, **options), seed=22)


def test_round_worlds_are_checked_where_offered() -> None:
    # Wizard offers sample_round: the check must really replay worlds there.
    assert check_sample_round(atout.load("wizard", 4), seed=3) > 50


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_views_rebuild_from_their_dicts(name: str, players: int, options: dict[str, Any]) -> None:
    game = atout.load(name, players, **options)
    assert check_view_dict(game, seed=players, every=40) > 0
