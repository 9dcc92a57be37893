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

A Malheur **window** gives every seat holding a Malheur card, one at a time
clockwise from the seat after the one who just acted, the choice to play one
or to pass; a play resets the round of passes, and the window closes when
every holder has passed in a row.  A card aimed at a seat (or at its card)
first opens a **reaction**: the target may answer with L'Avocat du Diable (or
pass) before the effect resolves.  Seats without Malheur cards are never asked
(how many Malheur cards a seat holds is public, so skipping them leaks nothing);
seats with cards are always asked, even when none of their cards could be
played, so that the question itself reveals nothing either.
"""

from __future__ import annotations

from typing import ClassVar, Self

from ...core.actions import ActionRange, ActionSpace, ChanceEvent, check_digits, deal_reader, integer
from ...core.cardname import CardName
from ...core.errors import Explained
from ...core.fields import StateFields, state_fields
from ...core.game import CHANCE, TERMINAL, Game, State, check_seat, seeded_rng
from ...core.native import mypyc_attr
from ...core.options import OptionSpec, first_dealer_option, start_round_option
from ...core.reason import Card, Num, Quoted, Reason, Seat, Seats, Word, reason
from . import cards as C
from .cards import AVOCAT, BELZ, MALIN, NUM_MALHEURS, SIX, TWIN, WISH, Value
from .cards import card_name as _card_name
from .rules import (
    AVOCAT_BASE,
    BID,
    BID_BASE,
    C_DEALER,
    C_DRAW,
    C_STEAL,
    CARD_WINDOW,
    CHANCE_PHASES,
    DEAL,
    EFFECT_BASE,
    EFFECT_ON,
    EFFECT_TYPES,
    EXAMPLES,
    FIRST_DEALER,
    GAIN,
    MALIN_BASE,
    MALIN_TARGETS,
    MAX_BID,
    MAX_SEATS,
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
    TITLE,
    TWIN_HIGH,
    TWIN_LOW,
    WINDOW,
    WINDOW_NAMES,
    WISH_BASE,
    WISH_MAX,
    WISH_MIN,
    Pending,
    Played,
    Trick,
    gains,
    malheur_target,
    malheur_type,
    malin_targets,
    play_kind_value,
    ranges,
    winner_of,
)
from .view import MalinView, make_view, parse_in_context, redact_history

# The names the batch engine and older callers import from here.


def _wish_actions(base: int, forbidden: set[Value], out: list[int]) -> list[int]:
    """``out`` extended by ``base + v`` for each Wish value ``v`` not in ``forbidden``, ascending.

    The Wish takes any of 201 values and the forbidden ones are the few of a trick
    (or a hand): the allowed ones are added as the ranges between those, not tested
    one by one, at every legal-move list of a seat holding the Wish.
    """
    start = WISH_MIN
    for v in sorted(int(x) for x in forbidden if WISH_MIN <= x <= WISH_MAX and x == int(x)):
        if v >= start:
            out.extend(range(base + start, base + v))
            start = v + 1
    out.extend(range(base + start, base + WISH_MAX + 1))
    return out


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
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "start_score",
            int,
            10,
            "Starting capital: 10 (the long game) or 6 (the short game for a first play).",
            minimum=1,
            maximum=99,
        ),
        OptionSpec(
            "sum_rule",
            str,
            "final",
            "final: the bids of a hand may not add up to its number of tricks (binds the dealer); "
            "running: no running total of the bids may equal it either.",
            choices=("final", "running"),
        ),
        OptionSpec(
            "wish_forbidden_scope",
            str,
            "trick",
            "trick: the Wish may not take the value of a card already in the trick; "
            "hand: nor of any card already played this hand.",
            choices=("trick", "hand"),
        ),
        OptionSpec(
            "wish_collision",
            str,
            "redeclare_any_trick",
            "A card played after the Wish with the Wish's value makes the Wish's owner choose "
            "again: in every trick (redeclare_any_trick) or in the last trick only "
            "(last_trick_only; elsewhere the earlier card, the Wish, wins the tie).",
            choices=("redeclare_any_trick", "last_trick_only"),
        ),
        OptionSpec(
            "wish_beats_both_twins",
            str,
            "last_trick",
            "A trick holding the Wish and both Twins goes to the Wish: in the last trick "
            "(the seed), in any_trick, or never.",
            choices=("last_trick", "any_trick", "never"),
        ),
        OptionSpec(
            "twin_value",
            str,
            "free",
            "free: a Twin may take 0 or the high value even if it equals the Wish's value (the "
            "Wish then re-declares); avoid_taken: a Twin must avoid a value already in the trick "
            "when it has the choice.",
            choices=("free", "avoid_taken"),
        ),
        OptionSpec(
            "clamp_at_zero",
            bool,
            False,
            "Scores stop at 0 instead of going negative.",
        ),
        first_dealer_option(max_players),
        OptionSpec(
            "rounds",
            int,
            None,
            "Play at most N hands (1: a single hand); none plays until a score reaches 0.",
            minimum=1,
            maximum=200,
            none_ok=True,
        ),
        start_round_option(
            "Start the match at this hand number, dealt (from the seed) and rotated as that hand "
            "of a whole match, every seat on start_score; with rounds=1, a single-hand game.",
            maximum=200,
        ),
        OptionSpec(
            "fun",
            bool,
            False,
            "Jeu fun: every player starts with a Malheur card, gains more as the score falls, "
            "and may play them in the Malheur windows.",
        ),
        OptionSpec(
            "malheur_gain",
            str,
            "odd_crossed",
            "When a Malheur card is gained: one per odd score passed or reached (odd_crossed), "
            "one when the new score is odd (final_odd), or one per point lost (per_point).",
            choices=("odd_crossed", "final_odd", "per_point"),
        ),
        OptionSpec("malin_copies", int, 4, "Copies of Le Malin in the Malheur deck.", minimum=0, maximum=20),
        OptionSpec(
            "avocat_copies",
            int,
            4,
            "Copies of L'Avocat du Diable in the Malheur deck.",
            minimum=0,
            maximum=20,
        ),
        OptionSpec("copies_666", int, 4, "Copies of 666 in the Malheur deck.", minimum=0, maximum=20),
        OptionSpec(
            "belzebuth_copies", int, 4, "Copies of Belzébuth in the Malheur deck.", minimum=0, maximum=20
        ),
        OptionSpec("fennec_copies", int, 4, "Copies of Fennec in the Malheur deck.", minimum=0, maximum=20),
        OptionSpec(
            "reverse_single_digit",
            str,
            "unchanged",
            "666 on a one-digit value: unchanged (7 stays 7) or pad_to_two (7 is read 07 and becomes 70).",
            choices=("unchanged", "pad_to_two"),
        ),
        OptionSpec(
            "halve_rounding",
            str,
            "exact",
            "Belzébuth halves exactly (35 -> 17.5) or rounds down (35 -> 17).",
            choices=("exact", "floor"),
        ),
        OptionSpec(
            "malin_steal",
            str,
            "one_from_each",
            "Le Malin takes a random Malheur card from each chosen opponent (one_from_each) "
            "or a single one from the cards of the chosen opponents together (one_total).",
            choices=("one_from_each", "one_total"),
        ),
    )

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
        #: The last hand this match may play (None: until a score reaches 0).
        self.last_round: int | None = None if o["rounds"] is None else self.start_round + o["rounds"] - 1

    def __init__(self, players: object, **options: object) -> None:
        super().__init__(players, **options)
        self._build_space()

    # -- action space -----------------------------------------------------------
    def _build_space(self) -> None:
        """The action table (:mod:`.rules`), with this configuration's Twin text and readers.

        The ids are the same for every configuration; the readers check what
        depends on it (the numbered cards there are, the seats, the Twin's high
        value) and keep the notation's own messages.
        """
        high = self.twin_high
        twin = ActionRange("twin", 2, lambda v: f"play TWIN {high if v else 0}")

        def play(rest: list[str]) -> int:
            if len(rest) in (1, 2):
                return self._parse_play(rest)
            raise LookupError("play")

        def redeclare(rest: list[str]) -> int:
            if len(rest) == 1:
                value = integer(rest[0])
                if WISH_MIN <= value <= WISH_MAX:
                    return REDECLARE_BASE + value
                raise Explained(reason("malin.wish_range"))
            raise LookupError("wish")

        def bid(rest: list[str]) -> int:
            if len(rest) == 1:
                value = integer(rest[0])
                if 0 <= value <= MAX_BID:
                    return BID_BASE + value
                raise Explained(reason("notation.bid_range", hi=MAX_BID))
            raise LookupError("bid")

        def malheur(rest: list[str]) -> int:
            if len(rest) >= 2 and rest[1] == "on":
                return self._parse_malheur(rest[0], rest[2:])
            raise LookupError("malheur")

        def bare(words: list[str]) -> int:
            """A card without "play" ("17", "TWIN 0"); a word that is no keyword reads as a card."""
            if len(words) in (1, 2) and words[0] not in ("play", "bid", "malheur", "wish"):
                return self._parse_play(words)
            raise LookupError(words[0])

        def redeclare_or_card(rest: list[str]) -> int:
            return redeclare(rest) if len(rest) == 1 else bare(["redeclare", *rest])

        def pass_or_card(rest: list[str]) -> int:
            return PASS if not rest else bare(["pass", *rest])

        self.space = ActionSpace(
            TITLE,
            ranges(twin),
            examples=EXAMPLES,
            readers={
                "play": play,
                "wish": redeclare,
                "redeclare": redeclare_or_card,
                "bid": bid,
                "pass": pass_or_card,
                "malheur": malheur,
            },
            fallback=bare,
            words=lambda text: text.strip().lower().replace(",", " ").split(),
        )

    @property
    def num_chance_outcomes(self) -> int:
        return NUM_CHANCE

    def _parse_play(self, words: list[str]) -> int:
        kind = C.parse_card(words[0])
        if kind == TWIN:
            if len(words) != 2:
                raise Explained(reason("malin.declare_twin", high=self.twin_high))
            value = integer(words[1])
            if value == 0:
                return TWIN_LOW
            if value == self.twin_high:
                return TWIN_HIGH
            raise Explained(reason("malin.twin_worth", high=self.twin_high))
        if kind == WISH:
            if len(words) != 2:
                raise Explained(reason("malin.declare_wish"))
            value = integer(words[1])
            if WISH_MIN <= value <= WISH_MAX:
                return WISH_BASE + value
            raise Explained(reason("malin.wish_range"))
        if len(words) != 1:
            raise Explained(reason("malin.no_declared_value"))
        return kind  # a card this table's deck lacks has its id: play refuses it (see _play_refusal)

    def _parse_malheur(self, name: str, rest: list[str]) -> int:
        mtype = C.parse_malheur(name)
        seats = []
        for w in rest:
            if w == "and":
                continue
            seat_text = w.split(":", 1)[0].removeprefix("seat")
            if not seat_text.isdigit():
                raise Explained(reason("notation.not_a_seat", word=Quoted(w)))
            seats.append(int(seat_text))
        for seat in seats:
            # Seats up to the table's six have ids (the table is the same for every
            # configuration): the rules refuse those past this game's seats.
            if not 0 <= seat < MAX_SEATS:
                raise Explained(reason("notation.seat_range", hi=self.players - 1, v=seat))
        if mtype == MALIN:
            key = tuple(sorted(set(seats)))
            if len(key) not in (1, 2) or len(key) != len(seats):
                raise Explained(reason("malin.malin_targets"))
            return MALIN_BASE + MALIN_TARGETS.index(key)
        if len(seats) != 1:
            raise Explained(reason("malin.targets_one", card=C.MALHEUR_TITLES[mtype], word=name))
        if mtype == AVOCAT:
            return AVOCAT_BASE + seats[0]
        effect = EFFECT_ON[mtype]
        assert effect is not None
        return effect(seats[0])

    def max_hands(self) -> int:
        """The most hands a match can last: ``rounds``, or fewer, as the sum rule bounds it.

        The contracts never add up to the tricks, so every hand costs the table
        at least one point; a match ends when a score reaches 0, so before its
        last hand the table still holds at least ``players`` points: at most
        ``players * (start_score - 1) + 1`` hands (clamping at 0 changes nothing
        before the last hand).
        """
        by_points: int = self.players * (self.options["start_score"] - 1) + 1
        rounds: int | None = self.options["rounds"]
        return by_points if rounds is None else min(rounds, by_points)

    def max_history_length(self) -> int:
        """An upper bound on a whole match's history, from the rules' own limits (see :meth:`max_hands`).

        Per hand: the card set aside (1), the deal (``n * hand_size``), the bids
        (``n``), the plays (``n * hand_size``) and the Wish's re-declarations (at
        most one per trick).  The jeu fun adds the opening Malheur draws (``n``),
        every Malheur window's closing round of passes (at most ``n``; one
        window before the bidding and one after each card), and per Malheur card
        ever played a bounded train (the play, a reaction, a steal's two draws,
        the passes it reopens: ``2n + 8`` covers it twice over).  Cards are
        played only once held: the ``n`` opening ones and those gained, at most
        one per point lost, each drawn (one chance action); points lost are at
        most ``start_score`` minus the lowest final score, per seat.
        """
        n, size = self.players, self.hand_size
        hands = self.max_hands()
        per_hand = 1 + n * size + n + n * size + size
        total = 1 + hands * per_hand
        if self.fun:
            low = self.score_bounds()[0]
            gained = n * (self.options["start_score"] - low)
            windows = hands * (n * size + 1)
            total += n + windows * n + (n + gained) * (2 * n + 8) + gained
        return total

    def score_bounds(self) -> tuple[int, int]:
        """Final scores lie between 1 - tricks per hand (a seat on 1 missing by every
        trick; 0 with clamp_at_zero) and the starting capital (points are only lost)."""
        low = 0 if self.options["clamp_at_zero"] else 1 - self.hand_size
        return low, self.options["start_score"]

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
    # reason given is the check that refused, never a guess after the fact.
    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            return self._legal_plays()
        if phase == BID:
            return [BID_BASE + b for b in self._legal_bids()]
        if phase == WINDOW:
            return self._legal_window()
        if phase == REACT:
            return [PASS, *self._legal_avocats()]
        if phase == REDECLARE:
            forbidden = self._wish_forbidden(exclude=self.wish_pos)
            return _wish_actions(REDECLARE_BASE, forbidden, [])
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def _legal_bids(self) -> list[int]:
        """The bids :meth:`_bid_refusal` lets through, by its checks in one pass (bots call this often)."""
        size = self.game.hand_size
        made = [b for b in self.bids if b >= 0]
        total = sum(made)
        sum_binds = self.to_act == self.dealer or self.game.options["sum_rule"] == "running"
        out = [b for b in range(size) if b not in made and not (sum_binds and total + b == size)]
        assert out, "a legal bid always exists (rules-notes §1.3)"
        return out

    def _bid_refusal(self, action: int) -> Reason | None:
        if not BID_BASE <= action <= BID_BASE + MAX_BID:
            return reason("time_to_bid", seat=Seat(self.to_act), action=self._verb(action))
        bid = action - BID_BASE
        size = self.game.hand_size
        if not 0 <= bid < size:
            return reason("malin.bid_range", hi=size - 1, size=size)
        for seat, b in enumerate(self.bids):
            if b == bid:
                return reason("malin.bid_taken", bid=bid, seat=Seat(seat))
        total = sum(b for b in self.bids if b >= 0)
        if total + bid == size:
            if self.to_act == self.dealer:
                return reason("malin.dealer_sum", size=size, bid=bid)
            if self.game.options["sum_rule"] == "running":
                return reason("malin.running_sum", size=size, bid=bid)
        return None

    def _wish_forbidden(self, exclude: int = -1) -> set[Value]:
        """Values the Wish may not take now (the trick's, or the whole hand's)."""
        vals = {p.value for i, p in enumerate(self.trick) if i != exclude}
        if self.game.options["wish_forbidden_scope"] == "hand":
            for cards, _ in self.tricks:
                vals.update(p.value for p in cards)
        return vals

    def _twin_values(self) -> list[int]:
        """Values a Twin may be declared now (second Twin of a trick: the other value)."""
        high = self.game.twin_high
        values = [0, high]
        for p in self.trick:
            if p.kind == TWIN:
                values = [high if p.declared == 0 else 0]
                break
        if len(values) == 2 and self.game.options["twin_value"] == "avoid_taken":
            taken = {p.value for p in self.trick}
            free = [v for v in values if v not in taken]
            if free:
                values = free
        return values

    def _legal_plays(self) -> list[int]:
        hand = self.hands[self.to_act]
        out = C.cards_in(hand & ((1 << TWIN) - 1))
        if hand & C.TWIN_MASK:
            out.extend(TWIN_LOW if v == 0 else TWIN_HIGH for v in self._twin_values())
        if hand & C.WISH_MASK:
            forbidden = self._wish_forbidden()
            _wish_actions(WISH_BASE, forbidden, out)
        return out

    def _play_refusal(self, action: int) -> Reason | None:
        if not 0 <= action <= WISH_BASE + WISH_MAX:
            return reason("malin.turn_to_play", seat=Seat(self.to_act), action=self._verb(action))
        kind, value = play_kind_value(action, self.game.twin_high)
        if not self.hands[self.to_act] & C.slots_of_kind(kind):
            card = Card(C.card_text(kind))
            if kind < TWIN and kind >= self.game.top:
                return reason("malin.not_in_deck", card=card, n=self.n, top=self.game.top)
            return reason("not_held", card=card)
        if kind == TWIN:
            allowed = self._twin_values()
            if value not in allowed:
                other = next((p for p in self.trick if p.kind == TWIN), None)
                if len(allowed) == 1 and other is not None:
                    return reason("malin.other_twin", v=other.declared, other=allowed[0])
                return reason("malin.twin_avoid", v=allowed[0])
        if kind == WISH and value in self._wish_forbidden():
            scope = self.game.options["wish_forbidden_scope"]
            return reason("malin.wish_in_trick" if scope == "trick" else "malin.wish_in_hand", v=value)
        return None

    def _redeclare_refusal(self, action: int) -> Reason | None:
        if not REDECLARE_BASE + WISH_MIN <= action <= REDECLARE_BASE + WISH_MAX:
            return reason("malin.redeclare_first", seat=Seat(self.to_act), action=self._verb(action))
        value = action - REDECLARE_BASE
        if value in self._wish_forbidden(exclude=self.wish_pos):
            return reason("malin.wish_in_the_trick", v=value)
        return None

    def _aim_refusal(self, mtype: int, seat: int) -> Reason | None:
        """Why a card effect of ``mtype`` may not aim at ``seat``'s card in the current trick (None: it may)."""
        for p in self.trick:
            if p.seat == seat:
                if mtype == SIX and not isinstance(p.value, int):
                    return reason("malin.six_whole", seat=Seat(seat), v=Num(C.value_text(p.value)))
                return None
        return reason("malin.no_card_to_aim", seat=Seat(seat))

    def _steal_refusal(self, seat: int, targets: tuple[int, ...]) -> Reason | None:
        """Why ``seat``'s Le Malin may not take from ``targets`` (None: it may)."""
        for t in targets:
            if t >= self.n or t == seat:
                return reason("malin.steal_self")
            if not any(self.mal[t]):
                return reason("malin.nothing_to_take", seat=Seat(t))
        return None

    def _legal_window(self) -> list[int]:
        seat = self.to_act
        held = self.mal[seat]
        out = [PASS]
        for i, mtype in enumerate(EFFECT_TYPES):
            if held[mtype]:
                base = EFFECT_BASE + i * MAX_SEATS
                out.extend(base + p.seat for p in self.trick if self._aim_refusal(mtype, p.seat) is None)
        if held[MALIN]:
            out.extend(
                MALIN_BASE + i
                for i, targets in enumerate(MALIN_TARGETS)
                if self._steal_refusal(seat, targets) is None
            )
        return sorted(out)

    def _window_refusal(self, action: int) -> Reason | None:
        if action == PASS:
            return None
        mtype = malheur_type(action)
        if mtype < 0:
            return reason("malin.window_open", window=Word("window", WINDOW_NAMES[self.win_kind]))
        if mtype == AVOCAT:
            return reason("malin.avocat_answers")
        if not self.mal[self.to_act][mtype]:
            return reason("malin.malheur_not_held", card=Word("malheur", C.MALHEUR_TITLES[mtype]))
        if mtype == MALIN:
            return self._steal_refusal(self.to_act, malin_targets(action))
        return self._aim_refusal(mtype, malheur_target(action))

    def _redirect_refusal(self, x: int) -> Reason | None:
        """Why the seat asked may not send the pending Malheur card on to seat ``x`` (None: it may)."""
        pending = self.pending
        assert pending is not None
        if x == self.to_act:
            return reason("malin.avocat_not_back")
        if pending.mtype == MALIN:
            if x >= self.n or x == pending.caster or x in pending.targets or not any(self.mal[x]):
                return reason("malin.not_a_new_victim", seat=Seat(x))
            return None
        return self._aim_refusal(pending.mtype, x)

    def _legal_avocats(self) -> list[int]:
        if not self.mal[self.to_act][AVOCAT]:
            return []
        return [AVOCAT_BASE + x for x in range(self.n) if self._redirect_refusal(x) is None]

    def _react_refusal(self, action: int) -> Reason | None:
        if action == PASS:
            return None
        pending = self.pending
        assert pending is not None
        if malheur_type(action) != AVOCAT:
            card = Word("malheur", C.MALHEUR_TITLES[pending.mtype])
            return reason("malin.aims_at_you", card=card, action=self._verb(action))
        if not self.mal[self.to_act][AVOCAT]:
            return reason("malin.malheur_not_held", card=Word("malheur", C.MALHEUR_TITLES[AVOCAT]))
        return self._redirect_refusal(malheur_target(action))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FIRST_DEALER:
            return self._dealer_outcomes()
        if phase in (REMOVE, DEAL):
            remaining = self.game.deck & ~self.out
            if phase == REMOVE:
                remaining &= ~C.WISH_MASK
            total = remaining.bit_count()
            twins = (remaining & C.TWIN_MASK).bit_count()
            out = [(k, 1 / total) for k in C.cards_in(remaining & ((1 << TWIN) - 1))]
            if twins:
                out.append((TWIN, twins / total))
            if remaining & C.WISH_MASK:
                out.append((WISH, 1 / total))
            return out
        if phase == GAIN:
            total = sum(self.pile)
            return [(C_DRAW + t, c / total) for t, c in enumerate(self.pile) if c]
        if phase == STEAL:
            group = self.steal_groups[0]
            total = sum(self.mal_count(v) for v in group)
            return [
                (C_STEAL + v * NUM_MALHEURS + t, self.mal[v][t] / total)
                for v in sorted(group)
                for t in range(NUM_MALHEURS)
                if self.mal[v][t]
            ]
        return []

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
            return self._play_refusal(action)
        if phase == WINDOW:
            return self._window_refusal(action)
        if phase == REACT:
            return self._react_refusal(action)
        if phase == BID:
            return self._bid_refusal(action)
        if phase == REDECLARE:
            return self._redeclare_refusal(action)
        if phase in CHANCE_PHASES:
            return self._chance_refusal(action)
        return reason("match_over")

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action)
        elif phase == WINDOW:
            if action == PASS:
                self.passed |= 1 << self.to_act
                self._next_priority(self.to_act)
            else:
                self._cast(action)
        elif phase == REACT:
            pending = self.pending
            assert pending is not None
            i = pending.asking
            if action == PASS:
                self.pending = pending._replace(asking=i + 1)
            else:
                seat = self.to_act
                self.mal[seat][AVOCAT] -= 1
                self.discard[AVOCAT] += 1
                self.mlog.append((seat, action))
                targets = (*pending.targets[:i], malheur_target(action), *pending.targets[i + 1 :])
                redirected = (*pending.redirected[:i], True, *pending.redirected[i + 1 :])
                self.pending = pending._replace(targets=targets, redirected=redirected)
            self._advance_react()
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
                self.open_window(PREBID_WINDOW, self.dealer)
        elif phase == GAIN:
            mtype = action - C_DRAW
            self.pile[mtype] -= 1
            self.mal[self.gain_queue.pop(0)][mtype] += 1
            self.draws += 1
            self._next_gain()
        elif phase == STEAL:
            victim, mtype = divmod(action - C_STEAL, NUM_MALHEURS)
            self.mal[victim][mtype] -= 1
            assert self.pending is not None
            self.mal[self.pending.caster][mtype] += 1
            self.steals += 1
            self.steal_groups.pop(0)
            self._next_steal()

    # Malheur windows ------------------------------------------------------------
    def open_window(self, kind: int, opener: int) -> None:
        """Open a Malheur window of ``kind``, asking first the holder after ``opener``.

        Without a Malheur card held (or outside the jeu fun) it closes at once:
        the bidding or the play goes on.  Public for the sampling, which starts
        a replayed hand at its window before the bidding.
        """
        if self.game.fun and any(self.mal_count(s) for s in range(self.n)):
            self.win_kind = kind
            self.passed = 0
            self._next_priority(opener)
        else:
            self.win_kind = kind
            self._close_window()

    def _next_priority(self, after: int) -> None:
        """Give priority to the next holder clockwise after ``after`` who has not passed."""
        n = self.n
        for i in range(1, n + 1):
            s = (after + i) % n
            if not self.passed >> s & 1 and self.mal_count(s) > 0:
                self.phase = WINDOW
                self.to_act = s
                return
        self._close_window()

    def _close_window(self) -> None:
        kind = self.win_kind
        self.win_kind = NO_WINDOW
        self.passed = 0
        if kind == PREBID_WINDOW:
            self.phase = BID
            self.to_act = (self.dealer + 1) % self.n
        elif len(self.trick) == self.n:
            self._resolve_trick()
        else:
            self.phase = PLAY
            self.to_act = (self.last_actor + 1) % self.n

    def _cast(self, action: int) -> None:
        seat = self.to_act
        mtype = malheur_type(action)
        self.mal[seat][mtype] -= 1
        self.discard[mtype] += 1
        self.mlog.append((seat, action))
        targets = malin_targets(action) if mtype == MALIN else (malheur_target(action),)
        self.pending = Pending(seat, mtype, targets, 0, (False,) * len(targets))
        self.passed = 0
        self._advance_react()

    def _advance_react(self) -> None:
        """Ask the next target whether it answers with L'Avocat du Diable; resolve when all did."""
        pending = self.pending
        assert pending is not None
        caster, _, targets, i, redirected = pending
        while i < len(targets):
            t = targets[i]
            if any(self.mal[t]) and (t != caster or redirected[i]):
                if i != pending.asking:
                    self.pending = pending._replace(asking=i)
                self.phase = REACT
                self.to_act = t
                return
            i += 1
        if i != pending.asking:
            self.pending = pending._replace(asking=i)
        self._resolve_malheur()

    def _resolve_malheur(self) -> None:
        pending = self.pending
        assert pending is not None
        mtype = pending.mtype
        if mtype == MALIN:
            victims = [v for v in pending.targets if any(self.mal[v])]
            if self.game.options["malin_steal"] == "one_total":
                self.steal_groups = [tuple(victims)] if victims else []
            else:
                self.steal_groups = [(v,) for v in victims]
            self._next_steal()
            return
        pos = next(i for i, p in enumerate(self.trick) if p.seat == pending.targets[0])
        played = self.trick[pos]
        value = played.value
        if mtype == SIX:
            assert isinstance(value, int)
            value = C.reverse_digits(value, self.game.pad_to_two)
        elif mtype == BELZ:
            value = C.halve(value, self.game.halve_floor)
        else:
            value = 0
        self.trick[pos] = played._replace(value=value)
        if pos == self.wish_pos:
            self.wish_mod = True
        self._end_malheur()

    def _next_steal(self) -> None:
        if self.steal_groups:
            self.phase = STEAL
            return
        self._end_malheur()

    def _end_malheur(self) -> None:
        assert self.pending is not None
        caster = self.pending.caster
        self.pending = None
        self.passed = 0
        self._next_priority(caster)

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
        self.trick.append(Played(seat, kind, value, value))
        self.last_actor = seat
        wish = self.wish_pos
        if kind == WISH:
            self.wish_pos = len(self.trick) - 1
            self.wish_mod = False
        elif (
            wish >= 0
            and not self.wish_mod
            and self.trick[wish].value == value
            and (self.game.options["wish_collision"] == "redeclare_any_trick" or self.is_last_trick)
        ):
            self.phase = REDECLARE
            self.to_act = self.trick[wish].seat
            return
        self._after_card()

    def _after_card(self) -> None:
        if self.game.fun:
            self.open_window(CARD_WINDOW, self.last_actor)
        else:
            self.win_kind = CARD_WINDOW
            self._close_window()

    def trick_winner(self) -> int:
        """Seat winning the current (complete or partial) trick as it stands."""
        return winner_of(
            self.trick,
            self.game.options["wish_beats_both_twins"],
            self.is_last_trick,
        )

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
        seed = self.seed or 0
        phase = self.phase
        if phase == FIRST_DEALER:
            return self._seeded_dealer()
        if phase == GAIN:
            rng = seeded_rng(seed, "malheur", self.draws)
            return rng.choices(
                [a for a, _ in self.chance_outcomes()], [p for _, p in self.chance_outcomes()]
            )[0]
        if phase == STEAL:
            rng = seeded_rng(seed, "steal", self.round, self.steals)
            outcomes = self.chance_outcomes()
            return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        if self._deck is None:
            # One shuffle per hand, from the seed and the hand number only: the first
            # card is put aside, the Wish joins the rest, and each seat's cards are
            # dealt in ascending order so that a record replays to the same history.
            slots = [s for s in range(C.NUM_SLOTS) if self.game.deck >> s & 1 and s != C.WISH_SLOT]
            rng = seeded_rng(seed, "hand", self.round)
            rng.shuffle(slots)
            rest = [*slots[1:], C.WISH_SLOT]
            rng.shuffle(rest)
            size, n = self.game.hand_size, self.n
            order = [C.kind_of_slot(slots[0])]
            for i in range(n):
                order.extend(sorted(C.kind_of_slot(s) for s in rest[i * size : (i + 1) * size]))
            self._deck = order
        return self._deck[0 if phase == REMOVE else 1 + self.deal_count]

    # -- notation -------------------------------------------------------------------
    def _chance_to_text(self, outcome: int) -> str:
        phase = self.phase
        if phase == FIRST_DEALER:
            return self._dealer_text(outcome)
        if phase == REMOVE:
            return f"remove {C.card_text(outcome)}"
        if phase == DEAL:
            return f"deal {self.deal_target()} {C.card_text(outcome)}"
        if phase == GAIN:
            return f"draw {self.gain_queue[0]} {C.MALHEUR_NAMES[outcome - C_DRAW]}"
        if phase == STEAL:
            victim, mtype = divmod(outcome - C_STEAL, NUM_MALHEURS)
            return f"steal {victim} {C.MALHEUR_NAMES[mtype]}"
        return f"outcome {outcome}"

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
