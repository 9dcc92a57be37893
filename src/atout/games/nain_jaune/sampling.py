"""Worlds consistent with a Nain Jaune view, for search bots (determinization).

The unseen cards (the other hands and the undealt cards, which are out of play
but unknown) are dealt at random under every constraint play has revealed:
hand sizes, the ranks each seat has shown it lacks (each automatic "sans"),
and, when another seat must play the needed rank now without the right to pass,
that it holds at least one card of that rank.  Cards are drawn most constrained
first into a seat weighted by the room left there, restarting on the rare dead
end: close to uniform, not exactly (the usual PIMC trade).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import cards as C

if TYPE_CHECKING:
    from .game import NainJauneGame, NainJauneState
    from .view import NainJauneView

_ATTEMPTS = 200
_TALON = -1


def sample_world(game: NainJauneGame, view: NainJauneView, rng: random.Random) -> NainJauneState:
    from .game import PHASE_NAMES, PLAY, NainJauneState

    phase = PHASE_NAMES.index(view.phase)
    if phase != PLAY:
        raise ValueError(f"nothing to sample at a {view.phase} node: sample during play")
    n = game.players
    own = C.mask_of(view.hand)
    played = C.mask_of([c for _, c in view.played])
    if own & played:
        raise ValueError("view is inconsistent: a card both in hand and played")
    pool = C.cards_in(C.FULL_MASK & ~own & ~played)
    others = [s for s in range(n) if s != view.seat]
    need = {s: view.hand_sizes[s] for s in others}
    talon = len(pool) - sum(need.values())
    if talon != C.NUM_CARDS - game.hand_size * n:
        raise ValueError("view is inconsistent: hand sizes do not match the cards played")
    # A seat that must play the needed rank now (no pass allowed) holds one.
    must: tuple[int, int] | None = None
    actor = view.current_player
    if (
        view.need is not None
        and actor != view.seat
        and actor in need
        and view.claim_box is None
        and not game.voluntary
    ):
        must = (actor, view.need)
    hands = [0] * n
    hands[view.seat] = own
    out_of_play = 0
    for seat, cards in _assign(pool, need, talon, view.lacks, must, rng).items():
        if seat == _TALON:
            out_of_play = C.mask_of(cards)
        else:
            hands[seat] = C.mask_of(cards)

    state = NainJauneState(game, None)
    state.phase = PLAY
    state.round = view.deal
    state.dealer = view.dealer
    state.opener = view.opener
    state.to_act = actor
    state.hands = hands
    state.dealt = C.FULL_MASK & ~out_of_play
    state.deal_count = game.hand_size * n
    state.need = view.need or 0
    state.last = view.last
    state.asked = view.asked
    state.lacks = list(view.lacks)
    state.played = list(view.played)
    state.tokens = list(view.tokens)
    state.boxes = list(view.boxes)
    state.claim_box = -1 if view.claim_box is None else view.claim_box
    state.bonus_due = view.bonus_due
    state.sheet = list(view.sheet)
    state._deck = None
    return state


def _assign(
    pool: list[int],
    need: dict[int, int],
    talon: int,
    lacks: tuple[int, ...],
    must: tuple[int, int] | None,
    rng: random.Random,
) -> dict[int, list[int]]:
    """Deal ``pool`` to the seats (``need`` cards each) and the talon (key -1)."""
    for _ in range(_ATTEMPTS):
        room = dict(need)
        room[_TALON] = talon
        out: dict[int, list[int]] = {s: [] for s in room}
        rest = pool
        if must is not None:
            seat, rank = must
            candidates = [c for c in pool if C.rank_of(c) == rank]
            if not candidates or room[seat] == 0:
                raise ValueError("view is inconsistent: the player to act cannot hold the needed rank")
            first = rng.choice(candidates)
            out[seat].append(first)
            room[seat] -= 1
            rest = [c for c in pool if c != first]
        options = []
        for c in rest:
            bit = 1 << (C.rank_of(c) - 1)
            seats = [s for s in room if s == _TALON or not lacks[s] & bit]
            options.append((len(seats), rng.random(), c, seats))
        options.sort()
        ok = True
        for _, _, c, seats in options:
            open_seats = [s for s in seats if room[s] > 0]
            if not open_seats:
                ok = False
                break
            seat = rng.choices(open_seats, [room[s] for s in open_seats])[0]
            room[seat] -= 1
            out[seat].append(c)
        if ok:
            return out
    raise ValueError("no deal is consistent with this view (the revealed gaps leave no room)")
