"""Le Nain Jaune's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/i18n/en/rules/nain-jaune.md (the seed text with
the decisions of the rules notes, §2).  Le Nain Jaune is a shedding game, not a
trick-taking one; it still fits the shared interface because "whose turn" is
simply "who must play the next card".  The state machine of one deal::

    [first dealer: chance, match start only]
    end check (a player cannot stake, or the deal limit) -> match over
    stakes: automatic, every player puts 1/2/3/4/5 on the five boxes
    deal (chance, one card at a time, seat by seat from the dealer's left)
    play: free start -> rising run (rank + 1, any suit) -> "x sans y" ->
          the next rank is asked round the table -> ... until a hand is empty
    [claim window after a board card, only with manual_claim]
    end-of-deal payments, dealer moves, next deal

Passing is automatic when a player lacks the needed rank (the digital form of
saying "six sans sept"), so with the default options every decision is a real
one: a free start, or which suit to use.  ``pass`` is an action only with the
``voluntary_stop`` variant, and in a manual-claim window.
"""

from __future__ import annotations

from typing import ClassVar, Final, Self

from ...core.actions import ChanceEvent, deal_reader
from ...core.bits import bits_of  # C.cards_in, called natively (compiled: an alias is a Python call)
from ...core.cardname import CardName
from ...core.errors import OptionError
from ...core.fields import StateFields, state_fields
from ...core.game import CHANCE, TERMINAL, Game, State, check_seat, seeded_deal, uniform_outcomes
from ...core.native import mypyc_attr
from ...core.options import OptionSpec, first_dealer_option, start_round_option
from ...core.reason import Card, Cards, Option, Rank, Reason, reason
from . import cards as C
from .cards import BOX_OF, BOX_STAKES, NUM_CARDS, POINTS, RANK_MASK, STAKE_TOTAL
from .cards import card_name as _card_name
from .rules import (
    ACTIONS,
    CLAIM,
    DEAL,
    DEALER_BASE,
    FIRST_DEALER,
    NUM_ACTIONS,
    OVER,
    PASS,
    PHASE_NAMES,
    PLAY,
    DealResult,
    lowest_rank,
    may_pass,
    put_stakes,
)
from .view import NainJauneView, make_view, redact_history

#: Bounds of the integer options: a match must end in a time a table can wait.  Tokens
#: move as a random walk, so a match lasts about the square of ``start_tokens``: 100
#: tokens end in ~5 deals, 1,000 in ~500 (~20,000 moves, hours at a web table's bot
#: pace); beyond that an all-bot table would practically never end.
MAX_START_TOKENS: Final = 1000
MAX_STAKE_UNIT: Final = 10
MAX_DEALS: Final = 1000


class NainJauneGame(Game):
    """Le Nain Jaune for 2 to 8 players, with the regional variants as options."""

    name: ClassVar[str] = "nain-jaune"

    title: ClassVar[str] = "Le Nain Jaune"
    summary: ClassVar[str] = (
        "Shed your cards in rising runs regardless of suit (4, 5, 6 ... King), win the "
        "board's boxes by playing 10♦, J♣, Q♠, K♥ or the Nain Jaune 7♦, and make the "
        "others pay for the points left in their hands."
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.nain_jaune.bot:NainJauneHeuristicBot"}
    package: ClassVar[str] = "atout.games.nain_jaune"
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec(
            "stuck_rule",
            str,
            "skip_rank",
            "When nobody holds the needed rank: skip_rank (the seed: the last player, then "
            "the others, are asked for the rank after it; a missing King ends the run) or "
            "free_restart (the last player starts a new run with any card).",
            choices=("skip_rank", "free_restart"),
        ),
        OptionSpec(
            "voluntary_stop",
            bool,
            False,
            "A player holding the needed rank may pass instead of playing it.",
        ),
        OptionSpec(
            "first_card",
            str,
            "any",
            "The first card of a deal: any card (the seed) or the opener's lowest rank.",
            choices=("any", "lowest"),
        ),
        OptionSpec(
            "direction",
            str,
            "clockwise",
            "Direction of play and of the deal (counterclockwise: the dealer's right opens).",
            choices=("clockwise", "counterclockwise"),
        ),
        OptionSpec(
            "payment",
            str,
            "points",
            "What the losers pay the player who goes out: card points (faces 10, others "
            "their value) or one token per card.",
            choices=("points", "per_card"),
        ),
        OptionSpec(
            "kept_pay_card",
            str,
            "double_box",
            "A player caught with a board card: double_box (pays the box its content again), "
            "base_stake (pays the box's stake, 1..5) or no_penalty.",
            choices=("double_box", "base_stake", "no_penalty"),
        ),
        OptionSpec(
            "grand_opera",
            str,
            "off",
            "Going out before anyone else has played a card: off, take_all_boxes (the "
            "whole board too) or double_payments (the losers pay double).",
            choices=("off", "take_all_boxes", "double_payments"),
        ),
        OptionSpec(
            "max_deals",
            int,
            None,
            "Also stop after this many deals (1: a single deal; none: only when a player cannot stake).",
            minimum=1,
            maximum=MAX_DEALS,
            none_ok=True,
        ),
        start_round_option(
            "Start the match at this deal number, dealt (from the seed) and rotated as that deal of "
            "a whole match, every seat on start_tokens; with max_deals=1, a single-deal game.",
            maximum=10_000,
        ),
        OptionSpec(
            "start_tokens", int, 100, "Tokens each player starts with.", minimum=1, maximum=MAX_START_TOKENS
        ),
        OptionSpec(
            "stake_unit",
            int,
            1,
            "Multiplies the stakes (1/2/3/4/5 per box) to play for higher stakes.",
            minimum=1,
            maximum=MAX_STAKE_UNIT,
        ),
        OptionSpec(
            "manual_claim",
            bool,
            False,
            "A board card's box must be claimed ('claim') before anything else is done, "
            "else it stays on the board: a rule for human tables.",
        ),
        OptionSpec(
            "sequence_bonus",
            bool,
            False,
            "House rule (Board Game Arena): ending a run (a King, or nobody can go on) earns "
            "1 token from each other player.",
        ),
        first_dealer_option(max_players),
        OptionSpec(
            "next_dealer",
            str,
            "left",
            "Who deals next: the player on the dealer's left, or the deal's winner.",
            choices=("left", "deal_winner"),
        ),
    )

    @classmethod
    def card_name(cls, text: str) -> CardName:
        return _card_name(text)

    def _check_options(self) -> None:
        o = self.options
        #: The same 54 ids in every configuration (:mod:`.rules`), set on the game (a compiled
        #: class's attribute default must be a constant).
        self.space = ACTIONS
        #: Tokens a player needs to stake one deal.
        self.stake = STAKE_TOTAL * o["stake_unit"]
        if o["start_tokens"] < self.stake:
            raise OptionError(
                reason("nain_jaune.tokens_below_stake", option=Option("start_tokens"), stake=self.stake)
            )
        self.hand_size = C.HAND_SIZES[self.players]
        self.step = 1 if o["direction"] == "clockwise" else -1
        self.voluntary = bool(o["voluntary_stop"])
        self.manual_claim = bool(o["manual_claim"])
        # The options read at every card, as native fields (a dict lookup a card otherwise).
        #: A deal's first card is of the opener's lowest rank (``first_card="lowest"``).
        self.first_lowest: bool = o["first_card"] == "lowest"
        #: The sequence-bonus house rule (``sequence_bonus``).
        self.sequence_bonus = bool(o["sequence_bonus"])
        #: A rank nobody plays ends the run (``stuck_rule="free_restart"``), else the next rank is asked.
        self.free_restart: bool = o["stuck_rule"] == "free_restart"

    # -- action space -----------------------------------------------------------
    @property
    def num_chance_outcomes(self) -> int:
        return DEALER_BASE + self.players

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> NainJauneState:
        return self._new_state(NainJauneState, seed, position)

    def max_history_length(self) -> int | None:
        """With ``max_deals``, an upper bound on a whole match's history; without it, none exists.

        Per deal: the deal (``n * hand_size``), at most every card played, and
        before each card and after the last the passes (with ``voluntary_stop``
        every seat may pass on every rank asked: at most ``13 n`` between two
        cards) and a claim window (at most ``n + 1``, with ``manual_claim``);
        and the first dealer's draw.  Without ``max_deals`` a match ends only when
        a player cannot stake, and tokens can go round the table for ever: no
        bound holds (seeded matches do end, in a length that grows as the square
        of ``start_tokens``; docs/research.md, OpenSpiel).
        """
        deals: int | None = self.options["max_deals"]
        if deals is None:
            return None
        n, size = self.players, self.hand_size
        cards = n * size
        # Passes on every rank asked (voluntary_stop), then a claim window (manual_claim).
        between = (C.KING * n if self.voluntary else 0) + (n + 1 if self.manual_claim else 0)
        per_deal = cards + cards * (1 + between) + between
        return 1 + deals * per_deal

    def score_bounds(self) -> tuple[int, int]:
        """Tokens are conserved and a player pays at most what he holds: a seat ends
        with between none and every token of the table."""
        return 0, self.players * self.options["start_tokens"]


# allow_interpreted_subclasses: mypyc's ``__new__`` then makes a blank state, without ``__init__``
# (it runs ``__init__`` in ``__new__`` otherwise), which ``clone`` and ``fields.build`` need.
@mypyc_attr(allow_interpreted_subclasses=True)
class NainJauneState(State[NainJauneGame]):
    """A Nain Jaune match in progress.  See the module docstring for the phases.

    Play bookkeeping: ``need`` is the rank the next card must have (0: a free
    start, any card); ``last`` the seat that played the latest card; ``asked``
    how many seats, counted from ``last`` in the direction of play, have been
    asked for ``need`` already.  ``to_act`` is the seat that must act.
    """

    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES
    fields: ClassVar[StateFields] = state_fields(
        shared=(
            "dealer", "opener", "to_act", "dealt", "deal_count", "need", "last", "asked", "claim_box",
            "bonus_due", "deal_order",
        ),
        copied=("tokens", "boxes", "sheet", "hands", "lacks", "played"),
    )  # fmt: skip

    def clone(self) -> Self:
        """A copy, each field as :attr:`fields` declares (written out, checked by tests/test_state_shape.py)."""
        new = self._clone_base()
        new.dealer = self.dealer
        new.opener = self.opener
        new.to_act = self.to_act
        new.dealt = self.dealt
        new.deal_count = self.deal_count
        new.need = self.need
        new.last = self.last
        new.asked = self.asked
        new.claim_box = self.claim_box
        new.bonus_due = self.bonus_due
        new.deal_order = self.deal_order
        new.tokens = self.tokens.copy()
        new.boxes = self.boxes.copy()
        new.sheet = self.sheet.copy()
        new.hands = self.hands.copy()
        new.lacks = self.lacks.copy()
        new.played = self.played.copy()
        return new

    #: Per seat, the 52-bit mask of the cards it holds.
    hands: list[int]
    #: Mask of the cards dealt so far this deal (the rest, once dealt out, is the talon).
    dealt: int
    #: Per seat, a 13-bit mask of the ranks play has shown it lacks (bit r - 1).
    lacks: list[int]
    #: The face-up pile of this deal: (seat, card) in play order.
    played: list[tuple[int, int]]
    #: Box of a board card waiting to be claimed (manual_claim), or -1.
    claim_box: int
    #: Whether the sequence bonus may still be paid for the latest card.
    bonus_due: bool
    #: The seeded deal's cards in dealing order, drawn at its first card (a
    #: cache, never changed in place: shared by clones), or None.
    deal_order: list[int] | None

    def __init__(self, game: NainJauneGame, seed: int | None) -> None:
        super().__init__(game, seed)
        n = self.n
        self.tokens = [game.options["start_tokens"]] * n
        self.boxes = [0] * 5
        #: One line per finished deal.
        self.sheet: list[DealResult] = []
        # From start_round the deal has moved on as in a match, ``step`` seats a deal
        # (with next_dealer=left: a deal winner cannot be known in advance).
        first = game.opening_dealer(game.step)
        self.dealer = 0 if first is None else first
        self._clear_deal()
        if first is None:
            self.phase = FIRST_DEALER
        else:
            self._start_deal()

    def _clear_deal(self) -> None:
        n = self.n
        self.phase = DEAL
        self.opener = (self.dealer + self.game.step) % n
        self.to_act = CHANCE
        self.hands = [0] * n
        self.dealt = 0
        self.deal_count = 0
        self.need = 0
        self.last = self.opener
        self.asked = 0
        self.lacks = [0] * n
        self.played = []
        self.claim_box = -1
        self.bonus_due = False
        self.deal_order = None

    def _start_deal(self) -> None:
        """The end check, then the stakes, then a deal (or the end of the match)."""
        game = self.game
        limit = game.options["max_deals"]
        if min(self.tokens) < game.stake or (
            limit is not None and sum(1 for line in self.sheet if line.deal >= game.start_round) >= limit
        ):
            self.phase = OVER
            self.to_act = TERMINAL
            return
        self._clear_deal()
        put_stakes(self.tokens, self.boxes, game.options["stake_unit"])

    # -- whose turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return self.to_act
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def deal_target(self) -> int:
        """The seat the next card of the deal goes to (the cards go round one at a time)."""
        return (self.dealer + self.game.step * (1 + self.deal_count // self.game.hand_size)) % self.n

    # -- legal actions --------------------------------------------------------------
    def _playable(self) -> int:
        """Mask of the cards ``to_act`` may play now: the needed rank, else any card.

        The one rule of what may be played, read by :meth:`legal_actions` and
        :meth:`_play_refusal` alike (the ``first_card="lowest"`` variant: the
        deal's first card is of the opener's lowest rank).
        """
        hand = self.hands[self.to_act]
        if self.need:
            return hand & RANK_MASK[self.need]
        if not self.played and self.game.first_lowest:
            return lowest_rank(hand)
        return hand

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            if self.claim_box >= 0 and not self.hands[self.to_act]:
                return [PASS, CLAIM]
            mask = self._playable()
            out = bits_of(mask)
            if self.need and (self.game.voluntary or not mask):  # may_pass, inlined: the hot path
                out.append(PASS)
            if self.claim_box >= 0:
                out.append(CLAIM)
            return out
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FIRST_DEALER:
            return self._dealer_outcomes()
        if phase != DEAL:
            return []
        return uniform_outcomes(bits_of(C.FULL_MASK & ~self.dealt))

    def _play_refusal(self, action: int) -> Reason | None:
        """Why ``action`` may not be played now, or None: the rules :meth:`legal_actions` follows.

        Each test is the rule itself (``_playable`` and :func:`.rules.may_pass`,
        as the generator uses them), so the reason given is the rule broken.
        """
        seat = self.to_act
        hand = self.hands[seat]
        pending = self.claim_box >= 0
        if action == CLAIM:
            return None if pending else reason("nain_jaune.no_box")
        if not 0 <= action < NUM_ACTIONS:
            return reason("nain_jaune.not_an_id", v=repr(action), hi=NUM_ACTIONS - 1)
        if pending and not hand:
            # The last card was a board card: only its claim (or letting it go) is left.
            return None if action == PASS else reason("nain_jaune.claim_or_pass")
        need = self.need
        mask = self._playable()
        if action == PASS:
            if may_pass(need, mask, self.game.voluntary):
                return None
            if not need:
                return reason("nain_jaune.new_run_no_pass")
            return reason("nain_jaune.must_play_rank", rank=Rank(C.rank_text(need)), held=self._cards(mask))
        if mask >> action & 1:
            return None
        card = Card(C.card_text(action))
        if not hand >> action & 1:
            return reason("not_held", card=card)
        if need:
            key = (
                "nain_jaune.run_needs_none"
                if not self.game.voluntary and not mask
                else "nain_jaune.run_needs"
            )
            return reason(key, rank=Rank(C.rank_text(need)), card=card)
        return reason("nain_jaune.lowest_first", held=self._cards(mask))

    @staticmethod
    def _cards(mask: int) -> Cards:
        """The cards of ``mask`` as a refusal names them (by rank, as :func:`.cards.hand_text` writes them)."""
        return Cards(tuple(C.card_text(c) for c in C.by_rank(C.cards_in(mask))), " ")

    def _deal_refusal(self, outcome: int) -> Reason | None:
        """A deal outcome is a card not dealt yet."""
        if not 0 <= outcome < NUM_CARDS:
            return reason("deal_not_a_card", v=repr(outcome), hi=NUM_CARDS - 1)
        if self.dealt >> outcome & 1:
            return reason("nain_jaune.already_dealt", card=Card(C.card_text(outcome)))
        return None

    def _phase_refusal(self, action: int) -> Reason | None:
        """Why ``action`` breaks Le Nain Jaune's rules now: a card to play, a card dealt, the first dealer's draw."""
        phase = self.phase
        if phase == PLAY:
            return self._play_refusal(action)
        if phase == DEAL:
            return self._deal_refusal(action)
        if phase == FIRST_DEALER:
            return self._first_dealer_refusal(action)
        return reason("match_over")

    # -- applying -----------------------------------------------------------------------
    def _do(self, action: int) -> None:
        phase = self.phase
        if phase == PLAY:
            if self.claim_box >= 0:
                box = self.claim_box
                self.claim_box = -1
                seat = self.to_act
                if action == CLAIM:
                    self._collect(seat, box)
                if not self.hands[seat]:
                    self._end_deal(seat)
                    return
                if action == CLAIM or (action == PASS and not self.game.voluntary):
                    # Resume the turn the claim interrupted ("x sans y" is said now).
                    self._settle()
                    return
                # Any other action forfeits the box and is then played as usual.
            if action == PASS:
                self.asked += 1
                if self.asked == self.n:
                    self._stuck()
                self._settle()
            else:
                self._play(action)
        elif phase == DEAL:
            self.dealt |= 1 << action
            self.hands[self.deal_target()] |= 1 << action
            self.deal_count += 1
            if self.deal_count == self.game.hand_size * self.n:
                self.phase = PLAY
                self.to_act = self.opener
                self.deal_order = None
        elif phase == FIRST_DEALER:
            self.dealer = self._drawn_dealer(action, self.game.step)
            self._start_deal()

    def _play(self, c: int) -> None:
        seat = self.to_act
        game = self.game
        rank = c % C.RANKS + 1
        if not self.played and game.first_lowest:
            self.lacks[seat] |= (1 << (rank - 1)) - 1
        self.hands[seat] ^= 1 << c
        self.played.append((seat, c))
        self.last = seat
        self.asked = 0
        self.bonus_due = game.sequence_bonus
        box = BOX_OF[c]
        if box >= 0:
            if game.manual_claim:
                self.claim_box = box
            else:
                self._collect(seat, box)
        if rank == C.KING:
            self._bonus()
            self.need = 0
        else:
            self.need = rank + 1
        if self.claim_box >= 0:
            return  # the claim window: the same seat acts again
        if not self.hands[seat]:
            self._end_deal(seat)
            return
        self._settle()

    def _settle(self) -> None:
        """Find who must act for ``need``: automatic passes for those without it."""
        n, step = self.n, self.game.step
        voluntary = self.game.voluntary
        hands = self.hands
        while True:
            need = self.need
            if not need:
                self.to_act = self.last
                return
            mask = RANK_MASK[need]
            while self.asked < n:
                seat = (self.last + step * self.asked) % n
                if voluntary or hands[seat] & mask:
                    self.to_act = seat
                    return
                self.lacks[seat] |= 1 << (need - 1)
                self.asked += 1
            self._stuck()

    def _stuck(self) -> None:
        """Nobody played ``need``: the run ends or skips a rank (the stuck rule)."""
        self._bonus()
        self.asked = 0
        if self.game.free_restart or self.need == C.KING:
            self.need = 0
        else:
            self.need += 1

    def _bonus(self) -> None:
        """The sequence-bonus house rule: each other player pays the run's owner 1 token."""
        if not self.bonus_due:
            return
        self.bonus_due = False
        owner = self.last
        for seat in range(self.n):
            if seat != owner:
                pay = min(1, self.tokens[seat])
                self.tokens[seat] -= pay
                self.tokens[owner] += pay

    def _collect(self, seat: int, box: int) -> None:
        self.tokens[seat] += self.boxes[box]
        self.boxes[box] = 0

    def _end_deal(self, winner: int) -> None:
        """The payments, then the next deal (or the end of the match).

        A player who cannot pay everything pays what he has; he is then below
        the stake and the end check stops the match before the next deal.
        """
        game = self.game
        options = game.options
        n = self.n
        tokens, boxes = self.tokens, self.boxes
        grand = options["grand_opera"] != "off" and all(s == winner for s, _ in self.played)
        if grand and options["grand_opera"] == "take_all_boxes":
            tokens[winner] += sum(boxes)
            self.boxes = boxes = [0] * 5
        per_card = options["payment"] == "per_card"
        factor = 2 if grand and options["grand_opera"] == "double_payments" else 1
        owed = [0] * n
        paid = [0] * n
        penalties = [0] * n
        kept: list[tuple[int, ...]] = [()] * n
        for seat in range(n):
            if seat == winner:
                continue
            hand = self.hands[seat]
            due = hand.bit_count() if per_card else sum(POINTS[c] for c in C.cards_in(hand))
            owed[seat] = due
            pay = min(due * factor, tokens[seat])
            paid[seat] = pay
            tokens[seat] -= pay
            tokens[winner] += pay
        rule = options["kept_pay_card"]
        unit = options["stake_unit"]
        for seat in range(n):
            if seat == winner:
                continue
            held = [BOX_OF[c] for c in C.cards_in(self.hands[seat] & C.BOARD_MASK)]
            kept[seat] = tuple(sorted(held))
            if rule == "no_penalty":
                continue
            for box in kept[seat]:
                due = boxes[box] if rule == "double_box" else BOX_STAKES[box] * unit
                pay = min(due, tokens[seat])
                tokens[seat] -= pay
                boxes[box] += pay
                penalties[seat] += pay
        self.sheet.append(
            DealResult(
                deal=self.round,
                winner=winner,
                grand_opera=grand,
                owed=tuple(owed),
                paid=tuple(paid),
                penalties=tuple(penalties),
                kept=tuple(kept),
                tokens=tuple(tokens),
                boxes=tuple(boxes),
            )
        )
        if options["next_dealer"] == "deal_winner":
            self.dealer = winner
        else:
            self.dealer = (self.dealer + game.step) % n
        self._start_deal()
        if self.phase != OVER:
            self.round += 1

    def _dealer_base(self) -> int:
        return DEALER_BASE

    def _seeded_outcome(self) -> int:
        if self.phase == FIRST_DEALER:
            return self._seeded_dealer()
        if self.deal_order is None:  # one shuffle per deal
            self.deal_order = seeded_deal(
                self.seed or 0, "deal", self.round, NUM_CARDS, self.n, self.game.hand_size
            )
        return self.deal_order[self.deal_count]

    # -- notation -------------------------------------------------------------------
    def _chance_to_text(self, outcome: int) -> str:
        if self.phase == FIRST_DEALER:
            return self._dealer_text(outcome)
        return f"deal {self.deal_target()} {C.card_text(outcome)}"

    def _chance_event(self) -> ChanceEvent | None:
        """The chance event this phase waits for, with its reader (None outside the chance phases)."""
        if self.phase == FIRST_DEALER:
            return ChanceEvent("dealer", 1, self._read_dealer, "dealer 2")
        if self.phase == DEAL:
            target = self.deal_target()
            held = (self.hands[target].bit_count(), self.game.hand_size)
            read = deal_reader(target, C.parse_card, "deal", self.round, held)
            return ChanceEvent("deal", 2, read, f"deal {target} 7D")
        return None

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        """Each seat's tokens (what the player has in front of him, stakes excluded)."""
        return list(self.tokens)

    def view(self, seat: object, public: bool = False) -> NainJauneView:
        return make_view(self, check_seat(self.game, seat), public)

    def redacted_history(self, seat: object) -> list[int | None]:
        return redact_history(self, check_seat(self.game, seat))

    def __str__(self) -> str:
        """The whole state as plain text (debugging; shows every hand): no rich, no renderer."""
        need = "free start" if not self.need else f"needs {C.rank_text(self.need)}"
        lines = [
            f"Le Nain Jaune, deal {self.round}, dealer {self.dealer}, phase {PHASE_NAMES[self.phase]}, "
            f"to act {self.current_player}, {need}",
            "board: " + "  ".join(f"{C.card_text(C.BOARD[b])}={t}" for b, t in enumerate(self.boxes)),
        ]
        for seat in range(self.n):
            lines.append(f"  seat {seat}: {C.hand_text(self.hands[seat]) or '-'}  tokens {self.tokens[seat]}")
        if self.played:
            lines.append("  pile: " + " ".join(f"{s}:{C.card_text(c)}" for s, c in self.played))
        return "\n".join(lines)


#: What other packages read here (the batch simulator reads the phases and the ids too).
__all__ = [
    "CLAIM",
    "DEAL",
    "FIRST_DEALER",
    "OVER",
    "PASS",
    "PLAY",
    "DealResult",
    "NainJauneGame",
    "NainJauneState",
    "NainJauneView",
]
