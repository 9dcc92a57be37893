"""Wizard's position notation (src/atout/i18n/en/rules/wizard.md, "Positions").

Example, round 3 of a 4-player match: seat 3's Wizard took the first trick,
seat 3 led a Jester to the second, seat 0 plays next::

    round=3 dealer=0 scores=30,-10,20,0 hands=B7,Z/G3,G9/R1,N/Y13 turned=R5 trump=red
    bids=1,0,2,0 tricks=B3,B9,Z,B1 trick=N

A position is read by *replaying* it on a state at the start of its round:
the hands plus the cards each seat has played are dealt, the turned card
turned, the bids made and the tricks played through the engine's own rules.
So everything derived (trick winners and leaders, the suits a seat has shown
it lacks, tricks won, whose turn it is) is exactly what play would give, and an
impossible position (a revoke, a bid out of range, a card twice) is refused
with the engine's own reason and where it is.
"""

from __future__ import annotations

from ...core import position as P
from ...core.errors import PositionError
from . import cards as C
from .game import WizardGame, WizardState
from .rules import BID, DEAL, FIRST_DEALER, OVER, PLAY, SLOTS_OF_KIND, TRUMP, TURN_UP, round_score

FIELDS = ("round", "dealer", "scores", "hands", "turned", "trump", "bids", "tricks", "trick", "last", "sheet")


def _card(text: str, field: str, where: str = "") -> int:
    try:
        return C.parse_card(text)
    except ValueError:
        raise PositionError(
            f"{text!r}{' ' + where if where else ''} is not a Wizard card (B7, G13, Z, N...)", field
        ) from None


def _cards(text: str, field: str, where: str = "") -> list[int]:
    return [_card(t, field, where) for t in P.items(text)]


def _hand(text: str, seat: int) -> list[int]:
    """Seat ``seat``'s ``hands=`` entry."""
    return _cards(text, "hands", f"(seat {seat})")


def _trick_text(kinds: list[int]) -> str:
    return ",".join(C.card_text(k) for k in kinds)


def write(state: WizardState) -> dict[str, str]:
    """The fields of ``state``, in :data:`FIELDS` order, those at their default left out."""
    n = state.n
    out = {
        **P.round_fields(state.round, None if state.phase == FIRST_DEALER else state.dealer),
        "scores": P.join(state.scores_),
        "hands": "/".join(P.join([C.card_text(k) for k in C.cards_in(h)]) for h in state.hands),
    }
    if state.turned >= 0:
        out["turned"] = C.card_text(state.turned)
    if state.trump >= 0 and state.phase != TRUMP:
        out["trump"] = C.SUITS[state.trump]
    if any(b >= 0 for b in state.bids):
        out["bids"] = ",".join(P.NONE if b < 0 else str(b) for b in state.bids)
    if state.tricks:
        out["tricks"] = ";".join(_trick_text(kinds) for _, kinds, _ in state.tricks)
    if state.trick:
        out["trick"] = _trick_text(state.trick)
    if state.prev_round_trick is not None:
        lead, kinds, winner = state.prev_round_trick
        out["last"] = f"{lead}:{_trick_text(kinds)}:{winner}"
    if state.sheet:
        out["sheet"] = ";".join(f"{P.join(b)}|{P.join(t)}" for b, t, _ in state.sheet)
    assert len(out["hands"].split("/")) == n
    return out


def read(game: WizardGame, fields: dict[str, str], seeded: bool) -> WizardState:
    """The state ``fields`` describe (see the module docstring for how it is checked)."""
    n = game.players
    state = WizardState(game, None)
    rnd, dealer_text, scores, hands = P.read_head(
        state, fields, game.start_round, game.num_rounds, "this game's rounds", _hand
    )
    state.scores_ = list(scores)
    sheet = _sheet(fields.get("sheet", P.NONE), n)
    state.sheet = list(sheet)
    # Before any early return (a round not dealt yet): a whole sheet must give the scores.
    whole = P.sheet_rounds(fields, rnd, game.start_round, game.num_rounds, rnd)
    P.check_sheet_scores(scores, [0] * n, [d for _, _, d in sheet], whole, "round")
    state.prev_round_trick = P.last_trick(
        fields, rnd, "round", n, "2:B7,G3,Z:0", lambda text: _cards(text, "last")
    )
    at_start = P.at_start(
        fields, rnd, game.start_round, hands, sheet, ("turned", "trump", "bids", "tricks", "trick", "last")
    )
    dealer = P.read_dealer(dealer_text, game, "round", at_start)
    if dealer is None:
        return state
    state.dealer = dealer
    state.phase = DEAL
    state.reset_round()  # the leader
    tricks = [
        _cards(t, "tricks", f"(trick {i + 1})") for i, t in enumerate(P.records(fields.get("tricks", P.NONE)))
    ]
    trick = _cards(fields.get("trick", P.NONE), "trick")
    P.check_tricks(tricks, trick, n)
    if len(tricks) > rnd:
        raise PositionError(f"{len(tricks)} tricks in round {rnd}, which has {rnd}", "tricks")
    if len(tricks) == rnd and trick:
        raise PositionError("every trick of the round is played: there is no trick in progress", "trick")
    plays = [card for t in tricks for card in t] + trick
    turned = _card(fields["turned"], "turned") if fields.get("turned", P.NONE) != P.NONE else -1
    # Card conservation: every card once (each Wizard and Jester four times).
    taken = 0

    def take(kind: int, what: str, field: str) -> int:
        nonlocal taken
        free = SLOTS_OF_KIND[kind] & ~taken
        if not free:
            copies = SLOTS_OF_KIND[kind].bit_count()
            many = "twice" if copies == 1 else f"more than {copies} times"
            raise PositionError(
                f"{C.card_text(kind)} appears {many} in the position (again in {what})", field
            )
        slot = free & -free
        taken |= slot
        return slot

    for s, h in enumerate(hands):
        for k in h:
            state.hands[s] |= take(k, f"seat {s}'s hand", "hands")
    if turned >= 0:
        take(turned, "the turned card", "turned")
    played_slots = [take(k, "the tricks", "tricks" if "tricks" in fields else "trick") for k in plays]
    dealt_now = sum(len(h) for h in hands) + len(plays)
    started = turned >= 0 or any(f in fields for f in ("trump", "bids", "tricks", "trick"))
    if dealt_now < rnd * n:
        if started:
            short = next((seat for seat, h in enumerate(hands) if len(h) < rnd), 0)
            raise PositionError(
                f"{dealt_now} cards dealt and played, but round {rnd} deals {rnd} to each of {n} seats before "
                f"anything else happens (seat {short} holds {_cards_count(len(hands[short]))})",
                "hands",
            )
        P.check_partial_deal(
            [len(h) for h in hands],
            (dealer + 1) % n,
            rnd,
            seeded=seeded,
            unit="round",
            whole="every hand of the round",
        )
        state.dealt = taken
        state.deal_count = dealt_now
        return state
    if dealt_now > rnd * n:
        raise PositionError(f"{dealt_now} cards dealt and played, but round {rnd} deals {rnd * n}", "hands")
    state.dealt = taken
    state.deal_count = rnd * n
    # The turn-up and the trump.
    if rnd * n == C.NUM_SLOTS:
        if turned >= 0:
            raise PositionError(f"round {rnd} deals every card: nothing is turned up", "turned")
        state._deal_done()
    elif turned < 0:
        if started:
            raise PositionError(
                "the bids and the play come after the turn-up: name the turned card", "turned"
            )
        if seeded:
            raise PositionError("a seed deals whole rounds: with seed=, give the turned card too", "turned")
        state.phase = TURN_UP
        return state
    else:
        state.phase = TURN_UP
        state.turned = turned
        if turned == C.WIZARD:
            state.phase = TRUMP
            state.to_act = dealer
        else:
            state.trump = -1 if turned == C.JESTER else turned // C.RANKS
            state._start_bidding()
    trump_text = fields.get("trump", P.NONE)
    if state.phase == TRUMP:
        if trump_text != P.NONE:
            try:
                suit = C.parse_suit(trump_text)
            except ValueError:
                raise PositionError(
                    f"{trump_text!r} is not a suit (blue, green, red, yellow)", "trump"
                ) from None
            state._do(game.trump_base + suit)
        elif any(f in fields for f in ("bids", "tricks", "trick")):
            raise PositionError("a Wizard was turned up: the dealer chooses trump before the bids", "trump")
    elif trump_text != (C.SUITS[state.trump] if state.trump >= 0 else P.NONE):
        if state.trump < 0:
            why = "no card is turned up" if turned < 0 else "a Jester was turned up"
            raise PositionError(f"there is no trump: {why}", "trump")
        raise PositionError(
            f"trump is {C.SUITS[state.trump]}: the turned card is {C.card_text(turned)}", "trump"
        )
    # The bids, in turn from the dealer's left.
    bid_texts = P.per_seat(fields.get("bids", ",".join([P.NONE] * n)), "bids", n, ",")
    order = P.seats_from((dealer + 1) % n, n)
    made = [s for s in order if bid_texts[s] != P.NONE]
    if made != order[: len(made)]:
        missing = next(s for s in order if s not in made)
        raise PositionError(
            f"bids are made in turn from the dealer's left (seat {order[0]}): seat {missing} has not bid, "
            f"so seat {made[-1]} cannot have",
            "bids",
        )
    for s in made:
        if state.phase != BID:
            raise PositionError("the bids come after the turn-up and the dealer's trump choice", "bids")
        bid = P.integer(bid_texts[s], "bids", 0, game.full_rounds, f"seat {s}'s bid")
        reason = state.illegal_reason(game.bid_base + bid)
        if reason is not None:
            raise PositionError(f"seat {s} bids {bid}: {reason}", "bids")
        state._bid(bid)
    if plays and state.phase != PLAY:
        raise PositionError("tricks are played once every seat has bid", "bids")
    # Who played each card: replayed on a scratch copy (leaders are the winners);
    # then each seat gets its played cards back and the real replay checks every play.
    seats = P.players_of(state, plays, WizardState._play)
    P.give_back(
        state.hands,
        seats,
        played_slots,
        [len(h) for h in hands],
        rnd,
        lambda s, count: (
            f"seat {s} holds {_cards_count(len(hands[s]))} and has played {count - len(hands[s])}: "
            f"round {rnd} deals {rnd}"
        ),
    )
    for i, (seat, kind) in enumerate(zip(seats, plays, strict=True)):
        if not state.playable(seat) & SLOTS_OF_KIND[kind]:
            number, place = divmod(i, n)
            raise PositionError(
                f"trick {number + 1}, card {place + 1} (seat {seat}, {C.card_text(kind)}): "
                f"{state._play_refusal(kind)}",
                "tricks" if number < len(tricks) else "trick",
            )
        if len(tricks) == rnd and i == len(plays) - 1 and rnd != game.num_rounds:
            raise PositionError(
                f"every trick of round {rnd} is played: the round is scored and the next one dealt at once, "
                "so write the next round's position",
                "tricks",
            )
        state._play(kind)
    P.check_sheet(len(sheet), rnd, "round", over=state.phase == OVER)
    if state.phase == OVER:  # the sheet holds the last round too
        P.check_sheet_scores(scores, [0] * n, [d for _, _, d in sheet], rnd - game.start_round + 1, "round")
        # The replay scored the round on top of the given scores: the position's are final.
        state.scores_ = scores
        state.sheet = sheet
    return state


def _cards_count(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _sheet(text: str, n: int) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    out = []
    for bid_text, won_text in P.sheet_lines(text, "BIDS|TRICKS", "1,0,2|1,1,0"):
        bids = tuple(P.integers(bid_text, "sheet", n, 0, 20, "a bid"))
        won = tuple(P.integers(won_text, "sheet", n, 0, 20, "a number of tricks"))
        deltas = tuple(round_score(b, w) for b, w in zip(bids, won, strict=True))
        out.append((bids, won, deltas))
    return out
