"""Worlds consistent with a Sticheln view, for search bots (determinization).

Sticheln has no obligation to follow, so play reveals nothing about the hidden
hands but the cards played: a world is simply the unseen cards shuffled into
the other seats' hands (their public sizes), their still-hidden handicap cards
(as many as each has laid, two of different colours under Sticheln méchant)
and, at 7-8 players, the cards left out of the deal.  The draw is uniform over
consistent deals (up to the rare méchant single-colour corner, redrawn).

:func:`sample_round` rewinds such a world to its hand's first handicap choice
for policy-based inference (the heuristic bot keeps no memory between calls,
so it can be asked about every replayed decision).
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
    state.prev_round_trick = view.prev_round_trick  # public: the same in every world
    state.trick = [k for _, k in view.trick]
    state.trick_seats = [s for s, _ in view.trick]
    state.to_act = view.current_player
    return state


def sample_round(
    game: StichelnGame, view: StichelnView, rng: random.Random
) -> tuple[StichelnState, list[int]]:
    """A world at the first decision of the view's hand, and the hand's actions since.

    Policy-based inference (``bots/search.py``) replays a world's actions and
    asks the heuristic what each other seat would have done, so the world must
    start where the hand's first choice is made: right after the deal, at the
    first handicap card (the deal itself is all chance, and has no choice to
    weigh).  The hidden cards come from :func:`sample_world`, so the draw is
    exactly that of ``sample_state``; the cards laid and played this hand go
    back into the hands they came from.  Handicap cards the viewer has not seen
    face up are the world's drawn ones, so each is a card that world gives its
    seat.  Every view at a decision is offered (never ``None``): Sticheln has
    no clairvoyant round, and play reveals nothing beyond the cards played.
    """
    from .game import PAIN, StichelnState

    world = sample_world(game, view, rng)
    n = game.players
    first = (view.dealer + 1) % n
    hands = list(world.hands)
    actions: list[int] = []
    # Handicap cards in the order laid: pain_count per seat, seat by seat from the
    # dealer's left, as far as the view has got (pain_laid counts them publicly).
    for i in range(n):
        seat = (first + i) % n
        for kind in world.pains[seat][: view.pain_laid[seat]]:
            hands[seat] |= 1 << kind
            actions.append(game.pain_base + kind)
    # Played cards are public: every finished trick, then the trick in progress.
    for trick in [t for t, _ in view.tricks] + [view.trick]:
        for seat, kind in trick:
            hands[seat] |= 1 << kind
            actions.append(kind)

    state = StichelnState(game, None)
    state.round = view.round
    state.dealer = view.dealer
    state._new_hand()  # leader, empty tricks and handicap cards, from the dealer
    state.phase = PAIN
    state.to_act = first
    state.scores_ = list(view.scores)
    state.sheet = list(view.sheet)
    state.prev_round_trick = world.prev_round_trick  # public: the view's, as in every world
    state.hands = hands
    state.dealt = world.dealt
    state.deal_count = world.deal_count
    return state, actions
