"""Engine options a batch does not play are refused, never ignored (it would play other rules)."""

from __future__ import annotations

from typing import Any

import pytest

from atout.batch import MalinBatch, NainJauneBatch, StichelnBatch, WizardBatch


@pytest.mark.parametrize(
    ("batch", "players", "options"),
    [
        (WizardBatch, 4, {"start_round": 3}),
        (StichelnBatch, 4, {"start_round": 2}),
        (MalinBatch, 4, {"start_round": 2}),
        (MalinBatch, 4, {"rounds": 3}),
        (NainJauneBatch, 4, {"start_round": 2}),
    ],
)
def test_options_the_batch_does_not_play_are_refused(
    batch: Any, players: int, options: dict[str, Any]
) -> None:
    (name,) = options
    with pytest.raises(ValueError, match=f"{name}=.* is not supported here"):
        batch(players, seeds=range(3), **options)


def test_the_defaults_of_those_options_are_accepted() -> None:
    assert MalinBatch(4, seeds=range(3), start_round=1, rounds=None).num_games == 3
