"""Sticheln's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/rules/sticheln.md (the AMIGO rules, with
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

import random
from typing import ClassVar

from ...core.cardname import CardName
from ...core.errors import NotationError, OptionError
from ...core.game import CHANCE, TERMINAL, Game, State, View, check_seat, seeded_rng
from ...core.options import OptionSpec
from .cards import COLOURS, Deck
from .cards import card_name as _card_name

# Phases of a hand.
FIRST_DEALER, DEAL, PAIN, PLAY, OVER = range(5)
PHASE_NAMES = ("first-dealer", "deal", "pain", "play", "over")

#: ``winner`` recorded for a trick of zeros that was set aside (all_zero_trick=void).
VOID_TRICK = -1


def trick_winner_index(
    colour_of: tuple[int, ...],
    value_of: tuple[int, ...],
    kinds: list[int] | tuple[int, ...],
    zero_sets_lead: bool,
) -> int:
    """Position in ``kinds`` (play order) of the winning card, or -1 if only zeros were played.

    The lead colour is the colour of the first card (``zero_sets_lead``), or of
    the first non-zero card.  Every other colour is trump; zeros never trump and
    never win.  The highest trump wins, the earliest of equal trumps; without a
    trump, the highest card of the lead colour.  A trick of zeros only has no
    winner here: the caller applies the all-zero rule.
    """
    lead = -1
    if zero_sets_lead:
        lead = colour_of[kinds[0]]
    else:
        for k in kinds:
            if value_of[k]:
                lead = colour_of[k]
                break
    best = -1
    best_value = 0
    best_trump = False
    for i, k in enumerate(kinds):
        v = value_of[k]
        if v == 0:
            continue
        if colour_of[k] != lead:
            if not best_trump or v > best_value:  # strict: the first of equal trumps stays
                best, best_value, best_trump = i, v, True
        elif not best_trump and v > best_value:
            best, best_value = i, v
    return best


class StichelnGame(Game):
    """Sticheln for 3 to 8 players (7-8 with the big-box deck), variants as options."""

    name = "sticheln"

    title = "Sticheln"
    summary = (
        "Trick-taking without following suit where every colour but the led one is trump: "
        "each card you take scores +1, except those of your secret handicap colour, which cost their value."
    )
    min_players = 3
    max_players = 8
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.sticheln.bot:StichelnHeuristicBot"}
    renderer = "atout.games.sticheln.render"
    rules_page = "sticheln"
    tensors = "atout.games.sticheln.tensor"
    positions = "atout.games.sticheln.position"
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
        OptionSpec(
            "start_round",
            int,
            1,
            "Start the match at this hand number, dealt (from the seed) and rotated as that hand "
            "of a whole match; with hands=1, a single-hand game.",
            minimum=1,
            maximum=64,
        ),
        OptionSpec(
            "first_dealer",
            int,
            None,
            "Seat of the first dealer; none draws it at random (a chance event).",
            minimum=0,
            maximum=7,
            none_ok=True,
        ),
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

    @classmethod
    def card_name(cls, text: str) -> CardName:
        return _card_name(text)

    def _check_options(self) -> None:
        o = self.options
        if o["first_dealer"] is not None and o["first_dealer"] >= self.players:
            raise OptionError(f"first_dealer must be a seat 0..{self.players - 1}")
        #: The deck of this player count (see :data:`.cards.DECKS`).
        self.deck = Deck(self.players)
        #: Handicap cards each player lays per hand.
        self.pain_count = 2 if o["two_pain_colours"] else 1
        #: Tricks in a hand.
        self.tricks_per_hand = self.deck.hand_size - self.pain_count
        start = o["start_round"]
        if o["hands"] is None and start > self.players:
            raise OptionError(f"start_round={start} is after the last hand ({self.players}): give hands= too")
        if o["hands"] is not None and start + o["hands"] - 1 > 64:
            raise OptionError("start_round + hands - 1 must be at most 64")
        #: The first hand this match plays.
        self.start_round = start
        #: The last hand this match plays (its number, not a count).
        self.num_hands = start + o["hands"] - 1 if o["hands"] is not None else self.players
        self.pain_base = self.deck.size
        self.zero_sets_lead = o["zero_lead_colour"] == "own"

    # -- action space -----------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return 2 * self.deck.size

    @property
    def num_chance_outcomes(self) -> int:
        return self.deck.size + self.players

    def action_to_text(self, action: int) -> str:
        size = self.deck.size
        if isinstance(action, int) and 0 <= action < size:
            return f"play {self.deck.text(action)}"
        if isinstance(action, int) and size <= action < 2 * size:
            return f"pain {self.deck.text(action - size)}"
        raise NotationError(f"{action!r} is not a Sticheln action id (0..{self.num_actions - 1})")

    def text_to_action(self, text: str) -> int:
        words = text.strip().lower().split()
        try:
            if len(words) == 2 and words[0] == "play":
                return self.deck.parse(words[1])
            if len(words) == 2 and words[0] in ("pain", "handicap"):
                return self.pain_base + self.deck.parse(words[1])
            if len(words) == 1:
                return self.deck.parse(words[0])
        except ValueError as exc:
            raise NotationError(f"{text!r}: {exc}") from None
        raise NotationError(f"{text!r} is not a Sticheln action: write 'play B7' or 'pain B7'")

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
        for k in deck.kinds_in(bad):
            total -= value_of[k]
        return total

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> StichelnState:
        if position is not None:
            from_position = self.state_from_position(position, seed)
            assert isinstance(from_position, StichelnState)
            return from_position
        state = StichelnState(self, seed)
        if seed is not None:
            state._resolve_chance()
        return state

    def score_bounds(self) -> tuple[int, int]:
        """Each hand moves a seat's score by at most :func:`.tensor.hand_bound` either way."""
        from .tensor import hand_bound

        bound = (self.num_hands - self.start_round + 1) * hand_bound(self)
        return -bound, bound

    def sample_round(self, view: View, rng: random.Random) -> tuple[StichelnState, list[int]] | None:
        """See :func:`.sampling.sample_round`: offered at every decision."""
        from .sampling import sample_round

        if not isinstance(view, StichelnView) or view.game != self:
            raise ValueError("sample_round needs a view of this Sticheln game")
        return sample_round(self, view, rng)

    def sample_state(self, view: View, rng: random.Random) -> StichelnState:
        from .sampling import sample_world

        if not isinstance(view, StichelnView) or view.game != self:
            raise ValueError("sample_state needs a view of this Sticheln game")
        return sample_world(self, view, rng)


class StichelnState(State):
    """A Sticheln match in progress.  See the module docstring for the phases."""

    __slots__ = (
        "_deck",
        "captured",
        "deal_count",
        "dealer",
        "dealt",
        "game",
        "hands",
        "history",
        "leader",
        "n",
        "pain_turns",
        "pains",
        "phase",
        "prev_round_trick",
        "revealed",
        "round",
        "scores_",
        "seed",
        "sheet",
        "start",
        "to_act",
        "trick",
        "trick_seats",
        "tricks",
    )  # fmt: skip

    def __init__(self, game: StichelnGame, seed: int | None) -> None:
        self.game: StichelnGame = game
        self.seed = seed
        self.start = None
        self.history: list[int] = []
        self.n = n = game.players
        first = game.options["first_dealer"]
        self.phase = FIRST_DEALER if first is None else DEAL
        self.round = game.start_round
        # first_dealer is hand 1's dealer; the deal moves left each hand.
        self.dealer = 0 if first is None else (first + game.start_round - 1) % n
        self.to_act = CHANCE
        self.scores_ = [0] * n
        #: One line per finished hand: (handicap cards per seat, score deltas).
        self.sheet: list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]] = []
        self._deck: list[int] | None = None
        #: The previous hand's final trick as views show it, (((seat, kind), ...),
        #: winner), None in hand 1.  A hand's tricks are dropped when it ends, yet
        #: a table still shows the trick that ended it: views show this one as
        #: ``last_trick`` until the new hand finishes a trick.  Built once per
        #: hand, in the view's shape, so that views only pass it on.
        self.prev_round_trick: tuple[tuple[tuple[int, int], ...], int] | None = None
        self._new_hand()

    def _new_hand(self) -> None:
        n = self.n
        self.hands = [0] * n
        self.dealt = 0
        self.deal_count = 0
        #: Handicap cards laid this hand, per seat, in the order laid.
        self.pains: list[list[int]] = [[] for _ in range(n)]
        self.pain_turns = 0
        #: Whether this hand's handicap cards are face up.
        self.revealed = False
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        lead_dealer = self.game.options["first_lead"] == "dealer"
        self.leader = self.dealer if lead_dealer else (self.dealer + 1) % n
        #: Cards each seat has captured this hand (masks).
        self.captured = [0] * n
        #: Finished tricks of this hand: (seats in play order, kinds, winner or VOID_TRICK).
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        self._deck = None
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

    def _deal_target(self) -> int:
        return (self.dealer + 1 + self.deal_count // self.game.deck.hand_size) % self.n

    # -- legal actions --------------------------------------------------------------
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
            return game.deck.kinds_in(self.hands[self.to_act])
        if phase == PAIN:
            base = game.pain_base
            return [base + k for k in game.deck.kinds_in(self._pain_choices(self.to_act))]
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        deck = self.game.deck
        if phase == FIRST_DEALER:
            p = 1.0 / self.n
            return [(deck.size + seat, p) for seat in range(self.n)]
        if phase != DEAL:
            return []
        remaining = deck.kinds_in(deck.full & ~self.dealt)
        p = 1.0 / len(remaining)
        return [(k, p) for k in remaining]

    def illegal_reason(self, action: int) -> str | None:
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is an integer id, not {action!r}"
        phase = self.phase
        game = self.game
        deck = game.deck
        size = deck.size
        if phase == PLAY:
            if 0 <= action < size:
                if self.hands[self.to_act] >> action & 1:
                    return None
                return f"you do not hold {deck.text(action)} (your cards: {deck.hand_text(self.hands[self.to_act])})"
            if size <= action < 2 * size:
                return "the handicap cards are already laid: it is time to play a card ('play B7')"
            return f"{action!r} is not a Sticheln action id (0..{game.num_actions - 1})"
        if phase == PAIN:
            seat = self.to_act
            if size <= action < 2 * size:
                kind = action - size
                if not self.hands[seat] >> kind & 1:
                    return (
                        f"you do not hold {deck.text(kind)} (your cards: {deck.hand_text(self.hands[seat])})"
                    )
                if not self._pain_choices(seat) >> kind & 1:
                    first = self.pains[seat][0]
                    return (
                        f"Sticheln méchant: your second handicap card must be of another colour than "
                        f"your first, {deck.text(first)} ({COLOURS[deck.colour_of[first]]})"
                    )
                return None
            if 0 <= action < size:
                return (
                    f"first choose your handicap card face down (seat {seat}): "
                    f"write 'pain {deck.text(action)}' to lay that card"
                )
            return f"{action!r} is not a Sticheln action id (0..{game.num_actions - 1})"
        if phase == OVER:
            return "the match is over"
        # chance
        if phase == FIRST_DEALER:
            if size <= action < size + self.n:
                return None
            return "the first dealer must be drawn first"
        if not 0 <= action < size:
            return f"{action!r} is not a card: a deal outcome is a card id 0..{size - 1}"
        if self.dealt >> action & 1:
            return f"{deck.text(action)} cannot be dealt: it is already dealt this hand"
        return None

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == PAIN:
            self._lay_pain(action - self.game.pain_base)
        elif phase == DEAL:
            self.hands[self._deal_target()] |= 1 << action
            self.dealt |= 1 << action
            self.deal_count += 1
            if self.deal_count == self.game.deck.hand_size * self.n:
                self.phase = PAIN
                self.to_act = (self.dealer + 1) % self.n
        elif phase == FIRST_DEALER:
            # The draw names hand 1's dealer, as first_dealer does (start_round > 1).
            self.dealer = (action - self.game.deck.size + self.round - 1) % self.n
            self.phase = DEAL
            self._new_hand()

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
        for seat, d in enumerate(deltas):
            self.scores_[seat] += d
        self.sheet.append((tuple(tuple(p) for p in self.pains), deltas))
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
        self._new_hand()

    def _seeded_outcome(self) -> int:
        deck = self.game.deck
        if self.phase == FIRST_DEALER:
            return deck.size + seeded_rng(self.seed or 0, "first-dealer").randrange(self.n)
        if self._deck is None:
            # One shuffle per hand, from the seed and the hand number only; each
            # seat's cards are then dealt in ascending order so that a record
            # (which lists a seat's cards sorted) replays to the same history.
            cards = list(range(deck.size))
            seeded_rng(self.seed or 0, "hand", self.round).shuffle(cards)
            h = deck.hand_size
            order: list[int] = []
            for i in range(self.n):
                order.extend(sorted(cards[i * h : (i + 1) * h]))
            self._deck = order
        return self._deck[self.deal_count]

    # -- notation -------------------------------------------------------------------
    def parse(self, text: str) -> int:
        """As :meth:`State.parse`; a bare card ("B7") means "pain B7" while handicap cards are laid."""
        action = super().parse(text)
        if self.phase == PAIN and isinstance(text, str) and len(text.split()) == 1:
            return self.game.pain_base + action
        return action

    def _chance_to_text(self, outcome: int) -> str:
        deck = self.game.deck
        if self.phase == FIRST_DEALER:
            return f"dealer {outcome - deck.size}"
        return f"deal {self._deal_target()} {deck.text(outcome)}"

    def _text_to_chance(self, text: str) -> int:
        words = text.strip().lower().split()
        phase = self.phase
        deck = self.game.deck
        try:
            if phase == FIRST_DEALER and len(words) == 2 and words[0] == "dealer":
                seat = int(words[1])
                if not 0 <= seat < self.n:
                    raise ValueError(f"the dealer is a seat 0..{self.n - 1}")
                return deck.size + seat
            if phase == DEAL and len(words) == 3 and words[0] == "deal":
                target = self._deal_target()
                if int(words[1]) != target:
                    raise NotationError(
                        f"{text!r}: the next card of hand {self.round} goes to seat {target}, "
                        f"not seat {words[1]} (seat {target} has "
                        f"{self.hands[target].bit_count()} of {deck.hand_size} cards)"
                    )
                return deck.parse(words[2])
        except ValueError as exc:
            if isinstance(exc, NotationError):
                raise
            raise NotationError(f"{text!r}: {exc}") from None
        expected = {FIRST_DEALER: "dealer 2", DEAL: f"deal {self._deal_target()} B7"}
        raise NotationError(
            f"{text!r} is not the chance event expected here "
            f"({PHASE_NAMES[phase]}: write e.g. {expected.get(phase, '?')!r})"
        )

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.scores_)

    def view(self, seat: int) -> StichelnView:
        check_seat(self.game, seat)
        from .view import make_view

        return make_view(self, seat)

    def public_view(self) -> StichelnView:
        from .view import make_view

        return make_view(self, 0, public=True)

    def redacted_history(self, seat: int) -> list[int | None]:
        from .view import redact_history

        return redact_history(self, seat)

    def clone(self) -> StichelnState:
        new = StichelnState.__new__(StichelnState)
        new.game = self.game
        new.seed = self.seed
        new.start = self.start
        new.history = self.history.copy()
        new.n = self.n
        new.phase = self.phase
        new.round = self.round
        new.dealer = self.dealer
        new.to_act = self.to_act
        new.hands = self.hands.copy()
        new.dealt = self.dealt
        new.deal_count = self.deal_count
        new.pains = [p.copy() for p in self.pains]
        new.pain_turns = self.pain_turns
        new.revealed = self.revealed
        new.trick = self.trick.copy()
        new.trick_seats = self.trick_seats.copy()
        new.leader = self.leader
        new.captured = self.captured.copy()
        new.tricks = self.tricks.copy()
        new.prev_round_trick = self.prev_round_trick
        new.scores_ = self.scores_.copy()
        new.sheet = self.sheet.copy()
        new._deck = self._deck
        return new

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

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


from .view import StichelnView  # noqa: E402  (the view module imports the state's constants)

__all__ = ["StichelnGame", "StichelnState", "StichelnView", "trick_winner_index"]
