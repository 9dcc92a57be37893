"""Le Malin's notation read: the action table with this table's Twin, and its readers.

The ids are the same for every configuration (:mod:`.rules` lays them out); what a
text may name depends on the table (the numbered cards there are, the seats, the
Twins' high value), so the readers take those and keep the notation's own messages.
Apart from the state machine (``game.py``) because it is the game's text, not its
rules: the game builds its :class:`~atout.core.actions.ActionSpace` here once.
"""

from __future__ import annotations

from ...core.actions import ActionRange, ActionSpace, integer
from ...core.errors import Explained
from ...core.reason import Quoted, reason
from . import cards as C
from .cards import AVOCAT, MALIN, TWIN, WISH
from .rules import (
    AVOCAT_BASE,
    BID_BASE,
    EFFECT_ON,
    EXAMPLES,
    MALIN_BASE,
    MALIN_TARGETS,
    MAX_BID,
    MAX_SEATS,
    PASS,
    REDECLARE_BASE,
    TITLE,
    TWIN_HIGH,
    TWIN_LOW,
    WISH_BASE,
    WISH_MAX,
    WISH_MIN,
    ranges,
)


def action_space(players: int, twin_high: int) -> ActionSpace:
    """The action table (:mod:`.rules`), with the Twin's text and the readers of a table of ``players``
    whose Twin is worth 0 or ``twin_high``."""
    twin = ActionRange("twin", 2, lambda v: f"play TWIN {twin_high if v else 0}")

    def play(rest: list[str]) -> int:
        if len(rest) in (1, 2):
            return parse_play(rest, twin_high)
        raise LookupError("play")

    def redeclare(rest: list[str]) -> int:
        if len(rest) == 1:
            value = integer(rest[0])
            if WISH_MIN <= value <= WISH_MAX:
                return REDECLARE_BASE + value
            raise Explained(reason("malin.wish_range"))
        raise LookupError("wish")

    def bid(rest: list[str]) -> int:
        if len(rest) == 1:
            value = integer(rest[0])
            if 0 <= value <= MAX_BID:
                return BID_BASE + value
            raise Explained(reason("notation.bid_range", hi=MAX_BID))
        raise LookupError("bid")

    def malheur(rest: list[str]) -> int:
        if len(rest) >= 2 and rest[1] == "on":
            return parse_malheur(rest[0], rest[2:], players)
        raise LookupError("malheur")

    def bare(words: list[str]) -> int:
        """A card without "play" ("17", "TWIN 0"); a word that is no keyword reads as a card."""
        if len(words) in (1, 2) and words[0] not in ("play", "bid", "malheur", "wish"):
            return parse_play(words, twin_high)
        raise LookupError(words[0])

    def redeclare_or_card(rest: list[str]) -> int:
        return redeclare(rest) if len(rest) == 1 else bare(["redeclare", *rest])

    def pass_or_card(rest: list[str]) -> int:
        return PASS if not rest else bare(["pass", *rest])

    return ActionSpace(
        TITLE,
        ranges(twin),
        examples=EXAMPLES,
        readers={
            "play": play,
            "wish": redeclare,
            "redeclare": redeclare_or_card,
            "bid": bid,
            "pass": pass_or_card,
            "malheur": malheur,
        },
        fallback=bare,
        words=lambda text: text.strip().lower().replace(",", " ").split(),
    )


def parse_play(words: list[str], twin_high: int) -> int:
    """The id of a card played (``17``, ``TWIN 0``, ``WISH 3.5``), a Twin's or Wish's value checked."""
    kind = C.parse_card(words[0])
    if kind == TWIN:
        if len(words) != 2:
            raise Explained(reason("malin.declare_twin", high=twin_high))
        value = integer(words[1])
        if value == 0:
            return TWIN_LOW
        if value == twin_high:
            return TWIN_HIGH
        raise Explained(reason("malin.twin_worth", high=twin_high))
    if kind == WISH:
        if len(words) != 2:
            raise Explained(reason("malin.declare_wish"))
        value = integer(words[1])
        if WISH_MIN <= value <= WISH_MAX:
            return WISH_BASE + value
        raise Explained(reason("malin.wish_range"))
    if len(words) != 1:
        raise Explained(reason("malin.no_declared_value"))
    return kind  # a card this table's deck lacks has its id: play refuses it (see choices.play_refusal)


def parse_malheur(name: str, rest: list[str], players: int) -> int:
    """The id of the Malheur card ``name`` aimed at the seats ``rest`` names (``2``, ``seat2:17``, ``1 and 3``)."""
    mtype = C.parse_malheur(name)
    seats = []
    for w in rest:
        if w == "and":
            continue
        seat_text = w.split(":", 1)[0].removeprefix("seat")
        if not seat_text.isdigit():
            raise Explained(reason("notation.not_a_seat", word=Quoted(w)))
        seats.append(int(seat_text))
    for seat in seats:
        # Seats up to the table's six have ids (the table is the same for every
        # configuration): the rules refuse those past this game's seats.
        if not 0 <= seat < MAX_SEATS:
            raise Explained(reason("notation.seat_range", hi=players - 1, v=seat))
    if mtype == MALIN:
        key = tuple(sorted(set(seats)))
        if len(key) not in (1, 2) or len(key) != len(seats):
            raise Explained(reason("malin.malin_targets"))
        return MALIN_BASE + MALIN_TARGETS.index(key)
    if len(seats) != 1:
        raise Explained(reason("malin.targets_one", card=C.MALHEUR_TITLES[mtype], word=name))
    if mtype == AVOCAT:
        return AVOCAT_BASE + seats[0]
    effect = EFFECT_ON[mtype]
    assert effect is not None
    return effect(seats[0])
