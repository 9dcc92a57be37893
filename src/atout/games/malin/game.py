"""Le Malin's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/i18n/en/rules/le-malin.md (the seed text with
the gaps settled by rules-notes §1).  The state machine of one hand::

    [first dealer: chance, match start only]
    [jeu fun, match start: one Malheur card drawn per seat (chance)]
    remove (chance: one card put aside face up; the Wish takes its place)
    deal (chance, seat by seat from the dealer's left)
    [jeu fun: a Malheur window before the bidding]
    bidding (dealer's left first, dealer last)
    play: each card played -> [Wish re-declaration] -> [jeu fun: a Malheur window]
          after the last card's window the trick is resolved
    scoring; game over when a score is <= 0; otherwise
    [jeu fun: Malheur cards gained (chance)], dealer moves left, next hand

Here the state machine: the phases, their dispatch, the deal, the tricks, the
scoring and the chance events.  Its neighbours hold the rest, each a concept read
on its own: :mod:`.choices` (a seat's bid and card: legal lists and refusals),
:mod:`.malheur` (the jeu fun's windows, reactions and effects), :mod:`.chance` (each
chance phase's outcomes, the seeded draw, their text), :mod:`.notation` (the action
table's readers), :mod:`.options` (the variants and the bounds they set), :mod:`.rules`
(the action ids and pure rules), :mod:`.view` (what a seat sees).
"""

from __future__ import annotations

from typing import ClassVar, Self

from ...core.actions import ChanceEvent, check_digits, deal_reader, integer
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.fields import StateFields, state_fields
from ...core.game import CHANCE, TERMINAL, Game, State, check_seat
from ...core.native import mypyc_attr
from ...core.options import OptionSpec
from ...core.reason import Reason, Seat, Seats, Word, reason
from . import cards as C
from .cards import NUM_MALHEURS, WISH
from .cards import card_name as _card_name
from .chance import outcome_text, seeded_outcome
from .chance import outcomes as chance_outcomes
from .choices import (
    bid_refusal,
    legal_bids,
    legal_plays,
    legal_redeclarations,
    play_refusal,
    redeclare_refusal,
)
from .malheur import (
    close_window,
    legal_reactions,
    legal_window,
    react_move,
    react_refusal,
    steal_move,
    window_move,
    window_refusal,
)
from .malheur import open_window as open_malheur_window
from .notation import action_space
from .options import OPTION_SPECS, max_hands, max_history_length, score_bounds
from .rules import (
    BID,
    BID_BASE,
    C_DEALER,
    C_DRAW,
    C_STEAL,
    CARD_WINDOW,
    CHANCE_PHASES,
    DEAL,
    FIRST_DEALER,
    GAIN,
    MAX_BID,
    NO_WINDOW,
    NUM_ACTIONS,
    NUM_CHANCE,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    PREBID_WINDOW,
    REACT,
    REDECLARE,
    REDECLARE_BASE,
    REMOVE,
    STEAL,
    TWIN_HIGH,
    TWIN_LOW,
    WINDOW,
    WISH_BASE,
    WISH_MAX,
    WISH_MIN,
    Pending,
    Played,
    Trick,
    gains,
    malheur_type,
    play_kind_value,
    played,
    winner_of,
)
from .view import MalinView, make_view, parse_in_context, redact_history

# The names the batch engine and older callers import from here.

__all__ = [
    "BID",
    "BID_BASE",
    "MAX_BID",
    "NUM_ACTIONS",
    "OVER",
    "PASS",
    "PLAY",
    "REDECLARE",
    "REDECLARE_BASE",
    "TWIN_HIGH",
    "TWIN_LOW",
    "WISH_BASE",
    "WISH_MAX",
    "WISH_MIN",
    "MalinGame",
    "MalinState",
    "MalinView",
    "gains",
    "malheur_type",
    "play_kind_value",
    "winner_of",
]


class MalinGame(Game):
    """Le Malin for 3 to 6 players, with the "jeu fun" Malheur cards and every variant as an option."""

    name: ClassVar[str] = "malin"

    title: ClassVar[str] = "Le Malin et ses petits malheurs"
    summary: ClassVar[str] = (
        "Bid a number of tricks nobody else bid, then hit it exactly: each trick off costs a "
        "point of your 10 (or 6); Twins and the Wish take the value you declare."
    )
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.malin.bot:MalinHeuristicBot"}
    #: A hand moves a score by a point or two (a score starts at 10): half a point is a mistake.
    review_thresholds: ClassVar[tuple[float, float]] = (0.5, 1.5)
    package: ClassVar[str] = "atout.games.malin"
    rules_page: ClassVar[str] = "le-malin"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTION_SPECS

    @classmethod
    def card_name(cls, text: str) -> CardName:
        return _card_name(text)

    def _check_options(self) -> None:
        o = self.options
        #: Cards dealt to each seat = tricks per hand.
        self.hand_size = C.cards_per_player(self.players)
        self.top = C.top_number(self.players)
        self.twin_high = C.twin_high(self.players)
        self.deck = C.deck_mask(self.players)
        self.fun: bool = o["fun"]
        #: Copies of each Malheur type in the Malheur deck (all zero without jeu fun).
        self.copies: tuple[int, ...] = (
            (
                o["malin_copies"],
                o["avocat_copies"],
                o["copies_666"],
                o["belzebuth_copies"],
                o["fennec_copies"],
            )
            if self.fun
            else (0,) * NUM_MALHEURS
        )
        self.pad_to_two = o["reverse_single_digit"] == "pad_to_two"
        self.halve_floor = o["halve_rounding"] == "floor"
        # The options read at every card, as native fields (a dict lookup a card otherwise).
        #: A card taking the Wish's value makes its owner choose again in every trick (else the last only).
        self.collision_any_trick: bool = o["wish_collision"] == "redeclare_any_trick"
        #: ``wish_beats_both_twins``, as :func:`.rules.winner_of` takes it.
        self.wish_rule: str = o["wish_beats_both_twins"]
        #: The Wish may not take a value played anywhere this hand (else in the trick only).
        self.wish_scope_hand: bool = o["wish_forbidden_scope"] == "hand"
        #: A lone Twin avoids a value already in the trick when it can (``twin_value``).
        self.twin_avoid_taken: bool = o["twin_value"] == "avoid_taken"
        #: The last hand this match may play (None: until a score reaches 0).
        self.last_round: int | None = None if o["rounds"] is None else self.start_round + o["rounds"] - 1

    def __init__(self, players: object, **options: object) -> None:
        super().__init__(players, **options)
        self.space = action_space(self.players, self.twin_high)

    @property
    def num_chance_outcomes(self) -> int:
        return NUM_CHANCE

    def max_hands(self) -> int:
        """The most hands a match can last (:func:`.options.max_hands`)."""
        return max_hands(self)

    def max_history_length(self) -> int:
        return max_history_length(self)

    def score_bounds(self) -> tuple[int, int]:
        return score_bounds(self)

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> MalinState:
        return self._new_state(MalinState, seed, position)


# allow_interpreted_subclasses: mypyc's ``__new__`` then makes a blank state, without ``__init__``
# (it runs ``__init__`` in ``__new__`` otherwise), which ``clone`` and ``fields.build`` need.
@mypyc_attr(allow_interpreted_subclasses=True)
class MalinState(State[MalinGame]):
    """A Le Malin match in progress.  See the module docstring for the phases."""

    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES
    fields: ClassVar[StateFields] = state_fields(
        shared=(
            "dealer", "to_act", "out", "removed", "deal_count", "leader", "wish_pos", "wish_mod",
            "last_actor", "prev_round_trick", "draws", "steals", "win_kind", "passed", "pending", "_deck",
        ),
        copied=(
            "hands", "bids", "tricks_won", "trick", "tricks", "scores_", "sheet", "pile", "discard", "mlog",
            "steal_groups", "gain_queue",
        ),
        nested=("mal",),
    )  # fmt: skip

    def clone(self) -> Self:
        """A copy, each field as :attr:`fields` declares (written out, checked by tests/test_state_shape.py)."""
        new = self._clone_base()
        new.dealer = self.dealer
        new.to_act = self.to_act
        new.out = self.out
        new.removed = self.removed
        new.deal_count = self.deal_count
        new.leader = self.leader
        new.wish_pos = self.wish_pos
        new.wish_mod = self.wish_mod
        new.last_actor = self.last_actor
        new.prev_round_trick = self.prev_round_trick
        new.draws = self.draws
        new.steals = self.steals
        new.win_kind = self.win_kind
        new.passed = self.passed
        new.pending = self.pending
        new._deck = self._deck
        new.hands = self.hands.copy()
        new.bids = self.bids.copy()
        new.tricks_won = self.tricks_won.copy()
        new.trick = self.trick.copy()
        new.tricks = self.tricks.copy()
        new.scores_ = self.scores_.copy()
        new.sheet = self.sheet.copy()
        new.pile = self.pile.copy()
        new.discard = self.discard.copy()
        new.mlog = self.mlog.copy()
        new.steal_groups = self.steal_groups.copy()
        new.gain_queue = self.gain_queue.copy()
        new.mal = [x.copy() for x in self.mal]
        return new

    def __init__(self, game: MalinGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = self.n
        first = game.opening_dealer()
        self.dealer = 0 if first is None else first
        self.to_act = CHANCE
        self.scores_ = [game.options["start_score"]] * n
        #: One line per finished hand: (bids, tricks won, penalties).
        self.sheet: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        #: Malheur cards held, per seat, counted by type.
        self.mal = [[0] * NUM_MALHEURS for _ in range(n)]
        self.pile = list(game.copies)
        self.discard = [0] * NUM_MALHEURS
        self.draws = 0  # Malheur cards drawn so far (keys the seeded draws)
        self.steals = 0  # Malheur cards stolen so far (keys the seeded steals)
        self.win_kind = NO_WINDOW
        self.passed = 0
        #: The Malheur card being answered or resolved, None between them.
        self.pending: Pending | None = None
        self.steal_groups: list[tuple[int, ...]] = []
        self.gain_queue: list[int] = []
        #: The previous hand's final trick, None in hand 1.  A hand's tricks are
        #: dropped when the next hand starts, yet a table still shows the trick
        #: that ended it: views show this one as ``last_trick`` until the new hand
        #: finishes a trick.
        self.prev_round_trick: Trick | None = None
        self.new_hand()
        if first is None:
            self.phase = FIRST_DEALER
        else:
            self._start_match()

    def new_hand(self) -> None:
        """Clear the table for a hand dealt by ``self.dealer``: next, the card put aside (REMOVE).

        Public for the positions and the sampling, which build a hand's start.
        """
        n = self.n
        self.hands = [0] * n
        self.out = 0  # slots removed or dealt this hand
        self.removed = -1
        self.deal_count = 0
        self.bids = [-1] * n
        self.tricks_won = [0] * n
        self.leader = (self.dealer + 1) % n
        #: The trick in progress, in play order.
        self.trick: list[Played] = []
        #: The Wish's place in the trick (-1: not in it), and whether a Malheur card changed its value.
        self.wish_pos = -1
        self.wish_mod = False
        self.last_actor = -1
        #: Finished tricks of this hand (cards with their final values, winner).
        self.tricks: list[Trick] = []
        #: Public log of the Malheur cards played this hand: (seat, action id).
        self.mlog: list[tuple[int, int]] = []
        self._deck: list[int] | None = None
        self.phase = REMOVE

    def _start_match(self) -> None:
        """After the first dealer is known: the opening Malheur cards, then the first hand."""
        if self.game.fun:
            self.gain_queue = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            self._next_gain()
        else:
            self.phase = REMOVE

    # -- whose turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase in CHANCE_PHASES:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.to_act

    def deal_target(self) -> int:
        """The seat the next card dealt goes to (the cards go round from the dealer's left)."""
        return (self.dealer + 1 + self.deal_count // self.game.hand_size) % self.n

    def mal_count(self, seat: int) -> int:
        return sum(self.mal[seat])

    @property
    def is_last_trick(self) -> bool:
        return len(self.tricks) == self.game.hand_size - 1

    # -- legal actions --------------------------------------------------------------
    # Each decision phase has one refusal function (the rule an action breaks, or
    # None), and its legal actions are listed by the same predicates, so that the
    # reason given is the check that refused, never a guess after the fact: a seat's
    # bid and card in :mod:`.choices`, the Malheur cards' windows in :mod:`.malheur`.
    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return legal_plays(self)
        if phase == BID:
            return [BID_BASE + b for b in legal_bids(self)]
        if phase == WINDOW:
            return legal_window(self)
        if phase == REACT:
            return legal_reactions(self)
        if phase == REDECLARE:
            return legal_redeclarations(self)
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_outcomes(self)

    def _chance_refusal(self, outcome: int) -> Reason | None:
        """Why ``outcome`` is not one of the chance outcomes here (every chance phase's refusal)."""
        if outcome in {a for a, _ in self.chance_outcomes()}:
            return None
        return reason(
            "malin.not_a_chance_outcome", v=repr(outcome), phase=Word("phase", PHASE_NAMES[self.phase])
        )

    def _phase_refusal(self, action: int) -> Reason | None:
        """Why ``action`` breaks Le Malin's rules now: a card, a Malheur window or reaction, a bid, a new Wish."""
        phase = self.phase
        if phase == PLAY:
            return play_refusal(self, action)
        if phase == WINDOW:
            return window_refusal(self, action)
        if phase == REACT:
            return react_refusal(self, action)
        if phase == BID:
            return bid_refusal(self, action)
        if phase == REDECLARE:
            return redeclare_refusal(self, action)
        if phase in CHANCE_PHASES:
            return self._chance_refusal(action)
        return reason("match_over")

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == WINDOW:
            window_move(self, action)
        elif phase == REACT:
            react_move(self, action)
        elif phase == BID:
            self._bid(action - BID_BASE)
        elif phase == REDECLARE:
            value = action - REDECLARE_BASE
            self.trick[self.wish_pos] = self.trick[self.wish_pos]._replace(declared=value, value=value)
            self._after_card()
        elif phase == FIRST_DEALER:
            self.dealer = self._drawn_dealer(action)
            self.leader = (self.dealer + 1) % self.n
            self._start_match()
        elif phase == REMOVE:
            free = C.slots_of_kind(action) & self.game.deck & ~self.out
            self.out |= free & -free
            self.removed = action
            self.phase = DEAL
        elif phase == DEAL:
            free = C.slots_of_kind(action) & self.game.deck & ~self.out
            slot = free & -free
            self.out |= slot
            self.hands[self.deal_target()] |= slot
            self.deal_count += 1
            if self.deal_count == self.game.hand_size * self.n:
                open_malheur_window(self, PREBID_WINDOW, self.dealer)
        elif phase == GAIN:
            mtype = action - C_DRAW
            self.pile[mtype] -= 1
            self.mal[self.gain_queue.pop(0)][mtype] += 1
            self.draws += 1
            self._next_gain()
        elif phase == STEAL:
            steal_move(self, action)

    def open_window(self, kind: int, opener: int) -> None:
        """:func:`.malheur.open_window`: for the sampling, which starts a replayed hand at its
        window before the bidding."""
        open_malheur_window(self, kind, opener)

    # Bidding and play -----------------------------------------------------------
    def _bid(self, bid: int) -> None:
        seat = self.to_act
        self.bids[seat] = bid
        if seat == self.dealer:
            self.phase = PLAY
            self.to_act = self.leader
        else:
            self.to_act = (seat + 1) % self.n

    def _play(self, action: int) -> None:
        seat = self.to_act
        kind, value = play_kind_value(action, self.game.twin_high)
        held = self.hands[seat] & C.slots_of_kind(kind)
        self.hands[seat] ^= held & -held
        self.trick.append(played(seat, kind, value, value))
        self.last_actor = seat
        wish = self.wish_pos
        if kind == WISH:
            self.wish_pos = len(self.trick) - 1
            self.wish_mod = False
        elif (
            wish >= 0
            and not self.wish_mod
            and self.trick[wish].value == value
            and (self.game.collision_any_trick or self.is_last_trick)
        ):
            self.phase = REDECLARE
            self.to_act = self.trick[wish].seat
            return
        self._after_card()

    def _after_card(self) -> None:
        if self.game.fun:
            open_malheur_window(self, CARD_WINDOW, self.last_actor)
        else:
            self.win_kind = CARD_WINDOW
            close_window(self)

    def trick_winner(self) -> int:
        """Seat winning the current (complete or partial) trick as it stands."""
        return winner_of(self.trick, self.game.wish_rule, self.is_last_trick)

    def _resolve_trick(self) -> None:
        winner = self.trick_winner()
        self.tricks.append((tuple(self.trick), winner))
        self.tricks_won[winner] += 1
        self.trick = []
        self.wish_pos = -1
        self.wish_mod = False
        self.leader = self.to_act = winner
        self.phase = PLAY
        if len(self.tricks) == self.game.hand_size:
            self._score_hand()

    def _score_hand(self) -> None:
        n = self.n
        old = list(self.scores_)
        penalties = tuple(abs(self.bids[s] - self.tricks_won[s]) for s in range(n))
        clamp = self.game.options["clamp_at_zero"]
        for s in range(n):
            new = old[s] - penalties[s]
            self.scores_[s] = max(new, 0) if clamp else new
        self.sheet.append((tuple(self.bids), tuple(self.tricks_won), penalties))
        if any(s <= 0 for s in self.scores_) or self.round == self.game.last_round:
            self.phase = OVER
            self.to_act = TERMINAL
            return
        queue: list[int] = []
        if self.game.fun:
            for i in range(1, n + 1):
                s = (self.dealer + i) % n
                queue.extend([s] * gains(old[s], self.scores_[s], self.game.options["malheur_gain"]))
        self.gain_queue = queue
        self._next_gain()

    def _next_gain(self) -> None:
        """Draw the next gained Malheur card, reshuffling the discards when the pile is empty.

        Gains belong to the hand that caused them (they are drawn before the next
        dealer moves), so every hand's own chance events start with its deal.
        """
        if self.gain_queue:
            if not any(self.pile):
                self.pile, self.discard = self.discard, [0] * NUM_MALHEURS
            if any(self.pile):
                self.phase = GAIN
                return
            self.gain_queue.clear()
        if len(self.tricks) == self.game.hand_size:  # a hand just ended: the next one
            self.prev_round_trick = self.tricks[-1]
            self.round += 1
            self.dealer = (self.dealer + 1) % self.n
            self.new_hand()
        else:  # the match's opening Malheur cards
            self.phase = REMOVE

    # -- seeded chance --------------------------------------------------------------
    def _dealer_base(self) -> int:
        return C_DEALER

    def _seeded_outcome(self) -> int:
        return seeded_outcome(self)

    # -- notation -------------------------------------------------------------------
    def _chance_to_text(self, outcome: int) -> str:
        return outcome_text(self, outcome)

    def _chance_event(self) -> ChanceEvent | None:
        """The chance event this phase waits for, with its reader (None outside the chance phases)."""
        phase = self.phase
        if phase == FIRST_DEALER:
            return ChanceEvent("dealer", 1, lambda w: C_DEALER + integer(w[0]), "dealer 2")
        if phase == REMOVE:
            return ChanceEvent("remove", 1, lambda w: C.parse_card(w[0]), "remove 17")
        if phase == DEAL:
            target = self.deal_target()
            read = deal_reader(target, C.parse_card, "hand", self.round)
            return ChanceEvent("deal", 2, read, f"deal {target} 17")
        if phase == GAIN:
            seat = self.gain_queue[0]

            def draw(words: list[str]) -> int:
                if integer(words[0]) != seat:
                    raise Explained(reason("malin.next_malheur", seat=Seat(seat)))
                return C_DRAW + C.parse_malheur(words[1])

            return ChanceEvent("draw", 2, draw, "draw 1 fennec")
        if phase == STEAL:
            group = self.steal_groups[0]

            def steal(words: list[str]) -> int:
                victim = integer(words[0])
                if victim not in group:
                    raise Explained(reason("malin.malin_takes", seats=Seats(tuple(group), ", ")))
                return C_STEAL + victim * NUM_MALHEURS + C.parse_malheur(words[1])

            return ChanceEvent("steal", 2, steal, "steal 2 belzebuth")
        return None

    def parse(self, text: object) -> int:
        """As :meth:`State.parse`, reading a bare number by the phase ("3" is a bid while
        bidding) and checking a card named after a target ("on 2:19")."""
        if self.is_chance or not isinstance(text, str):
            return super().parse(text)
        check_digits(text)
        return parse_in_context(self.game, text, PHASE_NAMES[self.phase], tuple(self.trick))

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.scores_)

    def view(self, seat: object, public: bool = False) -> MalinView:
        return make_view(self, check_seat(self.game, seat), public)

    def redacted_history(self, seat: object) -> list[int | None]:
        return redact_history(self, check_seat(self.game, seat))

    def step(self, action: int) -> None:
        """Apply ``action``, known to be legal here, without recording it in the history.

        For replays that check legality themselves, or need not (the history's
        redaction, the sampling's rebuilt hands, a position's last card dealt).
        """
        self._do(action)

    def __str__(self) -> str:
        """The whole state as plain text (debugging; shows every hand): no rich, no renderer."""
        removed = C.card_text(self.removed) if self.removed >= 0 else "-"
        lines = [
            f"Le Malin, hand {self.round}, dealer {self.dealer}, phase {self.phase_name}, "
            f"to act {self.current_player}, put aside: {removed}",
        ]
        for seat in range(self.n):
            bid = self.bids[seat]
            mal = " ".join(f"{C.MALHEUR_NAMES[t]}x{c}" for t, c in enumerate(self.mal[seat]) if c)
            lines.append(
                f"  seat {seat}: {C.hand_text(self.hands[seat]) or '-'}  bid {bid if bid >= 0 else '-'} "
                f"won {self.tricks_won[seat]} score {self.scores_[seat]}"
                + (f"  malheur: {mal}" if mal else "")
            )
        if self.trick:
            lines.append(
                "  trick: "
                + " ".join(f"{p.seat}:{C.card_text(p.kind)}={C.value_text(p.value)}" for p in self.trick)
            )
        return "\n".join(lines)
