"""Le Nain Jaune's observation and information-state tensors (layout: src/atout/i18n/en/rules/nain-jaune.md, "Tensors").

Seats are **relative** and follow the direction of play: block entry 0 is the
viewing seat, 1 the next seat to play after it (its left, clockwise; its right
with ``direction="counterclockwise"``), and so on, so one policy serves every
seat and both directions.  Every value lies in [0, 1]: token counts are
divided by the tokens in play (players × ``start_tokens``, a constant of the
match: stakes, payments and penalties only move tokens around), the deal
number is squashed.  Built from the view only: the tensor cannot hold what
the seat may not know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...core.bits import bits_of
from ...core.tensor import ONE, TensorBuffer, cells, one_hot, seat_hot
from . import cards as C
from .rules import CLAIM, PASS, PHASE_NAMES

if TYPE_CHECKING:
    from .game import NainJauneGame
    from .view import NainJauneView

# ``Final``: compiled, a C constant; any other module global is a lookup in the module's
# dictionary at each use, and the encoder reads these in its loops (issue 48).
K: Final = C.NUM_CARDS
R: Final = C.RANKS
#: Phase names in the order of the phase one-hot.
PHASES: Final = PHASE_NAMES
#: ``pile_order``'s value for the card played ``i``-th (from 0): ``(i + 1) / K``, boxed once
#: (a ``tuple[Any, ...]``: compiled, the floats are stored as they are, not unboxed and boxed
#: again at each store; see :data:`atout.core.tensor.ONE`).
ORDER: Final[tuple[Any, ...]] = tuple((i + 1) / K for i in range(K))


def blocks(game: NainJauneGame, information_state: bool) -> list[tuple[str, int]]:
    """The named blocks of the layout, in order, with their sizes."""
    n = game.players
    out = [
        ("phase", len(PHASES)),
        ("deal", 2),
        ("dealer", n),
        ("opener", n),
        ("to_act", n),
        ("hand", K),
        ("hand_sizes", n),
        ("need", R + 1),
        ("last", n),
        ("asked", n),
        ("pile", K),
        ("lacks", n * R),
        ("claim_box", 5),
        ("decision", 2),
        ("bonus_due", 1),
        ("boxes", 5),
        ("tokens", n),
    ]
    if information_state:
        out += [("played_by", n * K), ("pile_order", K)]
    return out


def tensor_size(game: NainJauneGame, information_state: bool) -> int:
    return sum(size for _, size in blocks(game, information_state))


def encode(view: NainJauneView, information_state: bool, out: TensorBuffer | None = None) -> TensorBuffer:
    """The tensor of ``view`` (see :func:`blocks` for the order), written into ``out`` if given.

    ``out`` must be zeroed and of the layout\'s size (a numpy array, say: the adapters
    write straight into their float32 buffers instead of converting a list).
    """
    game = view.game
    n, me, step = game.players, view.seat, game.step
    constants: tuple[tuple[int, int], int | None, float] | None = game.cache.get("_tensor_constants")
    if constants is None:  # once per game: this runs at every step of the research adapters
        constants = game.cache["_tensor_constants"] = (
            (tensor_size(game, False), tensor_size(game, True)),
            game.options["max_deals"],
            float(n * game.options["start_tokens"]),
        )
    sizes, limit, total = constants
    tensor: TensorBuffer = [0.0] * sizes[information_state] if out is None else out
    # ``tensor[cell[i]] = ONE`` rather than ``tensor[i] = 1.0``: no int nor float boxed at each
    # store (see :func:`atout.core.tensor.cells`); an observation stores ~100 cells (issue 48).
    cell = cells(sizes[information_state])
    #: Relative seat of each seat, in the order of play (0: the viewer).
    rel = [((seat - me) * step) % n for seat in range(n)]

    # Each of the view's fields read once (a view is a Python object: a read is a dictionary
    # look-up, not a C field).
    phase, deal, need, claim_box = view.phase, view.deal, view.need, view.claim_box
    at = one_hot(tensor, 0, PHASES.index(phase), len(PHASES))
    tensor[at] = 1.0 - 1.0 / deal
    if limit is not None:
        tensor[at + 1] = min(deal, limit) / limit
    at += 2
    at = one_hot(tensor, at, rel[view.dealer], n)
    at = one_hot(tensor, at, rel[view.opener], n)
    at = seat_hot(tensor, at, rel, view.current_player)
    for c in view.hand:
        tensor[cell[at + c]] = ONE
    at += K
    # Zero values are not written (the buffer is zeroed; no value here is ever -0.0): a cell
    # write costs more than the rest of its loop step (issue 48).
    for seat, size in enumerate(view.hand_sizes):
        if size:
            tensor[at + rel[seat]] = size / game.hand_size
    at += n
    if need is not None:
        tensor[cell[at + need - 1]] = ONE
    elif phase == "play":
        tensor[cell[at + R]] = ONE  # the next card starts a new run
    at += R + 1
    at = one_hot(tensor, at, rel[view.last], n)
    tensor[cell[at + view.asked]] = ONE
    at += n
    played = view.played
    for _seat, c in played:
        tensor[cell[at + c]] = ONE
    at += K
    for seat, mask in enumerate(view.lacks):
        if mask:
            base = at + rel[seat] * R
            for r in bits_of(mask):
                tensor[cell[base + r]] = ONE
    at += n * R
    if claim_box is not None:
        tensor[cell[at + claim_box]] = ONE
    at += 5
    legal = view.legal_actions
    if PASS in legal:
        tensor[cell[at]] = ONE
    if CLAIM in legal:
        tensor[cell[at + 1]] = ONE
    at += 2
    if view.bonus_due:
        tensor[cell[at]] = ONE
    at += 1
    for box, tokens in enumerate(view.boxes):
        if tokens:
            tensor[at + box] = tokens / total
    at += 5
    for seat, tokens in enumerate(view.tokens):
        if tokens:
            tensor[at + rel[seat]] = tokens / total
    at += n
    if information_state:
        for seat, c in played:
            tensor[cell[at + rel[seat] * K + c]] = ONE
        at += n * K
        for i, (_seat, c) in enumerate(played):
            tensor[cell[at + c]] = ORDER[i]
        at += K
    return tensor
