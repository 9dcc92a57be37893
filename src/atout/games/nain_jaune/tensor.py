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

from typing import TYPE_CHECKING, Final

from ...core.bits import bits_of
from ...core.tensor import TensorBuffer, one_hot, seat_hot
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
    #: Relative seat of each seat, in the order of play (0: the viewer).
    rel = [((seat - me) * step) % n for seat in range(n)]

    at = one_hot(tensor, 0, PHASES.index(view.phase), len(PHASES))
    tensor[at] = 1.0 - 1.0 / view.deal
    if limit is not None:
        tensor[at + 1] = min(view.deal, limit) / limit
    at += 2
    at = one_hot(tensor, at, rel[view.dealer], n)
    at = one_hot(tensor, at, rel[view.opener], n)
    at = seat_hot(tensor, at, rel, view.current_player)
    for c in view.hand:
        tensor[at + c] = 1.0
    at += K
    # Zero values are not written (the buffer is zeroed; no value here is ever -0.0): a cell
    # write costs more than the rest of its loop step (issue 48).
    for seat, size in enumerate(view.hand_sizes):
        if size:
            tensor[at + rel[seat]] = size / game.hand_size
    at += n
    if view.need is not None:
        tensor[at + view.need - 1] = 1.0
    elif view.phase == "play":
        tensor[at + R] = 1.0  # the next card starts a new run
    at += R + 1
    at = one_hot(tensor, at, rel[view.last], n)
    tensor[at + view.asked] = 1.0
    at += n
    for _seat, c in view.played:
        tensor[at + c] = 1.0
    at += K
    for seat, mask in enumerate(view.lacks):
        if mask:
            base = at + rel[seat] * R
            for r in bits_of(mask):
                tensor[base + r] = 1.0
    at += n * R
    if view.claim_box is not None:
        tensor[at + view.claim_box] = 1.0
    at += 5
    legal = view.legal_actions
    if PASS in legal:
        tensor[at] = 1.0
    if CLAIM in legal:
        tensor[at + 1] = 1.0
    at += 2
    if view.bonus_due:
        tensor[at] = 1.0
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
        for seat, c in view.played:
            tensor[at + rel[seat] * K + c] = 1.0
        at += n * K
        for i, (_seat, c) in enumerate(view.played):
            tensor[at + c] = (i + 1) / K
        at += K
    return tensor
