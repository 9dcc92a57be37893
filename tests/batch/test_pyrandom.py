"""The column-wise copy of CPython's generator against ``random.Random`` itself."""

from __future__ import annotations

import random

import numpy as np
import pytest

from atout.batch import pyrandom
from atout.core.game import seeded_rng

#: Seed texts as the engine builds them, of several key lengths, plus odd ones
#: (empty, a NUL first byte, non-ASCII, one too long for the vectorised key).
TEXTS = (
    [f"{s}:round:{r}" for s in (0, 1, 7, 12345, -3, 2**63 - 1, 10**30) for r in (1, 9, 10, 20)]
    + [f"{random.Random(5).getrandbits(40) + i}:first-dealer" for i in range(40)]
    + ["", "\x00abc", "é:round:3", "9" * 2600]
)


def test_first_outputs_equal_getrandbits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pyrandom, "CHUNK", 16)  # several chunks, groups split across them
    words = pyrandom.first_outputs(TEXTS, 128)
    for row, text in enumerate(TEXTS):
        rng = random.Random(text)
        assert words[:, row].tolist() == [rng.getrandbits(32) for _ in range(128)], text[:20]
    assert (pyrandom.first_outputs([t.encode() for t in TEXTS], 128) == words).all()


def test_shuffle_equals_random_shuffle() -> None:
    words = pyrandom.first_outputs(TEXTS, 128)
    deck, exhausted = pyrandom.shuffle_indices(words, 60)
    for row, text in enumerate(TEXTS):
        if not exhausted[row]:
            assert deck[:, row].tolist() == pyrandom.python_shuffle(text, 60)
    assert exhausted.sum() <= 1  # a 60-card shuffle needs more than 128 words about once in 10^5
    # Too few words: the rows that ran out say so, the others are still exact.
    deck, exhausted = pyrandom.shuffle_indices(words[:75].copy(), 60)
    assert 0 < exhausted.sum() < len(TEXTS)
    for row in np.flatnonzero(~exhausted).tolist():
        assert deck[:, row].tolist() == pyrandom.python_shuffle(TEXTS[row], 60)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 17])
def test_randbelow_equals_randrange(n: int) -> None:
    seeds = range(100, 160)
    texts = [f"{s}:first-dealer" for s in seeds]
    words = pyrandom.first_outputs(texts, 8)
    pos = np.zeros(len(texts), dtype=np.intp)
    values, exhausted = pyrandom.randbelow(words, pos, n)
    for i, s in enumerate(seeds):
        if not exhausted[i]:
            assert values[i] == seeded_rng(s, "first-dealer").randrange(n)
    assert exhausted.sum() <= 2


def test_a_column_that_runs_out_is_flagged_not_an_index_error() -> None:
    """Words that every draw rejects exhaust the column: flagged, and the shuffle still runs."""
    rows = 5
    words = np.full((1, rows), 0xFFFFFFFF, dtype=np.uint32)  # 3 >> 30 = 3 >= 2: rejected, then nothing left
    deck, exhausted = pyrandom.shuffle_indices(words, 2)
    assert exhausted.all()
    assert sorted(deck[:, 0].tolist()) == [0, 1]  # still a permutation, to be replaced by the caller
