"""Card sets as bit masks: the few loops every game's cards module needs (issue 19).

The engines keep hands and piles as Python ints, one bit per card slot; the
loops that turn a mask back into a list, or a multiset of card kinds into the
slots they fill, were written once per game.

>>> bits_of(0b101001)
[0, 3, 5]
>>> mask_of_bits([0, 3, 5])
41
>>> fill_slots([7, 7], lambda kind: 0b11 << kind, str)
384
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from .errors import Explained
from .reason import Card, reason

#: ``_BYTE_BITS[k][b]``: the indices of the set bits of byte ``b`` shifted to byte ``k`` of a mask
#: (bits ``8k .. 8k + 7``), for masks up to :data:`_TABLE_BITS` bits: a hand becomes a list a byte
#: at a time, in a few table reads instead of a loop step per card (the engines' hottest loop).
_BYTE_BITS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(k * 8 + i for i in range(8) if b >> i & 1) for b in range(256)) for k in range(16)
)
_TABLE_BITS: Final = 8 * len(_BYTE_BITS)


def bits_of(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, ascending."""
    out: list[int] = []
    if mask >> _TABLE_BITS:  # wider than the table (no shipped game's deck): a step per bit
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    k = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out += _BYTE_BITS[k][byte]
        mask >>= 8
        k += 1
    return out


def mask_of_bits(indices: Iterable[int]) -> int:
    """The mask with the bits ``indices`` set: :func:`bits_of` undone (a repeated index sets its bit once)."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def fill_slots(kinds: Iterable[int], slots_of_kind: Callable[[int], int], text: Callable[[int], str]) -> int:
    """The slot mask of a multiset of card kinds, each copy taking its kind's lowest free slot.

    Raises ValueError naming the card (``text(kind)``) when a kind is given more
    times than the deck has copies of it.
    """
    mask = 0
    for kind in kinds:
        free = slots_of_kind(kind) & ~mask
        if not free:
            raise Explained(reason("notation.too_many_copies", card=Card(text(kind))))
        mask |= free & -free
    return mask
