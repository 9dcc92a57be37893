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

from ...core.tensor import ONE, TensorBuffer, cells, one_hot, seat_hot
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
    # ``tensor[cell[i]] = ONE`` rather than ``tensor[i] = 1.0``: no int nor float boxed at each
    # store (see :func:`atout.core.tensor.cells`, issue 48).
    cell = cells(sizes[information_state])
    #: Relative seat of each seat: 0 for the viewer, 1 for the seat on its left...
    rel = [(seat - me) % n for seat in range(n)]

    at = one_hot(tensor, 0, PHASES.index(view.phase), len(PHASES))
    tensor[cell[at + view.round - 1]] = ONE
    at += game.num_hands
    at = one_hot(tensor, at, rel[view.dealer], n)
    at = seat_hot(tensor, at, rel, view.current_player)
    at = one_hot(tensor, at, rel[view.leader], n)
    for kind in view.hand:
        tensor[cell[at + kind]] = ONE
    at += d
    for seat, laid in enumerate(view.pain_laid):
        for j in range(laid):  # thermometer: entry j once j + 1 cards are laid
            tensor[cell[at + rel[seat] * pain_count + j]] = ONE
    at += n * pain_count
    for seat, pains in enumerate(view.pains):
        for kind in pains or ():
            tensor[cell[at + rel[seat] * d + kind]] = ONE
    at += n * d
    for seat, kind in view.trick:
        tensor[cell[at + rel[seat] * d + kind]] = ONE
    at += n * d
    lead = led_colour(game, view.trick)
    if lead is not None:
        tensor[cell[at + lead]] = ONE
    at += c
    # One pass over the hand's finished tricks (issue 48: the encoder was a third of a Sticheln
    # AEC step, and it went over them three times): the cards each seat took, as a mask (its
    # points) and as counts and values per colour (void tricks are taken by nobody), and, for
    # the information state, the tricks themselves, in their block after the scores.
    captured = [0] * n
    counts, values = [0] * (n * c), [0] * (n * c)
    past = at + 2 * n * c + 2 * n
    winners = past + game.tricks_per_hand * n * d
    for i, (cards, winner) in enumerate(view.tricks):
        if winner >= 0:
            taken, row = captured[winner], winner * c
            for _seat, kind in cards:
                taken |= 1 << kind
                colour = row + colour_of[kind]
                counts[colour] += 1
                values[colour] += value_of[kind]
            captured[winner] = taken
        if information_state:
            for seat, kind in cards:
                tensor[cell[past + (i * n + rel[seat]) * d + kind]] = ONE
            if winner >= 0:
                tensor[cell[winners + i * n + rel[winner]]] = ONE
    colour_sum = v * (v - 1) // 2
    for seat in range(n):
        if not captured[seat]:
            continue
        row, base = seat * c, at + rel[seat] * c
        for colour in range(c):
            count = counts[row + colour]
            if count:  # the buffer is zeroed: write only what is not
                tensor[base + colour] = count / v
                tensor[base + n * c + colour] = values[row + colour] / colour_sum
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
        at = winners + game.tricks_per_hand * n
    return tensor
