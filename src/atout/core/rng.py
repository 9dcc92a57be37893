"""``random.Random``'s shuffle and draws, the same numbers at compiled speed (issue 48).

Why: :meth:`random.Random.shuffle`, ``choice`` and ``randint`` are written in
Python (a method call and a ``getrandbits`` call for every element), and the
engine shuffles at every seeded deal and every sampled world: a 60-card deal
cost as much as forty moves of play.  Compiled (:data:`atout._build.COMPILED`),
these functions run the very algorithm of CPython's ``random`` module
(``_randbelow_with_getrandbits``: ``getrandbits(n.bit_length())`` until below
``n``; the shuffle swapping from the end), so that a seeded generator gives the
same deals and the same worlds, bit for bit, as the methods themselves
(tests/test_rng.py compares them).  A generator of another class (a subclass
with its own ``random``) goes to its own methods: its draws may differ.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(7).shuffle(a); shuffle(random.Random(7), b)
>>> a == b
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")

_Random: Final = random.Random


def below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` for ``n > 0``: an int in ``[0, n)``, drawn as CPython draws it."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)  # a method call, no bound method made (one or two draws, usually)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same permutation, compiled."""
    if type(rng) is not _Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``: the same element, compiled."""
    if type(rng) is not _Random:
        return rng.choice(seq)
    if not len(seq):
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]


def weighted(rng: random.Random, outcomes: Sequence[tuple[T, float]]) -> T:
    """``rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]``: the same outcome, compiled.

    Why: a chance node of a state without a seed (a deal card by card, OpenSpiel's
    way) is drawn by its probabilities, and ``random.choices`` is Python: two lists,
    ``accumulate`` and ``bisect`` cost more than the move.  The same sums in the same
    order, the same single ``random()`` times their total, the same ``bisect_right``
    over ``[0, n - 1]``: the same outcome for the same generator state.
    """
    if type(rng) is not _Random:
        return rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
    n = len(outcomes)
    if n == 0:
        raise IndexError("Cannot choose from an empty sequence")
    cumulative: list[float] = []
    total = 0.0
    first = True
    for _, p in outcomes:
        total = p if first else total + p  # accumulate's sums: the first weight as it is
        first = False
        cumulative.append(total)
    total = total + 0.0
    if total <= 0.0:
        raise ValueError("Total of weights must be greater than zero")
    if not math.isfinite(total):
        raise ValueError("Total of weights must be finite")
    x = rng.random() * total
    lo, hi = 0, n - 1
    while lo < hi:  # bisect_right(cumulative, x, 0, n - 1)
        mid = (lo + hi) // 2
        if x < cumulative[mid]:
            hi = mid
        else:
            lo = mid + 1
    return outcomes[lo][0]


def randint(rng: random.Random, a: int, b: int) -> int:
    """``rng.randint(a, b)``: the same int in ``[a, b]``, compiled."""
    if type(rng) is not _Random or b < a:
        return rng.randint(a, b)
    return a + below(rng, b - a + 1)


def randrange(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: the same int in ``[0, n)``, compiled."""
    if type(rng) is not _Random or n <= 0:
        return rng.randrange(n)
    return below(rng, n)
