"""Le Malin's position notation (src/atout/i18n/en/rules/le-malin.md, "Positions").

A hand of Le Malin cannot be written as a table alone: Malheur cards change
the values of cards already played, a Malheur window remembers who has passed,
a reaction is pending, a Wish waits to be re-declared.  So a position is the
hand **as dealt** (the scores, the Malheur cards each seat holds, the pile and
the discards, the card put aside, every hand) plus ``moves=``, the hand's moves
since the deal in the action notation (spaces written ``_``), exactly as a
bridge deal is its PBN deal plus its auction and play.  Example, a 4-player hand
after two bids::

    round=2 dealer=1 scores=9,10,8,10 removed=12 hands=1,5,...,TWIN/.../.../...
    last=3:33,TWIN=35=35,4,20:0 sheet=1,0,3,2|1,0,2,2 moves=bid_3,bid_0

Reading replays the moves through the engine (``State.apply``), so an illegal
or impossible one is refused with the rule it breaks and its place.  Before the
deal is complete, the position is the deal so far (``removed=-`` before the
card put aside, fewer cards in the hands while dealing); at the match's start in
jeu fun, ``queue=`` lists the seats still to draw their opening Malheur card.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ...core import position as P
from ...core.errors import PositionError
from . import cards as C
from .game import MalinGame, MalinState
from .rules import DEAL, FIRST_DEALER, GAIN, REMOVE, Played

if TYPE_CHECKING:
    from ...core.game import State

FIELDS = (
    "round",
    "dealer",
    "scores",
    "malheurs",
    "pile",
    "discard",
    "draws",
    "steals",
    "queue",
    "removed",
    "hands",
    "leftover",
    "last",
    "sheet",
    "moves",
)


def _dealing(state: State) -> bool:
    assert isinstance(state, MalinState)
    return state.phase in (FIRST_DEALER, REMOVE, DEAL) or (state.phase == GAIN and not state.tricks)


def write(state: MalinState) -> dict[str, str]:
    """The hand as dealt and its moves since (see the module docstring)."""
    base, moves = P.as_dealt(state, _dealing, FIELDS)
    out = _snapshot(base)
    if moves:
        out["moves"] = ",".join(moves)
    return out


def _snapshot(state: MalinState) -> dict[str, str]:
    game = state.game
    out = {
        **P.round_fields(state.round, None if state.phase == FIRST_DEALER else state.dealer),
        "scores": P.join(state.scores_),
    }
    if game.fun:
        out["malheurs"] = "/".join(P.join(m) for m in state.mal)
        out["pile"] = P.join(state.pile)
        out["discard"] = P.join(state.discard)
    if state.draws:
        out["draws"] = str(state.draws)
    if state.steals:
        out["steals"] = str(state.steals)
    if state.phase == GAIN:
        out["queue"] = P.join(state.gain_queue)
    out["removed"] = P.NONE if state.removed < 0 else C.card_text(state.removed)
    out["hands"] = "/".join(P.join([C.card_text(k) for k in C.cards_in(h)]) for h in state.hands)
    if state.phase not in (FIRST_DEALER, GAIN, REMOVE, DEAL):
        rest = game.deck & ~state.out
        if rest:
            out["leftover"] = P.join([C.card_text(k) for k in C.cards_in(rest)])
    if state.prev_round_trick is not None:
        cards, winner = state.prev_round_trick
        out["last"] = f"{cards[0][0]}:{','.join(_played_text(k, d, v) for _, k, d, v in cards)}:{winner}"
    if state.sheet:
        out["sheet"] = ";".join(f"{P.join(b)}|{P.join(t)}" for b, t, _ in state.sheet)
    return out


def _played_text(kind: int, declared: int, value: C.Value) -> str:
    if kind < C.TWIN and value == declared:
        return C.card_text(kind)
    return f"{C.card_text(kind)}={declared}={C.value_text(value)}"


def _card(text: str, field: str, game: MalinGame) -> int:
    try:
        kind = C.parse_card(text)
    except ValueError as exc:
        raise PositionError(str(exc), field) from None
    if kind < C.TWIN and kind >= game.top:
        raise PositionError(
            f"{text}: with {game.players} players the numbered cards are 1..{game.top}", field
        )
    return kind


def _counts(text: str, field: str) -> list[int]:
    return P.integers(text, field, C.NUM_MALHEURS, 0, 200, "a number of Malheur cards")


def read(game: MalinGame, fields: dict[str, str], seeded: bool) -> MalinState:
    """The state ``fields`` describe: the hand as dealt, then its moves replayed."""
    n, size = game.players, game.hand_size
    state = MalinState(game, None)
    last = game.last_round if game.last_round is not None else 10**6
    rnd = P.read_round(state, fields, game.start_round, last, "this game's hands")
    dealer_text = P.require(fields, "dealer")
    start = game.options["start_score"]
    state.scores_ = P.integers(
        P.require(fields, "scores"), "scores", n, None, start, f"a score (at most start_score, {start})"
    )
    if any(s <= 0 for s in state.scores_):
        raise PositionError("a score is 0 or less: the match is over after the hand that caused it", "scores")
    # Malheur cards: held, in the pile, discarded; every copy somewhere.
    given = [f for f in ("malheurs", "pile", "discard") if f in fields]
    if not game.fun:
        if given:
            raise PositionError("Malheur cards are only in jeu fun (option fun)", given[0])
    else:
        missing = [f for f in ("malheurs", "pile", "discard") if f not in fields]
        if missing:
            raise PositionError(
                "missing (jeu fun positions state the Malheur cards held, the pile and the discards)",
                missing[0],
            )
        state.mal = [_counts(m, "malheurs") for m in P.per_seat(fields["malheurs"], "malheurs", n)]
        state.pile = _counts(fields["pile"], "pile")
        state.discard = _counts(fields["discard"], "discard")
        for t in range(C.NUM_MALHEURS):
            total = sum(m[t] for m in state.mal) + state.pile[t] + state.discard[t]
            if total != game.copies[t]:
                raise PositionError(
                    f"{total} {C.MALHEUR_TITLES[t]} cards in all (held, pile, discard), but the Malheur deck "
                    f"has {game.copies[t]}",
                    "malheurs",
                )
    state.draws = P.integer(fields.get("draws", "0"), "draws", 0, None, "a count")
    state.steals = P.integer(fields.get("steals", "0"), "steals", 0, None, "a count")
    state.sheet = _sheet(fields.get("sheet", P.NONE), n)
    P.check_sheet(len(state.sheet), rnd, "hand")
    P.check_sheet_scores(
        state.scores_,
        [start] * n,
        [[-p for p in penalties] for _, _, penalties in state.sheet],
        rnd - game.start_round,
        "hand",
        floor=0 if game.options["clamp_at_zero"] else None,
    )
    prev = P.last_trick(
        fields, rnd, "hand", n, "2:17,TWIN=0=0,5,WISH=9=9:1", lambda text: _played(text, game)
    )
    if prev is not None:
        lead, cards, winner = prev
        state.prev_round_trick = tuple(Played((lead + i) % n, *card) for i, card in enumerate(cards)), winner
    hands = P.read_hands(fields, n, lambda h, _: [_card(t, "hands", game) for t in P.items(h)])
    removed_text = P.require(fields, "removed")
    state.gain_queue = []
    at_start = rnd == game.start_round and not any(hands) and removed_text == P.NONE
    dealer = P.read_dealer(dealer_text, game, "hand", at_start)
    if dealer is None:
        state.phase = FIRST_DEALER
        return _no_moves(state, fields)
    state.dealer = dealer
    state.new_hand()  # the leader; phase REMOVE
    if "queue" in fields:
        queue = [P.integer(t, "queue", 0, n - 1, "a seat") for t in P.items(fields["queue"])]
        if not game.fun or not queue or rnd != game.start_round or any(hands) or removed_text != P.NONE:
            raise PositionError(
                "queue= is the match's opening Malheur draws (jeu fun, first hand, before the deal)", "queue"
            )
        state.gain_queue = queue
        state.phase = GAIN
        return _no_moves(state, fields)
    if removed_text == P.NONE:
        if any(hands):
            raise PositionError("a card is put aside before the deal: name it (removed=17)", "removed")
        return _no_moves(state, fields)
    removed = _card(removed_text, "removed", game)
    if removed == C.WISH:
        raise PositionError(
            "the Wish is never put aside: it takes the place of the card put aside", "removed"
        )
    out = C.slots_of_kind(removed)
    out &= -out
    state.removed = removed
    for s, hand in enumerate(hands):
        for k in hand:
            free = C.slots_of_kind(k) & ~out
            if not free:
                twice = "both Twins are" if k == C.TWIN else f"{C.card_text(k)} is"
                raise PositionError(
                    f"{twice} already elsewhere in the position (again in seat {s}'s hand)", "hands"
                )
            slot = free & -free
            out |= slot
            state.hands[s] |= slot
    state.out = out
    total = sum(len(h) for h in hands)
    if total < n * size:
        P.check_partial_deal([len(h) for h in hands], (state.dealer + 1) % n, size, seeded=seeded)
        state.deal_count = total
        state.phase = DEAL
        return _no_moves(state, fields)
    P.check_full_deal([len(h) for h in hands], size)
    rest = game.deck & ~out
    if "leftover" in fields:
        said = sorted(_card(t, "leftover", game) for t in P.items(fields["leftover"]))
        if said != C.cards_in(rest):
            shown = P.join([C.card_text(k) for k in C.cards_in(rest)])
            raise PositionError(
                f"the cards not dealt nor put aside are {shown}, not {fields['leftover']}", "leftover"
            )
    # Deal the last card (the dealer's) through the engine: what follows a deal follows.
    last_slot = state.hands[state.dealer] & -state.hands[state.dealer]
    state.hands[state.dealer] ^= last_slot
    state.out ^= last_slot
    state.deal_count = n * size - 1
    state.phase = DEAL
    state.step(C.kind_of_slot(last_slot.bit_length() - 1))
    return P.replay_moves(state, fields.get("moves", P.NONE), rnd, "hand")


def _no_moves(state: MalinState, fields: dict[str, str]) -> MalinState:
    return P.undealt(state, fields, ("moves", "leftover"), "only once the hand is dealt")


def _value(text: str, field: str) -> C.Value:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise PositionError(f"{text!r} is not a card value (17, 8.5, -4.25)", field) from None
    return int(value) if value.denominator == 1 else value


def _played(text: str, game: MalinGame) -> list[tuple[int, int, C.Value]]:
    """A trick's cards, each ``CARD`` or ``CARD=DECLARED=VALUE``."""
    cards = []
    for token in P.items(text):
        bits = token.split("=")
        kind = _card(bits[0], "last", game)
        value: C.Value
        if len(bits) == 1 and kind < C.TWIN:
            declared, value = kind + 1, kind + 1
        elif len(bits) == 3:
            declared = P.integer(bits[1], "last", -100, 100, "a declared value")
            value = _value(bits[2], "last")
        else:
            raise PositionError(f"{token!r}: write CARD or CARD=DECLARED=VALUE (TWIN=35=17.5)", "last")
        cards.append((kind, declared, value))
    return cards


def _sheet(text: str, n: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    out = []
    for bid_text, won_text in P.sheet_lines(text, "BIDS|TRICKS", "1,0,3|1,1,2"):
        bids = tuple(P.integers(bid_text, "sheet", n, 0, 8, "a bid"))
        won = tuple(P.integers(won_text, "sheet", n, 0, 9, "a number of tricks"))
        out.append((bids, won, tuple(abs(b - w) for b, w in zip(bids, won, strict=True))))
    return out
