"""Wizard's cards, their notation and the bit layout the engine computes with.

Two numberings, on purpose:

* a **card kind** (0..53) is what a player sees and plays: 52 ordinary cards
  ``suit * 13 + rank - 1`` (suits blue, green, red, yellow; ranks 1..13), then
  ``Z`` (a Wizard, 52) and ``N`` (a Jester, 53).  The four Wizards are
  interchangeable in play, so "play Z" is one action, not four: a search bot
  would otherwise see four identical moves.
* a **slot** (0..59) is a physical card: slots 0..51 are the ordinary cards
  (slot == kind), 52..55 the Wizards and 56..59 the Jesters.  A hand is an
  integer bitmask of slots; follow-suit and card conservation are then a few
  bit operations.

Notation: ``B7`` (blue 7), ``G13``, ``R1``, ``Y12``, ``Z`` (Wizard), ``N`` (Jester).
"""

from __future__ import annotations

from typing import Final

from ...core.bits import fill_slots
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.reason import Quoted, reason

SUITS: Final = ("blue", "green", "red", "yellow")
SUIT_LETTERS: Final = "BGRY"
RANKS: Final = 13
WIZARD: Final = 52
JESTER: Final = 53
NUM_KINDS: Final = 54
NUM_SLOTS: Final = 60

SUIT_MASK: Final = tuple(((1 << RANKS) - 1) << (RANKS * s) for s in range(4))
WIZARD_MASK: Final = 0xF << 52
JESTER_MASK: Final = 0xF << 56
SPECIAL_MASK: Final = WIZARD_MASK | JESTER_MASK
FULL_MASK: Final = (1 << NUM_SLOTS) - 1


def suit_of(kind: int) -> int:
    """Suit of an ordinary card kind (0..3); -1 for a Wizard or a Jester."""
    return kind // RANKS if kind < WIZARD else -1


def rank_of(kind: int) -> int:
    """Rank 1..13 of an ordinary card kind; 0 for a Wizard or a Jester."""
    return kind % RANKS + 1 if kind < WIZARD else 0


def card_text(kind: int) -> str:
    if kind == WIZARD:
        return "Z"
    if kind == JESTER:
        return "N"
    return f"{SUIT_LETTERS[kind // RANKS]}{kind % RANKS + 1}"


_WORDS: Final = {"z": WIZARD, "wizard": WIZARD, "n": JESTER, "jester": JESTER}


def parse_card(text: str) -> int:
    """Card kind for ``B7``/``Z``/``N`` (case-insensitive); ``ValueError`` otherwise."""
    t = text.strip().lower()
    if t in _WORDS:
        return _WORDS[t]
    if len(t) >= 2 and t[0] in "bgry" and t[1:].isdigit():
        rank = int(t[1:])
        if 1 <= rank <= RANKS:
            return "bgry".index(t[0]) * RANKS + rank - 1
    raise Explained(reason("wizard.not_a_card", text=Quoted(text)))


def parse_suit(text: str) -> int:
    t = text.strip().lower()
    for i, name in enumerate(SUITS):
        if t in (name, name[0]):
            return i
    raise Explained(reason("wizard.not_a_suit", text=Quoted(text)))


def kind_of_slot(slot: int) -> int:
    if slot < 52:
        return slot
    return WIZARD if slot < 56 else JESTER


def slots_of_kind(kind: int) -> int:
    """Mask of the physical slots that hold cards of ``kind``."""
    if kind == WIZARD:
        return WIZARD_MASK
    if kind == JESTER:
        return JESTER_MASK
    return 1 << kind


def _suit_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    tables = []
    for s in range(4):
        table = []
        for m in range(1 << RANKS):
            table.append(tuple(s * RANKS + r for r in range(RANKS) if m >> r & 1))
        tables.append(tuple(table))
    return tuple(tables)


#: ``SUIT_KINDS[s][m]``: the card kinds of suit ``s`` present in the 13-bit mask ``m``.
SUIT_KINDS: Final = _suit_tables()


def kinds_in(mask: int) -> list[int]:
    """Card kinds present in a slot mask, ascending, Wizard/Jester once each."""
    out: list[int] = []
    for s in range(4):
        bits = (mask >> (RANKS * s)) & 0x1FFF
        if bits:
            out.extend(SUIT_KINDS[s][bits])
    if mask & WIZARD_MASK:
        out.append(WIZARD)
    if mask & JESTER_MASK:
        out.append(JESTER)
    return out


def cards_in(mask: int) -> list[int]:
    """Card kinds of a slot mask with multiplicity (two Wizards give Z twice)."""
    out = kinds_in(mask & ~SPECIAL_MASK)
    if mask & SPECIAL_MASK:  # none held (often): two lists and two calls saved at a view
        out.extend([WIZARD] * (mask & WIZARD_MASK).bit_count())
        out.extend([JESTER] * (mask & JESTER_MASK).bit_count())
    return out


def mask_of(kinds: list[int] | tuple[int, ...]) -> int:
    """Slot mask for a multiset of card kinds (Wizards/Jesters fill slots in order)."""
    return fill_slots(kinds, slots_of_kind, card_text)


def hand_text(mask: int) -> str:
    return " ".join(card_text(k) for k in cards_in(mask))


def card_name(text: str) -> CardName:
    """The parts of a Wizard card's name (``ValueError`` if ``text`` is not one)."""
    kind = parse_card(text)
    if kind == WIZARD:
        return CardName(special="Z")
    if kind == JESTER:
        return CardName(special="N")
    return CardName(rank=str(rank_of(kind)), colour=SUITS[suit_of(kind)])
