"""Sticheln's pure rules: the phases of a hand, who wins a trick, the action notation.

The bottom of the package: it imports only :mod:`atout.core` and :mod:`.cards`,
so the state (:mod:`.game`), its views, the sampler, the tensors and the bot can
all build on it without importing each other back.  Nothing here holds a state:
these are the functions of the rules the state applies.
"""

from __future__ import annotations

from typing import Final

from ...core.actions import ActionRange, ActionSpace, Reader
from .cards import Deck

# Phases of a hand, in the order they come (the index is ``state.phase``).
FIRST_DEALER: Final = 0
DEAL: Final = 1
PAIN: Final = 2
PLAY: Final = 3
OVER: Final = 4
PHASE_NAMES: Final = ("first-dealer", "deal", "pain", "play", "over")

#: ``winner`` recorded for a trick of zeros that was set aside (all_zero_trick=void).
VOID_TRICK: Final = -1


def trick_winner_index(
    colour_of: tuple[int, ...],
    value_of: tuple[int, ...],
    kinds: list[int] | tuple[int, ...],
    zero_sets_lead: bool,
) -> int:
    """Position in ``kinds`` (play order) of the winning card, or -1 if only zeros were played.

    The lead colour is the colour of the first card (``zero_sets_lead``), or of
    the first non-zero card.  Every other colour is trump; zeros never trump and
    never win.  The highest trump wins, the earliest of equal trumps; without a
    trump, the highest card of the lead colour.  A trick of zeros only has no
    winner here: the caller applies the all-zero rule.

    >>> deck = Deck(3)  # values 0..8: blue 0-8, green 9-17, red 18-26
    >>> B5, G3, B8, R0 = 5, 12, 8, 18
    >>> trick_winner_index(deck.colour_of, deck.value_of, [B5, B8, G3], True)  # green is trump
    2
    >>> trick_winner_index(deck.colour_of, deck.value_of, [R0, B5, G3], True)  # red led: the higher trump
    1
    >>> trick_winner_index(deck.colour_of, deck.value_of, [R0, B5, G3], False)  # blue led by the 5
    2
    >>> trick_winner_index(deck.colour_of, deck.value_of, [R0, 0, 9], True)  # three zeros
    -1
    """
    if zero_sets_lead:  # the common case without a call (the engine asks at every trick)
        lead = colour_of[kinds[0]]
    else:
        first = led_index(value_of, kinds, False)
        lead = colour_of[kinds[first]] if first >= 0 else -1
    best = -1
    best_value = 0
    best_trump = False
    for i, k in enumerate(kinds):
        v = value_of[k]
        if v == 0:
            continue
        if colour_of[k] != lead:
            if not best_trump or v > best_value:  # strict: the first of equal trumps stays
                best, best_value, best_trump = i, v, True
        elif not best_trump and v > best_value:
            best, best_value = i, v
    return best


def trick_lead(
    colour_of: tuple[int, ...],
    value_of: tuple[int, ...],
    kinds: list[int] | tuple[int, ...],
    zero_sets_lead: bool,
    zeros_to_leader: bool,
) -> tuple[int, str]:
    """Which card of a trick (play order, not empty) takes it so far, and why, for views.

    The winner is :func:`trick_winner_index`'s (the engine's); the why is a key the
    table says in words: ``"trump"`` (the highest trump: every colour but the one led
    is trump), ``"led"`` (the highest card of the colour led, no trump played),
    ``"zeros_leader"`` (zeros only: the leader takes them, ``all_zero_trick=leader_takes``)
    or ``"zeros_void"`` (zeros only: set aside; the index is -1).

    >>> deck = Deck(3)
    >>> trick_lead(deck.colour_of, deck.value_of, [5, 8, 12], True, True)  # green 3 trumps blue
    (2, 'trump')
    >>> trick_lead(deck.colour_of, deck.value_of, [5, 8], True, True)
    (1, 'led')
    >>> trick_lead(deck.colour_of, deck.value_of, [0, 9], True, False)
    (-1, 'zeros_void')
    """
    i = trick_winner_index(colour_of, value_of, kinds, zero_sets_lead)
    if i < 0:
        return (0, "zeros_leader") if zeros_to_leader else (-1, "zeros_void")
    first = kinds[led_index(value_of, kinds, zero_sets_lead)]
    return i, "led" if colour_of[kinds[i]] == colour_of[first] else "trump"


def led_index(value_of: tuple[int, ...], kinds: list[int] | tuple[int, ...], zero_sets_lead: bool) -> int:
    """Position in ``kinds`` (play order) of the card whose colour is led, or -1 (no card yet, or
    zeros only while a zero does not set the colour: ``zero_lead_colour=first_nonzero``).

    >>> deck = Deck(3)  # values 0..8: blue 0-8, green 9-17, red 18-26
    >>> led_index(deck.value_of, [18, 5, 12], True), led_index(deck.value_of, [18, 5, 12], False)
    (0, 1)
    >>> led_index(deck.value_of, [18, 0], False), led_index(deck.value_of, [], True)
    (-1, -1)
    """
    if zero_sets_lead:
        return 0 if kinds else -1
    for i, k in enumerate(kinds):  # a loop, not next(...): the engine asks this at every trick
        if value_of[k]:
            return i
    return -1


def action_space(deck: Deck) -> ActionSpace:
    """The player actions of a configuration whose deck is ``deck``: play a card, lay a handicap card.

    Both ranges are as long as the deck (the ids depend on the player count, so
    the ranges are built per game): ``play B7`` is the card's kind, ``pain B7``
    the deck's size plus the kind.  ``handicap B7`` is read as ``pain B7``, and a
    single word is read as a bare card (``B7``: the play; the state and the view
    make it the handicap card while those are laid), so ``play`` alone is
    refused as a card that does not exist, as a bare word always was.

    >>> space = action_space(Deck(4))
    >>> space["play"](7), space["pain"](7), space.text(67), space.read("Handicap b7")
    (7, 67, 'pain B7', 67)
    >>> space.read("fold B7")
    Traceback (most recent call last):
    ...
    atout.core.errors.NotationError: 'fold B7' is not a Sticheln action: write 'play B7' or 'pain B7'
    """
    texts = deck.texts
    play = ActionRange("play", deck.size, lambda k: f"play {texts[k]}")
    pain = ActionRange("pain", deck.size, lambda k: f"pain {texts[k]}")

    def card(words: list[str]) -> int:
        """A bare card (one word): its play id; ``ValueError`` names the deck otherwise."""
        if len(words) != 1:
            raise LookupError(words)
        return deck.parse(words[0])

    def keyword(kind_to_action: ActionRange, word: str) -> Reader:
        """The reader of ``word CARD``: the card's action in ``kind_to_action``."""

        def read(rest: list[str]) -> int:
            if not rest:  # the keyword alone: a bare word, read (and refused) as a card
                return card([word])
            return kind_to_action(card(rest))

        return read

    return ActionSpace(
        "Sticheln",
        (play, pain),
        examples=("play B7", "pain B7"),
        readers={
            "play": keyword(play, "play"),
            "pain": keyword(pain, "pain"),
            "handicap": keyword(pain, "handicap"),
        },
        fallback=card,
    )
