"""Wizard's observation and information-state tensors (layout: src/atout/i18n/en/rules/wizard.md, "Tensors").

Seats are **relative**: block entry 0 is the viewing seat, 1 the seat on its
left, and so on, so one policy serves every seat.  Every value lies in [0, 1]
except the scores, scaled into [-1, 1] by the game's score bounds.  Built from
the view only: the tensor cannot hold what the seat may not know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.tensor import ONE, TensorBuffer, cells, one_hot, seat_hot
from . import cards as C

if TYPE_CHECKING:
    from .game import WizardGame
    from .view import WizardView

# The module's constants are ``Final``: compiled, a ``Final`` is a C constant, any other
# module global a dictionary lookup at each use (the encoder reads them in its loops).
K: Final = C.NUM_KINDS
#: Phase names in the order of the phase one-hot.
PHASES: Final = ("first-dealer", "deal", "turn-up", "trump", "bid", "play", "over")


def blocks(game: WizardGame, information_state: bool) -> list[tuple[str, int]]:
    """The named blocks of the layout, in order, with their sizes."""
    n, r = game.players, game.full_rounds
    out = [
        ("phase", len(PHASES)),
        ("round", r),
        ("dealer", n),
        ("to_act", n),
        ("hand", K),
    ]
    if game.options["clairvoyance"]:
        out.append(("seen_hands", (n - 1) * K))
    out += [
        ("turned", K),
        ("trump", 5),
        ("bids", n * (r + 2)),
        ("tricks_won", n * (r + 1)),
        ("trick", n * K),
        ("leader", n),
        ("scores", n),
    ]
    if information_state:
        out.append(("past_tricks", r * n * K))
    return out


def tensor_size(game: WizardGame, information_state: bool) -> int:
    return sum(size for _, size in blocks(game, information_state))


def _card(tensor: TensorBuffer, base: int, kind: int) -> None:
    # Ordinary cards are unique; Wizards and Jesters come four of a kind.
    tensor[base + kind] += 1.0 if kind < C.WIZARD else 0.25


#: A card kind's weight in a card block (see :func:`_card`), by kind.  A ``tuple[Any, ...]``:
#: compiled, its floats are stored as they are, not unboxed and boxed again at each store
#: (see :data:`atout.core.tensor.ONE`).
WEIGHT: Final[tuple[Any, ...]] = tuple(1.0 if kind < C.WIZARD else 0.25 for kind in range(K))


def _constants(game: WizardGame) -> tuple[float, int, int, bool]:
    """(score scale, observation size, information-state size, clairvoyance), computed once per game."""
    cached: tuple[float, int, int, bool] | None = game.cache.get("_tensor_constants")
    if cached is None:
        low, high = game.score_bounds()
        cached = (
            float(max(-low, high)),
            tensor_size(game, False),
            tensor_size(game, True),
            bool(game.options["clairvoyance"]),
        )
        game.cache["_tensor_constants"] = cached
    return cached


def encode(view: WizardView, information_state: bool, out: TensorBuffer | None = None) -> TensorBuffer:
    """The tensor of ``view`` (see :func:`blocks` for the order), written into ``out`` if given.

    ``out`` must be zeroed and of the layout's size (a numpy array, say: the adapters
    write straight into their float32 buffers instead of converting a list).  The
    loops are written out (seat offsets from a table, card weights from
    :data:`WEIGHT`): this runs at every step of every research adapter.
    """
    game = view.game
    n, r, me = game.players, game.full_rounds, view.seat
    scale, obs_size, info_size, clairvoyance = _constants(game)
    tensor: TensorBuffer = [0.0] * (info_size if information_state else obs_size) if out is None else out
    #: Relative seat of each seat: 0 for the viewer, 1 for the seat on its left...
    rel = [(seat - me) % n for seat in range(n)]
    weight = WEIGHT
    # ``tensor[cell[i]] = ONE`` rather than ``tensor[i] = 1.0``: no int nor float boxed at each
    # store (see :func:`atout.core.tensor.cells`, issue 48).
    cell = cells(info_size if information_state else obs_size)

    phase = view.phase  # read once: a view is a Python object, a read a dictionary look-up
    at = one_hot(tensor, 0, PHASES.index(phase), len(PHASES))
    tensor[cell[at + view.round - 1]] = ONE
    at += r
    at = one_hot(tensor, at, rel[view.dealer], n)
    at = seat_hot(tensor, at, rel, view.current_player)
    for kind in view.hand:
        if kind < C.WIZARD:  # one copy: its cell is still 0 (a read saved)
            tensor[cell[at + kind]] = ONE
        else:
            tensor[at + kind] += 0.25
    at += K
    if clairvoyance:
        for seat, hand in enumerate(view.seen_hands or ()):
            if hand is not None:
                base = at + (rel[seat] - 1) * K
                for kind in hand:
                    tensor[base + kind] += weight[kind]
        at += (n - 1) * K
    if view.turned is not None:
        tensor[cell[at + view.turned]] = ONE
    at += K
    if view.trump is not None:
        tensor[cell[at + view.trump]] = ONE
    elif phase in ("bid", "play", "over"):
        tensor[cell[at + 4]] = ONE  # no trump this round
    at += 5
    has_bid = view.has_bid
    for seat, bid in enumerate(view.bids):
        if bid is not None:
            tensor[cell[at + rel[seat] * (r + 2) + bid]] = ONE
        elif has_bid[seat]:
            tensor[cell[at + rel[seat] * (r + 2) + r + 1]] = ONE  # bid, still secret
    at += n * (r + 2)
    for seat, won in enumerate(view.tricks_won):
        tensor[cell[at + rel[seat] * (r + 1) + won]] = ONE
    at += n * (r + 1)
    for seat, kind in view.trick:  # a card a seat: each cell written once, set rather than added to
        tensor[cell[at + rel[seat] * K + kind]] = weight[kind]
    at += n * K
    at = one_hot(tensor, at, rel[view.leader], n)
    for seat, score in enumerate(view.scores):
        if score:  # the buffer is zeroed: a zero is not written (a cell write is the dear part)
            tensor[at + rel[seat]] = score / scale
    at += n
    if information_state:
        for cards, _winner in view.tricks:
            for seat, kind in cards:
                tensor[cell[at + rel[seat] * K + kind]] = weight[kind]
            at += n * K
    return tensor
