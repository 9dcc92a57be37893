"""Worlds consistent with a Le Malin view, for search bots (determinization).

There is no obligation to follow in Le Malin, so play reveals no void: every
card the viewer has not seen (not in its hand, not put aside, not played) is
equally likely to be in any other hand or, with 5 players, to be the undealt
card.  A sample deals those cards uniformly at random to the other seats (by
their hand sizes), and the unseen Malheur cards (the deck's copies minus the
discard pile and the viewer's own) uniformly to the other seats (by their
public counts) and to the draw pile.  This is exactly uniform over the deals
consistent with the view; it ignores what the bids suggest about the hands
(inference is a bot's business, see docs/bots.md).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import cards as C

if TYPE_CHECKING:
    from .game import MalinGame, MalinState
    from .view import MalinView


def sample_world(game: MalinGame, view: MalinView, rng: random.Random) -> MalinState:
    from .cards import WISH
    from .game import DEAL, FIRST_DEALER, NO_WINDOW, PHASE_NAMES, REMOVE, WINDOW_NAMES, MalinState

    phase = PHASE_NAMES.index(view.phase)
    if phase in (FIRST_DEALER, REMOVE, DEAL):
        raise ValueError(f"nothing to sample during the {view.phase}: sample at a decision")
    n = game.players
    state = MalinState(game, None)
    hands = [0] * n
    out = 0
    if view.removed is not None:
        taken = 0

        def alloc(kind: int) -> int:
            nonlocal taken
            free = C.slots_of_kind(kind) & game.deck & ~taken
            if not free:
                raise ValueError(f"view is inconsistent: too many {C.card_text(kind)}")
            slot = free & -free
            taken |= slot
            return slot

        alloc(view.removed)
        for k in view.hand:
            hands[view.seat] |= alloc(k)
        for cards, _ in view.tricks:
            for _, k, _, _ in cards:
                alloc(k)
        for _, k, _, _ in view.trick:
            alloc(k)
        pool = [s for s in range(C.NUM_SLOTS) if game.deck >> s & 1 and not taken >> s & 1]
        rng.shuffle(pool)
        i = 0
        for seat in range(n):
            if seat == view.seat:
                continue
            need = view.hand_sizes[seat]
            for slot in pool[i : i + need]:
                hands[seat] |= 1 << slot
            i += need
        if i > len(pool):
            raise ValueError("view is inconsistent: more hidden cards than unseen cards")
        undealt = 0
        for slot in pool[i:]:
            undealt |= 1 << slot
        out = game.deck & ~undealt

    # Malheur cards: the unseen copies go to the other seats and the draw pile.
    unseen: list[int] = []
    for t in range(C.NUM_MALHEURS):
        count = game.copies[t] - view.malheur_discard[t] - view.malheur[t]
        if count < 0:
            raise ValueError("view is inconsistent: more Malheur cards seen than exist")
        unseen.extend([t] * count)
    rng.shuffle(unseen)
    mal = [[0] * C.NUM_MALHEURS for _ in range(n)]
    mal[view.seat] = list(view.malheur)
    i = 0
    for seat in range(n):
        if seat == view.seat:
            continue
        for t in unseen[i : i + view.malheur_counts[seat]]:
            mal[seat][t] += 1
        i += view.malheur_counts[seat]
    pile = [0] * C.NUM_MALHEURS
    for t in unseen[i:]:
        pile[t] += 1
    if len(unseen) - i != view.malheur_pile:
        raise ValueError("view is inconsistent: the Malheur cards do not add up")

    state.phase = phase
    state.round = view.round
    state.dealer = view.dealer
    state.to_act = view.current_player
    state.hands = hands
    state.out = out
    state.removed = -1 if view.removed is None else view.removed
    state.deal_count = game.hand_size * n if view.removed is not None else 0
    state.bids = [-1 if b is None else b for b in view.bids]
    state.tricks_won = list(view.tricks_won)
    state.leader = view.leader
    state.trick_seats = [c[0] for c in view.trick]
    state.trick_kinds = [c[1] for c in view.trick]
    state.trick_decl = [c[2] for c in view.trick]
    state.trick_vals = [c[3] for c in view.trick]
    state.wish_pos = state.trick_kinds.index(WISH) if WISH in state.trick_kinds else -1
    state.wish_mod = view.wish_modified
    state.last_actor = view.last_actor
    state.tricks = [
        (
            tuple(c[0] for c in cards),
            tuple(c[1] for c in cards),
            tuple(c[2] for c in cards),
            tuple(c[3] for c in cards),
            w,
        )
        for cards, w in view.tricks
    ]
    state.scores_ = list(view.scores)
    state.sheet = list(view.sheet)
    state.mal = mal
    state.pile = pile
    state.discard = list(view.malheur_discard)
    state.mlog = list(view.malheur_log)
    state.win_kind = WINDOW_NAMES.index(view.window) if view.window else NO_WINDOW
    state.passed = sum(1 << s for s in view.passed)
    if view.pending is not None:
        caster, mtype, targets, index, redirected = view.pending
        state.p_caster, state.p_type = caster, mtype
        state.p_targets = list(targets)
        state.p_index = index
        state.p_redirected = list(redirected)
    state.steal_groups = list(view.steal_groups)
    state.gain_queue = list(view.gain_queue)
    return state
