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
from typing import Any, Final, NamedTuple

from ...core import rng as rand
from ...core.deal import LastView, frame
from .game import StichelnGame, StichelnState
from .rules import PAIN, PHASE_NAMES, PLAY
from .view import StichelnView

_ATTEMPTS: Final = 100


class _Known(NamedTuple):
    """What a view alone says about its worlds (no draw in it): worked out once per view.

    A search samples many worlds of one view; the cards not seen, the room for
    them and the tricks played are the same in each, so :func:`sample_world`
    keeps them for the view it was last asked about and only shuffles.  Lists
    here are copied before a world takes them.
    """

    phase: int
    #: The cards not seen, ascending (shuffled per world).
    unknown: list[int]
    others: list[int]
    need_hidden_pain: dict[int, int]
    own: int
    captured: list[int]
    tricks: list[tuple[tuple[int, ...], tuple[int, ...], int]]


#: What :func:`sample_world` knows from the last view it was asked about.
_KNOWN: Final[LastView[StichelnGame, StichelnView, _Known]] = LastView()


def sample_world(game: StichelnGame, view: StichelnView, rng: random.Random) -> StichelnState:
    """A state the view cannot tell from the true one: the unseen cards dealt at random.

    Built field by field from the view (:attr:`StichelnState.fields`): the view
    holds every public field, the draw gives the hidden hands and handicap cards.
    """
    known = _KNOWN.get(game, view, _known)
    deck = game.deck
    n = game.players
    unknown = list(known.unknown)
    need_hidden_pain = known.need_hidden_pain
    for _ in range(_ATTEMPTS):
        rand.shuffle(rng, unknown)
        hands = [0] * n
        pains = [list(p) if p is not None else [] for p in view.pains]
        pos = 0
        ok = True
        for s in known.others:
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
    hands[view.seat] |= known.own

    dealt = deck.full
    for k in unknown[pos:]:
        dealt &= ~(1 << k)  # left out of the deal (7-8 players)
    return _world(
        game,
        view,
        phase=known.phase,
        to_act=view.current_player,
        hands=hands,
        dealt=dealt,
        deal_count=deck.hand_size * n,
        pains=pains,
        pain_turns=sum(view.pain_laid),
        revealed=view.revealed,
        trick=[k for _, k in view.trick],
        trick_seats=[s for s, _ in view.trick],
        leader=view.leader,
        captured=list(known.captured),
        tricks=list(known.tricks),
    )


def _known(game: StichelnGame, view: StichelnView) -> _Known:
    """What ``view`` says of every world of it (see :class:`_Known`); ValueError if no world fits."""
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
    own = 0
    for k in view.hand:
        own |= 1 << k
    captured = [0] * n
    tricks = []
    for trick, winner in view.tricks:
        seats = tuple(s for s, _ in trick)
        kinds = tuple(k for _, k in trick)
        if winner >= 0:
            for k in kinds:
                captured[winner] |= 1 << k
        tricks.append((seats, kinds, winner))
    return _Known(phase, unknown, others, need_hidden_pain, own, captured, tricks)


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
    world = sample_world(game, view, rng)
    n = game.players
    first = (view.dealer + 1) % n
    hands = list(world.hands)
    actions: list[int] = []
    pain, play = game.space["pain"], game.space["play"]
    # Handicap cards in the order laid: pain_count per seat, seat by seat from the
    # dealer's left, as far as the view has got (pain_laid counts them publicly).
    for i in range(n):
        seat = (first + i) % n
        for kind in world.pains[seat][: view.pain_laid[seat]]:
            hands[seat] |= 1 << kind
            actions.append(pain(kind))
    # Played cards are public: every finished trick, then the trick in progress.
    for trick in [t for t, _ in view.tricks] + [view.trick]:
        for seat, kind in trick:
            hands[seat] |= 1 << kind
            actions.append(play(kind))

    # The world at its hand's first handicap choice: everything of the hand cleared
    # but the deal (the view's hand, the drawn hands, the cards played given back).
    return _world(
        game,
        view,
        phase=PAIN,
        to_act=first,
        hands=hands,
        dealt=world.dealt,
        deal_count=world.deal_count,
        pains=[[] for _ in range(n)],
        pain_turns=0,
        revealed=False,
        trick=[],
        trick_seats=[],
        leader=game.first_leader(view.dealer),
        captured=[0] * n,
        tricks=[],
    ), actions


def _world(game: StichelnGame, view: StichelnView, **hand: Any) -> StichelnState:
    """A seedless state with the view's match-level fields and the given hand-level ones.

    The score sheet and the previous hand's last trick are public, so every
    world has the view's (:func:`~atout.core.deal.frame` gives the rest of the frame).
    """
    return StichelnState.fields.build(
        StichelnState,
        **frame(game, view.round, view.dealer),
        scores_=view.scores,
        sheet=view.sheet,
        prev_round_trick=view.prev_round_trick,
        tricks_shown=None,
        deal_order=None,
        **hand,
    )
