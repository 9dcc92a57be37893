"""Le Malin's cards, their notation and the bit layout the engine computes with.

Two numberings, as in Wizard:

* a **card kind** (0..35) is what a player plays: the numbered cards 1..34 are
  kinds 0..33 (``kind = number - 1``), the two Twins are one kind (``TWIN`` =
  34: they are interchangeable until played, so "play TWIN 35" is one action,
  not two) and the Wish is ``WISH`` = 35.
* a **slot** (0..36) is a physical card: slots 0..33 are the numbered cards,
  34 and 35 the Twins, 36 the Wish.  A hand is an integer bitmask of slots.

With 3 players only the numbers 1..19 are used and the Twins are worth 0 or 20.

Notation: ``17`` (a numbered card), ``TWIN`` (or ``T``), ``WISH`` (or ``W``).

Malheur cards ("jeu fun") are counted per type, never as slots: five types,
``MALIN``, ``AVOCAT``, ``SIX`` (666), ``BELZ`` (Belzébuth), ``FENNEC``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from ...core.bits import bits_of, fill_slots
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.reason import Quoted, reason

NUM_NUMBERS: Final = 34
TWIN: Final = 34
WISH: Final = 35
NUM_KINDS: Final = 36
NUM_SLOTS: Final = 37
TWIN_MASK: Final = 0b11 << 34
WISH_SLOT: Final = 36
WISH_MASK: Final = 1 << WISH_SLOT

#: An effective card value: an int, or an exact half (or quarter...) after Belzébuth.
Value = int | Fraction

# Malheur card types.
MALIN: Final = 0
AVOCAT: Final = 1
SIX: Final = 2
BELZ: Final = 3
FENNEC: Final = 4
NUM_MALHEURS: Final = 5
MALHEUR_NAMES: Final = ("malin", "avocat", "666", "belzebuth", "fennec")
MALHEUR_TITLES: Final = ("Le Malin", "L'Avocat du Diable", "666", "Belzébuth", "Fennec")
_MALHEUR_WORDS: Final = {
    "malin": MALIN,
    "le_malin": MALIN,
    "lemalin": MALIN,
    "avocat": AVOCAT,
    "avocat_du_diable": AVOCAT,
    "avocatdudiable": AVOCAT,
    "666": SIX,
    "six": SIX,
    "belzebuth": BELZ,
    "belzébuth": BELZ,
    "belz": BELZ,
    "fennec": FENNEC,
}


def top_number(players: int) -> int:
    """Highest numbered card in play: 19 with 3 players, 34 otherwise."""
    return 19 if players == 3 else 34


def twin_high(players: int) -> int:
    """The Twins' high value: 20 with 3 players, 35 otherwise."""
    return 20 if players == 3 else 35


def cards_per_player(players: int) -> int:
    """Cards dealt to each seat: 3p 7, 4p 9, 5p 7 (one card stays undealt), 6p 6."""
    return {3: 7, 4: 9, 5: 7, 6: 6}[players]


def deck_mask(players: int) -> int:
    """Slots in play at this table size (numbers, both Twins, the Wish)."""
    return ((1 << top_number(players)) - 1) | TWIN_MASK | WISH_MASK


def kind_of_slot(slot: int) -> int:
    if slot < TWIN:
        return slot
    return TWIN if slot < WISH_SLOT else WISH


def slots_of_kind(kind: int) -> int:
    if kind == TWIN:
        return TWIN_MASK
    if kind == WISH:
        return WISH_MASK
    return 1 << kind


def card_text(kind: int) -> str:
    if kind == TWIN:
        return "TWIN"
    if kind == WISH:
        return "WISH"
    return str(kind + 1)


def parse_card(text: str) -> int:
    """Card kind for ``17``/``TWIN``/``WISH`` (case-insensitive); ``ValueError`` otherwise."""
    t = text.strip().lower()
    if t in ("twin", "t", "twins", "jumeau", "jumeaux"):
        return TWIN
    if t in ("wish", "w"):
        return WISH
    if t.isdigit() and 1 <= int(t) <= NUM_NUMBERS:
        return int(t) - 1
    raise Explained(reason("malin.not_a_card", text=Quoted(text)))


#: The numbered cards' slots (each the card's kind).
NUMBERS_MASK: Final = (1 << NUM_NUMBERS) - 1
#: ``SPECIALS_HELD[mask >> 34]``: the kinds of the Twin and Wish slots set in ``mask``, ascending.
SPECIALS_HELD: Final = tuple(tuple(kind_of_slot(TWIN + i) for i in range(3) if m >> i & 1) for m in range(8))


def cards_in(mask: int) -> list[int]:
    """Card kinds of a slot mask, ascending, with multiplicity (two Twins give TWIN twice)."""
    out = bits_of(mask & NUMBERS_MASK)
    out.extend(SPECIALS_HELD[mask >> TWIN])
    return out


def mask_of(kinds: list[int] | tuple[int, ...]) -> int:
    """Slot mask for a multiset of card kinds (the Twins fill slots 34 then 35)."""
    return fill_slots(kinds, slots_of_kind, card_text)


def hand_text(mask: int) -> str:
    return " ".join(card_text(k) for k in cards_in(mask))


def parse_malheur(text: str) -> int:
    t = text.strip().lower().replace("-", "_").replace("'", "")
    if t in _MALHEUR_WORDS:
        return _MALHEUR_WORDS[t]
    raise Explained(reason("malin.not_a_malheur", text=Quoted(text)))


def value_text(value: Value) -> str:
    """A value as players write it: ``17``, ``17.5``, ``-4.25``."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return str(float(value))


def value_json(value: Value) -> int | float:
    """JSON form of a value (halves are dyadic, so a float is exact)."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return float(value)


def reverse_digits(value: int, pad_to_two: bool) -> int:
    """666's effect: the decimal digits reversed, sign kept (19 -> 91, 30 -> 3, -45 -> -54).

    ``pad_to_two`` reads a single digit as two (7 is "07", so it becomes 70).
    """
    sign = -1 if value < 0 else 1
    digits = str(abs(value))
    if pad_to_two and len(digits) == 1:
        digits = "0" + digits
    return sign * int(digits[::-1])


def halve(value: Value, floor: bool) -> Value:
    """Belzébuth's effect: half the value, exact (35 -> 17.5) or rounded down (35 -> 17)."""
    if floor:
        return int(value) // 2 if isinstance(value, int) else int(value // 2)
    half = Fraction(value) / 2
    return int(half) if half.denominator == 1 else half


def card_name(text: str) -> CardName:
    """The parts of a Le Malin card's name (``ValueError`` if ``text`` is not one)."""
    kind = parse_card(text)
    if kind == TWIN:
        return CardName(special="TWIN")
    if kind == WISH:
        return CardName(special="WISH")
    return CardName(rank=card_text(kind))
