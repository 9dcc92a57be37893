"""Bit tricks on uint64 arrays: popcount, the k-th set bit, the lowest set bit.

Why bitmasks: a batch game's hand is a slot bitmask, as in the engine, and its legal
actions one uint64 (plus an offset into the action space), so legality and a
uniform random choice cost a few operations on (N,) arrays instead of
operations on (N, num_actions) masks — the difference between beating
OpenSpiel's C++ loop and not.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

U64 = np.uint64

#: Set bits per byte value.
POP8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.uint8)


def _select_table(width: int) -> NDArray[np.int8]:
    """``table[v, k]``: position of the k-th (0-based) set bit of ``v`` (0 when absent)."""
    values = np.arange(1 << width, dtype=np.int64)
    present = (values[:, None] >> np.arange(width)) & 1
    rank = np.cumsum(present, axis=1) - 1
    table = np.zeros((1 << width, width), dtype=np.int8)
    v, p = np.nonzero(present)
    table[v, rank[v, p]] = p
    return table


#: ``SELECT16[v * 16 + k]``: position of the k-th set bit of the 16-bit ``v`` (1 MB).
SELECT16 = _select_table(16).reshape(-1)


def popcount(x: NDArray[np.uint64]) -> NDArray[np.intp]:
    """Set bits of each element (as intp: the counts index and multiply)."""
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(x).astype(np.intp)
    as_bytes = np.ascontiguousarray(x, dtype="<u8").view(np.uint8).reshape(*x.shape, 8)
    result: NDArray[np.intp] = POP8[as_bytes].sum(axis=-1, dtype=np.intp)
    return result


def lowest_bit(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """``x & -x``: the lowest set bit (0 for 0)."""
    result: NDArray[np.uint64] = x & (~x + U64(1))
    return result


def trailing_zeros(x: NDArray[np.uint64]) -> NDArray[np.intp]:
    """Index of the lowest set bit (64 for 0)."""
    return popcount(lowest_bit(x) - U64(1))


def select_bit(x: NDArray[np.uint64], k: NDArray[np.intp]) -> NDArray[np.intp]:
    """Index of the ``k``-th (0-based) set bit of each element; ``k`` must be < popcount.

    Two levels of binary search on popcounts (32, then 16 bits), then a table.
    """
    low = x & U64(0xFFFFFFFF)
    count = popcount(low)
    up = k >= count
    k = k - np.where(up, count, 0)
    x = np.where(up, x >> U64(32), low)
    pos = up * 32
    low = x & U64(0xFFFF)
    count = popcount(low)
    up = k >= count
    k -= np.where(up, count, 0)
    x = np.where(up, x >> U64(16), low)
    pos += up * 16
    index = (x & U64(0xFFFF)).astype(np.intp)
    index *= 16
    index += k
    result: NDArray[np.intp] = pos + SELECT16[index]
    return result


def unpack(x: NDArray[np.uint64], width: int) -> NDArray[np.bool_]:
    """(N, width) booleans: bit j of each element.

    One ``np.unpackbits`` of the little-endian bytes (bit j of the element is bit j % 8 of byte
    j // 8): a compiled pass, where shifting by each position made a (N, width) uint64
    temporary and two more passes (a tenth of a step with learned opponents, measured).
    """
    as_bytes = np.ascontiguousarray(x, dtype="<u8").view(np.uint8).reshape(len(x), 8)
    result: NDArray[np.bool_] = np.unpackbits(as_bytes, axis=1, count=width, bitorder="little").view(bool)
    return result
