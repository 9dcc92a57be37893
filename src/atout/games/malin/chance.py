"""Le Malin's chance events: each chance phase's outcomes and their odds, the seeded draw, the text.

The chance phases are the first dealer's draw, the card put aside and the deal (one
shuffle a hand, from the seed and the hand number only, so that a record replays to the
same history), and the jeu fun's Malheur cards drawn and stolen.  Apart from the state
machine (``game.py``), whose ``chance_outcomes``, ``_seeded_outcome`` and
``_chance_to_text`` are these, because what chance may do and how a seed draws it is
read on its own; the reader of the chance text is the state's ``_chance_event``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import rng as rand
from ...core.game import seeded_rng
from . import cards as C
from .cards import NUM_MALHEURS, TWIN, WISH
from .rules import C_DRAW, C_STEAL, DEAL, FIRST_DEALER, GAIN, REMOVE, STEAL

if TYPE_CHECKING:
    from .game import MalinState


def outcomes(state: MalinState) -> list[tuple[int, float]]:
    """The chance outcomes of the phase ``state`` is in, with their probabilities."""
    phase = state.phase
    if phase == FIRST_DEALER:
        return state._dealer_outcomes()
    if phase in (REMOVE, DEAL):
        remaining = state.game.deck & ~state.out
        if phase == REMOVE:
            remaining &= ~C.WISH_MASK
        total = remaining.bit_count()
        twins = (remaining & C.TWIN_MASK).bit_count()
        out = [(k, 1 / total) for k in C.cards_in(remaining & ((1 << TWIN) - 1))]
        if twins:
            out.append((TWIN, twins / total))
        if remaining & C.WISH_MASK:
            out.append((WISH, 1 / total))
        return out
    if phase == GAIN:
        total = sum(state.pile)
        return [(C_DRAW + t, c / total) for t, c in enumerate(state.pile) if c]
    if phase == STEAL:
        group = state.steal_groups[0]
        total = sum(state.mal_count(v) for v in group)
        return [
            (C_STEAL + v * NUM_MALHEURS + t, state.mal[v][t] / total)
            for v in sorted(group)
            for t in range(NUM_MALHEURS)
            if state.mal[v][t]
        ]
    return []


def seeded_outcome(state: MalinState) -> int:
    """The outcome the state's seed draws in its chance phase."""
    seed = state.seed or 0
    phase = state.phase
    if phase == FIRST_DEALER:
        return state._seeded_dealer()
    if phase == GAIN:
        rng = seeded_rng(seed, "malheur", state.draws)
        return rng.choices([a for a, _ in outcomes(state)], [p for _, p in outcomes(state)])[0]
    if phase == STEAL:
        rng = seeded_rng(seed, "steal", state.round, state.steals)
        found = outcomes(state)
        return rng.choices([a for a, _ in found], [p for _, p in found])[0]
    if state._deck is None:
        # One shuffle per hand, from the seed and the hand number only: the first
        # card is put aside, the Wish joins the rest, and each seat's cards are
        # dealt in ascending order so that a record replays to the same history.
        slots = [s for s in range(C.NUM_SLOTS) if state.game.deck >> s & 1 and s != C.WISH_SLOT]
        rng = seeded_rng(seed, "hand", state.round)
        rand.shuffle(rng, slots)  # (Random.shuffle's permutation, compiled)
        rest = [*slots[1:], C.WISH_SLOT]
        rand.shuffle(rng, rest)
        size, n = state.game.hand_size, state.n
        order = [C.kind_of_slot(slots[0])]
        for i in range(n):
            order.extend(sorted([C.kind_of_slot(s) for s in rest[i * size : (i + 1) * size]]))
        state._deck = order
    return state._deck[0 if phase == REMOVE else 1 + state.deal_count]


def outcome_text(state: MalinState, outcome: int) -> str:
    """A chance outcome of the phase ``state`` is in, in the notation (``deal 2 17``)."""
    phase = state.phase
    if phase == FIRST_DEALER:
        return state._dealer_text(outcome)
    if phase == REMOVE:
        return f"remove {C.card_text(outcome)}"
    if phase == DEAL:
        return f"deal {state.deal_target()} {C.card_text(outcome)}"
    if phase == GAIN:
        return f"draw {state.gain_queue[0]} {C.MALHEUR_NAMES[outcome - C_DRAW]}"
    if phase == STEAL:
        victim, mtype = divmod(outcome - C_STEAL, NUM_MALHEURS)
        return f"steal {victim} {C.MALHEUR_NAMES[mtype]}"
    return f"outcome {outcome}"
