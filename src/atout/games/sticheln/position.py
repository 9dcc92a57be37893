"""Sticheln's position notation (src/atout/i18n/en/rules/sticheln.md, "Positions").

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

from ...core import position as P
from ...core.errors import PositionError
from .game import StichelnGame, StichelnState
from .rules import DEAL, FIRST_DEALER, OVER, PAIN, PLAY

if TYPE_CHECKING:
    from .cards import Deck

FIELDS = ("round", "dealer", "scores", "hands", "pains", "tricks", "trick", "last", "sheet")


def _cards(deck: Deck, text: str, field: str, where: str = "") -> list[int]:
    out = []
    for t in P.items(text):
        try:
            out.append(deck.parse(t))
        except ValueError as exc:
            raise PositionError(f"{where + ': ' if where else ''}{exc}", field) from None
    return out


def _texts(deck: Deck, kinds: tuple[int, ...] | list[int]) -> str:
    return P.join([deck.text(k) for k in kinds])


def write(state: StichelnState) -> dict[str, str]:
    """The fields of ``state``, in :data:`FIELDS` order, those at their default left out."""
    deck = state.game.deck
    out = {
        **P.round_fields(state.round, None if state.phase == FIRST_DEALER else state.dealer),
        "scores": P.join(state.scores_),
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
        out["last"] = f"{lead}:{_texts(deck, [k for _, k in cards])}:{P.NONE if winner < 0 else winner}"
    if state.sheet:
        out["sheet"] = ";".join(
            "/".join(_texts(deck, p) for p in pains) + "|" + P.join(deltas) for pains, deltas in state.sheet
        )
    return out


def read(game: StichelnGame, fields: dict[str, str], seeded: bool) -> StichelnState:
    """The state ``fields`` describe (see the module docstring for how it is checked)."""
    n, deck = game.players, game.deck
    size = deck.hand_size
    state = StichelnState(game, None)
    rnd, dealer_text, scores, hands = P.read_head(
        state,
        fields,
        game.start_round,
        game.num_hands,
        "this game's hands",
        lambda h, s: _cards(deck, h, "hands", f"seat {s}"),
    )
    state.scores_ = tuple(scores)
    sheet = _sheet(game, fields.get("sheet", P.NONE))
    state.sheet = tuple(sheet)
    # Before any early return (a hand not dealt yet): a whole sheet must give the scores.
    whole = P.sheet_rounds(fields, rnd, game.start_round, game.num_hands, game.tricks_per_hand)
    P.check_sheet_scores(scores, [0] * game.players, [d for _, d in sheet], whole, "hand")
    last = P.last_trick(
        fields,
        rnd,
        "hand",
        n,
        "2:B7,G3,R0,Y5:0; winner - for a void trick",
        lambda text: _cards(deck, text, "last"),
        void=True,
    )
    if last is not None:
        lead, kinds, winner = last
        state.prev_round_trick = tuple(((lead + i) % n, k) for i, k in enumerate(kinds)), winner
    at_start = P.at_start(fields, rnd, game.start_round, hands, sheet, ("pains", "tricks", "trick", "last"))
    dealer = P.read_dealer(dealer_text, game, "hand", at_start)
    if dealer is None:
        return state
    state.dealer = dealer
    state.phase = DEAL
    state.new_hand()
    pains = [
        _cards(deck, p, "pains", f"seat {s}")
        for s, p in enumerate(P.per_seat(fields.get("pains", "/".join([P.NONE] * n)), "pains", n))
    ]
    tricks = [
        _cards(deck, t, "tricks", f"trick {i + 1}")
        for i, t in enumerate(P.records(fields.get("tricks", P.NONE)))
    ]
    trick = _cards(deck, fields.get("trick", P.NONE), "trick")
    P.check_tricks(tricks, trick, n)
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
        P.check_partial_deal([len(h) for h in hands], (dealer + 1) % n, size, seeded=seeded)
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
    order = P.seats_from((dealer + 1) % n, n)
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
            reason = state.illegal_reason(game.space["pain"](k))
            if reason is not None:
                raise PositionError(f"seat {s}, {deck.text(k)}: {reason}", "pains")
            state._lay_pain(k)
    if plays and state.phase != PLAY:
        raise PositionError("tricks are played once every seat has laid its handicap cards", "pains")

    def play(scratch: StichelnState, k: int) -> None:
        if scratch.phase != PLAY:
            raise PositionError("the hand is over before this card: too many tricks", "tricks")
        scratch._play(k)

    seats = P.players_of(state, plays, play)
    P.give_back(
        state.hands,
        seats,
        [1 << k for k in plays],
        [len(hands[s]) + len(pains[s]) for s in range(n)],
        size,
        lambda s, count: (
            f"seat {s} holds {len(hands[s])} cards, laid {len(pains[s])} and played "
            f"{count - len(hands[s]) - len(pains[s])}: each seat is dealt {size}"
        ),
    )
    for k in plays:
        state._play(k)
    if state.phase != OVER and state.round != rnd:
        raise PositionError(
            f"every trick of hand {rnd} is played: the hand is scored and the next one dealt at once, "
            "so write the next hand's position",
            "tricks",
        )
    P.check_sheet(len(sheet), rnd, "hand", over=state.phase == OVER)
    if state.phase == OVER:  # the sheet holds the last hand too
        P.check_sheet_scores(
            scores, [0] * game.players, [d for _, d in sheet], rnd - game.start_round + 1, "hand"
        )
        state.scores_ = tuple(scores)
        state.sheet = tuple(sheet)
    return state


def _sheet(game: StichelnGame, text: str) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    n = game.players
    out = []
    for i, (pain_text, delta_text) in enumerate(P.sheet_lines(text, "PAINS|DELTAS", "R4/B2/G9|3,-5,2")):
        pains = tuple(
            tuple(_cards(game.deck, p, "sheet", f"line {i + 1}")) for p in P.per_seat(pain_text, "sheet", n)
        )
        deltas = tuple(P.integers(delta_text, "sheet", n, what="(a score change)"))
        out.append((pains, deltas))
    return out
