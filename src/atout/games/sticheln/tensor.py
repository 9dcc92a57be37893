"""Sticheln's observation and information-state tensors (layout: src/atout/i18n/en/rules/sticheln.md, "Tensors").

Seats are **relative**: block entry 0 is the viewing seat, 1 the seat on its
left, and so on, so one policy serves every seat.  Every value lies in [0, 1]
except the running hand points and the scores, scaled into [-1, 1] by a bound
on what one hand can bring (:func:`hand_bound`).  Built from the view only:
the tensor cannot hold what the seat may not know.  Card ids are those of the
configuration's deck (``colour * values + value``), so the card blocks' size
depends on the player count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ...core.bits import bits_of
from ...core.tensor import TensorBuffer, one_hot, seat_hot
from .rules import PHASE_NAMES

if TYPE_CHECKING:
    from .game import StichelnGame
    from .view import StichelnView

#: Phase names in the order of the phase one-hot (those of ``view.phase``).  ``Final``: compiled,
#: a C constant rather than a lookup in the module's dictionary at each use.
PHASES: Final = PHASE_NAMES


def blocks(game: StichelnGame, information_state: bool) -> list[tuple[str, int]]:
    """The named blocks of the layout, in order, with their sizes."""
    n, deck = game.players, game.deck
    d, c = deck.size, deck.colours
    out = [
        ("phase", len(PHASES)),
        ("hand_no", game.num_hands),
        ("dealer", n),
        ("to_act", n),
        ("leader", n),
        ("hand", d),
        ("pain_laid", n * game.pain_count),
        ("pains", n * d),
        ("trick", n * d),
        ("led_colour", c),
        ("taken", n * c),
        ("taken_value", n * c),
        ("hand_points", n),
        ("scores", n),
    ]
    if information_state:
        t = game.tricks_per_hand
        out += [("past_tricks", t * n * d), ("past_winners", t * n)]
    return out


def tensor_size(game: StichelnGame, information_state: bool) -> int:
    return sum(size for _, size in blocks(game, information_state))


def hand_bound(game: StichelnGame) -> int:
    """A bound on the absolute value of one seat's score for one hand.

    At best a seat takes every card played (+1 each: players × tricks); at
    worst its handicap cards and the captured cards of its handicap colour(s)
    cost every value of those colours (handicap cards × the sum of one colour's
    values); ``gentle`` and ``pain_card_only`` only lessen the cost.
    """
    values = game.deck.values
    return max(game.players * game.tricks_per_hand, game.pain_count * values * (values - 1) // 2)


def led_colour(game: StichelnGame, trick: tuple[tuple[int, int], ...]) -> int | None:
    """Colour led in the trick in progress (None: no card yet, or only zeros under first_nonzero)."""
    deck = game.deck
    for _seat, kind in trick:
        if game.zero_sets_lead or deck.value_of[kind]:
            return deck.colour_of[kind]
    return None


def _constants(game: StichelnGame) -> tuple[tuple[int, int], int]:
    """((observation size, information-state size), :func:`hand_bound`), computed once per game."""
    cached: tuple[tuple[int, int], int] | None = game.cache.get("_tensor_constants")
    if cached is None:
        cached = ((tensor_size(game, False), tensor_size(game, True)), hand_bound(game))
        game.cache["_tensor_constants"] = cached
    return cached


def encode(view: StichelnView, information_state: bool, out: TensorBuffer | None = None) -> TensorBuffer:
    """The tensor of ``view`` (see :func:`blocks` for the order), written into ``out`` if given.

    ``out`` must be zeroed and of the layout\'s size (a numpy array, say: the adapters
    write straight into their float32 buffers instead of converting a list).
    """
    game = view.game
    deck = game.deck
    n, me = game.players, view.seat
    d, c, v = deck.size, deck.colours, deck.values
    pain_count = game.pain_count
    colour_of, value_of = deck.colour_of, deck.value_of
    sizes, bound = _constants(game)
    tensor: TensorBuffer = [0.0] * sizes[information_state] if out is None else out
    #: Relative seat of each seat: 0 for the viewer, 1 for the seat on its left...
    rel = [(seat - me) % n for seat in range(n)]

    at = one_hot(tensor, 0, PHASES.index(view.phase), len(PHASES))
    tensor[at + view.round - 1] = 1.0
    at += game.num_hands
    at = one_hot(tensor, at, rel[view.dealer], n)
    at = seat_hot(tensor, at, rel, view.current_player)
    at = one_hot(tensor, at, rel[view.leader], n)
    for kind in view.hand:
        tensor[at + kind] = 1.0
    at += d
    for seat, laid in enumerate(view.pain_laid):
        for j in range(laid):  # thermometer: entry j once j + 1 cards are laid
            tensor[at + rel[seat] * pain_count + j] = 1.0
    at += n * pain_count
    for seat, pains in enumerate(view.pains):
        for kind in pains or ():
            tensor[at + rel[seat] * d + kind] = 1.0
    at += n * d
    for seat, kind in view.trick:
        tensor[at + rel[seat] * d + kind] = 1.0
    at += n * d
    lead = led_colour(game, view.trick)
    if lead is not None:
        tensor[at + lead] = 1.0
    at += c
    # Cards taken this hand, per seat (void tricks are taken by nobody).
    captured = [0] * n
    for cards, winner in view.tricks:
        if winner >= 0:
            taken = captured[winner]
            for _seat, kind in cards:
                taken |= 1 << kind
            captured[winner] = taken
    colour_sum = v * (v - 1) // 2
    for seat, mask in enumerate(captured):
        if not mask:
            continue
        counts, values = [0] * c, [0] * c
        for kind in bits_of(mask):  # not ``deck.kinds_in``: a static method, a Python-level call
            colour = colour_of[kind]
            counts[colour] += 1
            values[colour] += value_of[kind]
        base = at + rel[seat] * c
        for colour in range(c):
            if counts[colour]:  # the buffer is zeroed: write only what is not
                tensor[base + colour] = counts[colour] / v
                tensor[base + n * c + colour] = values[colour] / colour_sum
    at += 2 * n * c
    for seat, pains in enumerate(view.pains):
        if pains is not None:  # the handicap is known: this hand's points so far are too
            tensor[at + rel[seat]] = game.hand_score(pains, captured[seat]) / bound
    at += n
    scale = float(game.num_hands * bound)
    for seat, score in enumerate(view.scores):
        if score:  # the buffer is zeroed: a zero is not written (a cell write is the dear part)
            tensor[at + rel[seat]] = score / scale
    at += n
    if information_state:
        t = game.tricks_per_hand
        winners = at + t * n * d
        for i, (cards, winner) in enumerate(view.tricks):
            for seat, kind in cards:
                tensor[at + (i * n + rel[seat]) * d + kind] = 1.0
            if winner >= 0:
                tensor[winners + i * n + rel[winner]] = 1.0
        at = winners + t * n
    return tensor
