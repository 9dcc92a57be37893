"""The suite's schedule (tests/conftest.py): the order changes, never the set of tests."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from . import conftest
from .conftest import LONG, schedule, shares


def items(*nodeids: str) -> list[pytest.Item]:
    return cast(list[pytest.Item], [SimpleNamespace(nodeid=n) for n in nodeids])


SUITE = items(
    *(f"tests/a.py::test_{i}" for i in range(10)),
    "tests/test_reasons.py::test_one",
    "tests/test_reasons.py::test_two",
    "tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it[a]",
    "tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it[b]",
    *(f"tests/z.py::test_{i}" for i in range(10)),
)


def ids(out: list[Any]) -> list[str]:
    return [i.nodeid for i in out]


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_every_test_is_scheduled_once(workers: int) -> None:
    out = schedule(list(SUITE), workers)
    assert sorted(ids(out)) == sorted(ids(SUITE))


@pytest.mark.parametrize("workers", [2, 3])
def test_a_selection_of_mostly_long_tests_is_scheduled_too(workers: int) -> None:
    """A run of a few files whose long tests outweigh the short ones (``pytest -n 3`` on the
    browser tests): one worker's long tests fill less than its share, and the short ones ran out
    before the next worker's share (a StopIteration that stopped the run at collection)."""
    chosen = [*SUITE[10:14], SUITE[0]]
    out = schedule(list(chosen), workers)
    assert sorted(ids(out)) == sorted(ids(chosen))


def test_each_worker_s_share_starts_with_its_long_tests_and_a_module_fixture_stays_in_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lengths of this example, not the suite's measured ones (they change as tests get faster):
    # the module kept together is the longest unit, each whole game shorter.
    monkeypatch.setattr(
        conftest,
        "LONG",
        (
            ("tests/test_reasons.py", 30.0, True),
            ("tests/server/test_browser_table.py::test_a_whole_game_as_a_new_player_meets_it", 22.0, False),
        ),
    )
    out = ids(schedule(list(SUITE), 2))
    first, second = out[: shares(len(out), 2)[0]], out[shares(len(out), 2)[0] :]
    assert first[:2] == ["tests/test_reasons.py::test_one", "tests/test_reasons.py::test_two"]
    assert second[0].startswith("tests/server/test_browser_table.py::test_a_whole_game")
    # The short tests keep pytest's order.
    short = [n for n in out if n.startswith(("tests/a.py", "tests/z.py"))]
    assert short == [n for n in ids(SUITE) if n.startswith(("tests/a.py", "tests/z.py"))]


def test_shares_are_xdist_worksteal_s_first_sends() -> None:
    assert shares(25, 2) == [12, 13] and shares(10, 3) == [3, 3, 4]


def test_every_long_entry_names_tests_of_the_suite(request: pytest.FixtureRequest) -> None:
    """A renamed test would silently leave the schedule: each entry matches a collected test."""
    config = request.config
    if (
        config.args_source is not pytest.Config.ArgsSource.TESTPATHS
        or config.option.keyword
        or config.option.markexpr
    ):
        pytest.skip("checked when the whole suite runs (./run test)")
    collected = [i.nodeid for i in request.session.items]
    stale = [prefix for prefix, _, _ in LONG if not any(n.startswith(prefix) for n in collected)]
    assert stale == []
