"""Worlds consistent with a Sticheln view, for search bots (determinization).

Sticheln has no obligation to follow, so play reveals nothing about the hidden
hands but the cards played: a world is simply the unseen cards shuffled into
the other seats' hands (their public sizes), their still-hidden handicap cards
(as many as each has laid, two of different colours under Sticheln méchant)
and, at 7-8 players, the cards left out of the deal.  The draw is uniform over
consistent deals (up to the rare méchant single-colour corner, redrawn).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import StichelnGame, StichelnState
    from .view import StichelnView

_ATTEMPTS = 100


def sample_world(game: StichelnGame, view: StichelnView, rng: random.Random) -> StichelnState:
    from .game import PAIN, PHASE_NAMES, PLAY, StichelnState

    phase = PHASE_NAMES.index(view.phase)
    if phase not in (PAIN, PLAY):
        raise ValueError(f"nothing to sample at a {view.phase} node: sample at a decision")
    deck = game.deck
    n = game.players
    me = view.seat
    known = 0
    for k in view.hand:
        known |= 1 << k
    for laid in view.pains:
        for k in laid or ():
            known |= 1 << k
    for trick, _ in view.tricks:
        for _, k in trick:
            known |= 1 << k
    for _, k in view.trick:
        known |= 1 << k
    unknown = deck.kinds_in(deck.full & ~known)
    others = [s for s in range(n) if s != me]
    need_hidden_pain = {s: (view.pain_laid[s] if view.pains[s] is None else 0) for s in others}
    need = sum(view.hand_sizes[s] + need_hidden_pain[s] for s in others)
    if need > len(unknown):
        raise ValueError("view is inconsistent: more hidden cards than unseen cards")

    for _ in range(_ATTEMPTS):
        rng.shuffle(unknown)
        hands = [0] * n
        pains = [list(p) if p is not None else [] for p in view.pains]
        pos = 0
        ok = True
        for s in others:
            size = view.hand_sizes[s]
            for k in unknown[pos : pos + size]:
                hands[s] |= 1 << k
            pos += size
            hidden = unknown[pos : pos + need_hidden_pain[s]]
            pos += len(hidden)
            if len(hidden) == 2 and deck.colour_of[hidden[0]] == deck.colour_of[hidden[1]]:
                ok = False  # méchant: two handicap cards of one colour happen only in a one-colour hand
                break
            if view.pains[s] is None:
                pains[s] = hidden
        if ok:
            break
    else:
        raise ValueError("no deal is consistent with this view")
    for k in view.hand:
        hands[me] |= 1 << k

    state = StichelnState(game, None)
    state.phase = phase
    state.round = view.round
    state.dealer = view.dealer
    state.scores_ = list(view.scores)
    state.sheet = list(view.sheet)
    state.hands = hands
    state.dealt = deck.full
    for k in unknown[pos:]:
        state.dealt &= ~(1 << k)  # left out of the deal (7-8 players)
    state.deal_count = deck.hand_size * n
    state.pains = pains
    state.pain_turns = sum(view.pain_laid)
    state.revealed = view.revealed
    state.leader = view.leader
    captured = [0] * n
    tricks = []
    for trick, winner in view.tricks:
        seats = tuple(s for s, _ in trick)
        kinds = tuple(k for _, k in trick)
        if winner >= 0:
            for k in kinds:
                captured[winner] |= 1 << k
        tricks.append((seats, kinds, winner))
    state.captured = captured
    state.tricks = tricks
    state.trick = [k for _, k in view.trick]
    state.trick_seats = [s for s, _ in view.trick]
    state.to_act = view.current_player
    return state
