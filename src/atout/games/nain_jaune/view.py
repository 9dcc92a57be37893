"""What one Nain Jaune seat may know: its view, and the redaction of the history.

Public at a real table: the face-up pile, the board and everyone's tokens, how
many cards each player holds, the run in progress, who said "six sans sept"
(hence which ranks a player has shown he lacks), the past deals' payments.
Hidden from a seat: the other hands, the undealt cards (out of play, never
shown), the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.game import BaseView, made_view, redact_by_replay
from ...core.viewdict import CardReader, Play, Reader, ints, read_head
from . import cards as C
from .rules import DEAL, PHASE_NAMES, DealResult
from .seen import view_fields

if TYPE_CHECKING:
    from .game import NainJauneGame, NainJauneState


#: Each card's text, by id (``C.card_text``), and each box's (its board card's), by box.
_CARD_TEXT: tuple[str, ...] = tuple(C.card_text(c) for c in range(C.NUM_CARDS))
_BOARD_TEXT: tuple[str, ...] = tuple(_CARD_TEXT[c] for c in C.BOARD)
#: The words of each rank mask met so far (``C.ranks_text(mask).split()``): most seats lack nothing.
_RANK_WORDS: dict[int, tuple[str, ...]] = {}


def _rank_words(mask: int) -> list[str]:
    """``C.ranks_text(mask).split()``, a new list each time (a view dict is its reader's to change)."""
    words = _RANK_WORDS.get(mask)
    if words is None:
        words = _RANK_WORDS[mask] = tuple(C.ranks_text(mask).split())
    return list(words)


@dataclass(frozen=True, eq=False, repr=False)  # View.__repr__: cards as text
class NainJauneView(BaseView):
    """A seat's knowledge.  Cards are card ids (see :mod:`.cards`)."""

    game: NainJauneGame = field(repr=False)
    deal: int
    dealer: int
    #: The seat that opened this deal (the dealer's left, or right counterclockwise).
    opener: int
    #: This seat's cards, sorted by id.
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    #: Rank the next card must have; None when the next card starts a new run.
    need: int | None
    #: The seat that played the latest card (the opener before the first card).
    last: int
    #: How many seats, from ``last`` on in the direction of play, have passed on ``need``.
    asked: int
    #: Per seat, a 13-bit mask of the ranks play has shown it lacks (bit r - 1).
    lacks: tuple[int, ...]
    #: The face-up pile of this deal: (seat, card) in play order.
    played: tuple[Play, ...]
    #: Box waiting to be claimed by ``last`` (manual_claim), or None.
    claim_box: int | None
    #: Tokens on each of the five boxes (10♦, J♣, Q♠, K♥, 7♦).
    boxes: tuple[int, ...]
    #: Each seat's tokens.
    tokens: tuple[int, ...]
    #: Whether the sequence bonus is still due for the latest card (house rule).
    bonus_due: bool
    sheet: tuple[DealResult, ...]

    @property
    def scores(self) -> tuple[int, ...]:
        return self.tokens

    def to_dict(self) -> dict[str, Any]:
        # Texts from tables (:data:`_CARD_TEXT`...): the server and every test write a view at
        # every move, and the texts of its cards, ranks and boxes never change (issue 48).
        text, board = _CARD_TEXT, _BOARD_TEXT
        return {
            **self.head_dict(),
            "deal": self.deal,
            "dealer": self.dealer,
            "opener": self.opener,
            "hand": [text[c] for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "need": None if self.need is None else C.rank_text(self.need),
            "last": self.last,
            "asked": self.asked,
            "lacks": [_rank_words(m) for m in self.lacks],
            "played": [[s, text[c]] for s, c in self.played],
            "claim_box": None if self.claim_box is None else board[self.claim_box],
            "boxes": dict(zip(board, self.boxes, strict=True)),
            "tokens": list(self.tokens),
            "bonus_due": self.bonus_due,
            "sheet": [
                {
                    "deal": r.deal,
                    "winner": r.winner,
                    "grand_opera": r.grand_opera,
                    "owed": list(r.owed),
                    "paid": list(r.paid),
                    "penalties": list(r.penalties),
                    "kept": [[board[b] for b in k] for k in r.kept],
                    "tokens": list(r.tokens),
                    "boxes": list(r.boxes),
                }
                for r in self.sheet
            ],
        }

    @classmethod
    def read_dict(cls, r: Reader, game: NainJauneGame) -> NainJauneView:
        """The fields of :meth:`to_dict`'s output (``View.from_dict`` checks the rest)."""
        n = game.players
        kit = CardReader(n, C.parse_card)
        ranks = {C.rank_text(k): k for k in range(1, C.RANKS + 1)}
        boxes = {C.card_text(c): b for b, c in enumerate(C.BOARD)}

        def rank(x: Reader) -> int:
            text = x.text()
            if text not in ranks:
                raise x.fail(f"{text!r} is not a rank ({', '.join(ranks)})")
            return ranks[text]

        def box(x: Reader) -> int:
            text = x.text()
            if text not in boxes:
                raise x.fail(f"{text!r} is not a board card ({', '.join(boxes)})")
            return boxes[text]

        def lacks(x: Reader) -> int:
            mask = 0
            for k in x.each(rank):
                mask |= 1 << (k - 1)
            return mask

        def board(x: Reader) -> tuple[int, ...]:
            return tuple(x[C.card_text(c)].integer() for c in C.BOARD)

        def result(x: Reader) -> DealResult:
            return DealResult(
                deal=x["deal"].integer(1),
                winner=x["winner"].integer(),
                grand_opera=x["grand_opera"].boolean(),
                owed=x["owed"].each(ints, n),
                paid=x["paid"].each(ints, n),
                penalties=x["penalties"].each(ints, n),
                kept=x["kept"].each(lambda k: k.each(box), n),
                tokens=x["tokens"].each(ints, n),
                boxes=x["boxes"].each(ints, len(C.BOARD)),
            )

        return cls(
            **read_head(r, game, PHASE_NAMES),
            deal=r["deal"].integer(1),
            dealer=r["dealer"].seat(n),
            opener=r["opener"].seat(n),
            hand=r["hand"].each(kit.card),
            hand_sizes=r["hand_sizes"].each(ints, n),
            need=r["need"].optional(rank),
            last=r["last"].integer(),
            asked=r["asked"].integer(0),
            lacks=r["lacks"].each(lacks, n),
            played=r["played"].each(kit.played),
            claim_box=r["claim_box"].optional(box),
            boxes=board(r["boxes"]),
            tokens=r["tokens"].each(ints, n),
            bonus_due=r["bonus_due"].boolean(),
            sheet=r["sheet"].each(result),
        )


def make_view(state: NainJauneState, seat: int, public: bool = False) -> NainJauneView:
    """Seat ``seat``'s view; ``public``: a spectator's, oriented as ``seat`` but holding nothing."""
    return made_view(NainJauneView, view_fields(state, seat, public))  # compiled: BaseView.made


def redact_history(state: NainJauneState, seat: int) -> list[int | None]:
    """``state.history`` with the cards dealt to other seats set to None.

    Everything else (the first dealer, every card played) is public; the
    replay (:func:`~atout.core.game.redact_by_replay`) says to whom each card
    was dealt.
    """
    return redact_by_replay(state, lambda replay, _: replay.phase == DEAL and replay.deal_target() != seat)
