"""Sticheln's position notation (src/atout/rules/sticheln.md, "Positions").

Example, hand 2 of a 4-player match, the second trick under way::

    round=2 dealer=1 scores=3,-5,0,2 hands=B3,G8,.../.../.../... pains=R4/B2/G9/Y0
    tricks=B5,G7,R3,Y9 trick=B1

As for Wizard, a position is read by replaying it on a state at the start of
its hand: each seat is dealt its hand plus the handicap cards it laid and the
cards it played, the handicap cards are laid in turn, and the tricks are played
through the engine, which derives the leaders, the winners, the captured cards
and whose turn it is, and refuses what play could not give.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import PositionError
from ...core.position import NONE, check_partial_deal, integer, items, join, per_seat, require

if TYPE_CHECKING:
    from .cards import Deck
    from .game import StichelnGame, StichelnState

FIELDS = ("round", "dealer", "scores", "hands", "pains", "tricks", "trick", "last", "sheet")


def _cards(deck: Deck, text: str, field: str, where: str = "") -> list[int]:
    out = []
    for t in items(text):
        try:
            out.append(deck.parse(t))
        except ValueError as exc:
            raise PositionError(f"{where + ': ' if where else ''}{exc}", field) from None
    return out


def _texts(deck: Deck, kinds: tuple[int, ...] | list[int]) -> str:
    return join([deck.text(k) for k in kinds])


def write(state: StichelnState) -> dict[str, str]:
    """The fields of ``state``, in :data:`FIELDS` order, those at their default left out."""
    from .game import FIRST_DEALER

    deck = state.game.deck
    out = {
        "round": str(state.round),
        "dealer": NONE if state.phase == FIRST_DEALER else str(state.dealer),
        "scores": join(state.scores_),
        "hands": "/".join(_texts(deck, deck.kinds_in(h)) for h in state.hands),
    }
    if any(state.pains):
        out["pains"] = "/".join(_texts(deck, p) for p in state.pains)
    if state.tricks:
        out["tricks"] = ";".join(_texts(deck, kinds) for _, kinds, _ in state.tricks)
    if state.trick:
        out["trick"] = _texts(deck, state.trick)
    if state.prev_round_trick is not None:
        cards, winner = state.prev_round_trick
        lead = cards[0][0]
        out["last"] = f"{lead}:{_texts(deck, [k for _, k in cards])}:{NONE if winner < 0 else winner}"
    if state.sheet:
        out["sheet"] = ";".join(
            "/".join(_texts(deck, p) for p in pains) + "|" + join(deltas) for pains, deltas in state.sheet
        )
    return out


def read(game: StichelnGame, fields: dict[str, str], seeded: bool) -> StichelnState:
    """The state ``fields`` describe (see the module docstring for how it is checked)."""
    from .game import DEAL, OVER, PAIN, PLAY, StichelnState

    n, deck = game.players, game.deck
    size = deck.hand_size
    state = StichelnState(game, None)
    rnd = integer(require(fields, "round"), "round", game.start_round, game.num_hands, "this game's hands")
    state.round = rnd
    dealer_text = require(fields, "dealer")
    scores = [
        integer(t, "scores", what="(a score)") for t in per_seat(require(fields, "scores"), "scores", n, ",")
    ]
    state.scores_ = list(scores)
    hands = [
        _cards(deck, h, "hands", f"seat {s}")
        for s, h in enumerate(per_seat(require(fields, "hands"), "hands", n))
    ]
    sheet = _sheet(game, fields.get("sheet", NONE))
    state.sheet = list(sheet)
    if "last" in fields:
        if rnd == 1:
            raise PositionError("hand 1 has no previous hand, so no last trick of one", "last")
        state.prev_round_trick = _last(game, fields["last"])
    if dealer_text == NONE:
        if (
            rnd != game.start_round
            or any(hands)
            or sheet
            or game.options["first_dealer"] is not None
            or any(f in fields for f in ("pains", "tricks", "trick", "last"))
        ):
            raise PositionError(
                "'-' (the first dealer is still to be drawn) is only for the match's start: "
                "the first hand, no card dealt, and no first_dealer option",
                "dealer",
            )
        return state
    dealer = integer(dealer_text, "dealer", 0, n - 1, "a seat")
    state.dealer = dealer
    state.phase = DEAL
    state._new_hand()
    pains = [
        _cards(deck, p, "pains", f"seat {s}")
        for s, p in enumerate(per_seat(fields.get("pains", "/".join([NONE] * n)), "pains", n))
    ]
    tricks = [
        _cards(deck, t, "tricks", f"trick {i + 1}")
        for i, t in enumerate(_list(fields.get("tricks", NONE), ";"))
    ]
    trick = _cards(deck, fields.get("trick", NONE), "trick")
    for i, t in enumerate(tricks):
        if len(t) != n:
            raise PositionError(
                f"trick {i + 1} has {len(t)} cards: a finished trick has one per seat ({n})", "tricks"
            )
    if len(trick) >= n:
        raise PositionError(f"{len(trick)} cards: a trick in progress has fewer than {n}", "trick")
    plays = [k for t in tricks for k in t] + trick
    seen: dict[int, str] = {}
    for what, field, kinds in (
        *((f"seat {s}'s hand", "hands", h) for s, h in enumerate(hands)),
        *((f"seat {s}'s handicap cards", "pains", p) for s, p in enumerate(pains)),
        ("the tricks", "tricks" if "tricks" in fields else "trick", plays),
    ):
        for k in kinds:
            if k in seen:
                raise PositionError(f"{deck.text(k)} appears twice (in {seen[k]} and in {what})", field)
            seen[k] = what
    dealt_now = len(seen)
    started = any(f in fields for f in ("pains", "tricks", "trick"))
    if dealt_now < size * n:
        if started:
            raise PositionError(
                f"{dealt_now} cards dealt, but each of the {n} seats is dealt {size} before anything else happens",
                "hands",
            )
        check_partial_deal([len(h) for h in hands], (dealer + 1) % n, size)
        if seeded and dealt_now:
            raise PositionError("a seed deals whole hands: with seed=, give every hand or none", "hands")
        for s, h in enumerate(hands):
            state.hands[s] = deck.mask_of(h)
        state.dealt = deck.mask_of(list(seen))
        state.deal_count = dealt_now
        return state
    # Deal each seat its hand and its handicap cards; the played cards are given back below.
    for s in range(n):
        state.hands[s] = deck.mask_of(hands[s] + pains[s])
    state.dealt = deck.mask_of(list(seen))
    state.deal_count = size * n
    state.phase = PAIN
    state.to_act = (dealer + 1) % n
    order = [(dealer + 1 + i) % n for i in range(n)]
    laid = [s for s in order if pains[s]]
    if laid != order[: len(laid)] or any(len(pains[s]) != game.pain_count for s in laid[:-1]):
        raise PositionError(
            f"handicap cards are laid in turn from the dealer's left (seat {order[0]}), "
            f"{game.pain_count} per seat: {fields['pains']!r} cannot be",
            "pains",
        )
    for s in laid:
        if len(pains[s]) > game.pain_count:
            raise PositionError(
                f"seat {s} lays {len(pains[s])} handicap cards, not {game.pain_count}", "pains"
            )
        for k in pains[s]:
            reason = state.illegal_reason(game.pain_base + k)
            if reason is not None:
                raise PositionError(f"seat {s}, {deck.text(k)}: {reason}", "pains")
            state._lay_pain(k)
    if plays and state.phase != PLAY:
        raise PositionError("tricks are played once every seat has laid its handicap cards", "pains")
    scratch = state.clone()
    seats = []
    for k in plays:
        if scratch.phase != PLAY:
            raise PositionError("the hand is over before this card: too many tricks", "tricks")
        seats.append(scratch.to_act)
        scratch._play(k)
    count = [len(hands[s]) + len(pains[s]) for s in range(n)]
    for seat, k in zip(seats, plays, strict=True):
        state.hands[seat] |= 1 << k
        count[seat] += 1
    for s in range(n):
        if count[s] != size:
            raise PositionError(
                f"seat {s} holds {len(hands[s])} cards, laid {len(pains[s])} and played "
                f"{count[s] - len(hands[s]) - len(pains[s])}: each seat is dealt {size}",
                "hands",
            )
    for k in plays:
        state._play(k)
    if state.phase != OVER and state.round != rnd:
        raise PositionError(
            f"every trick of hand {rnd} is played: the hand is scored and the next one dealt at once, "
            "so write the next hand's position",
            "tricks",
        )
    if state.phase == OVER:
        if len(sheet) > rnd:
            raise PositionError(f"{len(sheet)} hands on the sheet after hand {rnd}", "sheet")
        state.scores_ = scores
        state.sheet = sheet
    elif len(sheet) > rnd - 1:
        raise PositionError(f"{len(sheet)} finished hands before hand {rnd}", "sheet")
    return state


def _list(text: str, sep: str) -> list[str]:
    return [] if text == NONE else text.split(sep)


def _last(game: StichelnGame, text: str) -> tuple[tuple[tuple[int, int], ...], int]:
    n = game.players
    parts = text.split(":")
    if len(parts) != 3:
        raise PositionError(
            f"{text!r}: write LEADER:CARDS:WINNER (e.g. 2:B7,G3,R0,Y5:0; winner - for a void trick)", "last"
        )
    lead = integer(parts[0], "last", 0, n - 1, "the leader's seat")
    kinds = _cards(game.deck, parts[1], "last")
    if len(kinds) != n:
        raise PositionError(f"{len(kinds)} cards: a trick has one per seat ({n})", "last")
    winner = -1 if parts[2] == NONE else integer(parts[2], "last", 0, n - 1, "the winner's seat")
    return tuple(((lead + i) % n, k) for i, k in enumerate(kinds)), winner


def _sheet(game: StichelnGame, text: str) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    n = game.players
    out = []
    for i, line in enumerate(_list(text, ";")):
        parts = line.split("|")
        if len(parts) != 2:
            raise PositionError(f"line {i + 1} {line!r}: write PAINS|DELTAS (e.g. R4/B2/G9|3,-5,2)", "sheet")
        pains = tuple(
            tuple(_cards(game.deck, p, "sheet", f"line {i + 1}")) for p in per_seat(parts[0], "sheet", n)
        )
        deltas = tuple(
            integer(t, "sheet", what="(a score change)") for t in per_seat(parts[1], "sheet", n, ",")
        )
        out.append((pains, deltas))
    return out
