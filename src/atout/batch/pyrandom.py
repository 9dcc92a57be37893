"""CPython's ``random.Random(text)`` for many seed texts at once, in numpy: the engine's deals, vectorised.

Why this exists: the engine deals each round from
``seeded_rng(seed, "round", r).shuffle(list(range(60)))`` (:func:`atout.core.game.seeded_rng`).
A batch that must deal *the same cards* from the same seeds has to reproduce that
stream bit for bit.  Building one ``random.Random`` per (game, round) in a Python
loop (the Mersenne Twister's ``init_by_array`` runs in C, but once per row) and
shuffling 60 cards with it costs ≈ 12 µs a round, ≈ 180 µs a 4-player match:
about what OpenSpiel's whole C++ loop takes for as many decisions.  Here the
same computation runs column-wise over thousands of rows (≈ 40 µs a match):

* :func:`_keys` — the integer that ``Random.seed(str)`` (version 2) feeds
  the generator: the text's UTF-8 bytes followed by their SHA-512 digest, read
  big-endian, split into little-endian 32-bit words (``hashlib`` per row: the
  only Python loop, ≈ 0.3 µs a row);
* :func:`first_outputs` / :func:`outputs_in_key_order` — the reference ``init_by_array`` (the same as CPython's
  ``_randommodule.c``), then the first ``count`` tempered outputs, i.e. what
  successive ``getrandbits(32)`` calls return;
* :func:`shuffle_indices` / :func:`randbelow` — ``Random.shuffle`` and
  ``Random._randbelow`` (``getrandbits(k)`` is the top ``k`` bits of one
  32-bit output; rejected draws consume outputs), per row.

Each function checks the one assumption it cannot vectorise (a row needing
more outputs than computed) and reports it, so callers fall back to the real
``random.Random`` for that row: the result is exact either way.  The tests
compare every path with ``random.Random`` itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

N = 624
M = 397
#: Outputs computable from the seeded state without a second twist (the first
#: ``N - M`` words of the first twist only read words not yet rewritten).
MAX_OUTPUTS = N - M
#: Rows per ``init_by_array`` pass: the state is (624, rows) uint32, 40 MB here.
CHUNK = 16384

_U32 = np.uint32


def _init_genrand(seed: int) -> NDArray[np.uint32]:
    mt = [0] * N
    mt[0] = seed
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    return np.array(mt, dtype=np.uint32)


#: ``init_genrand(19650218)``: the same for every seed, the start of ``init_by_array``.
_MT_START = _init_genrand(19650218)


def seed_material(text: str | bytes) -> bytes:
    """The bytes whose big-endian integer ``random.Random(text)`` seeds with (seed version 2)."""
    raw = text.encode() if isinstance(text, str) else text
    return raw + hashlib.sha512(raw).digest()


def _keys(
    raw: Sequence[bytes],
) -> tuple[NDArray[np.intp], list[tuple[int, NDArray[np.uint32]]], list[int]]:
    """The ``init_by_array`` keys: (row order, [(key_length, (key_length, rows) keys)], odd rows).

    Rows come sorted by key length (``order``), groups in that order.  A key
    has ``ceil(len(material) / 4)`` words when the material's first byte is not
    zero — always for the seed texts the engine builds (a digit or '-'); the
    other rows ("odd") are left to the real generator.
    """
    sha = hashlib.sha512
    materials = [b + sha(b).digest() for b in raw]
    lengths = np.fromiter(map(len, materials), dtype=np.intp, count=len(materials))
    words = (lengths + 3) // 4
    order = np.argsort(words, kind="stable")
    groups: list[tuple[int, NDArray[np.uint32]]] = []
    odd: list[int] = []
    kept: list[NDArray[np.intp]] = []
    for key_length in np.unique(words).tolist():
        rows = order[words[order] == key_length]
        keys = np.zeros((rows.size, key_length * 4), dtype=np.uint8)
        good = np.ones(rows.size, dtype=bool)
        for length in np.unique(lengths[rows]).tolist():
            part = np.flatnonzero(lengths[rows] == length)
            data = np.frombuffer(b"".join([materials[r] for r in rows[part].tolist()]), dtype=np.uint8)
            data = data.reshape(part.size, length)
            good[part] = data[:, 0] != 0
            # Little-endian bytes of the integer: the material reversed, zero-padded on top.
            keys[part, :length] = data[:, ::-1]
        if key_length >= N - 1:  # an absurdly long seed text
            good[:] = False
        odd.extend(rows[~good].tolist())
        if good.any():
            kept.append(rows[good])
            groups.append((key_length, keys[good].view("<u4").astype(np.uint32).T.copy()))
    order = np.concatenate(kept) if kept else np.zeros(0, dtype=np.intp)
    return order, groups, odd


def _init_by_array(groups: list[tuple[int, NDArray[np.uint32]]]) -> NDArray[np.uint32]:
    """The seeded state (624, rows) of ``init_by_array`` per column; the groups' columns side by side.

    Column-wise, in place: each of the 1247 sequential steps is five numpy
    operations on a contiguous row of the state (plus one copy per extra key
    length, to line the keys up).
    """
    rows = sum(keys.shape[1] for _, keys in groups)
    mt = np.empty((N, rows), dtype=np.uint32)
    mt[0] = _MT_START[0]
    bounds = []
    at = 0
    for length, keys in groups:
        assert length < N - 1, "keys this long are seeded by the fallback"
        bounds.append((at, at + keys.shape[1], length, keys + np.arange(length, dtype=np.uint32)[:, None]))
        at += keys.shape[1]
    key_row = np.empty(rows, dtype=np.uint32)
    t = np.empty(rows, dtype=np.uint32)
    mul1, mul2 = _U32(1664525), _U32(1566083941)
    i = 1
    for k in range(N):
        prev = mt[i - 1]
        np.right_shift(prev, 30, out=t)
        np.bitwise_xor(t, prev, out=t)
        np.multiply(t, mul1, out=t)
        # Before the wrap every mt[i] is still init_genrand's (a scalar here).
        np.bitwise_xor(t, mt[i] if k >= N - 1 else _MT_START[i], out=t)
        if len(bounds) == 1:
            key = bounds[0][3][k % bounds[0][2]]
        else:
            for lo, hi, length, keyj in bounds:
                key_row[lo:hi] = keyj[k % length]
            key = key_row
        np.add(t, key, out=mt[i])
        i = _next_index(mt, i)
    for _ in range(N - 1):
        prev = mt[i - 1]
        np.right_shift(prev, 30, out=t)
        np.bitwise_xor(t, prev, out=t)
        np.multiply(t, mul2, out=t)
        np.bitwise_xor(t, mt[i], out=t)
        np.subtract(t, _U32(i), out=mt[i])
        i = _next_index(mt, i)
    mt[0] = 0x80000000
    return mt


def _next_index(mt: NDArray[np.uint32], i: int) -> int:
    """``init_by_array``'s ``i++`` (both loops): past the last word it wraps to 1, ``mt[0]`` taking ``mt[N - 1]``.

    The word a step reads as ``mt[i - 1]`` is then always the one the step before wrote.
    """
    if i + 1 < N:
        return i + 1
    mt[0] = mt[N - 1]
    return 1


def _outputs(mt: NDArray[np.uint32], count: int) -> NDArray[np.uint32]:
    """The first ``count`` tempered outputs (count <= 227) of a freshly seeded state."""
    y = (mt[:count] & _U32(0x80000000)) | (mt[1 : count + 1] & _U32(0x7FFFFFFF))
    v = mt[M : M + count] ^ (y >> _U32(1))
    v ^= (y & _U32(1)) * _U32(0x9908B0DF)
    v ^= v >> _U32(11)
    v ^= (v << _U32(7)) & _U32(0x9D2C5680)
    v ^= (v << _U32(15)) & _U32(0xEFC60000)
    v ^= v >> _U32(18)
    return v


def first_outputs(texts: Sequence[str | bytes], count: int) -> NDArray[np.uint32]:
    """(count, rows): row ``r``'s column holds ``[Random(texts[r]).getrandbits(32) for _ in range(count)]``.

    ``texts`` may be given as their UTF-8 bytes (what ``Random.seed`` hashes).
    """
    raw = [t.encode() if isinstance(t, str) else t for t in texts]
    order, words = outputs_in_key_order(raw, count)
    out = np.empty_like(words)
    out[:, order] = words
    return out


def outputs_in_key_order(raw: Sequence[bytes], count: int) -> tuple[NDArray[np.intp], NDArray[np.uint32]]:
    """(order, words): column ``i`` of ``words`` holds the first ``count`` outputs of ``Random(raw[order[i]])``.

    The columns come grouped by key length (each group seeds in one pass): a
    caller that keeps its rows in this order (and un-permutes only its own,
    smaller, results) saves a scatter of every word.
    """
    if not 0 < count <= MAX_OUTPUTS:
        raise ValueError(f"count must be 1..{MAX_OUTPUTS}")
    order, groups, odd = _keys(raw)
    words = np.empty((count, len(raw)), dtype=np.uint32)
    done = 0
    pending: list[tuple[int, NDArray[np.uint32]]] = []
    pending_rows = 0

    def flush() -> None:
        nonlocal done, pending, pending_rows
        if pending:
            words[:, done : done + pending_rows] = _outputs(_init_by_array(pending), count)
            done += pending_rows
        pending, pending_rows = [], 0

    for length, keys in groups:
        start = 0
        while start < keys.shape[1]:
            take = min(CHUNK - pending_rows, keys.shape[1] - start)
            pending.append((length, keys[:, start : start + take]))
            pending_rows += take
            start += take
            if pending_rows >= CHUNK:
                flush()
    flush()
    for i, r in enumerate(odd):
        words[:, done + i] = _python_outputs(raw[r], count)
    return np.concatenate([order, np.array(odd, dtype=np.intp)]), words


def _python_outputs(text: str | bytes, count: int) -> list[int]:
    import random

    rng = random.Random(text)
    return [rng.getrandbits(32) for _ in range(count)]


def randbelow(
    words: NDArray[np.uint32], pos: NDArray[np.intp], n: int
) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
    """``Random._randbelow(n)`` per column of ``words`` from output ``pos`` (advanced in place).

    Returns (values, exhausted): ``exhausted`` marks columns that ran out of
    outputs (their value is meaningless; the caller redoes them in Python).
    """
    count, rows = words.shape
    cols = np.arange(rows, dtype=np.intp)
    at = pos * rows + cols
    values = _draw(np.ascontiguousarray(words).reshape(-1), at, rows, n)
    pos[:] = (at - cols) // rows
    return values.astype(np.intp), pos > count


def _draw(flat: NDArray[np.uint32], at: NDArray[np.intp], rows: int, n: int) -> NDArray[np.uint32]:
    """One ``_randbelow(n)`` per column; ``at`` (flat index of each column's next output) advances.

    A column past its last output reads the last one again and stops
    rejecting (the caller sees ``at`` beyond the end and discards it).
    """
    shift = _U32(32 - n.bit_length())
    last = flat.size - 1
    limit = _U32(n)
    values = flat.take(at, mode="clip") >> shift
    at += rows
    bad = np.flatnonzero(values >= limit)
    while bad.size:
        where = at[bad]
        drawn = flat.take(where, mode="clip") >> shift
        at[bad] = where + rows
        values[bad] = drawn
        bad = bad[(drawn >= limit) & (where <= last)]
    # A column that ran out may hold a value >= n: kept in range so that callers can index with it
    # (they discard what it gives: its ``at`` says it ran out).
    np.minimum(values, limit - _U32(1), out=values)
    return values


def shuffle_indices(words: NDArray[np.uint32], size: int) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
    """``Random.shuffle(list(range(size)))`` per column: ((size, rows) int8 permutation, exhausted)."""
    count, rows = words.shape
    if size > 128:
        raise ValueError("the int8 permutation holds at most 128 items")
    flat_words = np.ascontiguousarray(words).reshape(-1)
    cols = np.arange(rows, dtype=np.intp)
    deck = np.repeat(np.arange(size, dtype=np.int8)[:, None], rows, axis=1)
    flat = deck.reshape(-1)
    at = cols.copy()
    for i in range(size - 1, 0, -1):
        j = _draw(flat_words, at, rows, i + 1)
        where = j.astype(np.intp)
        where *= rows
        where += cols
        held = flat.take(where)
        flat[where] = deck[i]
        deck[i] = held
    return deck, at - cols > count * rows


def python_shuffle(text: str | bytes, size: int) -> list[int]:
    """The reference: what the engine computes for one row."""
    import random

    deck = list(range(size))
    random.Random(text).shuffle(deck)
    return deck


def python_randbelow(text: str | bytes, n: int) -> int:
    """The reference: ``randrange(n)``, i.e. ``_randbelow(n)``, as the engine draws its first dealer."""
    import random

    return random.Random(text).randrange(n)
