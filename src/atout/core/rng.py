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

import _random
import math
import random
from collections.abc import Sequence
from hashlib import sha512
from typing import Final, TypeVar

T = TypeVar("T")

_Random: Final = random.Random


def below(rng: _random.Random, n: int) -> int:
    """``rng._randbelow(n)`` for ``n > 0``: an int in ``[0, n)``, drawn as CPython draws it.

    ``rng``: a :class:`random.Random` of that very class, or :func:`text_seeded`'s generator.
    """
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


def text_seeded(text: str) -> _random.Random:
    """The generator ``random.Random(text)`` is, as its C base class: the same Mersenne Twister state.

    Why (issue 48): a seeded state seeds a generator with a text at every round's deal
    (:func:`atout.core.game.seed_text`), and ``random.Random(text)`` runs two Python
    frames (``__init__``, ``seed``) around the one C seeding.  ``Random.seed`` turns a
    text (version 2, the default) into the int ``int.from_bytes(text + sha512(text),
    "big")`` and seeds the C generator with it; this does the same in compiled code and
    seeds the C class directly, so ``getrandbits`` then gives the same bits
    (tests/test_rng.py compares them).  Only the C methods are there (``getrandbits``,
    ``random``): the draws of :mod:`random`'s Python methods are written here.
    """
    data = text.encode()
    return _random.Random(int.from_bytes(data + sha512(data).digest(), "big"))


#: Words :func:`shuffle_seeded` draws at first past one and a half a card (a 60-card deck needs
#: 85 words on average, 94 at the 90th percentile, 103 at the 99th: a few draws are rejected):
#: each word drawn costs its conversions to an int and to bytes, and a word drawn for nothing
#: costs as much as one used, so the first batch covers most shuffles (98 words for 60 cards)
#: and :data:`_WORDS_MORE` more are drawn whenever they are used up.
_WORDS_FIRST: Final = 8
#: Words drawn again whenever :func:`shuffle_seeded`'s are used up.
_WORDS_MORE: Final = 32


def shuffle_seeded(text: str, x: list[T]) -> None:
    """``random.Random(text).shuffle(x)``: the same permutation, the generator used for nothing else.

    Why (issue 48): every seeded deal shuffles with a generator of its own, seeded with a
    text (:func:`atout.core.game.seed_text`) and thrown away after; the ``getrandbits``
    call per card was most of a deal's cost.  The shuffle's draw ``getrandbits(k)``
    (``k = n.bit_length()``, at most 8 here) is the top ``k`` bits of the generator's
    next 32-bit word, and ``getrandbits(32 * m)`` is its next ``m`` words, the first in the
    low bits: so the words are drawn a batch at a time and each draw reads the top byte
    of its word.  The same words in the same order, rejected as CPython rejects them:
    the same permutation.  Words drawn past the shuffle's last are never used (the
    generator is this function's).  A list of more than 255 items shuffles through
    ``random.Random(text).shuffle`` itself.
    """
    size = len(x)
    if size > 255:  # a draw of 9 bits or more: not one byte of a word
        random.Random(text).shuffle(x)
        return
    generator = text_seeded(text)
    words = size + size // 2 + _WORDS_FIRST
    data = generator.getrandbits(32 * words).to_bytes(4 * words, "little")
    at = 3  # the top byte of the first word (each word's bytes low first)
    end = len(data)
    for i in range(size - 1, 0, -1):
        n = i + 1
        shift = 8 - n.bit_length()
        while True:
            if at >= end:
                data = generator.getrandbits(32 * _WORDS_MORE).to_bytes(4 * _WORDS_MORE, "little")
                at, end = 3, len(data)
            j = data[at] >> shift
            at += 4
            if j < n:
                break
        x[i], x[j] = x[j], x[i]
