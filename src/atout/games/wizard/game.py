"""Wizard's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/i18n/en/rules/wizard.md (AMIGO's official rules,
with the seed text's errors corrected).  The state machine of one round::

    [first dealer: chance, match start only]
    deal (chance, one card at a time, seat by seat from the dealer's left)
    turn-up (chance; not in the round where every card is dealt)
    trump choice (dealer, only when a Wizard was turned up)
    bidding (dealer's left first, dealer last)
    play (r tricks; dealer's left leads the first, each winner the next)
    scoring, dealer moves left, next round or end of match

Hands are slot bitmasks (see :mod:`.cards`), so legality and the trick winner
are a handful of integer operations: this engine is the inner loop of every
search bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, ClassVar, Final, Self

from ...core import rng as rand
from ...core.actions import ChanceEvent, deal_reader, integer
from ...core.cardname import CardName
from ...core.errors import OptionError
from ...core.fields import StateFields, state_fields
from ...core.game import CHANCE, TERMINAL, Game, State, check_seat, seed_text
from ...core.native import i64, mypyc_attr
from ...core.options import OptionSpec, first_dealer_option, start_round_option
from ...core.reason import Card, Cards, Option, Reason, Seat, Word, reason
from . import cards as C
from .cards import JESTER, JESTER_MASK, NUM_KINDS, SPECIAL_MASK, SUIT_MASK, WIZARD, WIZARD_MASK
from .cards import card_name as _card_name
from .rules import (
    BID,
    DEAL,
    FIRST_DEALER,
    KIND_OF_SLOT,
    LED_FREE,
    LED_NONE,
    OVER,
    PHASE_NAMES,
    PLAY,
    SLOTS_OF_KIND,
    TRUMP,
    TURN_UP,
    action_space,
    playable,
    round_score,
)
from .view import WizardView, make_view, redact_history

#: The four suits' slots (no Wizard, no Jester).
_SUITS_MASK: Final = (1 << 52) - 1
_BLUE: Final = C.SUIT_KINDS[0]
_GREEN: Final = C.SUIT_KINDS[1]
_RED: Final = C.SUIT_KINDS[2]
_YELLOW: Final = C.SUIT_KINDS[3]


#: The deck before its shuffle: every slot, in order.
_SLOTS: Final = tuple(range(C.NUM_SLOTS))

#: ``random.Random``, read natively (a module's attribute is a dictionary lookup at every use).
_Random: Final = random.Random

#: The number of cards in each 13-bit mask (a suit's): compiled, ``int.bit_count`` is a
#: method call through the interpreter, and a byte of this table is read natively.
_CARDS_IN_13: Final = bytes(bin(m).count("1") for m in range(1 << 13))

#: The slot of the lowest card in each 13-bit mask, from the mask's first slot (0 for no card).
_LOWEST_IN_13: Final = bytes((m & -m).bit_length() - 1 if m else 0 for m in range(1 << 13))


def _cards(suits: int) -> int:
    """The number of cards in a mask of suit slots (``suits.bit_count()``, compiled natively)."""
    return (
        _CARDS_IN_13[suits & 0x1FFF]
        + _CARDS_IN_13[suits >> 13 & 0x1FFF]
        + _CARDS_IN_13[suits >> 26 & 0x1FFF]
        + _CARDS_IN_13[suits >> 39 & 0x1FFF]
    )


def _running_sums(left: int) -> tuple[float, ...]:
    """The running sums of ``left`` weights ``1 / left``, added one at a time from 0.0 (the first is 0.0)."""
    single = 1 / left if left else 0.0  # (no card left: no sums to read)
    sums = [0.0]
    total = 0.0
    for _ in range(left):
        total += single
        sums.append(total)
    return tuple(sums)


#: Per number of cards left to deal (0 to 60), the running sums of its suit cards' weights as
#: ``random.choices`` adds them (the same float additions in the same order, so the same
#: values): a card dealt card by card reads its sums here rather than adding up to 52 floats.
#: Typed in full: a tuple's items are then read natively (a bare ``Final`` infers the first row's
#: length for every row, and the reads go through the generic subscript).
_SUMS_OF_SINGLES: Final[tuple[tuple[float, ...], ...]] = tuple(
    _running_sums(left) for left in range(C.NUM_SLOTS + 1)
)


def _nth_card(suits: int, i: int) -> int:
    """The slot (a suit card's slot is its kind) of the ``i``-th lowest card of a mask of suit slots.

    In native 64-bit ints (``i64``: the masks have 52 bits): the suit of the card found by
    the cards counted a suit at a time, then its ``i`` lowest cards dropped.
    """
    mask: i64 = suits
    left: i64 = i
    shift: i64 = 0
    chunk: i64 = mask & 0x1FFF
    here: i64 = _CARDS_IN_13[chunk]
    while left >= here:
        left -= here
        shift += 13
        chunk = mask >> shift & 0x1FFF
        here = _CARDS_IN_13[chunk]
    while left > 0:
        chunk &= chunk - 1  # the lowest card dropped
        left -= 1
    return shift + _LOWEST_IN_13[chunk]


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng._randbelow(n)`` from ``rng.getrandbits`` (``n > 0``): as :func:`atout.core.rng.below` draws it."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


class WizardGame(Game):
    """Wizard for 3 to 6 players, with the official variants as options."""

    name: ClassVar[str] = "wizard"
    title: ClassVar[str] = "Wizard"
    summary: ClassVar[str] = (
        "60 cards, 4 Wizards and 4 Jesters: each round, bid exactly how many tricks "
        "you will take; 20 points plus 10 a trick when right, minus 10 a trick off."
    )
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.wizard.bot:WizardHeuristicBot"}
    playout_model: ClassVar[str | None] = "atout.games.wizard.playout:WizardPlayoutBot"
    package: ClassVar[str] = "atout.games.wizard"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "plus_minus_one",
            bool,
            False,
            "Plus/minus one (the seed's 'common variant'): the bids of a round may not add "
            "up to its number of tricks, so the dealer has one forbidden bid.",
        ),
        OptionSpec(
            "bids",
            str,
            "open",
            "open: bids are announced in turn; hidden_until_play: written secretly and "
            "revealed together before the first trick; hidden_until_end: revealed only "
            "when the round is scored.",
            choices=("open", "hidden_until_play", "hidden_until_end"),
        ),
        OptionSpec(
            "clairvoyance",
            bool,
            False,
            "Clairvoyance (Hellsehen): in round 1 you see every card but your own, and play yours blind.",
        ),
        first_dealer_option(max_players),
        OptionSpec(
            "rounds",
            int,
            None,
            "Play only N rounds (a short game; 1: a single round); none plays to the last, 60/players.",
            minimum=1,
            maximum=20,
            none_ok=True,
        ),
        start_round_option(
            "Start the match at this round (its hand size), dealt and scored as that round of a "
            "whole match; with rounds=1, a single-round game.",
            maximum=20,
        ),
    )

    def _check_options(self) -> None:
        o = self.options
        if o["plus_minus_one"] and o["bids"] != "open":
            raise OptionError(reason("wizard.option_needs_open_bids", option=Option("plus_minus_one")))
        full = 60 // self.players
        start = o["start_round"]
        if start > full:
            raise OptionError(
                reason("option.at_most_with_players", option=Option("start_round"), full=full, n=self.players)
            )
        if o["rounds"] is not None and start + o["rounds"] - 1 > full:
            if start > 1:
                raise OptionError(
                    reason(
                        "option.at_most_from_round",
                        option=Option("rounds"),
                        full=full - start + 1,
                        n=self.players,
                        start=start,
                    )
                )
            raise OptionError(
                reason("option.at_most_with_players", option=Option("rounds"), full=full, n=self.players)
            )
        #: Rounds in a full game (the hand size of the last one).
        self.full_rounds = full
        #: The last round this match plays (its number, not a count).
        self.num_rounds = start + o["rounds"] - 1 if o["rounds"] is not None else full

    def __init__(self, players: object, **options: Any) -> None:
        super().__init__(players, **options)
        # The ids: cards 0..53, bids 0..full_rounds, four trumps, the blind play
        # (clairvoyance).  The hot paths read the starts as plain attributes.
        self.space = action_space(self.full_rounds, bool(self.options["clairvoyance"]))
        #: Id of "bid 0"; "bid b" is ``bid_base + b``.
        self.bid_base = self.space["bid"].start
        #: Id of "trump blue"; the suits follow in :data:`.cards.SUITS` order.
        self.trump_base = self.space["trump"].start
        #: Id of "play blind" (clairvoyance), or -1 without that variant.
        self.blind_action = self.space["blind"].start if self.options["clairvoyance"] else -1

    # -- action space -----------------------------------------------------------
    @property
    def num_chance_outcomes(self) -> int:
        return NUM_KINDS + self.players

    @classmethod
    def card_name(cls, text: str) -> CardName:
        return _card_name(text)

    def max_history_length(self) -> int:
        # First dealer; per round r: r*n deals, a turn-up, a trump choice, n bids, r*n plays.
        n = self.players
        return 1 + sum(2 * r * n + 2 + n for r in range(self.start_round, self.num_rounds + 1))

    def score_bounds(self) -> tuple[int, int]:
        # Per round r a seat scores at best 20 + 10r, at worst -10r.
        rounds = range(self.start_round, self.num_rounds + 1)
        return -10 * sum(rounds), sum(20 + 10 * r for r in rounds)

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> WizardState:
        return self._new_state(WizardState, seed, position)


# allow_interpreted_subclasses: mypyc's ``__new__`` then makes a blank state, without ``__init__``
# (it runs ``__init__`` in ``__new__`` otherwise), which ``clone`` and ``fields.build`` need.
@mypyc_attr(allow_interpreted_subclasses=True)
class WizardState(State[WizardGame]):
    """A Wizard match in progress.  See the module docstring for the phases."""

    #: Every field once (the generated clone copies them as declared).  The
    #: kinds lists inside ``tricks`` and ``prev_round_trick`` are never changed
    #: once stored, and ``_deck`` is replaced, never changed: clones share them.
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES
    fields: ClassVar[StateFields] = state_fields(
        shared=(
            "dealer", "to_act", "dealt", "deal_count", "turned", "trump", "leader", "led", "win_seat",
            "win_kind", "prev_round_trick", "prev_round_trick_shown", "tricks_shown", "_deck",
        ),
        copied=("hands", "bids", "tricks_won", "trick", "tricks", "voids", "scores_", "sheet"),
    )  # fmt: skip

    def clone(self) -> Self:
        """A copy, each field as :attr:`fields` declares (written out, checked by tests/test_state_shape.py)."""
        new = self._clone_base()
        new.dealer = self.dealer
        new.to_act = self.to_act
        new.dealt = self.dealt
        new.deal_count = self.deal_count
        new.turned = self.turned
        new.trump = self.trump
        new.leader = self.leader
        new.led = self.led
        new.win_seat = self.win_seat
        new.win_kind = self.win_kind
        new.prev_round_trick = self.prev_round_trick
        new.prev_round_trick_shown = self.prev_round_trick_shown
        new.tricks_shown = self.tricks_shown
        new._deck = self._deck
        new.hands = self.hands.copy()
        new.bids = self.bids.copy()
        new.tricks_won = self.tricks_won.copy()
        new.trick = self.trick.copy()
        new.tricks = self.tricks.copy()
        new.voids = self.voids.copy()
        new.scores_ = self.scores_.copy()
        new.sheet = self.sheet.copy()
        return new

    def __init__(self, game: WizardGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = self.n
        first = game.opening_dealer()
        self.phase = FIRST_DEALER if first is None else DEAL
        self.dealer = -1 if first is None else first  # -1: not drawn yet
        self.to_act = CHANCE
        self.scores_ = [0] * n
        #: One line per finished round: (bids, tricks won, score deltas).
        self.sheet: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        self._deck: list[int] | None = None
        #: The previous round's final trick (an element of ``tricks`` of round
        #: ``round - 1``), None in round 1.  A round's tricks are dropped when it
        #: ends, yet a table still shows the trick that ended it: views show this
        #: one as ``last_trick`` until the new round finishes a trick.  The round's
        #: end only keeps a reference (its kinds list is never changed): building
        #: the view's form there measurably slows whole-match playouts.
        self.prev_round_trick: tuple[int, list[int], int] | None = None
        #: ``prev_round_trick`` in the view's form, (((seat, kind), ...), winner),
        #: built by the first view that needs it and shared by later views and
        #: clones (views are built at every decision of a search's playouts); None
        #: again whenever ``prev_round_trick`` is replaced.
        self.prev_round_trick_shown: tuple[tuple[tuple[int, int], ...], int] | None = None
        #: ``tricks`` in the view's form, cached by the views (:func:`atout.core.tricks.shown_tricks`).
        self.tricks_shown: tuple[object, tuple[tuple[tuple[tuple[int, int], ...], int], ...]] | None = None
        self.reset_round()

    def reset_round(self) -> None:
        """Set the round's fields as before its deal: no cards, bids or tricks yet.

        ``round`` and ``dealer`` must be the new round's already (the leader is
        the dealer's left).  The sampler rewinds a world to its round's start so.
        """
        n = self.n
        self.hands = [0] * n
        self.dealt = 0  # slots dealt or turned up this round
        self.deal_count = 0
        self.turned = -1
        self.trump = -1
        self.bids = [-1] * n
        self.tricks_won = [0] * n
        #: Card kinds of the trick in progress, played by leader, leader + 1, ...
        self.trick: list[int] = []
        self.leader = (self.dealer + 1) % n
        self.led = LED_NONE
        self.win_seat = -1
        self.win_kind = -1
        #: Finished tricks of this round: (leader, kinds in play order, winner).
        #: The kinds lists are never changed once stored (clones share them).
        self.tricks: list[tuple[int, list[int], int]] = []
        #: Suits each seat has shown it lacks this round (bitmask of suits).
        self.voids = [0] * n
        self._deck = None
        if self.phase != FIRST_DEALER:
            self.phase = DEAL

    # -- whose turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase in (PLAY, BID, TRUMP):
            return self.to_act
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def deal_target(self) -> int:
        """The seat the next card of the deal goes to (round by round, from the dealer's left)."""
        return (self.dealer + 1 + self.deal_count // self.round) % self.n

    # -- legal actions --------------------------------------------------------------
    def playable(self, seat: int) -> int:
        """Slot mask of the cards ``seat`` may play to the trick in progress (follow suit if able)."""
        return playable(self.hands[seat], self.led)

    def _clairvoyant_now(self) -> bool:
        return self.round == 1 and self.game.blind_action >= 0

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            if self.round == 1 and self.game.blind_action >= 0:
                return [self.game.blind_action]
            hand = self.hands[self.to_act]
            led = self.led
            if led >= 0 and hand & SUIT_MASK[led]:
                hand &= SUIT_MASK[led] | SPECIAL_MASK
            # Unrolled over the four suits: this is the innermost loop of playouts.
            out = list(_BLUE[hand & 0x1FFF])
            bits = (hand >> 13) & 0x1FFF
            if bits:
                out += _GREEN[bits]
            bits = (hand >> 26) & 0x1FFF
            if bits:
                out += _RED[bits]
            bits = (hand >> 39) & 0x1FFF
            if bits:
                out += _YELLOW[bits]
            if hand & WIZARD_MASK:
                out.append(WIZARD)
            if hand & JESTER_MASK:
                out.append(JESTER)
            return out
        if phase == BID:
            base = self.game.bid_base
            bids = list(range(base, base + self.round + 1))
            forbidden = self._forbidden_bid()
            if forbidden >= 0:
                bids.remove(base + forbidden)
            return bids
        if phase == TRUMP:
            return list(range(self.game.trump_base, self.game.trump_base + 4))
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def _forbidden_bid(self) -> int:
        """The bid plus/minus one forbids the last bidder, or -1."""
        if not self.game.options["plus_minus_one"] or self.to_act != self.dealer:
            return -1
        rest = self.round - sum(b for b in self.bids if b >= 0)
        return rest if 0 <= rest <= self.round else -1

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FIRST_DEALER:
            return self._dealer_outcomes()
        if phase != DEAL and phase != TURN_UP:
            return []
        remaining = C.FULL_MASK & ~self.dealt
        total = remaining.bit_count()
        single = 1 / total  # a suit card's: one copy of each (Wizards and Jesters counted)
        out = []
        for kind in C.kinds_in(remaining):
            if kind >= C.WIZARD:
                out.append((kind, (remaining & SLOTS_OF_KIND[kind]).bit_count() / total))
            else:
                out.append((kind, single))
        return out

    def _uniform_action(self, getrandbits: Callable[[int], int]) -> int:
        """:meth:`State._uniform_action` (``rng.choice(self.legal_actions())``) without the list.

        Why (issue 48): a random playout asks for one legal action at every decision, and
        building the list cost about as much as playing the card.  :meth:`legal_actions`
        lists the cards ascending (the suits' cards by slot, then a Wizard, then a Jester),
        the bids ascending without the forbidden one, the four trumps: so the ``r``-th is
        found from the masks, ``r`` drawn as ``choice`` draws it (the same ``getrandbits``
        calls).  tests/test_playout.py plays the loop against ``rng.choice``.
        """
        phase = self.phase
        if phase == PLAY and (self.round != 1 or self.game.blind_action < 0):
            hand = self.hands[self.to_act]
            led = self.led
            if led >= 0 and hand & SUIT_MASK[led]:
                hand &= SUIT_MASK[led] | SPECIAL_MASK
            suits = hand & _SUITS_MASK
            count = _cards(suits)
            wizard = 1 if hand & WIZARD_MASK else 0
            n = count + wizard + (1 if hand & JESTER_MASK else 0)
            r = _below(getrandbits, n)
            if r < count:
                return _nth_card(suits, r)  # a suit card's slot is its kind
            return WIZARD if r == count and wizard else JESTER
        if phase == BID:
            base = self.game.bid_base
            forbidden = self._forbidden_bid()
            r = _below(getrandbits, self.round + (1 if forbidden < 0 else 0))
            return base + r + (1 if 0 <= forbidden <= r else 0)
        if phase == TRUMP:
            return self.game.trump_base + _below(getrandbits, 4)
        return State._uniform_action(self, getrandbits)

    def _draw_chance(self, rng: random.Random) -> int:
        """:func:`~atout.core.game.sample_chance`'s outcome at a deal or a turn-up, drawn without its lists.

        Why (issue 48): a state without a seed deals card by card, each card a chance node
        (OpenSpiel's way), and the list of up to 54 weighted outcomes
        (:meth:`chance_outcomes`) and the running sums ``rand.weighted`` builds from it cost
        far more than dealing the card.  The same weights (``1 / cards left`` a suit card,
        Wizards and Jesters by their copies left), summed in the same order (kinds
        ascending), the same one ``random()`` times the total, and the first running sum
        above it (``bisect_right`` over all but the last outcome): the same outcome from the
        same draw (tests/wizard/test_chance_draw.py).
        """
        phase = self.phase
        remaining = C.FULL_MASK & ~self.dealt
        if (phase != DEAL and phase != TURN_UP) or not remaining or type(rng) is not _Random:
            return State._draw_chance(self, rng)
        suits = remaining & _SUITS_MASK
        count = _cards(suits)
        wizards_left = _CARDS_IN_13[remaining >> 52 & 0xF]
        jesters_left = _CARDS_IN_13[remaining >> 56]
        left = count + wizards_left + jesters_left
        sums = _SUMS_OF_SINGLES[left]  # sums[k]: the running sum after k suit cards' weights
        wizards = wizards_left / left
        jesters = jesters_left / left
        total = sums[count]
        if wizards:
            total += wizards
        if jesters:
            total += jesters
        x = rng.random() * total
        last = count - 1 + (1 if wizards else 0) + (1 if jesters else 0)  # the last outcome's index
        # The first suit card whose running sum passes x: sums[k] is about k / left, so start
        # there and step to it (the sums never decrease: the first found is bisect's).
        i = int(x * left)
        if i > count:
            i = count
        while i > 0 and x < sums[i]:
            i -= 1
        while i < count and not x < sums[i + 1]:
            i += 1
        if i > last:
            i = last
        if i < count:
            return _nth_card(suits, i)
        if wizards and (count == last or x < sums[count] + wizards):
            return WIZARD
        return JESTER

    def _play_turn_refusal(self, action: int) -> Reason | None:
        """Why the seat to play may not do ``action``: a card it may play (:meth:`playable`),
        or in clairvoyance's round 1 only the blind play."""
        if self._clairvoyant_now():
            if action == self.game.blind_action:
                return None
            return reason("wizard.clairvoyance_blind")
        if 0 <= action < NUM_KINDS and self.playable(self.to_act) & SLOTS_OF_KIND[action]:
            return None
        return self._play_refusal(action)

    def _bid_refusal(self, action: int) -> Reason | None:
        """Why ``action`` is not a bid the seat to bid may make: 0 to the round's tricks, plus/minus one."""
        game = self.game
        if game.bid_base <= action < game.trump_base:
            bid = action - game.bid_base
            if bid > self.round:
                key = "wizard.bid_above_one_trick" if self.round == 1 else "wizard.bid_above_round"
                return reason(key, r=self.round)
            if bid == self._forbidden_bid():
                return reason("wizard.plus_minus_one", r=self.round, bid=bid)
            return None
        return reason("time_to_bid", seat=Seat(self.to_act), action=self._verb(action))

    def _trump_refusal(self, action: int) -> Reason | None:
        """Why ``action`` is not the dealer's choice of trump (any of the four suits)."""
        trump_base = self.game.trump_base
        if trump_base <= action < trump_base + 4:
            return None
        return reason("wizard.choose_trump", seat=Seat(self.to_act))

    def _deal_refusal(self, action: int) -> Reason | None:
        """Why ``action`` is not the next card dealt or turned up: a kind with a copy not dealt yet."""
        if not 0 <= action < NUM_KINDS:
            return reason("deal_not_a_card", v=repr(action), hi=NUM_KINDS - 1)
        if not (C.FULL_MASK & ~self.dealt) & SLOTS_OF_KIND[action]:
            return reason("wizard.every_copy_dealt", card=Card(C.card_text(action)))
        return None

    def _play_refusal(self, action: int) -> Reason:
        """Why a card the seat to play may not play is refused (it is not held, or does not follow suit)."""
        seat = self.to_act
        if not 0 <= action < NUM_KINDS:
            return reason("time_to_play", seat=Seat(seat), action=self._verb(action))
        hand = self.hands[seat]
        if not hand & SLOTS_OF_KIND[action]:
            return reason("not_held", card=Card(C.card_text(action)))
        led = self.led
        held = Cards(tuple(C.card_text(k) for k in C.cards_in(hand & SUIT_MASK[led])))
        return reason("wizard.follow_suit", colour=Word("colour", C.SUITS[led]), held=held)

    def _phase_refusal(self, action: int) -> Reason | None:
        """Why ``action`` breaks Wizard's rules now: a card to play, a bid, a trump, a draw, a card dealt or turned."""
        phase = self.phase
        if phase == PLAY:
            return self._play_turn_refusal(action)
        if phase == BID:
            return self._bid_refusal(action)
        if phase == TRUMP:
            return self._trump_refusal(action)
        if phase == FIRST_DEALER:
            return self._first_dealer_refusal(action)
        if phase in (DEAL, TURN_UP):
            return self._deal_refusal(action)
        return reason("match_over")

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            if action == self.game.blind_action:  # clairvoyance: the one card held
                hand = self.hands[self.to_act]
                action = KIND_OF_SLOT[(hand & -hand).bit_length() - 1]
            self._play(action)
        elif phase == BID:
            self._bid(action - self.game.bid_base)
        elif phase == TRUMP:
            self.trump = action - self.game.trump_base
            self._start_bidding()
        elif phase == FIRST_DEALER:
            self.dealer = self._drawn_dealer(action)
            self.leader = (self.dealer + 1) % self.n
            self.phase = DEAL
        elif phase == DEAL:
            free = SLOTS_OF_KIND[action] & ~self.dealt
            slot = free & -free
            self.dealt |= slot
            self.hands[self.deal_target()] |= slot
            self.deal_count += 1
            if self.deal_count == self.round * self.n:
                self._deal_done()
        elif phase == TURN_UP:
            free = SLOTS_OF_KIND[action] & ~self.dealt
            self.dealt |= free & -free
            self.turned = action
            if action == WIZARD:
                self.phase = TRUMP
                self.to_act = self.dealer
                return
            self.trump = -1 if action == JESTER else action // C.RANKS
            self._start_bidding()

    def _deal_done(self) -> None:
        if self.round * self.n == C.NUM_SLOTS:  # every card is dealt: no trump
            self.trump = -1
            self._start_bidding()
        else:
            self.phase = TURN_UP

    def apply(self, action: object) -> None:
        """As :meth:`State.apply`, with a fast path for card play (the hot loop)."""
        if self.phase == PLAY and type(action) is int and 0 <= action < NUM_KINDS:
            hand = self.hands[self.to_act]
            led = self.led
            if led >= 0 and hand & SUIT_MASK[led]:
                hand &= SUIT_MASK[led] | SPECIAL_MASK
            if hand & SLOTS_OF_KIND[action] and (self.round != 1 or self.game.blind_action < 0):
                self._play(action)
                self.history.append(action)
                if self.seed is not None and self.phase <= TURN_UP:
                    self._resolve_chance()
                return
        super().apply(action)

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _resolve_chance(self) -> None:
        # Deal a whole round in one go (the same cards, in the same order, as one
        # chance outcome at a time would): half of a match's actions are deals.
        while self.phase <= TURN_UP:
            if self.phase == DEAL and self.deal_count == 0:
                self._deal_seeded()
                continue
            outcome = self._seeded_outcome()
            self._do(outcome)
            self.history.append(outcome)

    def _deal_seeded(self) -> None:
        """The round's deal and turn-up from its seed in one go: what :meth:`_seeded_order`'s
        outcomes, applied one at a time by :meth:`_do`, give (the same hands, history and trump).

        Why (issue 48): a seeded match deals at every round, and going through the kinds (each
        seat's sorted, then each mapped back to the lowest copy not dealt) cost as much as the
        shuffle.  The shuffled deck is of slots: a seat's suit cards are its slots themselves,
        listed ascending by the masks' tables as the sorted kinds were; its Wizards and Jesters
        are counted and given the lowest copies not dealt, as :meth:`_do` gives them.
        """
        deck = list(_SLOTS)
        # seeded_rng(seed, "round", r).shuffle(deck)'s order (compiled, atout.core.rng); the text
        # is seed_text(seed, "round", r)'s, written out (a generator expression saved a round)
        rand.shuffle_seeded(f"{self.seed or 0}:round:{self.round}", deck)
        r, n = self.round, self.n
        hands, history, dealt = self.hands, self.history, self.dealt
        for i in range(n):
            got = 0  # the seat's slots in the deck
            for at in range(i * r, (i + 1) * r):
                got |= 1 << deck[at]
            seat = (self.dealer + 1 + i) % n
            suits = got & _SUITS_MASK
            hand = hands[seat] | suits  # kept in a local: a list item is a boxed int
            dealt |= suits
            # the seat's kinds ascending (its history): suit cards by slot, Wizards, Jesters
            history.extend(_BLUE[suits & 0x1FFF])
            history.extend(_GREEN[suits >> 13 & 0x1FFF])
            history.extend(_RED[suits >> 26 & 0x1FFF])
            history.extend(_YELLOW[suits >> 39 & 0x1FFF])
            for _ in range(_CARDS_IN_13[got >> 52 & 0xF]):
                free = WIZARD_MASK & ~dealt
                slot = free & -free
                dealt |= slot
                hand |= slot
                history.append(WIZARD)
            for _ in range(_CARDS_IN_13[got >> 56]):
                free = JESTER_MASK & ~dealt
                slot = free & -free
                dealt |= slot
                hand |= slot
                history.append(JESTER)
            hands[seat] = hand
        self.dealt = dealt
        self.deal_count = r * n
        self._deal_done()
        if self.phase == TURN_UP:  # the next card of the deck
            turned = KIND_OF_SLOT[deck[r * n]]
            self._do(turned)
            history.append(turned)

    def _start_bidding(self) -> None:
        self.phase = BID
        self.to_act = (self.dealer + 1) % self.n

    def _bid(self, bid: int) -> None:
        seat = self.to_act
        self.bids[seat] = bid
        if seat == self.dealer:
            self.phase = PLAY
            self.to_act = self.leader
        else:
            self.to_act = (seat + 1) % self.n

    def restore_trick(self, plays: list[tuple[int, int, int]]) -> None:
        """Put the trick in progress back, from its leader: ``(seat, slot, kind)`` a card in play order.

        Each slot goes into its seat's hand and is played through the rules of
        play, so the led suit, the winner so far and the voids shown are what
        play gave.  For the sampler, which deals a world at the trick's start.
        """
        self.to_act = self.leader
        for seat, slot, kind in plays:
            self.hands[seat] |= slot
            self._play(kind)

    def _play(self, action: int) -> None:
        seat = self.to_act
        hand = self.hands[seat]
        if action >= WIZARD:
            held = hand & SLOTS_OF_KIND[action]
            self.hands[seat] = hand ^ (held & -held)
        else:
            self.hands[seat] = hand ^ (1 << action)
        trick = self.trick
        led = self.led
        if led >= 0 and action < WIZARD and action // 13 != led:
            self.voids[seat] |= 1 << led
        # Incremental trick winner: the first Wizard wins; otherwise the highest
        # trump; otherwise the highest card of the led suit; all Jesters: the first.
        win = self.win_kind
        if not trick:
            self.win_seat, self.win_kind = seat, action
        elif win != WIZARD:
            if action == WIZARD:
                self.win_seat, self.win_kind = seat, action
            elif action != JESTER:
                if win == JESTER:
                    self.win_seat, self.win_kind = seat, action
                else:
                    suit, wsuit = action // 13, win // 13
                    if (suit == wsuit and action > win) or (suit == self.trump and wsuit != suit):
                        self.win_seat, self.win_kind = seat, action
        if led == LED_NONE:
            if action == WIZARD:
                self.led = LED_FREE
            elif action != JESTER:
                self.led = action // 13
        trick.append(action)
        if len(trick) < self.n:
            self.to_act = (seat + 1) % self.n
            return
        winner = self.win_seat
        self.tricks.append((self.leader, trick, winner))
        self.tricks_won[winner] += 1
        self.trick = []
        self.led = LED_NONE
        self.win_seat = self.win_kind = -1
        self.leader = self.to_act = winner
        if len(self.tricks) == self.round:
            self._score_round()

    def _score_round(self) -> None:
        deltas = []
        for seat in range(self.n):
            bid, won = self.bids[seat], self.tricks_won[seat]
            delta = round_score(bid, won)
            deltas.append(delta)
            self.scores_[seat] += delta
        self.sheet.append((tuple(self.bids), tuple(self.tricks_won), tuple(deltas)))
        if self.round == self.game.num_rounds:
            self.phase = OVER
            self.to_act = TERMINAL
            return
        self.prev_round_trick = self.tricks[-1]
        self.prev_round_trick_shown = None
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        self.phase = DEAL
        self.reset_round()

    def _dealer_base(self) -> int:
        return NUM_KINDS  # "dealer k": the outcome after the 54 card kinds'

    def _seeded_outcome(self) -> int:
        if self.phase == FIRST_DEALER:
            return self._seeded_dealer()
        order = self._seeded_order()
        return order[self.deal_count if self.phase == DEAL else self.round * self.n]

    def _seeded_order(self) -> list[int]:
        """This round's chance outcomes as the seed gives them: the deal, then the turn-up.

        One shuffle per round, from the seed and the round number only; each
        seat's cards are dealt in ascending order so that a record (which lists a
        seat's cards sorted) replays to the same history.
        """
        if self._deck is None:
            deck = list(range(C.NUM_SLOTS))
            # seeded_rng(seed, "round", r).shuffle(deck)'s order, compiled (atout.core.rng)
            rand.shuffle_seeded(seed_text(self.seed or 0, "round", self.round), deck)
            r, n = self.round, self.n
            order: list[int] = []
            for i in range(n):
                order.extend(sorted([KIND_OF_SLOT[s] for s in deck[i * r : (i + 1) * r]]))
            if r * n < C.NUM_SLOTS:
                order.append(KIND_OF_SLOT[deck[r * n]])
            self._deck = order
        return self._deck

    # -- notation -------------------------------------------------------------------
    def _chance_to_text(self, outcome: int) -> str:
        if self.phase == FIRST_DEALER:
            return self._dealer_text(outcome)
        if self.phase == TURN_UP:
            return f"turn {C.card_text(outcome)}"
        return f"deal {self.deal_target()} {C.card_text(outcome)}"

    def _chance_event(self) -> ChanceEvent | None:
        """The chance event this state waits for, with its notation, or None at a decision."""
        phase = self.phase
        if phase == FIRST_DEALER:
            return ChanceEvent("dealer", 1, lambda words: NUM_KINDS + integer(words[0]), "dealer 2")
        if phase == TURN_UP:
            return ChanceEvent("turn", 1, lambda words: C.parse_card(words[0]), "turn R7")
        if phase == DEAL:
            target = self.deal_target()
            held = (self.hands[target].bit_count(), self.round)
            read = deal_reader(target, C.parse_card, "round", self.round, held)
            return ChanceEvent("deal", 2, read, f"deal {target} B7")
        return None

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.scores_)

    def view(self, seat: object, public: bool = False) -> WizardView:
        return make_view(self, check_seat(self.game, seat), public)

    def redacted_history(self, seat: object) -> list[int | None]:
        return redact_history(self, check_seat(self.game, seat))

    def __str__(self) -> str:
        """The whole state as plain text (debugging; shows every hand): no rich, no renderer."""
        lines = [
            f"Wizard, round {self.round}/{self.game.num_rounds}, dealer {self.dealer}, "
            f"phase {PHASE_NAMES[self.phase]}, to act {self.current_player}",
            f"trump: {C.SUITS[self.trump] if self.trump >= 0 else 'none'}"
            + (f" (turned {C.card_text(self.turned)})" if self.turned >= 0 else ""),
        ]
        for seat in range(self.n):
            bid = self.bids[seat]
            lines.append(
                f"  seat {seat}: {C.hand_text(self.hands[seat]) or '-'}  "
                f"bid {bid if bid >= 0 else '-'} won {self.tricks_won[seat]} score {self.scores_[seat]}"
            )
        if self.trick:
            lines.append(
                "  trick: "
                + " ".join(f"{(self.leader + i) % self.n}:{C.card_text(k)}" for i, k in enumerate(self.trick))
            )
        return "\n".join(lines)


__all__ = ["BID", "OVER", "PLAY", "TRUMP", "WizardGame", "WizardState", "WizardView"]
