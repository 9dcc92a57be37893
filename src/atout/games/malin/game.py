"""Le Malin's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/rules/le-malin.md (the seed text with
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

import random
from itertools import combinations
from typing import ClassVar

from ...core.cardname import CardName
from ...core.errors import NotationError, OptionError
from ...core.game import CHANCE, TERMINAL, Game, State, View, check_seat, seeded_rng
from ...core.options import OptionSpec
from . import cards as C
from .cards import AVOCAT, BELZ, FENNEC, MALIN, NUM_KINDS, NUM_MALHEURS, SIX, TWIN, WISH, Value
from .cards import card_name as _card_name

# Phases.
FIRST_DEALER, GAIN, REMOVE, DEAL, WINDOW, REACT, STEAL, BID, PLAY, REDECLARE, OVER = range(11)
PHASE_NAMES = (
    "first-dealer", "gain", "remove", "deal", "window", "react", "steal", "bid", "play",
    "redeclare", "over",
)  # fmt: skip
CHANCE_PHASES = frozenset((FIRST_DEALER, GAIN, REMOVE, DEAL, STEAL))

# Window kinds.
NO_WINDOW, PREBID_WINDOW, CARD_WINDOW = range(3)
WINDOW_NAMES = ("", "before bidding", "after a card")

# Player action ids (the same table for every configuration; see src/atout/rules/le-malin.md).
TWIN_LOW = 34
TWIN_HIGH = 35
WISH_BASE = 136  # ids 36..236: play WISH v, id = WISH_BASE + v
REDECLARE_BASE = 337  # ids 237..437: wish v (re-declaration), id = REDECLARE_BASE + v
BID_BASE = 438  # ids 438..446: bid 0..8
MAX_BID = 8
PASS = 447
EFFECT_BASE = 448  # ids 448..465: (666, belzebuth, fennec) x target seat 0..5
AVOCAT_BASE = 466  # ids 466..471: avocat on seat 0..5
MALIN_BASE = 472  # ids 472..492: malin on one seat or on a pair of seats
MAX_SEATS = 6
MALIN_TARGETS: tuple[tuple[int, ...], ...] = tuple((s,) for s in range(MAX_SEATS)) + tuple(
    combinations(range(MAX_SEATS), 2)
)
NUM_ACTIONS = MALIN_BASE + len(MALIN_TARGETS)
WISH_MIN, WISH_MAX = -100, 100

# Chance outcome ids.
C_DEALER = NUM_KINDS  # 36..41: first dealer seat
C_DRAW = C_DEALER + MAX_SEATS  # 42..46: Malheur card drawn, by type
C_STEAL = C_DRAW + NUM_MALHEURS  # 47..76: Malheur card taken, victim * 5 + type
NUM_CHANCE = C_STEAL + MAX_SEATS * NUM_MALHEURS

EFFECT_TYPES = (SIX, BELZ, FENNEC)


def _effect_index(mtype: int) -> int:
    return EFFECT_TYPES.index(mtype)


class MalinGame(Game):
    """Le Malin for 3 to 6 players, with the "jeu fun" Malheur cards and every variant as an option."""

    name = "malin"

    title = "Le Malin et ses petits malheurs"
    summary = (
        "Bid a number of tricks nobody else bid, then hit it exactly: each trick off costs a "
        "point of your 10 (or 6); Twins and the Wish take the value you declare."
    )
    min_players = 3
    max_players = 6
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.malin.bot:MalinHeuristicBot"}
    renderer = "atout.games.malin.render"
    rules_page = "le-malin"
    tensors = "atout.games.malin.tensor"
    positions = "atout.games.malin.position"
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
        OptionSpec(
            "first_dealer",
            int,
            None,
            "Seat of the first dealer; none draws it at random (a chance event).",
            minimum=0,
            maximum=5,
            none_ok=True,
        ),
        OptionSpec(
            "rounds",
            int,
            None,
            "Play at most N hands (1: a single hand); none plays until a score reaches 0.",
            minimum=1,
            maximum=200,
            none_ok=True,
        ),
        OptionSpec(
            "start_round",
            int,
            1,
            "Start the match at this hand number, dealt (from the seed) and rotated as that hand "
            "of a whole match, every seat on start_score; with rounds=1, a single-hand game.",
            minimum=1,
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
        if o["first_dealer"] is not None and o["first_dealer"] >= self.players:
            raise OptionError(f"first_dealer must be a seat 0..{self.players - 1}")
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
        #: The first hand this match plays, and the last one it may (None: until a score reaches 0).
        self.start_round: int = o["start_round"]
        self.last_round: int | None = None if o["rounds"] is None else self.start_round + o["rounds"] - 1

    # -- action space -----------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def num_chance_outcomes(self) -> int:
        return NUM_CHANCE

    def action_to_text(self, action: int) -> str:
        if isinstance(action, bool) or not isinstance(action, int):
            raise NotationError(f"{action!r} is not a Le Malin action id")
        if 0 <= action < TWIN_LOW:
            return f"play {action + 1}"
        if action == TWIN_LOW:
            return "play TWIN 0"
        if action == TWIN_HIGH:
            return f"play TWIN {self.twin_high}"
        if WISH_BASE + WISH_MIN <= action <= WISH_BASE + WISH_MAX:
            return f"play WISH {action - WISH_BASE}"
        if REDECLARE_BASE + WISH_MIN <= action <= REDECLARE_BASE + WISH_MAX:
            return f"wish {action - REDECLARE_BASE}"
        if BID_BASE <= action <= BID_BASE + MAX_BID:
            return f"bid {action - BID_BASE}"
        if action == PASS:
            return "pass"
        if EFFECT_BASE <= action < AVOCAT_BASE:
            i, seat = divmod(action - EFFECT_BASE, MAX_SEATS)
            return f"malheur {C.MALHEUR_NAMES[EFFECT_TYPES[i]]} on {seat}"
        if AVOCAT_BASE <= action < MALIN_BASE:
            return f"malheur avocat on {action - AVOCAT_BASE}"
        if MALIN_BASE <= action < NUM_ACTIONS:
            return "malheur malin on " + " ".join(str(s) for s in MALIN_TARGETS[action - MALIN_BASE])
        raise NotationError(f"{action!r} is not a Le Malin action id (0..{NUM_ACTIONS - 1})")

    def text_to_action(self, text: str) -> int:
        words = text.strip().lower().replace(",", " ").split()
        try:
            if words and words[0] == "play" and len(words) in (2, 3):
                return self._parse_play(words[1:])
            if len(words) == 2 and words[0] in ("wish", "redeclare"):
                value = int(words[1])
                if WISH_MIN <= value <= WISH_MAX:
                    return REDECLARE_BASE + value
                raise ValueError("a Wish value is an integer from -100 to 100")
            if len(words) == 2 and words[0] == "bid":
                bid = int(words[1])
                if 0 <= bid <= MAX_BID:
                    return BID_BASE + bid
                raise ValueError(f"a bid is 0..{MAX_BID}")
            if words == ["pass"]:
                return PASS
            if len(words) >= 3 and words[0] == "malheur" and words[2] == "on":
                return self._parse_malheur(words[1], words[3:])
            if len(words) in (1, 2) and words[0] not in ("play", "bid", "malheur", "wish"):
                return self._parse_play(words)
        except ValueError as exc:
            raise NotationError(f"{text!r}: {exc}") from None
        raise NotationError(
            f"{text!r} is not a Le Malin action: write e.g. 'bid 2', 'play 17', 'play TWIN 0', "
            f"'play WISH -100', 'wish 12', 'pass', 'malheur fennec on 2', 'malheur malin on 1 3'"
        )

    def _parse_play(self, words: list[str]) -> int:
        kind = C.parse_card(words[0])
        if kind == TWIN:
            if len(words) != 2:
                raise ValueError(f"declare the Twin's value: 'play TWIN 0' or 'play TWIN {self.twin_high}'")
            value = int(words[1])
            if value == 0:
                return TWIN_LOW
            if value == self.twin_high:
                return TWIN_HIGH
            raise ValueError(f"a Twin is worth 0 or {self.twin_high}")
        if kind == WISH:
            if len(words) != 2:
                raise ValueError("declare the Wish's value: 'play WISH 42' (an integer -100..100)")
            value = int(words[1])
            if WISH_MIN <= value <= WISH_MAX:
                return WISH_BASE + value
            raise ValueError("a Wish value is an integer from -100 to 100")
        if len(words) != 1:
            raise ValueError("only the Twins and the Wish take a declared value")
        if kind >= self.top:
            raise ValueError(f"with {self.players} players the numbered cards are 1..{self.top}")
        return kind

    def _parse_malheur(self, name: str, rest: list[str]) -> int:
        mtype = C.parse_malheur(name)
        seats = []
        for w in rest:
            if w == "and":
                continue
            seat_text = w.split(":", 1)[0].removeprefix("seat")
            if not seat_text.isdigit():
                raise ValueError(f"{w!r} is not a seat number")
            seats.append(int(seat_text))
        for seat in seats:
            if not 0 <= seat < self.players:
                raise ValueError(f"seat must be 0..{self.players - 1}, not {seat}")
        if mtype == MALIN:
            key = tuple(sorted(set(seats)))
            if len(key) not in (1, 2) or len(key) != len(seats):
                raise ValueError("Le Malin targets one or two different opponents: 'malheur malin on 1 3'")
            return MALIN_BASE + MALIN_TARGETS.index(key)
        if len(seats) != 1:
            raise ValueError(f"{C.MALHEUR_TITLES[mtype]} targets one seat: 'malheur {name} on 2'")
        if mtype == AVOCAT:
            return AVOCAT_BASE + seats[0]
        return EFFECT_BASE + _effect_index(mtype) * MAX_SEATS + seats[0]

    def score_bounds(self) -> tuple[int, int]:
        """Final scores lie between 1 - tricks per hand (a seat on 1 missing by every
        trick; 0 with clamp_at_zero) and the starting capital (points are only lost)."""
        low = 0 if self.options["clamp_at_zero"] else 1 - self.hand_size
        return low, self.options["start_score"]

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> MalinState:
        if position is not None:
            from_position = self.state_from_position(position, seed)
            assert isinstance(from_position, MalinState)
            return from_position
        state = MalinState(self, seed)
        if seed is not None:
            state._resolve_chance()
        return state

    def sample_round(self, view: View, rng: random.Random) -> tuple[MalinState, list[int]] | None:
        from .sampling import sample_round

        if not isinstance(view, MalinView) or view.game != self:
            raise ValueError("sample_round needs a view of this Le Malin game")
        return sample_round(self, view, rng)

    def sample_state(self, view: View, rng: random.Random) -> MalinState:
        from .sampling import sample_world

        if not isinstance(view, MalinView) or view.game != self:
            raise ValueError("sample_state needs a view of this Le Malin game")
        return sample_world(self, view, rng)


def malheur_type(action: int) -> int:
    """The Malheur type an action plays (-1 if it plays none)."""
    if EFFECT_BASE <= action < AVOCAT_BASE:
        return EFFECT_TYPES[(action - EFFECT_BASE) // MAX_SEATS]
    if AVOCAT_BASE <= action < MALIN_BASE:
        return AVOCAT
    if MALIN_BASE <= action < NUM_ACTIONS:
        return MALIN
    return -1


def play_kind_value(action: int, twin_high: int) -> tuple[int, int]:
    """(card kind, declared value) of a play action."""
    if action < TWIN_LOW:
        return action, action + 1
    if action == TWIN_LOW:
        return TWIN, 0
    if action == TWIN_HIGH:
        return TWIN, twin_high
    return WISH, action - WISH_BASE


class MalinState(State):
    """A Le Malin match in progress.  See the module docstring for the phases."""

    __slots__ = (
        "_deck",
        "bids",
        "deal_count",
        "dealer",
        "discard",
        "draws",
        "gain_queue",
        "game",
        "hands",
        "history",
        "last_actor",
        "leader",
        "mal",
        "mlog",
        "n",
        "out",
        "p_caster",
        "p_index",
        "p_redirected",
        "p_targets",
        "p_type",
        "passed",
        "phase",
        "pile",
        "prev_round_trick",
        "removed",
        "round",
        "scores_",
        "seed",
        "sheet",
        "start",
        "steal_groups",
        "steals",
        "to_act",
        "trick_decl",
        "trick_kinds",
        "trick_seats",
        "trick_vals",
        "tricks",
        "tricks_won",
        "win_kind",
        "wish_mod",
        "wish_pos",
    )  # fmt: skip

    def __init__(self, game: MalinGame, seed: int | None) -> None:
        self.game: MalinGame = game
        self.seed = seed
        self.start = None
        self.history: list[int] = []
        self.n = n = game.players
        first = game.options["first_dealer"]
        self.round = game.start_round
        # first_dealer is hand 1's dealer; the deal moves left each hand.
        self.dealer = 0 if first is None else (first + game.start_round - 1) % n
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
        self.p_caster = -1
        self.p_type = -1
        self.p_targets: list[int] = []
        self.p_index = 0
        self.p_redirected: list[bool] = []
        self.steal_groups: list[tuple[int, ...]] = []
        self.gain_queue: list[int] = []
        #: The previous hand's final trick as views show it, (((seat, kind,
        #: declared, value), ...), winner), None in hand 1.  A hand's tricks are
        #: dropped when the next hand starts, yet a table still shows the trick
        #: that ended it: views show this one as ``last_trick`` until the new hand
        #: finishes a trick.  Built once per hand, in the view's shape, so that
        #: views only pass it on.
        self.prev_round_trick: tuple[tuple[tuple[int, int, int, Value], ...], int] | None = None
        self._new_hand()
        if first is None:
            self.phase = FIRST_DEALER
        else:
            self._start_match()

    def _new_hand(self) -> None:
        n = self.n
        self.hands = [0] * n
        self.out = 0  # slots removed or dealt this hand
        self.removed = -1
        self.deal_count = 0
        self.bids = [-1] * n
        self.tricks_won = [0] * n
        self.leader = (self.dealer + 1) % n
        self.trick_seats: list[int] = []
        self.trick_kinds: list[int] = []
        self.trick_decl: list[int] = []
        self.trick_vals: list[Value] = []
        self.wish_pos = -1
        self.wish_mod = False
        self.last_actor = -1
        #: Finished tricks of this hand: (seats, kinds, declared values, final values, winner).
        self.tricks: list[
            tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[Value, ...], int]
        ] = []
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

    def _deal_target(self) -> int:
        return (self.dealer + 1 + self.deal_count // self.game.hand_size) % self.n

    def mal_count(self, seat: int) -> int:
        return sum(self.mal[seat])

    @property
    def is_last_trick(self) -> bool:
        return len(self.tricks) == self.game.hand_size - 1

    # -- legal actions --------------------------------------------------------------
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
            return [REDECLARE_BASE + v for v in range(WISH_MIN, WISH_MAX + 1) if v not in forbidden]
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def _legal_bids(self) -> list[int]:
        size = self.game.hand_size
        made = [b for b in self.bids if b >= 0]
        total = sum(made)
        running = self.game.options["sum_rule"] == "running"
        last = self.to_act == self.dealer
        out = [b for b in range(size) if b not in made and not ((running or last) and total + b == size)]
        assert out, "a legal bid always exists (rules-notes §1.3)"
        return out

    def _bid_refusal(self, bid: int) -> str | None:
        size = self.game.hand_size
        if not 0 <= bid < size:
            return f"a bid is 0 to {size - 1}: there are {size} tricks and a bid must be below that"
        for seat, b in enumerate(self.bids):
            if b == bid:
                return f"{bid} is already bid by seat {seat}: every contract must be different"
        total = sum(b for b in self.bids if b >= 0)
        if total + bid == size:
            if self.to_act == self.dealer:
                return (
                    f"the bids may not add up to {size}, the number of tricks: the dealer may not bid {bid}"
                )
            if self.game.options["sum_rule"] == "running":
                return f"running sum rule: the bids so far may not add up to {size}, so {bid} is refused"
        return None

    def _wish_forbidden(self, exclude: int = -1) -> set[Value]:
        """Values the Wish may not take now (the trick's, or the whole hand's)."""
        vals = {v for i, v in enumerate(self.trick_vals) if i != exclude}
        if self.game.options["wish_forbidden_scope"] == "hand":
            for t in self.tricks:
                vals.update(t[3])
        return vals

    def _twin_values(self) -> list[int]:
        """Values a Twin may be declared now (second Twin of a trick: the other value)."""
        high = self.game.twin_high
        values = [0, high]
        for i, k in enumerate(self.trick_kinds):
            if k == TWIN:
                values = [high if self.trick_decl[i] == 0 else 0]
                break
        if len(values) == 2 and self.game.options["twin_value"] == "avoid_taken":
            free = [v for v in values if v not in self.trick_vals]
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
            out.extend(WISH_BASE + v for v in range(WISH_MIN, WISH_MAX + 1) if v not in forbidden)
        return out

    def _play_refusal(self, action: int) -> str | None:
        if not 0 <= action <= WISH_BASE + WISH_MAX:
            return f"it is seat {self.to_act}'s turn to play a card, not to {self._verb(action)}"
        kind, value = play_kind_value(action, self.game.twin_high)
        if not self.hands[self.to_act] & C.slots_of_kind(kind):
            return f"you do not hold {C.card_text(kind)}"
        if kind == TWIN:
            allowed = self._twin_values()
            if value not in allowed:
                if len(allowed) == 1 and TWIN in self.trick_kinds:
                    return (
                        f"the other Twin is already in this trick as {self.trick_decl[self.trick_kinds.index(TWIN)]}: "
                        f"this one must take {allowed[0]}"
                    )
                return f"a Twin must avoid a value already in the trick here: declare {allowed[0]}"
        if kind == WISH and value in self._wish_forbidden():
            where = "this trick" if self.game.options["wish_forbidden_scope"] == "trick" else "this hand"
            return f"the Wish may not take {value}: a card of that value is already in {where}"
        return None

    def _target_ok(self, mtype: int, seat: int) -> bool:
        """Whether a card effect of ``mtype`` may aim at ``seat``'s card in the current trick."""
        if seat not in self.trick_seats:
            return False
        if mtype == SIX:
            v = self.trick_vals[self.trick_seats.index(seat)]
            return isinstance(v, int)
        return True

    def _legal_window(self) -> list[int]:
        seat = self.to_act
        held = self.mal[seat]
        out = [PASS]
        for i, mtype in enumerate(EFFECT_TYPES):
            if held[mtype]:
                out.extend(
                    EFFECT_BASE + i * MAX_SEATS + s for s in self.trick_seats if self._target_ok(mtype, s)
                )
        if held[MALIN]:
            for idx, targets in enumerate(MALIN_TARGETS):
                if all(t < self.n and t != seat and self.mal_count(t) > 0 for t in targets):
                    out.append(MALIN_BASE + idx)
        return sorted(out)

    def _legal_avocats(self) -> list[int]:
        seat = self.to_act
        if not self.mal[seat][AVOCAT]:
            return []
        return [AVOCAT_BASE + x for x in range(self.n) if self._redirect_ok(x)]

    def _redirect_ok(self, x: int) -> bool:
        seat = self.to_act
        if x == seat:
            return False
        if self.p_type == MALIN:
            return x != self.p_caster and x not in self.p_targets and self.mal_count(x) > 0
        return self._target_ok(self.p_type, x)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FIRST_DEALER:
            p = 1.0 / self.n
            return [(C_DEALER + seat, p) for seat in range(self.n)]
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

    def illegal_reason(self, action: int) -> str | None:
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is an integer id, not {action!r}"
        phase = self.phase
        if phase == PLAY:
            return self._play_refusal(action)
        if phase == BID:
            if BID_BASE <= action <= BID_BASE + MAX_BID:
                return self._bid_refusal(action - BID_BASE)
            return f"it is time to bid (seat {self.to_act}), not to {self._verb(action)}"
        if phase == OVER:
            return "the match is over"
        if phase in CHANCE_PHASES:
            if action in {a for a, _ in self.chance_outcomes()}:
                return None
            return f"{action!r} is not a possible chance outcome here ({PHASE_NAMES[phase]})"
        if phase == REDECLARE:
            if not REDECLARE_BASE + WISH_MIN <= action <= REDECLARE_BASE + WISH_MAX:
                return (
                    f"a card was played with the Wish's value: seat {self.to_act} must first declare "
                    f"a new Wish value ('wish 42'), not {self._verb(action)}"
                )
            value = action - REDECLARE_BASE
            if value in self._wish_forbidden(exclude=self.wish_pos):
                return f"the Wish may not take {value}: a card of that value is already in the trick"
            return None
        if action in self.legal_actions():
            return None
        return self._malheur_refusal(action)

    def _malheur_refusal(self, action: int) -> str:
        seat = self.to_act
        mtype = malheur_type(action)
        if self.phase == REACT:
            if action != PASS and mtype != AVOCAT:
                return (
                    f"{C.MALHEUR_TITLES[self.p_type]} aims at you: answer with L'Avocat du Diable "
                    f"('malheur avocat on 2') or 'pass', not {self._verb(action)}"
                )
        elif mtype < 0:
            return f"a Malheur window is open ({WINDOW_NAMES[self.win_kind]}): play a Malheur card or 'pass'"
        elif mtype == AVOCAT:
            return "L'Avocat du Diable is only played in answer to a Malheur card aimed at you"
        if not self.mal[seat][mtype]:
            return f"you do not hold {C.MALHEUR_TITLES[mtype]}"
        if mtype == MALIN:
            targets = MALIN_TARGETS[action - MALIN_BASE]
            for t in targets:
                if t >= self.n or t == seat:
                    return "Le Malin takes from one or two opponents, not from yourself"
                if self.mal_count(t) == 0:
                    return f"seat {t} holds no Malheur card to take"
            return "Le Malin cannot be played now"
        target = (action - AVOCAT_BASE) if mtype == AVOCAT else (action - EFFECT_BASE) % MAX_SEATS
        if mtype == AVOCAT:
            if target == seat:
                return "L'Avocat du Diable sends the effect to another player, not back to you"
            if self.p_type == MALIN:
                return f"seat {target} cannot be the new victim of Le Malin (the caster, a victim already, or no Malheur card)"
        if target not in self.trick_seats:
            return f"seat {target} has no card in the current trick to aim at"
        return f"666 only reverses a whole number; seat {target}'s card is worth {C.value_text(self.trick_vals[self.trick_seats.index(target)])}"

    def _verb(self, action: int) -> str:
        try:
            return self.game.action_to_text(action)
        except NotationError:
            return f"play action {action}"

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
            if action == PASS:
                self.p_index += 1
            else:
                seat = self.to_act
                self.mal[seat][AVOCAT] -= 1
                self.discard[AVOCAT] += 1
                self.mlog.append((seat, action))
                self.p_targets[self.p_index] = action - AVOCAT_BASE
                self.p_redirected[self.p_index] = True
            self._advance_react()
        elif phase == BID:
            self._bid(action - BID_BASE)
        elif phase == REDECLARE:
            value = action - REDECLARE_BASE
            self.trick_vals[self.wish_pos] = value
            self.trick_decl[self.wish_pos] = value
            self._after_card()
        elif phase == FIRST_DEALER:
            # The draw names hand 1's dealer, as first_dealer does (start_round > 1).
            self.dealer = (action - C_DEALER + self.round - 1) % self.n
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
            self.hands[self._deal_target()] |= slot
            self.deal_count += 1
            if self.deal_count == self.game.hand_size * self.n:
                self._open_window(PREBID_WINDOW, self.dealer)
        elif phase == GAIN:
            mtype = action - C_DRAW
            self.pile[mtype] -= 1
            self.mal[self.gain_queue.pop(0)][mtype] += 1
            self.draws += 1
            self._next_gain()
        elif phase == STEAL:
            victim, mtype = divmod(action - C_STEAL, NUM_MALHEURS)
            self.mal[victim][mtype] -= 1
            self.mal[self.p_caster][mtype] += 1
            self.steals += 1
            self.steal_groups.pop(0)
            self._next_steal()

    # Malheur windows ------------------------------------------------------------
    def _open_window(self, kind: int, opener: int) -> None:
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
        elif len(self.trick_seats) == self.n:
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
        if mtype == MALIN:
            targets = list(MALIN_TARGETS[action - MALIN_BASE])
        else:
            targets = [(action - EFFECT_BASE) % MAX_SEATS]
        self.p_caster = seat
        self.p_type = mtype
        self.p_targets = targets
        self.p_index = 0
        self.p_redirected = [False] * len(targets)
        self.passed = 0
        self._advance_react()

    def _advance_react(self) -> None:
        """Ask the next target whether it answers with L'Avocat du Diable; resolve when all did."""
        while self.p_index < len(self.p_targets):
            t = self.p_targets[self.p_index]
            if self.mal_count(t) > 0 and (t != self.p_caster or self.p_redirected[self.p_index]):
                self.phase = REACT
                self.to_act = t
                return
            self.p_index += 1
        self._resolve_malheur()

    def _resolve_malheur(self) -> None:
        mtype = self.p_type
        if mtype == MALIN:
            victims = [v for v in self.p_targets if self.mal_count(v) > 0]
            if self.game.options["malin_steal"] == "one_total":
                self.steal_groups = [tuple(victims)] if victims else []
            else:
                self.steal_groups = [(v,) for v in victims]
            self._next_steal()
            return
        pos = self.trick_seats.index(self.p_targets[0])
        value = self.trick_vals[pos]
        if mtype == SIX:
            assert isinstance(value, int)
            value = C.reverse_digits(value, self.game.pad_to_two)
        elif mtype == BELZ:
            value = C.halve(value, self.game.halve_floor)
        else:
            value = 0
        self.trick_vals[pos] = value
        if pos == self.wish_pos:
            self.wish_mod = True
        self._end_malheur()

    def _next_steal(self) -> None:
        if self.steal_groups:
            self.phase = STEAL
            return
        self._end_malheur()

    def _end_malheur(self) -> None:
        caster = self.p_caster
        self.p_caster = self.p_type = -1
        self.p_targets = []
        self.p_redirected = []
        self.p_index = 0
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
        self.trick_seats.append(seat)
        self.trick_kinds.append(kind)
        self.trick_decl.append(value)
        self.trick_vals.append(value)
        self.last_actor = seat
        wish = self.wish_pos
        if kind == WISH:
            self.wish_pos = len(self.trick_kinds) - 1
            self.wish_mod = False
        elif (
            wish >= 0
            and not self.wish_mod
            and self.trick_vals[wish] == value
            and (self.game.options["wish_collision"] == "redeclare_any_trick" or self.is_last_trick)
        ):
            self.phase = REDECLARE
            self.to_act = self.trick_seats[wish]
            return
        self._after_card()

    def _after_card(self) -> None:
        if self.game.fun:
            self._open_window(CARD_WINDOW, self.last_actor)
        else:
            self.win_kind = CARD_WINDOW
            self._close_window()

    def trick_winner(self) -> int:
        """Seat winning the current (complete or partial) trick as it stands."""
        return winner_of(
            self.trick_seats,
            self.trick_kinds,
            self.trick_vals,
            self.game.options["wish_beats_both_twins"],
            self.is_last_trick,
        )

    def _resolve_trick(self) -> None:
        winner = self.trick_winner()
        self.tricks.append(
            (
                tuple(self.trick_seats),
                tuple(self.trick_kinds),
                tuple(self.trick_decl),
                tuple(self.trick_vals),
                winner,
            )
        )
        self.tricks_won[winner] += 1
        self.trick_seats = []
        self.trick_kinds = []
        self.trick_decl = []
        self.trick_vals = []
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
            seats, kinds, declared, values, winner = self.tricks[-1]
            self.prev_round_trick = (tuple(zip(seats, kinds, declared, values, strict=True)), winner)
            self.round += 1
            self.dealer = (self.dealer + 1) % self.n
            self._new_hand()
        else:  # the match's opening Malheur cards
            self.phase = REMOVE

    # -- seeded chance --------------------------------------------------------------
    def _seeded_outcome(self) -> int:
        seed = self.seed or 0
        phase = self.phase
        if phase == FIRST_DEALER:
            return C_DEALER + seeded_rng(seed, "first-dealer").randrange(self.n)
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
            return f"dealer {outcome - C_DEALER}"
        if phase == REMOVE:
            return f"remove {C.card_text(outcome)}"
        if phase == DEAL:
            return f"deal {self._deal_target()} {C.card_text(outcome)}"
        if phase == GAIN:
            return f"draw {self.gain_queue[0]} {C.MALHEUR_NAMES[outcome - C_DRAW]}"
        if phase == STEAL:
            victim, mtype = divmod(outcome - C_STEAL, NUM_MALHEURS)
            return f"steal {victim} {C.MALHEUR_NAMES[mtype]}"
        return f"outcome {outcome}"

    def _text_to_chance(self, text: str) -> int:
        words = text.strip().lower().split()
        phase = self.phase
        try:
            if phase == FIRST_DEALER and len(words) == 2 and words[0] == "dealer":
                return C_DEALER + int(words[1])
            if phase == REMOVE and len(words) == 2 and words[0] == "remove":
                return C.parse_card(words[1])
            if phase == DEAL and len(words) == 3 and words[0] == "deal":
                target = self._deal_target()
                if int(words[1]) != target:
                    raise NotationError(
                        f"{text!r}: the next card of hand {self.round} goes to seat {target}, "
                        f"not seat {words[1]}"
                    )
                return C.parse_card(words[2])
            if phase == GAIN and len(words) == 3 and words[0] == "draw":
                seat = self.gain_queue[0]
                if int(words[1]) != seat:
                    raise NotationError(f"{text!r}: the next Malheur card drawn goes to seat {seat}")
                return C_DRAW + C.parse_malheur(words[2])
            if phase == STEAL and len(words) == 3 and words[0] == "steal":
                victim = int(words[1])
                if victim not in self.steal_groups[0]:
                    raise NotationError(
                        f"{text!r}: Le Malin takes from seat(s) {', '.join(map(str, self.steal_groups[0]))} now"
                    )
                return C_STEAL + victim * NUM_MALHEURS + C.parse_malheur(words[2])
        except ValueError as exc:
            if isinstance(exc, NotationError):
                raise
            raise NotationError(f"{text!r}: {exc}") from None
        expected = {
            FIRST_DEALER: "dealer 2",
            REMOVE: "remove 17",
            DEAL: f"deal {self._deal_target()} 17",
            GAIN: "draw 1 fennec",
            STEAL: "steal 2 belzebuth",
        }
        raise NotationError(
            f"{text!r} is not the chance event expected here "
            f"({PHASE_NAMES[phase]}: write e.g. {expected.get(phase, '?')!r})"
        )

    def parse(self, text: str) -> int:
        """As :meth:`State.parse`, reading a bare number by the phase ("3" is a bid while
        bidding) and checking a card named after a target ("on 2:19")."""
        if self.is_chance or not isinstance(text, str):
            return super().parse(text)
        from .view import parse_in_context

        table = tuple(zip(self.trick_seats, self.trick_kinds, self.trick_decl, self.trick_vals, strict=True))
        return parse_in_context(self.game, text, PHASE_NAMES[self.phase], table)

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.scores_)

    def view(self, seat: int) -> MalinView:
        check_seat(self.game, seat)
        from .view import make_view

        return make_view(self, seat)

    def public_view(self) -> MalinView:
        from .view import make_view

        return make_view(self, 0, public=True)

    def redacted_history(self, seat: int) -> list[int | None]:
        from .view import redact_history

        return redact_history(self, seat)

    def clone(self) -> MalinState:
        new = MalinState.__new__(MalinState)
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
        new.out = self.out
        new.removed = self.removed
        new.deal_count = self.deal_count
        new.bids = self.bids.copy()
        new.tricks_won = self.tricks_won.copy()
        new.leader = self.leader
        new.trick_seats = self.trick_seats.copy()
        new.trick_kinds = self.trick_kinds.copy()
        new.trick_decl = self.trick_decl.copy()
        new.trick_vals = self.trick_vals.copy()
        new.wish_pos = self.wish_pos
        new.wish_mod = self.wish_mod
        new.last_actor = self.last_actor
        new.tricks = self.tricks.copy()
        new.prev_round_trick = self.prev_round_trick
        new.scores_ = self.scores_.copy()
        new.sheet = self.sheet.copy()
        new.mal = [m.copy() for m in self.mal]
        new.pile = self.pile.copy()
        new.discard = self.discard.copy()
        new.draws = self.draws
        new.steals = self.steals
        new.mlog = self.mlog.copy()
        new.win_kind = self.win_kind
        new.passed = self.passed
        new.p_caster = self.p_caster
        new.p_type = self.p_type
        new.p_targets = self.p_targets.copy()
        new.p_index = self.p_index
        new.p_redirected = self.p_redirected.copy()
        new.steal_groups = self.steal_groups.copy()
        new.gain_queue = self.gain_queue.copy()
        new._deck = self._deck
        return new

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

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
        if self.trick_seats:
            lines.append(
                "  trick: "
                + " ".join(
                    f"{s}:{C.card_text(k)}={C.value_text(v)}"
                    for s, k, v in zip(self.trick_seats, self.trick_kinds, self.trick_vals, strict=True)
                )
            )
        return "\n".join(lines)


def gains(old: int, new: int, rule: str) -> int:
    """Malheur cards gained by a score going from ``old`` to ``new``.

    odd_crossed: one per odd value v with new <= v < old (10 -> 7 gains 2: 9 and 7);
    final_odd: one if the score fell and is now odd; per_point: one per point lost.
    """
    if new >= old:
        return 0
    if rule == "per_point":
        return old - new
    if rule == "final_odd":
        return 1 if new % 2 else 0
    return sum(1 for v in range(new, old) if v % 2)


def winner_of(
    seats: list[int] | tuple[int, ...],
    kinds: list[int] | tuple[int, ...],
    values: list[Value] | tuple[Value, ...],
    wish_rule: str,
    last_trick: bool,
) -> int:
    """The trick's winner: the highest effective value, the earlier card on a tie.

    A trick with the Wish and both Twins goes to the Wish when ``wish_rule`` says so
    (the seed: in the last trick), whatever the values.
    """
    if (
        (wish_rule == "any_trick" or (wish_rule == "last_trick" and last_trick))
        and WISH in kinds
        and kinds.count(TWIN) == 2
    ):
        return seats[kinds.index(WISH)]
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return seats[best]


from .view import MalinView  # noqa: E402  (the view module imports the state's constants)

__all__ = ["MalinGame", "MalinState", "MalinView"]
