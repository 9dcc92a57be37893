"""A batch's subset of rows (``batch.subset(rows)``): what the vector env's learned opponents read.

The env writes its learned opponents' tensors and heuristic prior for the matches they answer
only; so a subset must hold exactly those matches, in every game, at every kind of position,
for the tensors (dense and sparse, both kinds), the legal masks and the heuristic, and reading
it must change nothing in the batch it came from.
"""

from __future__ import annotations

import numpy as np
import pytest

from atout.batch import batch_class
from tests.batch.test_sparse_tensor import played_positions


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
@pytest.mark.parametrize("players", [3, 5])
def test_a_subset_holds_its_rows_matches(name: str, players: int) -> None:
    checked = 0
    for batch, rng in played_positions(name, players, range(10, 40), 60):
        rows = rng.permutation(batch.num_games)[: int(rng.integers(1, 25))]  # any order, any size
        part = batch.subset(rows)
        assert part.num_games == len(rows) and part.seeds == [batch.seeds[i] for i in rows]
        seats = rng.integers(0, players, batch.num_games)
        before = batch.observation_tensor(information_state=True)
        for information_state in (True, False):
            whole = batch.observation_tensor(information_state=information_state)
            assert np.array_equal(part.observation_tensor(information_state=information_state), whole[rows])
            mine = batch.observation_tensor(seats, information_state=information_state)
            assert np.array_equal(
                part.observation_tensor(seats[rows], information_state=information_state), mine[rows]
            )
            assert np.array_equal(
                part.sparse_tensor(information_state=information_state).toarray(), whole[rows]
            )
        assert np.array_equal(part.legal_mask(), batch.legal_mask()[rows])
        assert np.array_equal(part.heuristic_actions(), batch.heuristic_actions()[rows])
        assert np.array_equal(part.current_player, batch.current_player[rows])
        part.step(part.random_actions(rng), active=~part.terminal)  # the subset's own copies move
        assert np.array_equal(batch.observation_tensor(information_state=True), before)
        checked += 1
    assert checked > 20


def test_an_empty_subset_is_refused() -> None:
    batch = batch_class("wizard")(4, [1, 2])
    with pytest.raises(ValueError, match="at least one row"):
        batch.subset([])
