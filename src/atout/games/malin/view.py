"""What one Le Malin seat may know: its view, and the redaction of the history.

Public at the table: the card put aside face up, every bid, every card played
with its declared and current value, trick winners, scores, and (jeu fun) how
many Malheur cards each seat holds, which ones were played and on whom, the
discard pile and the size of the Malheur draw pile.  Hidden from a seat: the
other hands, the card left undealt with 5 players, the other seats' Malheur
cards (and so the draw pile's make-up), which card Le Malin took (known only
to the thief and the victim), and the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...core.errors import NotationError
from ...core.game import CHANCE, BaseView, made_view, redact_by_replay
from ...core.reason import Card, Num, Param, Quoted, Seat, reason
from ...core.tricks import LastTrick, winning
from ...core.viewdict import Reader, ints, opt_ints, past_tricks, read_head
from . import cards as C
from .cards import Value
from .rules import C_STEAL, DEAL, GAIN, PHASE_NAMES, STEAL, WINDOW_NAMES, Played, Trick, trick_lead
from .seen import view_fields

if TYPE_CHECKING:
    from .game import MalinGame, MalinState

#: A card on the table: (seat, card kind, declared value, current value).
TableCard = tuple[int, int, int, Value]


@dataclass(frozen=True, eq=False, repr=False)  # View.__repr__: cards as text
class MalinView(BaseView, LastTrick["tuple[tuple[TableCard, ...], int]"]):
    """A seat's knowledge.  Cards are card kinds (see :mod:`.cards`); Malheur cards are counted by type."""

    game: MalinGame = field(repr=False)
    round: int
    dealer: int
    #: Cards dealt to each seat this hand (= tricks in the hand).
    hand_size: int
    #: The card put aside face up this hand (None before it is drawn).
    removed: int | None
    #: This seat's cards, ascending (the Twins twice when both are held).
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: Each seat's bid this hand, or None before it bids.
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    leader: int
    #: The trick in progress, in play order.
    trick: tuple[TableCard, ...]
    #: Whether the Wish in the trick has had its value changed by a Malheur card.
    wish_modified: bool
    #: Finished tricks of this hand: (cards, winner).
    tricks: tuple[tuple[tuple[TableCard, ...], int], ...]
    #: The previous hand's final trick (hand ``round - 1``), shaped as an element
    #: of ``tricks``; None in hand 1.  Public, and what ``last_trick`` shows until
    #: this hand finishes a trick: a world rewound to this hand's start
    #: (``sample_round``) needs it to show the viewer the same ``last_trick``.
    prev_round_trick: tuple[tuple[TableCard, ...], int] | None
    scores: tuple[int, ...]
    #: Score sheet: one (bids, tricks, penalties) line per finished hand.
    sheet: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    #: This seat's Malheur cards, counted by type (malin, avocat, 666, belzebuth, fennec).
    malheur: tuple[int, ...]
    #: How many Malheur cards each seat holds (public).
    malheur_counts: tuple[int, ...]
    malheur_pile: int
    malheur_discard: tuple[int, ...]
    #: Malheur cards played this hand: (seat, action id), in order.
    malheur_log: tuple[tuple[int, int], ...]
    #: The open Malheur window ("before bidding", "after a card") or "".
    window: str
    #: Seats that have passed in the open window since the last Malheur card.
    passed: tuple[int, ...]
    #: The Malheur card waiting to resolve: (caster, type, targets, index of the
    #: target being asked, whether each target was set by L'Avocat du Diable), or None.
    pending: tuple[int, int, tuple[int, ...], int, tuple[bool, ...]] | None
    #: Le Malin's victims still to be robbed (one random card per group).
    steal_groups: tuple[tuple[int, ...], ...]
    #: Seats still to draw a gained Malheur card, in order.
    gain_queue: tuple[int, ...]
    #: The seat whose card was played last in this trick.
    last_actor: int

    def parse(self, text: str) -> int:
        """Action id for ``text``, reading a bare number by the phase (see :func:`parse_in_context`)."""
        return parse_in_context(self.game, text, self.phase, self.trick)

    def trick_winning(self) -> dict[str, object] | None:
        """Who takes the trick in progress so far and why (:func:`.rules.trick_lead`); None with no
        card yet, or while the Wish waits for its new value (``redeclare``)."""
        if not self.trick or self.phase == "redeclare":
            return None
        last = len(self.tricks) == self.hand_size - 1
        i, why = trick_lead(self.trick, self.game.options["wish_beats_both_twins"], last)
        seat, kind, _, value = self.trick[i]
        return winning(seat, f"mal_win_{why}", C.card_text(kind), value=C.value_text(value))

    def to_dict(self) -> dict[str, Any]:
        def card(k: int | None) -> str | None:
            return None if k is None else C.card_text(k)

        def table(cards: tuple[TableCard, ...]) -> list[dict[str, Any]]:
            return [
                {"seat": s, "card": C.card_text(k), "declared": d, "value": C.value_json(v)}
                for s, k, d, v in cards
            ]

        def finished(t: tuple[tuple[TableCard, ...], int]) -> dict[str, Any]:
            return {"cards": table(t[0]), "winner": t[1]}

        game = self.game
        return {
            **self.head_dict(),
            "round": self.round,
            "dealer": self.dealer,
            "hand_size": self.hand_size,
            "removed": card(self.removed),
            "hand": [card(k) for k in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "bids": list(self.bids),
            "tricks_won": list(self.tricks_won),
            "leader": self.leader,
            "trick": table(self.trick),
            "winning": self.trick_winning(),
            "wish_modified": self.wish_modified,
            "tricks": [finished(t) for t in self.tricks],
            **past_tricks(self, finished),
            "scores": list(self.scores),
            "sheet": [{"bids": list(b), "tricks": list(t), "penalties": list(p)} for b, t, p in self.sheet],
            "malheur": dict(zip(C.MALHEUR_NAMES, self.malheur, strict=True)),
            "malheur_counts": list(self.malheur_counts),
            "malheur_pile": self.malheur_pile,
            "malheur_discard": dict(zip(C.MALHEUR_NAMES, self.malheur_discard, strict=True)),
            "malheur_log": [[s, game.action_to_text(a)] for s, a in self.malheur_log],
            "window": self.window,
            "passed": list(self.passed),
            "pending": None
            if self.pending is None
            else {
                "caster": self.pending[0],
                "card": C.MALHEUR_NAMES[self.pending[1]],
                "targets": list(self.pending[2]),
                "asking": self.pending[3],
                "redirected": list(self.pending[4]),
            },
            "steal_groups": [list(g) for g in self.steal_groups],
            "gain_queue": list(self.gain_queue),
            "last_actor": self.last_actor,
        }

    @classmethod
    def read_dict(cls, r: Reader, game: MalinGame) -> MalinView:
        """The fields of :meth:`to_dict`'s output (``View.from_dict`` checks the rest)."""

        n = game.players

        def card(c: Reader) -> int:
            return c.parse(C.parse_card)

        def value(v: Reader) -> Value:
            if isinstance(v.value, float):
                return Fraction(v.value)  # halves are dyadic: exact
            return v.integer()

        def on_table(c: Reader) -> TableCard:
            return c["seat"].seat(n), card(c["card"]), c["declared"].integer(), value(c["value"])

        def past(t: Reader) -> tuple[tuple[TableCard, ...], int]:
            return t["cards"].each(on_table), t["winner"].seat(n)

        def line(x: Reader) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
            return x["bids"].each(ints, n), x["tricks"].each(ints, n), x["penalties"].each(ints, n)

        def counts(x: Reader) -> tuple[int, ...]:
            return tuple(x[name].integer(0) for name in C.MALHEUR_NAMES)

        def logged(x: Reader) -> tuple[int, int]:
            seat, action = x.items(2)
            return seat.seat(n), action.parse(game.text_to_action)

        def pending(p: Reader) -> tuple[int, int, tuple[int, ...], int, tuple[bool, ...]]:
            return (
                p["caster"].seat(n),
                C.MALHEUR_NAMES.index(p["card"].text(C.MALHEUR_NAMES)),
                p["targets"].each(lambda t: t.seat(n)),
                p["asking"].integer(0),
                p["redirected"].each(lambda b: b.boolean()),
            )

        def seats(x: Reader) -> tuple[int, ...]:
            return x.each(lambda t: t.seat(n))

        return cls(
            **read_head(r, game, PHASE_NAMES),
            round=r["round"].integer(1),
            dealer=r["dealer"].seat(n),
            hand_size=r["hand_size"].integer(0),
            removed=r["removed"].optional(card),
            hand=r["hand"].each(card),
            hand_sizes=r["hand_sizes"].each(ints, n),
            bids=r["bids"].each(opt_ints, n),
            tricks_won=r["tricks_won"].each(ints, n),
            leader=r["leader"].seat(n),
            trick=r["trick"].each(on_table),
            wish_modified=r["wish_modified"].boolean(),
            tricks=r["tricks"].each(past),
            prev_round_trick=r["prev_round_trick"].optional(past),
            scores=r["scores"].each(ints, n),
            sheet=r["sheet"].each(line),
            malheur=counts(r["malheur"]),
            malheur_counts=r["malheur_counts"].each(ints, n),
            malheur_pile=r["malheur_pile"].integer(0),
            malheur_discard=counts(r["malheur_discard"]),
            malheur_log=r["malheur_log"].each(logged),
            window=r["window"].text(WINDOW_NAMES),
            passed=seats(r["passed"]),
            pending=r["pending"].optional(pending),
            steal_groups=r["steal_groups"].each(seats),
            gain_queue=seats(r["gain_queue"]),
            last_actor=r["last_actor"].integer(),
        )


def as_trick(trick: tuple[tuple[TableCard, ...], int]) -> Trick:
    """A finished trick as a view shows it (plain tuples, as read from a dict), as the state keeps it."""
    cards, winner = trick
    return tuple(Played(*c) for c in cards), winner


def parse_in_context(game: MalinGame, text: str, phase: str, trick: tuple[TableCard, ...]) -> int:
    """Parse ``text`` where it is typed: a bare number is a bid while bidding, a new
    Wish value while re-declaring, and a card otherwise ("wish 12" plays the Wish
    when it is one's turn to play); a target written with its
    card ("malheur 666 on 2:19") must name the card that seat has in the trick."""
    words = text.strip().split()
    if len(words) == 1 and words[0].lstrip("-").isdigit():
        if phase == "bid":
            text = f"bid {words[0]}"
        elif phase == "redeclare":
            text = f"wish {words[0]}"
    elif len(words) == 2 and phase == "play" and words[0].lower() in ("wish", "w"):
        text = f"play {text}"  # "wish 12" on one's turn to play means playing the Wish
    action = game.text_to_action(text)
    for word in text.replace(",", " ").split():
        seat_text, sep, named = word.partition(":")
        if not sep:
            continue
        seat_text = seat_text.lower().removeprefix("seat")
        cards = {s: (k, v) for s, k, _, v in trick}
        if not seat_text.isdigit() or int(seat_text) not in cards:
            raise NotationError(
                reason(
                    "notation.in_text",
                    text=Quoted(text),
                    reason=reason("malin.no_card_in_trick", seat=_seat(seat_text)),
                )
            )
        kind, value = cards[int(seat_text)]
        if named.strip().lower() not in (C.card_text(kind).lower(), C.value_text(value).lower()):
            seat = Seat(int(seat_text))
            card, worth = Card(C.card_text(kind)), Num(C.value_text(value))
            why = reason("malin.card_in_trick", seat=seat, card=card, v=worth)
            raise NotationError(reason("notation.in_text", text=Quoted(text), reason=why))
    return action


def make_view(state: MalinState, seat: int, public: bool = False) -> MalinView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    return made_view(MalinView, view_fields(state, seat, public))  # compiled: BaseView.made


def redact_history(state: MalinState, seat: int) -> list[int | None]:
    """``state.history`` with what ``seat`` may not know replaced by None.

    Hidden: cards dealt to other seats, Malheur cards drawn by other seats, and
    which card Le Malin took unless ``seat`` is the thief or the victim.  The
    replay (:func:`~atout.core.game.redact_by_replay`) says who was concerned
    at each step.
    """

    def hidden(replay: MalinState, action: int) -> bool:
        if replay.current_player != CHANCE:
            return False
        if replay.phase == DEAL:
            return replay.deal_target() != seat
        if replay.phase == GAIN:
            return replay.gain_queue[0] != seat
        if replay.phase == STEAL:
            victim = (action - C_STEAL) // C.NUM_MALHEURS
            assert replay.pending is not None
            return seat not in (victim, replay.pending.caster)
        return False

    return redact_by_replay(state, hidden)


def _seat(text: str) -> Param:
    """A seat number typed in a trick reference (``2`` of ``2:17``): a seat, or the text if it is none."""
    return Seat(int(text)) if text.isdigit() else Quoted(text)
