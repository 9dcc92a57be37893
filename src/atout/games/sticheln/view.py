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

from ...core.game import View, check_seat, view_head
from ...core.tricks import LastTrick
from ...core.viewdict import CardReader, Reader, ints, read_head
from .rules import DEAL, OVER, PAIN, PHASE_NAMES

if TYPE_CHECKING:
    from .game import StichelnGame, StichelnState


@dataclass(frozen=True, eq=False)
class StichelnView(View, LastTrick[tuple[tuple[tuple[int, int], ...], int]]):
    """A seat's knowledge.  Cards are card kinds (see :mod:`.cards`)."""

    game: StichelnGame = field(repr=False)
    seat: int
    current_player: int
    legal_actions: tuple[int, ...]
    phase: str
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
    trick: tuple[tuple[int, int], ...]
    #: Finished tricks of this hand: (((seat, kind), ...), winner); winner -1 for a void trick.
    tricks: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    #: The previous hand's final trick (hand ``round - 1``), shaped as an element
    #: of ``tricks``; None in hand 1.  Public, and what ``last_trick`` shows until
    #: this hand finishes a trick: a world rewound to this hand's start
    #: (``sample_round``) needs it to show the viewer the same ``last_trick``.
    prev_round_trick: tuple[tuple[tuple[int, int], ...], int] | None
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

        def past(t: tuple[tuple[tuple[int, int], ...], int] | None, rnd: int | None) -> dict[str, Any] | None:
            """A finished trick as in ``tricks``, with the hand it was played in."""
            if t is None:
                return None
            return {"cards": [[s, text(k)] for s, k in t[0]], "winner": t[1], "round": rnd}

        return {
            "game": self.game.name,
            "seat": self.seat,
            "current_player": self.current_player,
            "legal_actions": [self.game.action_to_text(a) for a in self.legal_actions],
            "phase": self.phase,
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "hand": cards(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pain_laid": list(self.pain_laid),
            "pains": [cards(p) for p in self.pains],
            "revealed": self.revealed,
            "leader": self.leader,
            "trick": [[s, text(k)] for s, k in self.trick],
            "tricks": [{"cards": [[s, text(k)] for s, k in t], "winner": w} for t, w in self.tricks],
            "last_trick": past(self.last_trick, self.last_trick_round),
            "prev_round_trick": past(self.prev_round_trick, self.round - 1),
            "scores": list(self.scores),
            "sheet": [{"pains": [cards(p) for p in pains], "deltas": list(d)} for pains, d in self.sheet],
        }

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
            trick=r["trick"].each(kit.played),
            tricks=r["tricks"].each(kit.trick),
            prev_round_trick=r["prev_round_trick"].optional(kit.trick),
            scores=r["scores"].each(ints, n),
            sheet=r["sheet"].each(line),
        )


def make_view(state: StichelnState, seat: int, public: bool = False) -> StichelnView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    check_seat(state.game, seat)
    deck = state.game.deck
    return StichelnView(
        **view_head(state, seat, PHASE_NAMES[state.phase], public),
        round=state.round,
        rounds=state.game.num_hands,
        dealer=state.dealer,
        hand=() if public else tuple(deck.kinds_in(state.hands[seat])),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        pain_laid=tuple(len(p) for p in state.pains),
        pains=tuple(
            tuple(p) if (state.revealed or (s == seat and not public)) else None
            for s, p in enumerate(state.pains)
        ),
        revealed=state.revealed,
        leader=state.leader,
        trick=tuple(zip(state.trick_seats, state.trick, strict=True)),
        tricks=tuple((tuple(zip(seats, kinds, strict=True)), w) for seats, kinds, w in state.tricks),
        prev_round_trick=state.prev_round_trick,
        scores=state.scores_,
        sheet=state.sheet,
    )


def redact_history(state: StichelnState, seat: int) -> list[int | None]:
    """``state.history`` with what ``seat`` may not know (at ``state``) set to None.

    Hidden: the cards dealt to other seats, and the other seats' handicap
    choices of a hand whose handicap cards are not face up yet at ``state``.
    Replays the history on a seedless copy of the game to know, at each step,
    who acted and in which hand (the actions are those the state applied, so the
    replay applies them unchecked, as the state did).
    """
    replay = state.game.new_state(position=state.start)
    out: list[int | None] = []
    for action in state.history:
        hidden = False
        if replay.phase == DEAL:
            hidden = replay.deal_target() != seat
        elif replay.phase == PAIN and replay.to_act != seat:
            face_up = state.phase == OVER or replay.round < state.round or state.revealed
            hidden = not face_up
        out.append(None if hidden else action)
        replay._do(action)
    return out


__all__ = ["StichelnView", "make_view", "redact_history"]
