"""Le Nain Jaune's cards, their notation, the board and the bit layout.

A card id is ``suit * 13 + rank - 1`` with suits clubs, diamonds, hearts, spades
(0..3) and ranks ace (1) to king (13): 52 ids, one per physical card (no
duplicates, unlike Wizard), so a hand is simply a 52-bit integer mask.  Sequences
ignore suits, so the engine mostly asks "does this hand hold rank r?", which is
one AND with :data:`RANK_MASK` ``[r]``.

Notation: rank then suit letter, ``7D`` (7♦), ``10D``, ``JC``, ``QS``, ``KH``,
``AS``.  Suit symbols are accepted too (``7♦``, ``K♥``), as are ``1`` for the ace,
``T`` for the ten and the suit written first (``D7``).

The board: five boxes, in the order of their stake (1 to 5 tokens a player a
deal): 10♦, J♣, Q♠, K♥ and the Nain Jaune itself, 7♦.
"""

from __future__ import annotations

from typing import Final

from ...core.bits import bits_of, mask_of_bits
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.reason import Quoted, reason

SUITS: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = 13
NUM_CARDS: Final = 52
FULL_MASK: Final = (1 << NUM_CARDS) - 1
KING: Final = 13

_RANK_TEXT: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_WORDS: Final = {
    **{t.lower(): r for r, t in enumerate(_RANK_TEXT) if r},
    "1": 1,
    "t": 10,
}
_SUIT_CHARS: Final = {
    **{c.lower(): i for i, c in enumerate(SUIT_LETTERS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    **{c: i for i, c in enumerate("♧♢♡♤")},
}


def card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (1..13) in ``suit`` (0..3)."""
    return suit * RANKS + rank - 1


def rank_of(c: int) -> int:
    return c % RANKS + 1


def suit_of(c: int) -> int:
    return c // RANKS


#: ``RANK_MASK[r]``: the four cards of rank ``r`` (index 0 unused, 0).
RANK_MASK: Final = (0, *(sum(1 << card(r, s) for s in range(4)) for r in range(1, RANKS + 1)))

#: Board cards in box order, and each box's stake per player per deal (× stake unit).
BOARD: Final = (card(10, 1), card(11, 0), card(12, 3), card(13, 2), card(7, 1))
BOX_STAKES: Final = (1, 2, 3, 4, 5)
BOX_NAMES: Final = ("10♦", "J♣", "Q♠", "K♥", "7♦ Nain Jaune")
#: Box index of each card id, -1 for ordinary cards.
BOX_OF: Final = tuple(BOARD.index(c) if c in BOARD else -1 for c in range(NUM_CARDS))
BOARD_MASK: Final = sum(1 << c for c in BOARD)
#: Tokens every player stakes on the board per deal (per stake unit).
STAKE_TOTAL: Final = sum(BOX_STAKES)


def points(c: int) -> int:
    """What a card left in hand costs at the end of a deal: faces 10, others their value."""
    r = c % RANKS + 1
    return 10 if r > 10 else r


#: ``POINTS[c]`` for every card id (the inner loop reads it).
POINTS: Final = tuple(points(c) for c in range(NUM_CARDS))


def card_text(c: int) -> str:
    return f"{_RANK_TEXT[c % RANKS + 1]}{SUIT_LETTERS[c // RANKS]}"


def card_symbol(c: int) -> str:
    """The card with its suit symbol (``7♦``), for screens."""
    return f"{_RANK_TEXT[c % RANKS + 1]}{SUIT_SYMBOLS[c // RANKS]}"


def rank_text(r: int) -> str:
    return _RANK_TEXT[r]


def parse_card(text: str) -> int:
    """Card id for ``7D``/``10♦``/``D7``/``KH`` (case-insensitive); ``ValueError`` otherwise."""
    t = text.strip().lower()
    if len(t) >= 2:
        for rank_part, suit_part in ((t[:-1], t[-1]), (t[1:], t[0])):
            r = _RANK_WORDS.get(rank_part)
            s = _SUIT_CHARS.get(suit_part)
            if r is not None and s is not None:
                return card(r, s)
    raise Explained(reason("nain_jaune.not_a_card", text=Quoted(text)))


#: Card ids present in a mask, ascending.  One bit per card id, so the core
#: loops serve as they are (bound, not wrapped: views and samplers call them).
cards_in = bits_of
#: The mask of some card ids.
mask_of = mask_of_bits


def by_rank(cards: list[int] | tuple[int, ...]) -> list[int]:
    """Cards sorted by rank, then suit (how a player holds them)."""
    return sorted(cards, key=lambda c: (c % RANKS, c // RANKS))


def hand_points(mask: int) -> int:
    return sum(POINTS[c] for c in cards_in(mask))


def hand_text(mask: int) -> str:
    return " ".join(card_text(c) for c in by_rank(cards_in(mask)))


def ranks_text(rank_mask: int) -> str:
    """Ranks of a 13-bit rank mask (bit ``r - 1`` for rank ``r``), e.g. ``"7 K"``."""
    return " ".join(_RANK_TEXT[r] for r in range(1, RANKS + 1) if rank_mask >> (r - 1) & 1)


#: Cards a player gets, by number of players (2 players: jouelejeuvaison's variant).
HAND_SIZES: Final = {2: 22, 3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}


def card_name(text: str) -> CardName:
    """The parts of a Le Nain Jaune card's name (``ValueError`` if ``text`` is not one)."""
    c = parse_card(text)
    return CardName(rank=rank_text(rank_of(c)), suit=SUIT_LETTERS[suit_of(c)])
