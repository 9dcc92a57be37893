"""What one Wizard seat may know: its view, and the redaction of the history.

Everything a seat sees at a real table is here; nothing else is.  Hidden from a
seat: the other hands, the undealt stack, the seed, and (with the hidden-bid
variants) the other bids until they are revealed.  With clairvoyance, in round
1, a seat sees the other seats' cards and not its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.game import CHANCE, BaseView, made_view, redact_by_replay
from ...core.tricks import LastTrick, winning
from ...core.viewdict import CardReader, CardWriter, PastTrick, Play, Reader, ints, opt_ints, read_head
from . import cards as C
from .rules import BID, DEAL, PHASE_NAMES, trick_lead
from .seen import bids_visible, view_fields

if TYPE_CHECKING:
    from .game import WizardGame, WizardState


#: Each card kind's text (``C.card_text``), by kind.
_CARD_TEXT: tuple[str, ...] = tuple(C.card_text(k) for k in range(C.NUM_KINDS))


@dataclass(frozen=True, eq=False, repr=False)  # View.__repr__: cards as text
class WizardView(BaseView, LastTrick[PastTrick]):
    """A seat's knowledge.  Card values are card kinds (see :mod:`.cards`)."""

    game: WizardGame = field(repr=False)
    round: int
    rounds: int
    dealer: int
    #: This seat's cards (sorted kinds with multiplicity); empty when unseen (clairvoyance).
    hand: tuple[int, ...]
    #: Other seats' cards when this seat may see them (clairvoyance, round 1), else None.
    seen_hands: tuple[tuple[int, ...] | None, ...] | None
    hand_sizes: tuple[int, ...]
    turned: int | None
    trump: int | None
    #: Each seat's bid, or None when not made yet or still secret.
    bids: tuple[int | None, ...]
    #: Whether each seat has bid (public even when the bid itself is secret).
    has_bid: tuple[bool, ...]
    tricks_won: tuple[int, ...]
    leader: int
    #: The trick in progress: (seat, card kind) in play order.
    trick: tuple[Play, ...]
    #: Finished tricks of this round: (((seat, kind), ...), winner).
    tricks: tuple[PastTrick, ...]
    #: The previous round's final trick (round ``round - 1``), shaped as an element
    #: of ``tricks``; None in round 1.  Public, and what ``last_trick`` shows until
    #: this round finishes a trick: a world rewound to this round's start
    #: (``sample_round``) needs it to show the viewer the same ``last_trick``.
    prev_round_trick: PastTrick | None
    scores: tuple[int, ...]
    #: Score sheet: one (bids, tricks, deltas) line per finished round.
    sheet: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]

    def to_dict(self) -> dict[str, Any]:
        text = _CARD_TEXT  # the cards' texts from a table: a view is written at every move (issue 48)
        return {
            **self.head_dict(),
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "hand": [text[k] for k in self.hand],
            "seen_hands": None
            if self.seen_hands is None
            else [None if h is None else [text[k] for k in h] for h in self.seen_hands],
            "hand_sizes": list(self.hand_sizes),
            "turned": None if self.turned is None else text[self.turned],
            "trump": None if self.trump is None else C.SUITS[self.trump],
            "bids": list(self.bids),
            "has_bid": list(self.has_bid),
            "tricks_won": list(self.tricks_won),
            "leader": self.leader,
            **CardWriter(C.card_text).trick_fields(self),
            "winning": self.trick_winning(),
            "scores": list(self.scores),
            "sheet": [{"bids": list(b), "tricks": list(t), "deltas": list(d)} for b, t, d in self.sheet],
        }

    def trick_winning(self) -> dict[str, object] | None:
        """Who takes the trick in progress so far and why (:func:`.rules.trick_lead`); None: no card yet."""
        if not self.trick:
            return None
        i, why = trick_lead([k for _, k in self.trick], self.trump)
        seat, kind = self.trick[i]
        return winning(seat, f"wiz_win_{why}", C.card_text(kind))

    @classmethod
    def read_dict(cls, r: Reader, game: WizardGame) -> WizardView:
        """The fields of :meth:`to_dict`'s output (``View.from_dict`` checks the rest)."""
        n = game.players
        kit = CardReader(n, C.parse_card)

        def line(x: Reader) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
            return x["bids"].each(ints, n), x["tricks"].each(ints, n), x["deltas"].each(ints, n)

        return cls(
            **read_head(r, game, PHASE_NAMES),
            round=r["round"].integer(1),
            rounds=r["rounds"].integer(1),
            dealer=r["dealer"].seat(n),
            hand=r["hand"].each(kit.card),
            seen_hands=r["seen_hands"].optional(lambda h: h.each(lambda x: x.optional(kit.cards), n)),
            hand_sizes=r["hand_sizes"].each(ints, n),
            turned=r["turned"].optional(kit.card),
            trump=r["trump"].optional(lambda t: C.SUITS.index(t.text(C.SUITS))),
            bids=r["bids"].each(opt_ints, n),
            has_bid=r["has_bid"].each(lambda b: b.boolean(), n),
            tricks_won=r["tricks_won"].each(ints, n),
            leader=r["leader"].seat(n),
            **kit.trick_fields(r),
            scores=r["scores"].each(ints, n),
            sheet=r["sheet"].each(line),
        )


def make_view(state: WizardState, seat: int, public: bool = False) -> WizardView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    return made_view(WizardView, view_fields(state, seat, public))  # compiled: BaseView.made


def redact_history(state: WizardState, seat: int) -> list[int | None]:
    """``state.history`` with what ``seat`` may not know (at ``state``) set to None.

    Hidden: the cards dealt to other seats (with clairvoyance, in round 1, the
    seat's own instead), and the other seats' bids of the round in play at
    ``state`` while its bids are secret (a round's bids are public once it is
    scored).  The replay (:func:`~atout.core.game.redact_by_replay`) says, at
    each step, who acted and in which round.
    """
    clairvoyance = state.game.blind_action >= 0
    bids_secret = not state.is_terminal and not bids_visible(state, False)

    def hidden(replay: WizardState, action: int) -> bool:
        if replay.current_player == CHANCE and replay.phase == DEAL:
            target = replay.deal_target()
            return target == seat if clairvoyance and replay.round == 1 else target != seat
        return bids_secret and replay.phase == BID and replay.to_act != seat and replay.round == state.round

    return redact_by_replay(state, hidden)
