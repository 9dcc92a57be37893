"""Le Nain Jaune's constants and pure rules: phases, the action space, the score sheet line.

The bottom of the package: it imports only the core and :mod:`.cards`, so the
state (:mod:`.game`), its views, the sampler, the tensors and the bots all read
the same table without importing one another in a circle.

The action space is the same in every configuration (54 ids), so its ranges
are named here once and tests and bots write ``PLAY_CARD(c)``, ``PASS_TURN()``
and ``CLAIM_BOX()`` rather than 19, 52 and 53.

>>> PLAY_CARD(C.parse_card("7D")), PASS_TURN(), CLAIM_BOX(), ACTIONS.size
(19, 52, 53, 54)
>>> ACTIONS.read("play 7♦"), ACTIONS.read("KH"), ACTIONS.text(PASS)
(19, 38, 'pass')
>>> ACTIONS.read("play 7X")
Traceback (most recent call last):
...
atout.core.errors.NotationError: 'play 7X': '7x' is not a card (write rank then suit: 7D, 10D, JC, QS, KH, AS or 7♦)
>>> ACTIONS.read("bid 3")
Traceback (most recent call last):
...
atout.core.errors.NotationError: 'bid 3' is not a Nain Jaune action: write 'play 7D', 'pass' or 'claim'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ...core.actions import ActionRange, ActionSpace, Reader
from . import cards as C
from .cards import BOX_STAKES, NUM_CARDS, RANK_MASK

# Phases of a deal (the module docstring of :mod:`.game` draws the machine).
FIRST_DEALER: Final = 0
DEAL: Final = 1
PLAY: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("first-dealer", "deal", "play", "over")

#: Player actions, in id order: play that card (the id is the card id), pass, claim a box.
PLAY_CARD: Final = ActionRange("play", NUM_CARDS, lambda c: f"play {C.card_text(c)}")
PASS_TURN: Final = ActionRange("pass", 1, lambda _: "pass")
CLAIM_BOX: Final = ActionRange("claim", 1, lambda _: "claim")


def _read_play(words: list[str]) -> int:
    """``play <card>``; a bare ``play`` is read as the card "play" (the message says it is none)."""
    if len(words) > 1:
        raise LookupError("play takes one card")
    return PLAY_CARD(C.parse_card(words[0] if words else "play"))


def _read_bare_card(words: list[str]) -> int:
    """A card without "play" (``7D``): the shorthand a table types."""
    if len(words) != 1:
        raise LookupError("a bare card is one word")
    return PLAY_CARD(C.parse_card(words[0]))


def _read_word(action: ActionRange) -> Reader:
    """A one-word action ("pass", "claim"): anything after it is no action at all."""

    def read(words: list[str]) -> int:
        if words:
            raise LookupError(action.name)
        return action()

    return read


#: The notation both ways; ``Game.space`` of every configuration.
ACTIONS: Final = ActionSpace(
    "Nain Jaune",
    (PLAY_CARD, PASS_TURN, CLAIM_BOX),
    examples=("play 7D", "pass", "claim"),
    readers={"play": _read_play, "pass": _read_word(PASS_TURN), "claim": _read_word(CLAIM_BOX)},
    fallback=_read_bare_card,
)
#: The ids the engine's inner loops compare with (derived from the ranges, never typed).
PASS: Final = PASS_TURN()
CLAIM: Final = CLAIM_BOX()
NUM_ACTIONS: Final = ACTIONS.size
#: Chance outcome ids: 0..51 deal that card, then "dealer k" at ``DEALER_BASE + k``.
DEALER_BASE: Final = NUM_CARDS


@dataclass(frozen=True, slots=True)
class DealResult:
    """One line of the score sheet: how a deal ended and what it cost each seat."""

    deal: int
    winner: int
    #: The winner went out before anyone else played a card (grand opéra variant).
    grand_opera: bool
    #: Points (or cards) each seat was caught with; 0 for the winner.
    owed: tuple[int, ...]
    #: Tokens each seat actually paid the winner (less than owed when short).
    paid: tuple[int, ...]
    #: Tokens each seat paid into the board for the board cards it was caught with.
    penalties: tuple[int, ...]
    #: Board cards each seat was caught with (box indices).
    kept: tuple[tuple[int, ...], ...]
    #: Every seat's tokens after the deal.
    tokens: tuple[int, ...]
    #: The board after the deal.
    boxes: tuple[int, ...]


def put_stakes(tokens: list[int], boxes: list[int], stake_unit: int) -> None:
    """Every player puts 1, 2, 3, 4, 5 (× ``stake_unit``) on the five boxes, in place.

    The state does it before each deal; the sampler redoes it to rebuild a
    deal's start from the score sheet, so both read this one rule.

    >>> tokens, boxes = [20, 20], [0, 1, 0, 0, 0]
    >>> put_stakes(tokens, boxes, 1)
    >>> tokens, boxes
    ([5, 5], [2, 5, 6, 8, 10])
    """
    n = len(tokens)
    for seat in range(n):
        tokens[seat] -= C.STAKE_TOTAL * stake_unit
    for box, stake in enumerate(BOX_STAKES):
        boxes[box] += stake * stake_unit * n


def lowest_rank(hand: int) -> int:
    """The cards of the hand's lowest rank (the ``first_card="lowest"`` variant's first card).

    >>> C.hand_text(lowest_rank(C.mask_of([4, 18]))), C.hand_text(lowest_rank(C.mask_of([4, 18, 17])))
    ('5C', '5C 5D')
    """
    for r in range(1, C.RANKS + 1):
        if hand & RANK_MASK[r]:
            return hand & RANK_MASK[r]
    return 0


def may_pass(need: int, playable: int, voluntary: bool) -> bool:
    """Whether a seat may pass: only on a needed rank, and only without it unless ``voluntary_stop``.

    ``playable`` is the mask of the cards the seat may play (of rank ``need``).
    """
    return bool(need) and (voluntary or not playable)
