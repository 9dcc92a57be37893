"""Sticheln's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/i18n/en/rules/sticheln.md (the AMIGO rules, with
the seed text's errors corrected).  The state machine of one hand::

    [first dealer: chance, match start only]
    deal (chance, one card at a time, seat by seat from the dealer's left)
    pain (each seat in turn from the dealer's left lays its handicap card(s)
          face down; the choices are revealed together after the last one)
    play (14 tricks; the dealer's left leads the first, each winner the next)
    scoring, dealer moves left, next hand or end of match

The handicap ("pain") choice is simultaneous at the table.  It is modelled as
sequential decisions whose choices no other seat can see (views, redacted
histories) until every seat has chosen: a later chooser learns nothing from an
earlier one, which is exactly the information of a simultaneous move.

Hands are bitmasks of card kinds (see :mod:`.cards`); there is no obligation to
follow, so a seat's legal plays are simply the bits of its hand.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from ...core.actions import ChanceEvent, check_digits, deal_reader
from ...core.bits import bits_of
from ...core.cardname import CardName
from ...core.errors import OptionError
from ...core.fields import StateFields, state_fields
from ...core.game import CHANCE, TERMINAL, Game, State, check_seat, seeded_deal, uniform_outcomes
from ...core.native import mypyc_attr
from ...core.options import OptionSpec, first_dealer_option, start_round_option
from ...core.reason import Card, Cards, Option, Reason, Seat, Word, reason
from .cards import COLOURS, Deck
from .cards import card_name as _card_name
from .rules import (
    DEAL,
    FIRST_DEALER,
    OVER,
    PAIN,
    PHASE_NAMES,
    PLAY,
    VOID_TRICK,
    action_space,
    trick_winner_index,
)
from .tensor import hand_bound
from .view import StichelnView, make_view, redact_history


class StichelnGame(Game):
    """Sticheln for 3 to 8 players (7-8 with the big-box deck), variants as options."""

    name: ClassVar[str] = "sticheln"

    title: ClassVar[str] = "Sticheln"
    summary: ClassVar[str] = (
        "Trick-taking without following suit where every colour but the led one is trump: "
        "each card you take scores +1, except those of your secret handicap colour, which cost their value."
    )
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.sticheln.bot:StichelnHeuristicBot"}
    package: ClassVar[str] = "atout.games.sticheln"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "hands",
            int,
            None,
            "Number of hands in the match (1: a single hand); none plays one hand per player "
            "(each deals once).",
            minimum=1,
            maximum=64,
            none_ok=True,
        ),
        start_round_option(
            "Start the match at this hand number, dealt (from the seed) and rotated as that hand "
            "of a whole match; with hands=1, a single-hand game.",
            maximum=64,
        ),
        first_dealer_option(max_players),
        OptionSpec(
            "first_lead",
            str,
            "dealer_left",
            "Who leads the first trick of a hand: dealer_left (AMIGO rules) or dealer "
            "(some online versions).",
            choices=("dealer_left", "dealer"),
        ),
        OptionSpec(
            "zero_lead_colour",
            str,
            "own",
            "When a trick is led with a 0: own (its colour is the lead colour) or "
            "first_nonzero (the first non-zero card sets the lead colour).",
            choices=("own", "first_nonzero"),
        ),
        OptionSpec(
            "all_zero_trick",
            str,
            "leader_takes",
            "A trick of zeros only: leader_takes (the leader wins it) or void (its cards "
            "leave play unscored and the same player leads again).",
            choices=("leader_takes", "void"),
        ),
        OptionSpec(
            "gentle",
            bool,
            False,
            "Sticheln gentil: each card of a handicap colour costs 1 point, whatever its value.",
        ),
        OptionSpec(
            "two_pain_colours",
            bool,
            False,
            "Sticheln méchant: each player lays two handicap cards of two different colours; "
            "both colours are handicap colours (one trick fewer per hand).",
        ),
        OptionSpec(
            "pain_card_only",
            bool,
            False,
            "Only the laid-out handicap card counts against its owner; every captured card "
            "scores +1 (seen in an online version, probably not official).",
        ),
        OptionSpec(
            "hidden_pain",
            bool,
            False,
            "The handicap cards stay face down until the hand is scored (reported, unverified variant).",
        ),
    )

    def __init__(self, players: object, **options: Any) -> None:
        super().__init__(players, **options)
        #: Play a card (ids 0..N-1), lay a handicap card (N..2N-1): :func:`.rules.action_space`.
        self.space = action_space(self.deck)
        play, pain = self.space["play"], self.space["pain"]
        #: The id of "pain" of card kind 0 (the simulators offset handicap cards by it).
        self.pain_base = pain.start
        #: The ids of each range, as ``range`` objects: ``action in`` them is the
        #: engine's fastest test (``illegal_reason`` runs at every move).
        self.play_ids = range(play.start, play.stop)
        self.pain_ids = range(pain.start, pain.stop)

    @classmethod
    def card_name(cls, text: str) -> CardName:
        return _card_name(text)

    def _check_options(self) -> None:
        o = self.options
        #: The deck of this player count (see :data:`.cards.DECKS`).
        self.deck = Deck(self.players)
        #: Handicap cards each player lays per hand.
        self.pain_count = 2 if o["two_pain_colours"] else 1
        #: Tricks in a hand.
        self.tricks_per_hand = self.deck.hand_size - self.pain_count
        start = o["start_round"]
        if o["hands"] is None and start > self.players:
            raise OptionError(
                reason(
                    "sticheln.start_after_last_hand",
                    option=Option("start_round"),
                    start=start,
                    n=self.players,
                )
            )
        if o["hands"] is not None and start + o["hands"] - 1 > 64:
            raise OptionError(
                reason("sticheln.hands_at_most", start=Option("start_round"), hands=Option("hands"))
            )
        #: The last hand this match plays (its number, not a count).
        self.num_hands = start + o["hands"] - 1 if o["hands"] is not None else self.players
        self.zero_sets_lead = o["zero_lead_colour"] == "own"

    # -- action space -----------------------------------------------------------
    @property
    def num_chance_outcomes(self) -> int:
        return self.deck.size + self.players

    def read_action(self, text: str, laying_pain: bool) -> int:
        """The action ``text`` names while handicap cards are laid (``laying_pain``) or not.

        A bare card ("B7") is the play of that card, except while handicap cards
        are laid, where it is laying it: the state and its views both read texts so.
        """
        action = self.space.read(text)
        if laying_pain and len(text.split()) == 1:
            return self.space["pain"](action)
        return action

    def first_leader(self, dealer: int) -> int:
        """Who leads a hand's first trick when ``dealer`` deals: the dealer's left, or the dealer."""
        return dealer if self.options["first_lead"] == "dealer" else (dealer + 1) % self.players

    # -- scoring ------------------------------------------------------------------
    def hand_score(self, pain_cards: list[int] | tuple[int, ...], captured: int) -> int:
        """One player's score for a hand: its laid handicap cards and its captured cards (a mask).

        +1 per captured card not of a handicap colour; a card of a handicap colour
        costs its value (1 with ``gentle``); the laid handicap cards count too.
        With ``pain_card_only`` captured cards all score +1.
        """
        deck = self.deck
        gentle = self.options["gentle"]
        pain_mask = 0
        total = 0
        for k in pain_cards:
            pain_mask |= deck.colour_mask[deck.colour_of[k]]
            total -= 1 if gentle else deck.value_of[k]
        if self.options["pain_card_only"]:
            return total + captured.bit_count()
        total += (captured & ~pain_mask).bit_count()
        bad = captured & pain_mask
        if gentle:
            return total - bad.bit_count()
        value_of = deck.value_of
        for k in bits_of(bad):  # deck.kinds_in: a Python-level call
            total -= value_of[k]
        return total

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> StichelnState:
        return self._new_state(StichelnState, seed, position)

    def max_history_length(self) -> int:
        """Exact for a drawn first dealer: every hand deals, lays and plays the whole deck.

        The first dealer's draw (1), then per hand each seat is dealt ``hand_size``
        cards, lays ``pain_count`` and plays the rest: ``2 * hand_size`` actions a seat.
        """
        hands = self.num_hands - self.start_round + 1
        return 1 + hands * self.players * 2 * self.deck.hand_size

    def score_bounds(self) -> tuple[int, int]:
        """Each hand moves a seat's score by at most :func:`.tensor.hand_bound` either way."""
        bound = (self.num_hands - self.start_round + 1) * hand_bound(self)
        return -bound, bound


# allow_interpreted_subclasses: mypyc's ``__new__`` then makes a blank state, without ``__init__``
# (it runs ``__init__`` in ``__new__`` otherwise), which ``clone`` and ``fields.build`` need.
@mypyc_attr(allow_interpreted_subclasses=True)
class StichelnState(State[StichelnGame]):
    """A Sticheln match in progress.  See the module docstring for the phases."""

    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES
    fields: ClassVar[StateFields] = state_fields(
        shared=(
            "dealer", "to_act", "dealt", "deal_count", "pain_turns", "revealed", "leader", "prev_round_trick",
            "tricks_shown", "deal_order", "scores_", "sheet",
        ),
        copied=("hands", "trick", "trick_seats", "captured", "tricks"),
        nested=("pains",),
    )  # fmt: skip

    def clone(self) -> Self:
        """A copy, each field as :attr:`fields` declares (written out, checked by tests/test_state_shape.py)."""
        new = self._clone_base()
        new.dealer = self.dealer
        new.to_act = self.to_act
        new.dealt = self.dealt
        new.deal_count = self.deal_count
        new.pain_turns = self.pain_turns
        new.revealed = self.revealed
        new.leader = self.leader
        new.prev_round_trick = self.prev_round_trick
        new.tricks_shown = self.tricks_shown
        new.deal_order = self.deal_order
        new.scores_ = self.scores_
        new.sheet = self.sheet
        new.hands = self.hands.copy()
        new.trick = self.trick.copy()
        new.trick_seats = self.trick_seats.copy()
        new.captured = self.captured.copy()
        new.tricks = self.tricks.copy()
        new.pains = [x.copy() for x in self.pains]
        return new

    def __init__(self, game: StichelnGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = self.n
        first = game.opening_dealer()
        self.phase = FIRST_DEALER if first is None else DEAL
        self.dealer = 0 if first is None else first
        self.to_act = CHANCE
        #: The match scores and the score sheet change once a hand, so they are
        #: tuples a clone shares rather than lists it copies.
        self.scores_: tuple[int, ...] = (0,) * n
        #: One line per finished hand: (handicap cards per seat, score deltas).
        self.sheet: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...] = ()
        #: The previous hand's final trick as views show it, (((seat, kind), ...),
        #: winner), None in hand 1.  A hand's tricks are dropped when it ends, yet
        #: a table still shows the trick that ended it: views show this one as
        #: ``last_trick`` until the new hand finishes a trick.  Built once per
        #: hand, in the view's shape, so that views only pass it on.
        self.prev_round_trick: tuple[tuple[tuple[int, int], ...], int] | None = None
        #: ``tricks`` in the view's form, cached by the views (:func:`atout.core.tricks.shown_tricks`).
        self.tricks_shown: tuple[object, tuple[tuple[tuple[tuple[int, int], ...], int], ...]] | None = None
        self.new_hand()

    def new_hand(self) -> None:
        """Clear the hand-level fields for a deal by ``self.dealer``: no card dealt, laid or played.

        The match-level fields (round, scores, sheet, the previous hand's last
        trick) are left as they are: the caller sets them (the end of a hand, the
        first-dealer draw, a position being read).
        """
        n = self.n
        self.hands = [0] * n
        #: Mask of the cards dealt this hand, and how many.
        self.dealt = 0
        self.deal_count = 0
        #: Handicap cards laid this hand, per seat, in the order laid.
        self.pains: list[list[int]] = [[] for _ in range(n)]
        self.pain_turns = 0
        #: Whether this hand's handicap cards are face up.
        self.revealed = False
        #: The trick in progress: its cards and the seats that played them, in play order.
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.leader = self.game.first_leader(self.dealer)
        #: Cards each seat has captured this hand (masks).
        self.captured = [0] * n
        #: Finished tricks of this hand: (seats in play order, kinds, winner or VOID_TRICK).
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        #: The seeded deal of this hand, card by card (drawn at its first card; None without a seed).
        self.deal_order: list[int] | None = None
        if self.phase != FIRST_DEALER:
            self.phase = DEAL

    # -- whose turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase in (PLAY, PAIN):
            return self.to_act
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def deal_target(self) -> int:
        """The seat the next card of the deal goes to: seat by seat from the dealer's left."""
        return (self.dealer + 1 + self.deal_count // self.game.deck.hand_size) % self.n

    # -- legal actions --------------------------------------------------------------
    # Each phase has one mask of what may be chosen (the hand to play from, the
    # handicap choices, the cards not dealt yet): ``legal_actions`` lists it and
    # the phase's refusal explains a card outside it, so both say the same thing.
    def _pain_choices(self, seat: int) -> int:
        """Mask of the cards ``seat`` may lay as its next handicap card."""
        hand = self.hands[seat]
        laid = self.pains[seat]
        if laid:  # méchant: the second card must be of another colour, when the hand allows it
            deck = self.game.deck
            other = hand & ~deck.colour_mask[deck.colour_of[laid[0]]]
            if other:
                return other
        return hand

    def legal_actions(self) -> list[int]:
        phase = self.phase
        game = self.game
        if phase == PLAY:
            return bits_of(self.hands[self.to_act])  # deck.kinds_in: a Python-level call
        if phase == PAIN:
            base = game.pain_base
            return [base + k for k in bits_of(self._pain_choices(self.to_act))]
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        deck = self.game.deck
        if phase == FIRST_DEALER:
            return self._dealer_outcomes()
        if phase != DEAL:
            return []
        return uniform_outcomes(deck.kinds_in(deck.full & ~self.dealt))

    def _not_an_id(self, action: int) -> Reason:
        return reason("sticheln.not_an_id", v=repr(action), hi=self.game.num_actions - 1)

    def _not_held(self, kind: int) -> Reason:
        deck = self.game.deck
        held = Cards(tuple(deck.texts[k] for k in deck.kinds_in(self.hands[self.to_act])), " ")
        return reason("sticheln.not_held", card=Card(deck.text(kind)), held=held)

    def _play_refusal(self, action: int) -> Reason | None:
        """Why the seat to play may not do ``action``: any card of its hand may be played."""
        # The common case first, in one test (this runs at every move): a card of
        # the hand (the play range is the space's first, so its ids are 0 up to
        # the handicap range's start).
        game = self.game
        if 0 <= action < game.pain_base and self.hands[self.to_act] >> action & 1:
            return None
        if action in game.play_ids:
            return self._not_held(action)
        if action in game.pain_ids:
            return reason("sticheln.pains_laid")
        return self._not_an_id(action)

    def _pain_refusal(self, action: int) -> Reason | None:
        """Why the seat to lay may not do ``action``: the cards of :meth:`_pain_choices` may be laid."""
        game = self.game
        deck = game.deck
        seat = self.to_act
        if action in game.pain_ids:
            kind = action - game.pain_base
            if self._pain_choices(seat) >> kind & 1:
                return None
            if not self.hands[seat] >> kind & 1:
                return self._not_held(kind)
            # Held but not a choice: only a second méchant card of the first one's colour is.
            first = self.pains[seat][0]
            colour = Word("colour", COLOURS[deck.colour_of[first]])
            return reason("sticheln.second_pain_colour", card=Card(deck.text(first)), colour=colour)
        if action in game.play_ids:
            return reason("sticheln.choose_pain", seat=Seat(seat), card=deck.text(action))
        return self._not_an_id(action)

    def _deal_refusal(self, action: int) -> Reason | None:
        """Why ``action`` is not the next card dealt: any card not dealt yet this hand may be."""
        deck = self.game.deck
        if not 0 <= action < deck.size:
            return reason("deal_not_a_card", v=repr(action), hi=deck.size - 1)
        if self.dealt >> action & 1:
            return reason("sticheln.already_dealt", card=Card(deck.text(action)))
        return None

    def _phase_refusal(self, action: int) -> Reason | None:
        """Why ``action`` breaks Sticheln's rules now: a card to play, a pain colour, a card dealt, a draw."""
        phase = self.phase
        if phase == PLAY:
            return self._play_refusal(action)
        if phase == PAIN:
            return self._pain_refusal(action)
        if phase == DEAL:
            return self._deal_refusal(action)
        if phase == FIRST_DEALER:
            return self._first_dealer_refusal(action)
        return reason("match_over")

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == PAIN:
            self._lay_pain(action - self.game.pain_base)
        elif phase == DEAL:
            self.hands[self.deal_target()] |= 1 << action
            self.dealt |= 1 << action
            self.deal_count += 1
            if self.deal_count == self.game.deck.hand_size * self.n:
                self.phase = PAIN
                self.to_act = (self.dealer + 1) % self.n
        elif phase == FIRST_DEALER:
            self.dealer = self._drawn_dealer(action)
            self.phase = DEAL
            self.new_hand()

    def _lay_pain(self, kind: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << kind
        self.pains[seat].append(kind)
        self.pain_turns += 1
        per_seat = self.game.pain_count
        if self.pain_turns == per_seat * self.n:
            self.revealed = not self.game.options["hidden_pain"]
            self.phase = PLAY
            self.to_act = self.leader
        else:
            self.to_act = (self.dealer + 1 + self.pain_turns // per_seat) % self.n

    def _play(self, kind: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << kind
        trick = self.trick
        trick.append(kind)
        self.trick_seats.append(seat)
        if len(trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        game = self.game
        deck = game.deck
        i = trick_winner_index(deck.colour_of, deck.value_of, trick, game.zero_sets_lead)
        if i < 0 and game.options["all_zero_trick"] == "leader_takes":
            i = 0
        winner = self.trick_seats[i] if i >= 0 else VOID_TRICK
        if winner >= 0:
            mask = 0
            for k in trick:
                mask |= 1 << k
            self.captured[winner] |= mask
            self.leader = winner
        self.tricks.append((tuple(self.trick_seats), tuple(trick), winner))
        self.trick = []
        self.trick_seats = []
        self.to_act = self.leader
        if not self.hands[self.leader]:
            self._score_hand()

    def _score_hand(self) -> None:
        game = self.game
        deltas = tuple(game.hand_score(self.pains[s], self.captured[s]) for s in range(self.n))
        self.scores_ = tuple(s + d for s, d in zip(self.scores_, deltas, strict=True))
        self.sheet = (*self.sheet, (tuple(tuple(p) for p in self.pains), deltas))
        self.revealed = True
        if self.round == game.num_hands:
            self.phase = OVER
            self.to_act = TERMINAL
            return
        seats, kinds, winner = self.tricks[-1]
        self.prev_round_trick = (tuple(zip(seats, kinds, strict=True)), winner)
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        self.phase = DEAL
        self.new_hand()

    def _dealer_base(self) -> int:
        return self.game.deck.size  # "dealer k": the outcome after the deck's cards'

    def _seeded_outcome(self) -> int:
        deck = self.game.deck
        if self.phase == FIRST_DEALER:
            return self._seeded_dealer()
        if self.deal_order is None:  # one shuffle per hand
            self.deal_order = seeded_deal(
                self.seed or 0, "hand", self.round, deck.size, self.n, deck.hand_size
            )
        return self.deal_order[self.deal_count]

    # -- notation -------------------------------------------------------------------
    def parse(self, text: object) -> int:
        """As :meth:`State.parse`; a bare card ("B7") means "pain B7" while handicap cards are laid."""
        if not isinstance(text, str) or self.is_chance:
            return super().parse(text)
        check_digits(text)
        return self.game.read_action(text, self.phase == PAIN)

    def _chance_to_text(self, outcome: int) -> str:
        if self.phase == FIRST_DEALER:
            return self._dealer_text(outcome)
        return f"deal {self.deal_target()} {self.game.deck.text(outcome)}"

    def _chance_event(self) -> ChanceEvent | None:
        """The chance event this phase waits for: the first dealer's draw, or the next card dealt."""
        deck = self.game.deck
        if self.phase == FIRST_DEALER:
            return ChanceEvent("dealer", 1, self._read_dealer, "dealer 2")
        if self.phase != DEAL:
            return None
        target = self.deal_target()
        held = (self.hands[target].bit_count(), deck.hand_size)
        read = deal_reader(target, deck.parse, "hand", self.round, held)
        return ChanceEvent("deal", 2, read, f"deal {target} B7")

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.scores_)

    def view(self, seat: object, public: bool = False) -> StichelnView:
        return make_view(self, check_seat(self.game, seat), public)

    def redacted_history(self, seat: object) -> list[int | None]:
        return redact_history(self, check_seat(self.game, seat))

    def __str__(self) -> str:
        """The whole state as plain text (debugging; shows every hand): no rich, no renderer."""
        deck = self.game.deck
        lines = [
            f"Sticheln, hand {self.round}/{self.game.num_hands}, dealer {self.dealer}, "
            f"phase {self.phase_name}, to act {self.current_player}"
        ]
        for seat in range(self.n):
            pains = " ".join(deck.text(k) for k in self.pains[seat]) or "-"
            lines.append(
                f"  seat {seat}: {deck.hand_text(self.hands[seat]) or '-'}  pain {pains}"
                f"{'' if self.revealed else ' (face down)'}  took {self.captured[seat].bit_count()} "
                f"score {self.scores_[seat]}"
            )
        if self.trick:
            played = zip(self.trick_seats, self.trick, strict=True)
            lines.append("  trick: " + " ".join(f"{s}:{deck.text(k)}" for s, k in played))
        return "\n".join(lines)


__all__ = [
    "DEAL",
    "FIRST_DEALER",
    "OVER",
    "PAIN",
    "PHASE_NAMES",
    "PLAY",
    "VOID_TRICK",
    "StichelnGame",
    "StichelnState",
    "StichelnView",
    "trick_winner_index",
]
