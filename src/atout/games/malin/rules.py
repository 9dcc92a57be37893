"""Le Malin's constants and pure rules: phases, the action table, the trick record.

The bottom of the package: it imports only core and :mod:`.cards`, so that the
game, its views, its sampling, tensors and positions can all read it without
importing each other.

The player-action table is the same for every configuration (only the Twin's
high value in its text depends on the number of players), so its ranges are
named here and tests and bots write ``BID_ACTION(3)`` rather than ``441``:

>>> CARD(17), TWIN_PLAY(0), TWIN_PLAY(1), WISH_PLAY(0), WISH_REDECLARE(-100)
(16, 34, 35, 136, 237)
>>> BID_ACTION(0), PASS, FENNEC_ON(2), AVOCAT_ON(0), MALIN_ON(MALIN_TARGETS.index((1, 3)))
(438, 447, 462, 466, 484)
>>> malheur_type(FENNEC_ON(2)), malheur_target(FENNEC_ON(2)), malheur_type(PASS)
(4, 2, -1)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Final, NamedTuple

from ...core.actions import ActionRange, ActionSpace
from . import cards as C
from .cards import AVOCAT, BELZ, FENNEC, MALIN, NUM_KINDS, NUM_MALHEURS, SIX, TWIN, WISH, Value

# Phases.
FIRST_DEALER: Final = 0
GAIN: Final = 1
REMOVE: Final = 2
DEAL: Final = 3
WINDOW: Final = 4
REACT: Final = 5
STEAL: Final = 6
BID: Final = 7
PLAY: Final = 8
REDECLARE: Final = 9
OVER: Final = 10
PHASE_NAMES: Final = (
    "first-dealer", "gain", "remove", "deal", "window", "react", "steal", "bid", "play",
    "redeclare", "over",
)  # fmt: skip
CHANCE_PHASES: Final = frozenset((FIRST_DEALER, GAIN, REMOVE, DEAL, STEAL))

# Window kinds.
NO_WINDOW: Final = 0
PREBID_WINDOW: Final = 1
CARD_WINDOW: Final = 2
WINDOW_NAMES: Final = ("", "before bidding", "after a card")

MAX_SEATS: Final = 6
MAX_BID: Final = 8
WISH_MIN, WISH_MAX = -100, 100
#: Le Malin's targets, by the value of its action: one seat, then every pair of seats.
MALIN_TARGETS: Final[tuple[tuple[int, ...], ...]] = tuple((s,) for s in range(MAX_SEATS)) + tuple(
    combinations(range(MAX_SEATS), 2)
)
#: The Malheur cards aimed at a card of the trick, in the order of their action ranges.
EFFECT_TYPES: Final = (SIX, BELZ, FENNEC)


def _on(mtype: int) -> ActionRange:
    name = C.MALHEUR_NAMES[mtype]
    return ActionRange(name, MAX_SEATS, lambda seat: f"malheur {name} on {seat}")


# Player actions, in id order (see src/atout/i18n/en/rules/le-malin.md; the ids never change).
#: Numbered cards: the value is the card's number (``CARD(17)`` plays the 17, id 16 = its kind).
CARD: Final = ActionRange("card", C.NUM_NUMBERS, lambda v: f"play {v}", low=1)
#: A Twin declared low (value 0) or high (value 1); the game's own range writes the high value.
TWIN_PLAY: Final = ActionRange("twin", 2, lambda v: f"play TWIN {'high' if v else 0}")
WISH_PLAY: Final = ActionRange("wish", WISH_MAX - WISH_MIN + 1, lambda v: f"play WISH {v}", low=WISH_MIN)
#: A new value for the Wish when a later card took its value.
WISH_REDECLARE: Final = ActionRange("redeclare", WISH_MAX - WISH_MIN + 1, lambda v: f"wish {v}", low=WISH_MIN)
BID_ACTION: Final = ActionRange("bid", MAX_BID + 1, lambda v: f"bid {v}")
PASS_ACTION: Final = ActionRange("pass", 1, lambda _: "pass")
SIX_ON, BELZEBUTH_ON, FENNEC_ON = (_on(t) for t in EFFECT_TYPES)
AVOCAT_ON: Final = _on(AVOCAT)
MALIN_ON: Final = ActionRange(
    "malin", len(MALIN_TARGETS), lambda i: "malheur malin on " + " ".join(map(str, MALIN_TARGETS[i]))
)
#: The effect ranges by Malheur type (None for the two that aim at no card).
EFFECT_ON: Final[tuple[ActionRange | None, ...]] = tuple(
    {SIX: SIX_ON, BELZ: BELZEBUTH_ON, FENNEC: FENNEC_ON}.get(t) for t in range(NUM_MALHEURS)
)

EXAMPLES: Final = (
    "bid 2", "play 17", "play TWIN 0", "play WISH -100", "wish 12", "pass", "malheur fennec on 2",
    "malheur malin on 1 3",
)  # fmt: skip
TITLE: Final = "Le Malin"


def ranges(twin: ActionRange = TWIN_PLAY) -> tuple[ActionRange, ...]:
    """The action ranges in id order, with ``twin`` (a game's own, writing its high value) for the Twins."""
    return (
        CARD, twin, WISH_PLAY, WISH_REDECLARE, BID_ACTION, PASS_ACTION,
        SIX_ON, BELZEBUTH_ON, FENNEC_ON, AVOCAT_ON, MALIN_ON,
    )  # fmt: skip


#: The id table every configuration shares (placing the ranges: the starts derive from the sizes).
ID_TABLE: Final = ActionSpace(TITLE, ranges(), examples=EXAMPLES)
NUM_ACTIONS: Final = ID_TABLE.size

# Plain ids and bounds for the hot paths and the batch engine (derived from the ranges).
TWIN_LOW: Final = TWIN_PLAY(0)
TWIN_HIGH: Final = TWIN_PLAY(1)
WISH_BASE: Final = WISH_PLAY.start - WISH_MIN  # play WISH v: id = WISH_BASE + v
REDECLARE_BASE: Final = WISH_REDECLARE.start - WISH_MIN  # wish v: id = REDECLARE_BASE + v
BID_BASE: Final = BID_ACTION.start
PASS: Final = PASS_ACTION()
EFFECT_BASE: Final = SIX_ON.start
AVOCAT_BASE: Final = AVOCAT_ON.start
MALIN_BASE: Final = MALIN_ON.start

# Chance outcome ids: a card kind (remove, deal), then these.
C_DEALER: Final = NUM_KINDS  # 36..41: first dealer seat
C_DRAW: Final = C_DEALER + MAX_SEATS  # 42..46: Malheur card drawn, by type
C_STEAL: Final = C_DRAW + NUM_MALHEURS  # 47..76: Malheur card taken, victim * 5 + type
NUM_CHANCE: Final = C_STEAL + MAX_SEATS * NUM_MALHEURS


class Played(NamedTuple):
    """A card on the table: who played it, its kind, the value declared and its value now.

    A tuple, so that the views' ``(seat, kind, declared, value)`` cards are the
    state's records as they are; frozen: a Malheur card or a re-declaration
    replaces the record.
    """

    seat: int
    kind: int
    declared: int
    value: Value


def played(seat: int, kind: int, declared: int, value: Value) -> Played:
    """``Played(seat, kind, declared, value)``, made as the named tuple's ``_make`` makes it.

    Why: a named tuple's ``__new__`` is Python code, an interpreter frame at every card
    played even in the compiled engine (issue 48); ``tuple.__new__`` is the same tuple.
    """
    return tuple.__new__(Played, (seat, kind, declared, value))


#: A finished trick: its cards in play order, and the winner's seat.
Trick = tuple[tuple[Played, ...], int]


class Pending(NamedTuple):
    """The Malheur card waiting to resolve (the views' ``pending`` as it is).

    ``asking`` is the index of the target being asked whether it answers with L'Avocat du
    Diable; ``redirected`` says, per target, whether an Avocat set it.
    """

    caster: int
    mtype: int
    targets: tuple[int, ...]
    asking: int
    redirected: tuple[bool, ...]


def malheur_type(action: int) -> int:
    """The Malheur type an action plays (-1 if it plays none)."""
    if EFFECT_BASE <= action < AVOCAT_BASE:
        return EFFECT_TYPES[(action - EFFECT_BASE) // MAX_SEATS]
    if AVOCAT_BASE <= action < MALIN_BASE:
        return AVOCAT
    if MALIN_BASE <= action < NUM_ACTIONS:
        return MALIN
    return -1


def malheur_target(action: int) -> int:
    """The seat a 666, Belzébuth, Fennec or Avocat action aims at."""
    return (action - EFFECT_BASE) % MAX_SEATS


def malin_targets(action: int) -> tuple[int, ...]:
    """The seats a Le Malin action takes from."""
    return MALIN_TARGETS[action - MALIN_BASE]


def play_kind_value(action: int, twin_high: int) -> tuple[int, int]:
    """(card kind, declared value) of a play action."""
    if action < TWIN_LOW:
        return action, action + 1
    if action == TWIN_LOW:
        return TWIN, 0
    if action == TWIN_HIGH:
        return TWIN, twin_high
    return WISH, action - WISH_BASE


def play_action(kind: int, declared: int) -> int:
    """The action that plays ``kind`` declared at ``declared`` (the inverse of :func:`play_kind_value`)."""
    if kind == TWIN:
        return TWIN_LOW if declared == 0 else TWIN_HIGH
    if kind == WISH:
        return WISH_BASE + declared
    return kind


def gains(old: int, new: int, rule: str) -> int:
    """Malheur cards gained by a score going from ``old`` to ``new``.

    odd_crossed: one per odd value v with new <= v < old (10 -> 7 gains 2: 9 and 7);
    final_odd: one if the score fell and is now odd; per_point: one per point lost.
    """
    if new >= old:
        return 0
    if rule == "per_point":
        return old - new
    if rule == "final_odd":
        return 1 if new % 2 else 0
    return sum(1 for v in range(new, old) if v % 2)


def winner_of(cards: Sequence[tuple[int, int, int, Value]], wish_rule: str, last_trick: bool) -> int:
    """The trick's winner: the highest effective value, the earlier card on a tie.

    ``cards`` are (seat, kind, declared, value) in play order.  A trick with the
    Wish and both Twins goes to the Wish when ``wish_rule`` says so (the seed: in
    the last trick), whatever the values.
    """
    return cards[trick_lead(cards, wish_rule, last_trick)[0]][0]


def trick_lead(
    cards: Sequence[tuple[int, int, int, Value]], wish_rule: str, last_trick: bool
) -> tuple[int, str]:
    """The position in ``cards`` (play order, not empty) of the card taking the trick so far, and why.

    The why is a key the table says in words: ``"wish_twins"`` (the Wish beats both
    Twins, :func:`winner_of`'s special case) or ``"highest"`` (the highest value, the
    earlier card on a tie).
    """
    if wish_rule == "any_trick" or (wish_rule == "last_trick" and last_trick):
        kinds = [c[1] for c in cards]
        if WISH in kinds and kinds.count(TWIN) == 2:
            return kinds.index(WISH), "wish_twins"
    best = 0
    for i, card in enumerate(cards):
        if card[3] > cards[best][3]:
            best = i
    return best, "highest"
