"""Le Malin's observation and information-state tensors (layout: src/atout/i18n/en/rules/le-malin.md, "Tensors").

Seats are **relative**: block entry 0 is the viewing seat, 1 the seat on its
left, and so on, so one policy serves every seat.  Every value lies in [0, 1]
except card values (declared and current, divided by 100: the Wish ranges
-100..100 and no Malheur card takes a value beyond that) and the scores
(scaled into [-1, 1] by the game's score bounds).  Built from the view only:
the tensor cannot hold what the seat may not know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ...core.tensor import TensorBuffer, one_hot, seat_hot
from . import cards as C
from .cards import Value
from .rules import malheur_type

if TYPE_CHECKING:
    from .game import MalinGame
    from .view import MalinView, TableCard

# The constants are ``Final``: compiled, a C constant, where any other module global is a
# lookup in the module's dictionary at each use (the encoder reads them in its loops).
#: Own hand and set-aside card: one entry per physical card (numbers 1..34, Twin, second Twin, Wish).
S: Final = C.NUM_SLOTS
#: A card on the table: one entry per card kind (numbers 1..34, Twin, Wish) + declared + current value.
K: Final = C.NUM_KINDS
TABLE: Final = K + 2
M: Final = C.NUM_MALHEURS
#: Phase names in the order of the phase one-hot (as in the view).
PHASES: Final = (
    "first-dealer", "gain", "remove", "deal", "window", "react", "steal", "bid", "play",
    "redeclare", "over",
)  # fmt: skip
#: Malheur window names in the order of the window one-hot ("" = no window open).
WINDOWS: Final = ("", "before bidding", "after a card")
#: Card values (the Wish's -100..100, a Twin reversed by 666: 53, ...) are divided by this.
VALUE_SCALE: Final = 100.0


def max_hands(game: MalinGame) -> int:
    """An upper bound on the hands of a match: the sum rule makes somebody lose a point
    every hand, and the match ends as soon as a score reaches 0."""
    start: int = game.options["start_score"]
    return game.players * (start - 1) + 1


def blocks(game: MalinGame, information_state: bool) -> list[tuple[str, int]]:
    """The named blocks of the layout, in order, with their sizes."""
    n, h = game.players, game.hand_size
    bids = max(h, 8) + 1
    out = [
        ("phase", len(PHASES)),
        ("hand_number", 1),
        ("dealer", n),
        ("to_act", n),
        ("hand", S),
        ("removed", S),
        ("hand_sizes", n),
        ("bids", n * bids),
        ("tricks_won", n * (h + 1)),
        ("trick", n * TABLE),
        ("leader", n),
        ("last_actor", n),
        ("wish_modified", 1),
        ("scores", n),
    ]
    if game.fun:
        out += [
            ("malheur", M),
            ("malheur_counts", n),
            ("malheur_pile", 1),
            ("malheur_discard", M),
            ("window", len(WINDOWS)),
            ("passed", n),
            ("pending_caster", n),
            ("pending_card", M),
            ("pending_targets", n),
            ("pending_asking", n),
            ("pending_redirected", n),
        ]
    if information_state:
        out.append(("past_tricks", h * (n * TABLE + n)))
        if game.fun:
            out.append(("malheur_log", n * M))
    return out


def tensor_size(game: MalinGame, information_state: bool) -> int:
    return sum(size for _, size in blocks(game, information_state))


def _slots(tensor: TensorBuffer, base: int, kinds: tuple[int, ...] | list[int]) -> None:
    # Physical cards: a number at its kind's entry, the first Twin at entry 34, the second at
    # 35, the Wish at 36 (the slots of ``C.mask_of``, written card by card: no mask built).
    twins = 0
    for kind in kinds:
        if kind == C.TWIN:
            if twins == 2:
                C.mask_of(kinds)  # a third Twin: raises as the mask of these cards would
            tensor[base + C.TWIN + twins] = 1.0
            twins += 1
        elif kind == C.WISH:
            tensor[base + C.WISH_SLOT] = 1.0
        else:
            tensor[base + kind] = 1.0


def _value(value: Value) -> float:
    return max(-1.0, min(1.0, float(value) / VALUE_SCALE))


def _table(tensor: TensorBuffer, base: int, rel: int, card: TableCard) -> None:
    _seat, kind, declared, value = card
    at = base + rel * TABLE
    tensor[at + kind] = 1.0
    if declared:  # the buffer is zeroed: write only what is not
        tensor[at + K] = _value(declared)
    if value:
        tensor[at + K + 1] = _value(value)


def encode(view: MalinView, information_state: bool, out: TensorBuffer | None = None) -> TensorBuffer:
    """The tensor of ``view`` (see :func:`blocks` for the order), written into ``out`` if given.

    ``out`` must be zeroed and of the layout\'s size (a numpy array, say: the adapters
    write straight into their float32 buffers instead of converting a list).
    """
    game = view.game
    n, h, me = game.players, game.hand_size, view.seat
    bids_size = max(h, 8) + 1
    constants: tuple[tuple[int, int], float, int] | None = game.cache.get("_tensor_constants")
    if constants is None:  # once per game: this runs at every step of the research adapters
        low, high = game.score_bounds()
        constants = (
            (tensor_size(game, False), tensor_size(game, True)),
            float(max(-low, high)),
            max_hands(game),
        )
        game.cache["_tensor_constants"] = constants
    sizes, scale, hands = constants
    tensor: TensorBuffer = [0.0] * sizes[information_state] if out is None else out
    #: Relative seat of each seat: 0 for the viewer, 1 for the seat on its left...
    rel = [(seat - me) % n for seat in range(n)]

    at = one_hot(tensor, 0, PHASES.index(view.phase), len(PHASES))
    tensor[at] = min(1.0, view.round / hands)
    at += 1
    at = seat_hot(tensor, at, rel, view.dealer)
    at = seat_hot(tensor, at, rel, view.current_player)
    _slots(tensor, at, view.hand)
    at += S
    if view.removed is not None:
        _slots(tensor, at, [view.removed])
    at += S
    for seat, size in enumerate(view.hand_sizes):
        tensor[at + rel[seat]] = size / h
    at += n
    for seat, bid in enumerate(view.bids):
        if bid is not None:
            tensor[at + rel[seat] * bids_size + bid] = 1.0
    at += n * bids_size
    for seat, won in enumerate(view.tricks_won):
        tensor[at + rel[seat] * (h + 1) + won] = 1.0
    at += n * (h + 1)
    for card in view.trick:
        _table(tensor, at, rel[card[0]], card)
    at += n * TABLE
    at = seat_hot(tensor, at, rel, view.leader)
    at = seat_hot(tensor, at, rel, view.last_actor)
    tensor[at] = 1.0 if view.wish_modified else 0.0
    at += 1
    for seat, score in enumerate(view.scores):
        tensor[at + rel[seat]] = max(-1.0, min(1.0, score / scale))
    at += n
    if game.fun:
        copies = game.copies
        total = sum(copies)
        for t, count in enumerate(view.malheur):
            if copies[t]:
                tensor[at + t] = min(1.0, count / copies[t])
        at += M
        for seat, count in enumerate(view.malheur_counts):
            if total:
                tensor[at + rel[seat]] = min(1.0, count / total)
        at += n
        if total:
            tensor[at] = min(1.0, view.malheur_pile / total)
        at += 1
        for t, count in enumerate(view.malheur_discard):
            if copies[t]:
                tensor[at + t] = min(1.0, count / copies[t])
        at += M
        tensor[at + WINDOWS.index(view.window)] = 1.0
        at += len(WINDOWS)
        for seat in view.passed:
            tensor[at + rel[seat]] = 1.0
        at += n
        pending = view.pending
        if pending is not None:
            caster, mtype, targets, asking, redirected = pending
            seat_hot(tensor, at, rel, caster)
            tensor[at + n + mtype] = 1.0
            for seat in targets:
                tensor[at + n + M + rel[seat]] = 1.0
            if 0 <= asking < len(targets):
                tensor[at + 2 * n + M + rel[targets[asking]]] = 1.0
            for seat, flag in zip(targets, redirected, strict=False):
                if flag:
                    tensor[at + 3 * n + M + rel[seat]] = 1.0
        at += 4 * n + M
    if information_state:
        width = n * TABLE + n
        for t, (cards, winner) in enumerate(view.tricks[:h]):
            for card in cards:
                _table(tensor, at + t * width, rel[card[0]], card)
            seat_hot(tensor, at + t * width + n * TABLE, rel, winner)
        at += h * width
        if game.fun:
            copies = game.copies
            for seat, action in view.malheur_log:
                mtype = malheur_type(action)
                if copies[mtype]:
                    cell = at + rel[seat] * M + mtype
                    tensor[cell] = min(1.0, tensor[cell] + 1.0 / copies[mtype])
            at += n * M
    return tensor
