"""Search bots think in worker processes (issue 17, point 8): only the seat's view crosses,
the decision is the one the same bot makes in-process, and a dead worker is replaced."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from atout.core.registry import game_class, load, names
from atout.server import create_app
from atout.server.botpool import BotPool, needs_worker, pack_view, think, unpack_view
from atout.server.limits import Limits

from .conftest import create_table, short_options
from .test_socket import live_state, wait_until


@pytest.fixture(scope="module")
def pool() -> Iterator[BotPool]:
    p = BotPool(1)
    yield p
    p.close()


def test_which_bots_need_a_worker() -> None:
    assert [
        b
        for b in ("random", "easy", "normal", "heuristic", "hard", "expert", "search", "search:50:flat")
        if needs_worker(b)
    ] == [
        "hard",
        "expert",
        "search",
        "search:50:flat",
    ]


@pytest.mark.parametrize("game", names())
def test_a_packed_view_is_the_seat_s_view_and_nothing_else(game: str) -> None:
    cls = game_class(game)
    g = load(game, cls.min_players, **short_options(game))
    state = g.new_state(5)
    rng = random.Random(5)
    for _ in range(25):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = max(state.current_player, 0)
    view = state.view(seat)
    cls_, fields = pack_view(view)
    assert "game" not in fields and "seed" not in fields and "history" not in fields
    again = unpack_view(cls_, fields, load(game, cls.min_players, **short_options(game)))
    assert again.to_dict() == view.to_dict() and again.legal_actions == view.legal_actions


def test_a_worker_decides_as_the_bot_would_in_process(pool: BotPool) -> None:
    game = load("wizard", 4, rounds=3)
    state = game.new_state(11)
    rng = random.Random(1)
    while state.current_player != 0 or len(state.view(0).legal_actions) < 2:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(0)
    options = tuple(sorted(p.split("=", 1) for p in game.options_text().split()))
    # search:N has no time cap: the decision depends on the seed alone.
    here = think(("wizard", 4, tuple(map(tuple, options))), "search:30", 0, 1234, pack_view(view))  # type: ignore[arg-type]
    there = asyncio.run(pool.choose(game, "search:30", 0, 1234, view))
    assert there == here and there in view.legal_actions
    assert os.getpid() not in pool.pids()


def test_a_killed_worker_is_replaced(pool: BotPool) -> None:
    game = load("wizard", 3, rounds=2)
    state = game.new_state(3)
    view = state.view(state.current_player)
    for pid in pool.pids():
        os.kill(pid, signal.SIGKILL)
    action = asyncio.run(pool.choose(game, "search:5", view.seat, 1, view))
    assert action in view.legal_actions
    assert pool.restarts >= 1


def test_a_table_of_search_bots_plays_through_the_pool(db_path: str) -> None:
    limits = Limits(bot_workers=1)
    with TestClient(create_app(db_path, bot_delay=0, limits=limits)) as client:
        table, _ = create_table(
            client, "wizard", 3, options={"rounds": 1}, bots={0: "hard", 1: "hard", 2: "random"}
        )
        wait_until(lambda: live_state(client, table).is_terminal, timeout=60)
        pool = client.app.state.manager.pool  # type: ignore[attr-defined]
        assert pool is not None and pool._executor is not None  # the search bots used it


def test_workers_yield_to_the_server(pool: BotPool) -> None:
    """Every worker runs in Linux's idle class (else at nice WORKER_NICE or more): a human's move first."""
    from atout.server.botpool import WORKER_NICE

    for pid in pool.pids():
        idle = getattr(os, "SCHED_IDLE", None)
        if idle is not None:
            assert os.sched_getscheduler(pid) == idle
        else:  # pragma: no cover - not Linux
            assert os.getpriority(os.PRIO_PROCESS, pid) >= WORKER_NICE
