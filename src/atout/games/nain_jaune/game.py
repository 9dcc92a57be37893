"""Le Nain Jaune's rules: the game (parameters, action space) and the match state.

The rules implemented are those of src/atout/rules/nain-jaune.md (the seed text with
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

import random
from dataclasses import dataclass
from typing import ClassVar

from ...core.cardname import CardName
from ...core.errors import NotationError, OptionError
from ...core.game import CHANCE, TERMINAL, Game, State, View, check_seat, seeded_rng
from ...core.options import OptionSpec
from . import cards as C
from .cards import BOX_OF, BOX_STAKES, NUM_CARDS, POINTS, RANK_MASK, STAKE_TOTAL
from .cards import card_name as _card_name

# Phases of a deal.
FIRST_DEALER, DEAL, PLAY, OVER = range(4)
PHASE_NAMES = ("first-dealer", "deal", "play", "over")

#: Player action ids: 0..51 play that card, then these two.
PASS = NUM_CARDS
CLAIM = NUM_CARDS + 1
NUM_ACTIONS = NUM_CARDS + 2
#: Chance outcome ids: 0..51 deal that card, then "dealer k" at ``DEALER_BASE + k``.
DEALER_BASE = NUM_CARDS

#: Bounds of the integer options: a match must end in a time a table can wait.  Tokens
#: move as a random walk, so a match lasts about the square of ``start_tokens``: 100
#: tokens end in ~5 deals, 1,000 in ~500 (~20,000 moves, hours at a web table's bot
#: pace); beyond that an all-bot table would practically never end.
MAX_START_TOKENS = 1000
MAX_STAKE_UNIT = 10
MAX_DEALS = 1000


@dataclass(frozen=True, slots=True)
class DealResult:
    """One line of the score sheet: how a deal ended and what it cost each seat."""

    deal: int
    winner: int
    #: The winner went out before anyone else played a card (grand opéra variant).
    grand_opera: bool
    #: Points (or cards) each seat was caught with; 0 for the winner.
    owed: tuple[int, ...]
    #: Tokens each seat actually paid the winner (less than owed when short).
    paid: tuple[int, ...]
    #: Tokens each seat paid into the board for the board cards it was caught with.
    penalties: tuple[int, ...]
    #: Board cards each seat was caught with (box indices).
    kept: tuple[tuple[int, ...], ...]
    #: Every seat's tokens after the deal.
    tokens: tuple[int, ...]
    #: The board after the deal.
    boxes: tuple[int, ...]


class NainJauneGame(Game):
    """Le Nain Jaune for 2 to 8 players, with the regional variants as options."""

    name = "nain-jaune"

    title = "Le Nain Jaune"
    summary = (
        "Shed your cards in rising runs regardless of suit (4, 5, 6 ... King), win the "
        "board's boxes by playing 10♦, J♣, Q♠, K♥ or the Nain Jaune 7♦, and make the "
        "others pay for the points left in their hands."
    )
    min_players = 2
    max_players = 8
    bots: ClassVar[dict[str, str]] = {"heuristic": "atout.games.nain_jaune.bot:NainJauneHeuristicBot"}
    renderer = "atout.games.nain_jaune.render"
    rules_page = "nain-jaune"
    tensors = "atout.games.nain_jaune.tensor"
    positions = "atout.games.nain_jaune.position"
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
        OptionSpec(
            "start_round",
            int,
            1,
            "Start the match at this deal number, dealt (from the seed) and rotated as that deal of "
            "a whole match, every seat on start_tokens; with max_deals=1, a single-deal game.",
            minimum=1,
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
        if o["first_dealer"] is not None and o["first_dealer"] >= self.players:
            raise OptionError(f"first_dealer must be a seat 0..{self.players - 1}")
        #: Tokens a player needs to stake one deal.
        self.stake = STAKE_TOTAL * o["stake_unit"]
        if o["start_tokens"] < self.stake:
            raise OptionError(f"start_tokens must be at least the stake of one deal ({self.stake} tokens)")
        self.hand_size = C.HAND_SIZES[self.players]
        self.step = 1 if o["direction"] == "clockwise" else -1
        self.voluntary = bool(o["voluntary_stop"])
        self.manual_claim = bool(o["manual_claim"])
        #: The first deal this match plays.
        self.start_round: int = o["start_round"]

    # -- action space -----------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return NUM_ACTIONS

    @property
    def num_chance_outcomes(self) -> int:
        return DEALER_BASE + self.players

    def action_to_text(self, action: int) -> str:
        if isinstance(action, int) and 0 <= action < NUM_CARDS:
            return f"play {C.card_text(action)}"
        if action == PASS:
            return "pass"
        if action == CLAIM:
            return "claim"
        raise NotationError(f"{action!r} is not a Nain Jaune action id (0..{NUM_ACTIONS - 1})")

    def text_to_action(self, text: str) -> int:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return PASS
        if words == ["claim"]:
            return CLAIM
        try:
            if len(words) == 2 and words[0] == "play":
                return C.parse_card(words[1])
            if len(words) == 1:
                return C.parse_card(words[0])
        except ValueError as exc:
            raise NotationError(f"{text!r}: {exc}") from None
        raise NotationError(f"{text!r} is not a Nain Jaune action: write 'play 7D', 'pass' or 'claim'")

    # -- states -----------------------------------------------------------------
    def new_state(self, seed: int | None = None, position: str | None = None) -> NainJauneState:
        if position is not None:
            from_position = self.state_from_position(position, seed)
            assert isinstance(from_position, NainJauneState)
            return from_position
        state = NainJauneState(self, seed)
        if seed is not None:
            state._resolve_chance()
        return state

    def score_bounds(self) -> tuple[int, int]:
        """Tokens are conserved and a player pays at most what he holds: a seat ends
        with between none and every token of the table."""
        return 0, self.players * self.options["start_tokens"]

    def sample_round(self, view: View, rng: random.Random) -> tuple[NainJauneState, list[int]] | None:
        """A world at the deal's opening free start, and every play, pass and claim since.

        Policy-based inference replays it (see :mod:`.sampling`); a deal is the
        round, there is no chance event within its play.
        """
        from .sampling import sample_round

        if not isinstance(view, NainJauneView) or view.game != self:
            raise ValueError("sample_round needs a view of this Nain Jaune game")
        return sample_round(self, view, rng)

    def sample_state(self, view: View, rng: random.Random) -> NainJauneState:
        from .sampling import sample_world

        if not isinstance(view, NainJauneView) or view.game != self:
            raise ValueError("sample_state needs a view of this Nain Jaune game")
        return sample_world(self, view, rng)


class NainJauneState(State):
    """A Nain Jaune match in progress.  See the module docstring for the phases.

    Play bookkeeping: ``need`` is the rank the next card must have (0: a free
    start, any card); ``last`` the seat that played the latest card; ``asked``
    how many seats, counted from ``last`` in the direction of play, have been
    asked for ``need`` already.  ``to_act`` is the seat that must act.
    """

    __slots__ = (
        "_deck",
        "asked",
        "bonus_due",
        "boxes",
        "claim_box",
        "deal_count",
        "dealer",
        "dealt",
        "game",
        "hands",
        "history",
        "lacks",
        "last",
        "n",
        "need",
        "opener",
        "phase",
        "played",
        "round",
        "seed",
        "sheet",
        "start",
        "to_act",
        "tokens",
    )

    def __init__(self, game: NainJauneGame, seed: int | None) -> None:
        self.game: NainJauneGame = game
        self.seed = seed
        self.start = None
        self.history: list[int] = []
        self.n = n = game.players
        self.round = game.start_round
        self.tokens = [game.options["start_tokens"]] * n
        self.boxes = [0] * 5
        #: One line per finished deal.
        self.sheet: list[DealResult] = []
        first = game.options["first_dealer"]
        # first_dealer is deal 1's dealer; from start_round the deal has moved on as in a match
        # (with next_dealer=left: a deal winner cannot be known in advance).
        self.dealer = 0 if first is None else (first + game.step * (game.start_round - 1)) % n
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
        #: Per seat, a 13-bit mask of the ranks play has shown it lacks (bit r - 1).
        self.lacks = [0] * n
        #: The face-up pile of this deal: (seat, card) in play order.
        self.played: list[tuple[int, int]] = []
        #: Box of a board card waiting to be claimed (manual_claim), or -1.
        self.claim_box = -1
        #: Whether the sequence bonus may still be paid for the latest card.
        self.bonus_due = False
        self._deck: list[int] | None = None

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
        unit = game.options["stake_unit"]
        for seat in range(self.n):
            self.tokens[seat] -= game.stake
        for box, stake in enumerate(BOX_STAKES):
            self.boxes[box] += stake * unit * self.n

    # -- whose turn ---------------------------------------------------------------
    @property
    def current_player(self) -> int:
        phase = self.phase
        if phase == PLAY:
            return self.to_act
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def _deal_target(self) -> int:
        return (self.dealer + self.game.step * (1 + self.deal_count // self.game.hand_size)) % self.n

    # -- legal actions --------------------------------------------------------------
    def _playable(self) -> int:
        """Mask of the cards ``to_act`` may play now."""
        hand = self.hands[self.to_act]
        if self.need:
            return hand & RANK_MASK[self.need]
        if not self.played and self.game.options["first_card"] == "lowest":
            for r in range(1, C.RANKS + 1):
                if hand & RANK_MASK[r]:
                    return hand & RANK_MASK[r]
        return hand

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PLAY:
            seat = self.to_act
            if self.claim_box >= 0 and not self.hands[seat]:
                return [PASS, CLAIM]
            out = C.cards_in(self._playable())
            if self.need and (self.game.voluntary or not out):
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
            p = 1.0 / self.n
            return [(DEALER_BASE + seat, p) for seat in range(self.n)]
        if phase != DEAL:
            return []
        remaining = C.cards_in(C.FULL_MASK & ~self.dealt)
        p = 1.0 / len(remaining)
        return [(c, p) for c in remaining]

    def illegal_reason(self, action: int) -> str | None:
        if isinstance(action, bool) or not isinstance(action, int):
            return f"an action is an integer id, not {action!r}"
        phase = self.phase
        if phase == PLAY:
            if action in self.legal_actions():
                return None
            return self._refusal(action)
        if phase == OVER:
            return "the match is over"
        if phase == FIRST_DEALER:
            if DEALER_BASE <= action < DEALER_BASE + self.n:
                return None
            return "the first dealer must be drawn first"
        if not 0 <= action < NUM_CARDS:
            return f"{action!r} is not a card: a deal outcome is a card id 0..{NUM_CARDS - 1}"
        if self.dealt >> action & 1:
            return f"{C.card_text(action)} is already dealt"
        return None

    def _refusal(self, action: int) -> str:
        seat = self.to_act
        hand = self.hands[seat]
        pending = self.claim_box >= 0
        if action == CLAIM:
            return "there is no box to claim: claim right after playing a board card"
        if not 0 <= action < NUM_ACTIONS:
            return f"{action!r} is not an action id (0..{NUM_ACTIONS - 1})"
        if pending and not hand:
            return "you played your last card: 'claim' your box or 'pass'"
        need = self.need
        if action == PASS:
            if not need:
                return "you start a new run: play any card, passing is not allowed"
            held = C.hand_text(hand & RANK_MASK[need])
            return f"you hold the {C.rank_text(need)} ({held}): you must play it"
        name = C.card_text(action)
        if not hand >> action & 1:
            return f"you do not hold {name}"
        if need:
            text = f"the run needs a {C.rank_text(need)} (any suit), not {name}"
            if not self.game.voluntary and not hand & RANK_MASK[need]:
                text += ": you have none, 'pass'"
            return text
        low = self._playable()
        return f"the first card of the deal is your lowest: play {C.hand_text(low)}"

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
            self.hands[self._deal_target()] |= 1 << action
            self.deal_count += 1
            if self.deal_count == self.game.hand_size * self.n:
                self.phase = PLAY
                self.to_act = self.opener
                self._deck = None
        elif phase == FIRST_DEALER:
            # The draw names deal 1's dealer, as first_dealer does (start_round > 1).
            self.dealer = (action - DEALER_BASE + self.game.step * (self.round - 1)) % self.n
            self._start_deal()

    def _play(self, c: int) -> None:
        seat = self.to_act
        game = self.game
        rank = c % C.RANKS + 1
        if not self.played and game.options["first_card"] == "lowest":
            self.lacks[seat] |= (1 << (rank - 1)) - 1
        self.hands[seat] ^= 1 << c
        self.played.append((seat, c))
        self.last = seat
        self.asked = 0
        self.bonus_due = game.options["sequence_bonus"]
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
        if self.game.options["stuck_rule"] == "free_restart" or self.need == C.KING:
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

    def _seeded_outcome(self) -> int:
        if self.phase == FIRST_DEALER:
            return DEALER_BASE + seeded_rng(self.seed or 0, "first-dealer").randrange(self.n)
        if self._deck is None:
            # One shuffle per deal, from the seed and the deal number only; each
            # seat's cards are then dealt in ascending order so that a record
            # (which lists a seat's cards sorted) replays to the same history.
            deck = list(range(NUM_CARDS))
            seeded_rng(self.seed or 0, "deal", self.round).shuffle(deck)
            h = self.game.hand_size
            order: list[int] = []
            for i in range(self.n):
                order.extend(sorted(deck[i * h : (i + 1) * h]))
            self._deck = order
        return self._deck[self.deal_count]

    # -- notation -------------------------------------------------------------------
    def _chance_to_text(self, outcome: int) -> str:
        if self.phase == FIRST_DEALER:
            return f"dealer {outcome - DEALER_BASE}"
        return f"deal {self._deal_target()} {C.card_text(outcome)}"

    def _text_to_chance(self, text: str) -> int:
        words = text.strip().lower().split()
        phase = self.phase
        try:
            if phase == FIRST_DEALER and len(words) == 2 and words[0] == "dealer":
                seat = int(words[1])
                if not 0 <= seat < self.n:
                    raise ValueError(f"the dealer is a seat 0..{self.n - 1}")
                return DEALER_BASE + seat
            if phase == DEAL and len(words) == 3 and words[0] == "deal":
                target = self._deal_target()
                if int(words[1]) != target:
                    raise NotationError(
                        f"{text!r}: the next card of deal {self.round} goes to seat {target}, "
                        f"not seat {words[1]} (seat {target} has "
                        f"{self.hands[target].bit_count()} of {self.game.hand_size} cards)"
                    )
                return C.parse_card(words[2])
        except ValueError as exc:
            if isinstance(exc, NotationError):
                raise
            raise NotationError(f"{text!r}: {exc}") from None
        expected = {FIRST_DEALER: "dealer 2", DEAL: f"deal {self._deal_target()} 7D"}
        raise NotationError(
            f"{text!r} is not the chance event expected here "
            f"({PHASE_NAMES[phase]}: write e.g. {expected.get(phase, 'nothing: no chance event')!r})"
        )

    # -- results and information ----------------------------------------------------------
    def scores(self) -> list[int]:
        """Each seat's tokens (what the player has in front of him, stakes excluded)."""
        return list(self.tokens)

    def view(self, seat: int) -> NainJauneView:
        check_seat(self.game, seat)
        from .view import make_view

        return make_view(self, seat)

    def public_view(self) -> NainJauneView:
        from .view import make_view

        return make_view(self, 0, public=True)

    def redacted_history(self, seat: int) -> list[int | None]:
        from .view import redact_history

        return redact_history(self, seat)

    def clone(self) -> NainJauneState:
        new = NainJauneState.__new__(NainJauneState)
        new.game = self.game
        new.seed = self.seed
        new.start = self.start
        new.history = self.history.copy()
        new.n = self.n
        new.phase = self.phase
        new.round = self.round
        new.dealer = self.dealer
        new.opener = self.opener
        new.to_act = self.to_act
        new.hands = self.hands.copy()
        new.dealt = self.dealt
        new.deal_count = self.deal_count
        new.need = self.need
        new.last = self.last
        new.asked = self.asked
        new.lacks = self.lacks.copy()
        new.played = self.played.copy()
        new.tokens = self.tokens.copy()
        new.boxes = self.boxes.copy()
        new.claim_box = self.claim_box
        new.bonus_due = self.bonus_due
        new.sheet = self.sheet.copy()
        new._deck = self._deck
        return new

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def __str__(self) -> str:
        """The whole state as plain text (debugging; shows every hand): no rich, no renderer."""
        need = "free start" if not self.need else f"needs {C.rank_text(self.need)}"
        lines = [
            f"Le Nain Jaune, deal {self.round}, dealer {self.dealer}, phase {self.phase_name}, "
            f"to act {self.current_player}, {need}",
            "board: " + "  ".join(f"{C.card_text(C.BOARD[b])}={t}" for b, t in enumerate(self.boxes)),
        ]
        for seat in range(self.n):
            lines.append(f"  seat {seat}: {C.hand_text(self.hands[seat]) or '-'}  tokens {self.tokens[seat]}")
        if self.played:
            lines.append("  pile: " + " ".join(f"{s}:{C.card_text(c)}" for s, c in self.played))
        return "\n".join(lines)


from .view import NainJauneView  # noqa: E402  (the view module imports the state's constants)

__all__ = ["CLAIM", "PASS", "DealResult", "NainJauneGame", "NainJauneState", "NainJauneView"]
