"""atout.core.rng draws exactly what random.Random's own methods draw (seeded deals and worlds stay bit for bit)."""

from __future__ import annotations

import random

import pytest

from atout.core import rng as R


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 54, 60, 129])
def test_shuffle_is_random_shuffle(size: int) -> None:
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        R.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.random() == theirs.random()  # the generators stay in step


def test_draws_are_random_draws() -> None:
    ours, theirs = random.Random("x"), random.Random("x")
    for n in [1, 2, 3, 7, 8, 9, 100, 2**40 + 3]:
        for _ in range(20):
            assert R.randrange(ours, n) == theirs.randrange(n)
            assert R.randint(ours, -3, n) == theirs.randint(-3, n)
            assert R.choice(ours, "abcdefghij"[: n % 10 + 1]) == theirs.choice("abcdefghij"[: n % 10 + 1])
    assert ours.random() == theirs.random()


def test_bad_arguments_are_refused_as_random_refuses_them() -> None:
    with pytest.raises(IndexError):
        R.choice(random.Random(1), [])
    with pytest.raises(ValueError):
        R.randrange(random.Random(1), 0)
    with pytest.raises(ValueError):
        R.randint(random.Random(1), 3, 2)


class _Own(random.Random):
    """A generator with its own ``random``: its methods draw without getrandbits."""

    def random(self) -> float:
        return 0.5


def test_other_generators_use_their_own_methods() -> None:
    a, b = list(range(10)), list(range(10))
    R.shuffle(_Own(1), a)
    _Own(1).shuffle(b)
    assert a == b
    assert R.choice(_Own(2), range(10)) == _Own(2).choice(range(10))
    assert R.randint(_Own(3), 0, 9) == _Own(3).randint(0, 9)


@pytest.mark.parametrize("keys", [(), ("round", 3), ("deal", 12), ("first-dealer",), ("é", -4, 2.5)])
def test_seeded_rng_is_random_seeded_with_its_text(keys: tuple[object, ...]) -> None:
    from atout.core.game import seeded_rng

    for seed in [0, 1, -7, 2**70, 123456789]:
        ours = seeded_rng(seed, *keys)
        theirs = random.Random(":".join(str(k) for k in (seed, *keys)))
        assert type(ours) is random.Random
        assert ours.getstate() == theirs.getstate()  # the C state and gauss_next
        assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
        assert ours.gauss(0, 1) == theirs.gauss(0, 1)


def test_weighted_is_random_choices() -> None:
    """Chance nodes' draw (sample_chance): the outcome ``random.choices`` gives, weights of every shape."""
    tables = [
        [(7, 1.0)],
        [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)],
        [(k, c / 60) for k, c in enumerate([4] * 13 + [2, 2, 1, 3])],  # copies left of each kind
        [(k, 1 / 3) for k in range(3)],  # sums that round: the same rounding
        [(k, 0.0 if k % 2 else 0.1) for k in range(9)],  # impossible outcomes never drawn
    ]
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        for table in tables:
            drawn = R.weighted(ours, table)
            assert drawn == theirs.choices([o for o, _ in table], [p for _, p in table])[0]
            assert dict(table)[drawn] > 0.0
        assert ours.random() == theirs.random()
    with pytest.raises(IndexError):
        R.weighted(random.Random(1), [])
    with pytest.raises(ValueError, match="greater than zero"):
        R.weighted(random.Random(1), [(1, 0.0), (2, 0.0)])
    with pytest.raises(ValueError, match="finite"):
        R.weighted(random.Random(1), [(1, float("inf"))])
    assert R.weighted(_Own(4), [(1, 0.5), (2, 0.5)]) == _Own(4).choices([1, 2], [0.5, 0.5])[0]


@pytest.mark.parametrize("text", ["", "0:round:1", "123456789:round:15", "-7:hand:3", "é:deal:2", "x" * 200])
def test_text_seeded_is_random_seeded_with_the_text(text: str) -> None:
    """The C generator of ``random.Random(text)``: the same words (a seeded deal's shuffle draws them)."""
    ours, theirs = R.text_seeded(text), random.Random(text)
    assert ours.getstate() == theirs.getstate()[1]  # random.Random's: (version, the C state, gauss_next)
    assert [ours.getrandbits(k) for k in (1, 6, 8, 31, 32, 33, 64, 2000)] == [
        theirs.getrandbits(k) for k in (1, 6, 8, 31, 32, 33, 64, 2000)
    ]
    assert ours.random() == theirs.random()
    assert R.below(R.text_seeded(text), 7) == random.Random(text).randrange(7)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 32, 33, 54, 60, 64, 65, 128, 255, 256, 300])
def test_shuffle_seeded_is_random_shuffle(size: int) -> None:
    """``shuffle_seeded(text, x)`` gives ``random.Random(text).shuffle(x)``'s permutation, every deck size
    (the word batches refilled on the larger ones, the fallback past 255 items)."""
    for seed in range(60):
        text = f"{seed}:round:{seed % 16}"
        ours, theirs = list(range(size)), list(range(size))
        R.shuffle_seeded(text, ours)
        random.Random(text).shuffle(theirs)
        assert ours == theirs
