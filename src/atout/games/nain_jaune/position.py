"""Le Nain Jaune's position notation (src/atout/i18n/en/rules/nain-jaune.md, "Positions").

A deal of Le Nain Jaune is a sequence: the run in progress, who has been asked
for the next rank, the ranks each seat has shown it lacks, a box waiting to be
claimed.  So, as for Le Malin, a position is the deal **as dealt** (the tokens
and the board after the stakes, every hand, the talon left undealt) plus
``moves=``, the deal's plays and passes since, in the action notation (spaces
written ``_``).  Example, 3 players, two cards played::

    round=2 dealer=0 tokens=85,79,93 boxes=3,6,9,12,15 hands=AC,2D,.../.../...
    talon=4H,9S,... moves=play_AC,play_2D

Reading replays the moves through the engine (``State.apply``), so a move the
rules forbid is refused with its rule and its place.  While dealing, the
position is the deal so far (fewer cards in the hands, no talon).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import position as P
from ...core.errors import PositionError
from . import cards as C
from .game import NainJauneState
from .rules import DEAL, FIRST_DEALER, DealResult, put_stakes

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ...core.game import State
    from .game import NainJauneGame

FIELDS = ("round", "dealer", "tokens", "boxes", "hands", "talon", "sheet", "moves")


def _dealing(state: State) -> bool:
    assert isinstance(state, NainJauneState)
    return state.phase in (FIRST_DEALER, DEAL)


def write(state: NainJauneState) -> dict[str, str]:
    """The deal as dealt and its moves since (see the module docstring)."""
    base, moves = P.as_dealt(state, _dealing, FIELDS)
    out = {
        **P.round_fields(base.round, None if base.phase == FIRST_DEALER else base.dealer),
        "tokens": P.join(base.tokens),
        "boxes": P.join(base.boxes),
        "hands": "/".join(P.join([C.card_text(c) for c in C.cards_in(h)]) for h in base.hands),
    }
    if base.phase not in (FIRST_DEALER, DEAL):
        talon = C.FULL_MASK & ~base.dealt
        if talon:
            out["talon"] = P.join([C.card_text(c) for c in C.cards_in(talon)])
    if base.sheet:
        out["sheet"] = ";".join(_line_text(line) for line in base.sheet)
    if moves:
        out["moves"] = ",".join(moves)
    return out


def _line_text(r: DealResult) -> str:
    kept = "/".join(".".join(str(b) for b in k) if k else P.NONE for k in r.kept)
    parts = [str(r.deal), str(r.winner), "1" if r.grand_opera else "0", P.join(r.owed), P.join(r.paid)]
    return "|".join([*parts, P.join(r.penalties), kept, P.join(r.tokens), P.join(r.boxes)])


def _card(text: str, field: str) -> int:
    try:
        return C.parse_card(text)
    except ValueError as exc:
        raise PositionError(str(exc), field) from None


def read(game: NainJauneGame, fields: dict[str, str], seeded: bool) -> NainJauneState:
    """The state ``fields`` describe: the deal as dealt, then its moves replayed."""
    n, size = game.players, game.hand_size
    state = NainJauneState(game, None)
    rnd = P.read_round(state, fields, game.start_round, None, "a deal number")
    state.sheet = _sheet(fields.get("sheet", P.NONE), n)
    if any(line.deal >= rnd for line in state.sheet):
        raise PositionError(f"the sheet holds only deals before deal {rnd}", "sheet")
    tokens = P.integers(P.require(fields, "tokens"), "tokens", n, 0, None, "a number of tokens")
    boxes = P.integers(P.require(fields, "boxes"), "boxes", 5, 0, None, "a number of tokens")
    total = n * game.options["start_tokens"]
    if sum(tokens) + sum(boxes) != total:
        raise PositionError(
            f"{sum(tokens)} tokens held and {sum(boxes)} on the board: tokens are never made nor lost, "
            f"and the table has {total} ({n} x start_tokens)",
            "tokens",
        )
    hands = P.read_hands(fields, n, lambda h, _: [_card(t, "hands") for t in P.items(h)])
    dealer_text = P.require(fields, "dealer")
    dealer = P.read_dealer(
        dealer_text, game, "deal", P.at_start(fields, rnd, game.start_round, hands, state.sheet)
    )
    if dealer is None:
        state.tokens, state.boxes = tokens, boxes
        state.phase = FIRST_DEALER
        return _no_moves(state, fields)
    state.dealer = dealer
    state._clear_deal()  # the opener; phase DEAL
    if min(tokens) < 0:
        raise PositionError("a seat cannot owe tokens", "tokens")
    _check_sheet_tokens(game, state.sheet, rnd, tokens, boxes)
    state.tokens, state.boxes = tokens, boxes
    seen: dict[int, int] = {}
    for s, hand in enumerate(hands):
        for c in hand:
            if c in seen:
                raise PositionError(f"{C.card_text(c)} appears twice (seat {seen[c]} and seat {s})", "hands")
            seen[c] = s
            state.hands[s] |= 1 << c
    state.dealt = C.mask_of(list(seen))
    count = len(seen)
    if count < n * size:
        first = (state.dealer + game.step) % n
        P.check_partial_deal([len(h) for h in hands], first, size, game.step, seeded=seeded, unit="deal")
        state.deal_count = count
        return _no_moves(state, fields)
    P.check_full_deal([len(h) for h in hands], size)
    if "talon" in fields:
        said = sorted(_card(t, "talon") for t in P.items(fields["talon"]))
        talon = C.cards_in(C.FULL_MASK & ~state.dealt)
        if said != talon:
            shown = P.join([C.card_text(c) for c in talon])
            raise PositionError(f"the cards left undealt are {shown}, not {fields['talon']}", "talon")
    # Deal the last card (the dealer's) through the engine: what follows a deal follows.
    # ``apply`` checks it like any deal outcome; the history it records is cleared by
    # ``replay_moves`` (a position has none).
    dealer_hand = state.hands[state.dealer]
    low = dealer_hand & -dealer_hand
    state.hands[state.dealer] ^= low
    state.dealt ^= low
    state.deal_count = n * size - 1
    state.phase = DEAL
    state.apply(low.bit_length() - 1)
    return P.replay_moves(state, fields.get("moves", P.NONE), rnd, "deal")


def _check_sheet_tokens(
    game: NainJauneGame, sheet: Sequence[DealResult], rnd: int, tokens: list[int], boxes: list[int]
) -> None:
    """The tokens and boxes a deal starts with are the last sheet line's, the stakes put in.

    Only when the sheet's last line is the deal just before (else something
    the sheet does not show happened in between): the sheet and the tokens
    are two records of the same deals, and a position where they disagree is
    one play cannot give.
    """
    if not sheet or sheet[-1].deal != rnd - 1:
        return
    held, board = list(sheet[-1].tokens), list(sheet[-1].boxes)
    if min(held) < game.stake:
        raise PositionError(
            f"after deal {rnd - 1} a seat holds {min(held)} tokens, less than a stake: the match is over",
            "sheet",
        )
    put_stakes(held, board, game.options["stake_unit"])
    if held != list(tokens) or board != list(boxes):
        raise PositionError(
            f"the sheet's last line (deal {rnd - 1}) leaves tokens {P.join(held)} and boxes "
            f"{P.join(board)} once the stakes are in, but the position says tokens={P.join(tokens)} "
            f"boxes={P.join(boxes)}",
            "sheet",
        )


def _no_moves(state: NainJauneState, fields: dict[str, str]) -> NainJauneState:
    return P.undealt(state, fields, ("moves", "talon"), "only once every hand is dealt")


def _sheet(text: str, n: int) -> list[DealResult]:
    out = []
    for i, parts in enumerate(P.sheet_lines(text, "DEAL|WINNER|GRAND|OWED|PAID|PENALTIES|KEPT|TOKENS|BOXES")):
        where = f"line {i + 1}"

        def ints(text: str, count: int, where: str = where) -> tuple[int, ...]:
            return tuple(P.integers(text, "sheet", count, 0, None, where))

        kept = tuple(
            () if k == P.NONE else tuple(P.integer(b, "sheet", 0, 4, f"{where}: a box") for b in k.split("."))
            for k in P.per_seat(parts[6], "sheet", n)
        )
        out.append(
            DealResult(
                deal=P.integer(parts[0], "sheet", 1, None, f"{where}: a deal number"),
                winner=P.integer(parts[1], "sheet", 0, n - 1, f"{where}: the winner's seat"),
                grand_opera=P.integer(parts[2], "sheet", 0, 1, f"{where}: grand opéra, 0 or 1") == 1,
                owed=ints(parts[3], n),
                paid=ints(parts[4], n),
                penalties=ints(parts[5], n),
                kept=kept,
                tokens=ints(parts[7], n),
                boxes=ints(parts[8], 5),
            )
        )
    return out
