"""What one Wizard seat may know: its view, and the redaction of the history.

Everything a seat sees at a real table is here; nothing else is.  Hidden from a
seat: the other hands, the undealt stack, the seed, and (with the hidden-bid
variants) the other bids until they are revealed.  With clairvoyance, in round
1, a seat sees the other seats' cards and not its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.game import CHANCE, BaseView, redact_by_replay, view_head
from ...core.tricks import LastTrick, shown_tricks, winning
from ...core.viewdict import CardReader, CardWriter, PastTrick, Play, Reader, ints, opt_ints, read_head
from . import cards as C
from .rules import BID, DEAL, PHASE_NAMES, SEATS_FROM, trick_lead

if TYPE_CHECKING:
    from .game import WizardGame, WizardState


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
        def card(k: int | None) -> str | None:
            return None if k is None else C.card_text(k)

        return {
            **self.head_dict(),
            "round": self.round,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "hand": [card(k) for k in self.hand],
            "seen_hands": None
            if self.seen_hands is None
            else [None if h is None else [card(k) for k in h] for h in self.seen_hands],
            "hand_sizes": list(self.hand_sizes),
            "turned": card(self.turned),
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


def bids_visible(state: WizardState, round_over: bool) -> bool:
    """Whether the other seats' bids of a round are public yet."""
    mode = state.game.options["bids"]
    if mode == "open" or round_over:
        return True
    if mode == "hidden_until_play":
        return all(b >= 0 for b in state.bids)
    return False


def make_view(state: WizardState, seat: int, public: bool = False) -> WizardView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    head = view_head(state, seat, public)
    n = state.n
    clairvoyant = state.game.blind_action >= 0 and state.round == 1
    own = () if public else tuple(C.cards_in(state.hands[seat]))
    seen: tuple[tuple[int, ...] | None, ...] | None = None
    if clairvoyant and not public:
        seen = tuple(None if s == seat else tuple(C.cards_in(state.hands[s])) for s in range(n))
        own = ()
    public_bids = bids_visible(state, False)
    if public_bids:
        bids = tuple([None if b < 0 else b for b in state.bids])
    else:
        bids = tuple([b if s == seat and not public and b >= 0 else None for s, b in enumerate(state.bids)])
    seats = SEATS_FROM[n]
    prev = state.prev_round_trick_shown
    if prev is None and state.prev_round_trick is not None:
        lead, kinds, w = state.prev_round_trick
        prev = state.prev_round_trick_shown = (tuple(zip(seats[lead], kinds, strict=True)), w)
    shown = state.tricks_shown = shown_tricks(
        state.tricks_shown, state.tricks, lambda t: (tuple(zip(seats[t[0]], t[1], strict=True)), t[2])
    )
    return WizardView(
        **head,
        round=state.round,
        rounds=state.game.num_rounds,
        dealer=state.dealer,
        hand=own,
        seen_hands=seen,
        hand_sizes=tuple(map(int.bit_count, state.hands)),
        turned=None if state.turned < 0 else state.turned,
        trump=None if state.trump < 0 else state.trump,
        bids=bids,
        has_bid=tuple([b >= 0 for b in state.bids]),
        tricks_won=tuple(state.tricks_won),
        leader=state.leader,
        trick=tuple(zip(seats[state.leader], state.trick, strict=False)),
        tricks=() if shown is None else shown[1],
        prev_round_trick=prev,
        scores=tuple(state.scores_),
        sheet=tuple(state.sheet),
    )


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
