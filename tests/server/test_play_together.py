"""conftest.play_together, which the browser tests use to play several cases at once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .conftest import play_together


def walk(name: str, steps: int, log: list[str], fail_at: int | None = None) -> Iterator[None]:
    for i in range(steps):
        if i == fail_at:
            raise AssertionError(f"{name} saw something wrong")
        log.append(f"{name}{i}")
        yield


def test_the_walks_take_turns_until_each_is_done() -> None:
    log: list[str] = []
    play_together({"a": walk("a", 3, log), "b": walk("b", 1, log), "c": walk("c", 2, log)})
    assert log == ["a0", "b0", "c0", "a1", "c1", "a2"]


def test_a_failure_names_its_walk_and_ends_the_others() -> None:
    log: list[str] = []
    with pytest.raises(AssertionError, match="b saw something wrong") as failed:
        play_together({"a": walk("a", 5, log), "b": walk("b", 5, log, fail_at=1)})
    assert failed.value.__notes__ == ["(in b)"]
    assert log == ["a0", "b0", "a1"]
