"""Sticheln's cards, their notation and the bit layout the engine computes with.

The deck depends on the number of players so that everyone gets 15 cards (see
src/atout/i18n/en/rules/sticheln.md for the table): 3 players use values 0..8 in 5 colours,
4 players 0..11, 5 players 0..14, 6 players 0..14 in 6 colours, and the big-box
deck serves 7 (0..17, 15 each) and 8 players (0..18, 14 each).

A **card kind** is ``colour * values + value`` where ``values`` is the number of
values per colour *in this configuration*, so the kinds of a deck are exactly
``0 .. colours * values - 1``: the action space has no holes, and a hand is an
integer bitmask of kinds in which a colour is one contiguous run of bits.
Every card is unique (one copy of each colour/value), so kinds are also the
physical cards.

Notation: a colour letter and the value, ``B7`` (blue 7), ``V14``, ``R0``.
Colours, in index order: blue, green, red, yellow, orange, violet; violet is
the sixth colour, removed below 6 players.
"""

from __future__ import annotations

import re
from typing import Final

from ...core.bits import bits_of, mask_of_bits
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.reason import Quoted, reason

COLOURS: Final = ("blue", "green", "red", "yellow", "orange", "violet")
COLOUR_LETTERS: Final = "BGRYOV"

#: players -> (number of colours, highest value, cards dealt to each player)
DECKS: Final[dict[int, tuple[int, int, int]]] = {
    3: (5, 8, 15),
    4: (5, 11, 15),
    5: (5, 14, 15),
    6: (6, 14, 15),
    7: (6, 17, 15),
    8: (6, 18, 14),
}


class Deck:
    """The deck of one configuration: sizes, bit masks and per-kind tables.

    Built once per game (the tables make ``colour_of``/``value_of`` list lookups
    in the engine's inner loop rather than divisions).
    """

    __slots__ = (
        "colour_mask",
        "colour_of",
        "colours",
        "full",
        "hand_size",
        "size",
        "texts",
        "value_of",
        "values",
    )  # fmt: skip

    def __init__(self, players: int) -> None:
        colours, top, hand_size = DECKS[players]
        self.colours = colours
        self.values = top + 1
        self.size = colours * self.values
        self.hand_size = hand_size
        self.full = (1 << self.size) - 1
        run = (1 << self.values) - 1
        self.colour_mask = tuple(run << (c * self.values) for c in range(colours))
        self.colour_of = tuple(k // self.values for k in range(self.size))
        self.value_of = tuple(k % self.values for k in range(self.size))
        self.texts = tuple(f"{COLOUR_LETTERS[self.colour_of[k]]}{self.value_of[k]}" for k in range(self.size))

    def kind(self, colour: int, value: int) -> int:
        return colour * self.values + value

    def text(self, kind: int) -> str:
        return self.texts[kind]

    def parse(self, text: str) -> int:
        """Card kind for ``B7`` (case-insensitive); ``ValueError`` names the deck otherwise."""
        t = text.strip().lower()
        letters = COLOUR_LETTERS[: self.colours].lower()
        if len(t) >= 2 and t[0] in letters and t[1:].isdigit():
            value = int(t[1:])
            if value < self.values:
                return self.kind(letters.index(t[0]), value)
        top = COLOUR_LETTERS[: self.colours]
        raise Explained(
            reason("sticheln.not_a_card", text=Quoted(text), letters=", ".join(top), hi=self.values - 1)
        )

    #: Card kinds present in a mask, ascending.  Kinds are the bits (every card is
    #: unique), so the core loops serve as they are.
    kinds_in = staticmethod(bits_of)
    #: The mask of some card kinds.
    mask_of = staticmethod(mask_of_bits)

    def hand_text(self, mask: int) -> str:
        return " ".join(self.texts[k] for k in self.kinds_in(mask))


def card_name(text: str) -> CardName:
    """The parts of a Sticheln card's name, in any deck size (``ValueError`` if ``text`` is not one)."""
    m = re.fullmatch(r"([BGRYOV])(\d{1,2})", text)
    if not m:
        raise ValueError(f"{text!r} is not a Sticheln card")
    return CardName(rank=str(int(m.group(2))), colour=COLOURS[COLOUR_LETTERS.index(m.group(1))])
