"""Wizard's constants and pure rules: the phases, the card-play range, scoring.

The bottom of the package: it imports only :mod:`atout.core` and :mod:`.cards`,
so the state (:mod:`.game`), its views, the sampler, the position notation and
the tensors all read these from here and never from each other.

>>> PLAY_CARD(C.WIZARD), PLAY_CARD.text(PLAY_CARD(0)), PHASE_NAMES[BID]
(52, 'play B1', 'bid')
>>> round_score(2, 2), round_score(0, 3)
(40, -30)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from ...core.actions import ActionRange, ActionSpace, Reader, integer
from ...core.errors import Explained
from ...core.reason import Quoted, reason
from . import cards as C
from .cards import NUM_KINDS

# Phases of a round, in the order they come (``phase <= TURN_UP``: a chance node).  Final:
# the compiled engine inlines them (a module global is a dictionary lookup at each use).
FIRST_DEALER: Final = 0
DEAL: Final = 1
TURN_UP: Final = 2
TRUMP: Final = 3
BID: Final = 4
PLAY: Final = 5
OVER: Final = 6
PHASE_NAMES: Final = ("first-dealer", "deal", "turn-up", "trump", "bid", "play", "over")

# ``led`` values besides a suit: no ordinary card yet / a Wizard came first.
LED_NONE: Final = -1
LED_FREE: Final = -2

#: Per card kind, the slot mask of its copies; per slot, its kind (hot-loop tables).
SLOTS_OF_KIND: Final = tuple(C.slots_of_kind(k) for k in range(NUM_KINDS))
KIND_OF_SLOT: Final = tuple(C.kind_of_slot(s) for s in range(C.NUM_SLOTS))

#: Per table size, per leader: the seats in play order, to pair with a trick's
#: cards (a precomputed rotation: views zip rather than compute).
SEATS_FROM: Final = {
    n: tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n)) for n in range(3, 7)
}

#: Playing a card kind: ids 0..53 in every configuration (the id is the kind).
#: The bids, trumps and the blind play follow; their ids depend on the number of
#: players, so each game builds them (:func:`action_space`).
PLAY_CARD: Final = ActionRange("play", NUM_KINDS, lambda kind: f"play {C.card_text(kind)}")

#: The card plays alone: placing the range in a space fixes its ids (0..53) at
#: import, so that ``PLAY_CARD(kind)`` names an action before any game is built.
CARD_PLAYS: Final = ActionSpace("Wizard card", (PLAY_CARD,), examples=("play B7",))

#: The examples a refused text is answered with.
EXAMPLES: Final = ("play B7", "bid 2", "trump green")


def trick_lead(kinds: Sequence[int], trump: int | None) -> tuple[int, str]:
    """Which card of a trick (``kinds`` in play order, not empty) wins so far, and why.

    The why is a key for the table to say in words: ``"wizard"`` (the first Wizard beats
    everything), ``"trump"`` (the highest trump), ``"led"`` (the highest card of the suit
    led), ``"jesters"`` (Jesters only: the first).  The engine keeps the same winner
    incrementally (``WizardState._do``); this reads it from the public cards, for views.

    >>> B3, B9, G2 = 2, 8, 14
    >>> trick_lead([B3, B9, G2], trump=1)  # green is trump
    (2, 'trump')
    >>> trick_lead([C.JESTER, B3, B9], trump=None)
    (2, 'led')
    >>> trick_lead([B3, C.WIZARD, C.WIZARD], trump=0)
    (1, 'wizard')
    """
    best = 0
    for i in range(1, len(kinds)):
        k, w = kinds[i], kinds[best]
        if w == C.WIZARD:
            break
        beats = (
            w == C.JESTER or (C.suit_of(k) == C.suit_of(w) and k > w) or C.suit_of(k) == trump != C.suit_of(w)
        )
        if k == C.WIZARD or (k != C.JESTER and beats):
            best = i
    w = kinds[best]
    if w in (C.WIZARD, C.JESTER):
        return best, "wizard" if w == C.WIZARD else "jesters"
    return best, "trump" if C.suit_of(w) == trump else "led"


def action_space(full_rounds: int, clairvoyance: bool) -> ActionSpace:
    """The player actions of a configuration: cards, bids 0..``full_rounds``, trumps, blind play.

    The ids are those every record was saved with: the cards 0..53, the bids
    from 54, the four trumps after the highest bid, and the blind play of
    clairvoyance last.  A bare number is a bid and a bare card a play ("2",
    "B7"); a keyword alone ("bid") is read as a card, as it always was, so
    its refusal names what a card is.
    """
    bid = ActionRange("bid", full_rounds + 1, lambda b: f"bid {b}")
    trump = ActionRange("trump", 4, lambda s: f"trump {C.SUITS[s]}")
    blind = ActionRange("blind", 1, lambda _: "play blind") if clairvoyance else None
    ranges = [PLAY_CARD, bid, trump] if blind is None else [PLAY_CARD, bid, trump, blind]

    def read_bid(word: str) -> int:
        value = integer(word)
        if 0 <= value <= full_rounds:
            return bid(value)
        raise Explained(reason("notation.bid_range", hi=full_rounds))

    def read_play(word: str) -> int:
        if word == "blind" and blind is not None:
            return blind()
        return C.parse_card(word)

    def read_trump(word: str) -> int:
        return trump(C.parse_suit(word))

    def fallback(words: list[str]) -> int:
        if len(words) != 1:
            raise LookupError(words)
        if words[0].isdigit():
            try:
                return read_bid(words[0])
            except Explained as exc:  # worded as the long form's refusal, as it always was
                raise Explained(
                    reason("notation.in_text", text=Quoted("bid " + words[0]), reason=exc.why)
                ) from None
        return C.parse_card(words[0])

    def keyword(name: str, read_one: Callable[[str], int]) -> Reader:
        def read(rest: list[str]) -> int:
            if len(rest) == 1:
                return read_one(rest[0])
            return fallback([name, *rest])

        return read

    readers = {
        "play": keyword("play", read_play),
        "bid": keyword("bid", read_bid),
        "trump": keyword("trump", read_trump),
    }
    return ActionSpace("Wizard", ranges, examples=EXAMPLES, readers=readers, fallback=fallback)


def playable(hand: int, led: int) -> int:
    """Slot mask of the cards of ``hand`` that may be played to a trick whose led suit is ``led``.

    Follow suit if able; a Wizard or a Jester may always be played.
    """
    if led >= 0:
        same = hand & C.SUIT_MASK[led]
        if same:
            return same | (hand & C.SPECIAL_MASK)
    return hand


def round_score(bid: int, won: int) -> int:
    """A seat's score for a round: 20 plus 10 a trick when the bid is exact, else -10 a trick off."""
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)
