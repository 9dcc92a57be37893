"""What one Sticheln seat may know: its view, and the redaction of the history.

Hidden from a seat: the other hands, the cards left out of the deal (7-8
players), the seed, and the other seats' handicap cards until they are revealed
together (after the last seat has chosen; at the end of the hand with
``hidden_pain``).  Public: who has laid how many handicap cards (you see a card
put face down), every card played, every trick and its taker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.game import BaseView, made_view, redact_by_replay
from ...core.tricks import LastTrick, winning
from ...core.viewdict import CardReader, CardWriter, PastTrick, Play, Reader, ints, read_head
from .rules import DEAL, OVER, PAIN, PHASE_NAMES, led_index, trick_lead
from .seen import view_fields

if TYPE_CHECKING:
    from .game import StichelnGame, StichelnState


@dataclass(frozen=True, eq=False, repr=False)  # View.__repr__: cards as text
class StichelnView(BaseView, LastTrick[PastTrick]):
    """A seat's knowledge.  Cards are card kinds (see :mod:`.cards`)."""

    game: StichelnGame = field(repr=False)
    #: Hand number, from 1, and the number of hands in the match.
    round: int
    rounds: int
    dealer: int
    #: This seat's cards, ascending.
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: Handicap cards laid so far per seat (public: a card put face down is seen).
    pain_laid: tuple[int, ...]
    #: Handicap cards per seat: this seat's own always; the others' once revealed, else None.
    pains: tuple[tuple[int, ...] | None, ...]
    #: Whether this hand's handicap cards are face up.
    revealed: bool
    leader: int
    #: The trick in progress: (seat, card kind) in play order.
    trick: tuple[Play, ...]
    #: Finished tricks of this hand: (((seat, kind), ...), winner); winner -1 for a void trick.
    tricks: tuple[PastTrick, ...]
    #: The previous hand's final trick (hand ``round - 1``), shaped as an element
    #: of ``tricks``; None in hand 1.  Public, and what ``last_trick`` shows until
    #: this hand finishes a trick: a world rewound to this hand's start
    #: (``sample_round``) needs it to show the viewer the same ``last_trick``.
    prev_round_trick: PastTrick | None
    scores: tuple[int, ...]
    #: Score sheet: one (handicap cards per seat, deltas) line per finished hand.
    sheet: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]

    def parse(self, text: str) -> int:
        """Action id for ``text``; a bare card ("B7") means "pain B7" while handicap cards are laid."""
        return self.game.read_action(text, self.phase == PHASE_NAMES[PAIN])

    def pain_colours(self, seat: int) -> int:
        """Bitmask of ``seat``'s known handicap colours (0 while they are hidden)."""
        mask = 0
        for k in self.pains[seat] or ():
            mask |= 1 << self.game.deck.colour_of[k]
        return mask

    def to_dict(self) -> dict[str, Any]:
        text = self.game.deck.text

        def cards(ks: tuple[int, ...] | None) -> list[str] | None:
            return None if ks is None else [text(k) for k in ks]

        return {
            **self.head_dict(),
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pain_laid": list(self.pain_laid),
            "pains": [cards(p) for p in self.pains],
            "revealed": self.revealed,
            "leader": self.leader,
            **CardWriter(text).trick_fields(self),
            "winning": self.trick_winning(),
            "led_card": self.led_card(),
            "scores": list(self.scores),
            "sheet": [{"pains": [cards(p) for p in pains], "deltas": list(d)} for pains, d in self.sheet],
        }

    def led_card(self) -> str | None:
        """The card of the trick in progress whose colour is led (:func:`.rules.led_index`), or
        None: no card yet, or zeros only where a zero leads no colour.  Public, as the trick is;
        the table draws it and says its colour, it does not work it out."""
        kinds = [k for _, k in self.trick]
        i = led_index(self.game.deck.value_of, kinds, self.game.zero_sets_lead)
        return None if i < 0 else self.game.deck.text(kinds[i])

    def trick_winning(self) -> dict[str, object] | None:
        """Who takes the trick in progress so far and why (:func:`.rules.trick_lead`); None: no card yet."""
        if not self.trick:
            return None
        game = self.game
        deck = game.deck
        zeros_to_leader = game.options["all_zero_trick"] == "leader_takes"
        kinds = [k for _, k in self.trick]
        i, why = trick_lead(deck.colour_of, deck.value_of, kinds, game.zero_sets_lead, zeros_to_leader)
        if i < 0:
            return winning(None, f"st_win_{why}", None)
        seat, kind = self.trick[i]
        return winning(seat, f"st_win_{why}", deck.text(kind))

    @classmethod
    def read_dict(cls, r: Reader, game: StichelnGame) -> StichelnView:
        """The fields of :meth:`to_dict`'s output (``View.from_dict`` checks the rest)."""
        n = game.players
        kit = CardReader(n, game.deck.parse, void=True)

        def line(x: Reader) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
            return x["pains"].each(kit.cards, n), x["deltas"].each(ints, n)

        return cls(
            **read_head(r, game, PHASE_NAMES),
            round=r["round"].integer(1),
            rounds=r["rounds"].integer(1),
            dealer=r["dealer"].seat(n),
            hand=kit.cards(r["hand"]),
            hand_sizes=r["hand_sizes"].each(ints, n),
            pain_laid=r["pain_laid"].each(ints, n),
            pains=r["pains"].each(lambda p: p.optional(kit.cards), n),
            revealed=r["revealed"].boolean(),
            leader=r["leader"].seat(n),
            **kit.trick_fields(r),
            scores=r["scores"].each(ints, n),
            sheet=r["sheet"].each(line),
        )


def make_view(state: StichelnState, seat: int, public: bool = False) -> StichelnView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    return made_view(StichelnView, view_fields(state, seat, public))  # compiled: BaseView.made


def redact_history(state: StichelnState, seat: int) -> list[int | None]:
    """``state.history`` with what ``seat`` may not know (at ``state``) set to None.

    Hidden: the cards dealt to other seats, and the other seats' handicap
    choices of a hand whose handicap cards are not face up yet at ``state``.
    The replay (:func:`~atout.core.game.redact_by_replay`) says, at each step,
    who acted and in which hand.
    """
    face_up_now = state.phase == OVER or state.revealed

    def hidden(replay: StichelnState, action: int) -> bool:
        if replay.phase == DEAL:
            return replay.deal_target() != seat
        if replay.phase == PAIN and replay.to_act != seat:
            return not (face_up_now or replay.round < state.round)
        return False

    return redact_by_replay(state, hidden)


__all__ = ["StichelnView", "make_view", "redact_history"]
