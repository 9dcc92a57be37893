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
from typing import Any, Final

from ...core import rng as rand
from ...core.bits import bits_of  # C.cards_in, called natively (compiled: an alias is a Python call)
from ...core.deal import dealt_within_tries, frame, place_on_try
from ...core.errors import IllegalAction
from . import cards as C
from .game import NainJauneGame, NainJauneState
from .rules import CLAIM, PASS, PHASE_NAMES, PLAY, put_stakes
from .view import NainJauneView

_TALON: Final = -1


def sample_world(game: NainJauneGame, view: NainJauneView, rng: random.Random) -> NainJauneState:
    """A full state of the view's deal in play, the unseen cards dealt at random (see the module docstring)."""
    phase = PHASE_NAMES.index(view.phase)
    if phase != PLAY:
        raise ValueError(f"nothing to sample at a {view.phase} node: sample during play")
    n = game.players
    own = C.mask_of(view.hand)
    played = C.mask_of([c for _, c in view.played])
    if own & played:
        raise ValueError("view is inconsistent: a card both in hand and played")
    pool = bits_of(C.FULL_MASK & ~own & ~played)
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

    return _in_play(
        game,
        view,
        to_act=actor,
        hands=hands,
        dealt=C.FULL_MASK & ~out_of_play,
        need=view.need or 0,
        last=view.last,
        asked=view.asked,
        lacks=list(view.lacks),
        played=list(view.played),
        tokens=list(view.tokens),
        boxes=list(view.boxes),
        claim_box=-1 if view.claim_box is None else view.claim_box,
        bonus_due=view.bonus_due,
    )


def _in_play(game: NainJauneGame, view: NainJauneView, **play: Any) -> NainJauneState:
    """A seedless state of the view's deal, every card dealt, with the play fields given.

    The deal's public frame (number, dealer, opener, past deals) is the view's;
    ``play`` holds the rest of the state's fields (:attr:`NainJauneState.fields`
    refuses a missing one).
    """
    return NainJauneState.fields.build(
        NainJauneState,
        **frame(game, view.deal, view.dealer),
        phase=PLAY,
        opener=view.opener,
        deal_count=game.hand_size * game.players,
        sheet=list(view.sheet),
        deal_order=None,
        **play,
    )


def _assign(
    pool: list[int],
    need: dict[int, int],
    talon: int,
    lacks: tuple[int, ...],
    must: tuple[int, int] | None,
    rng: random.Random,
) -> dict[int, list[int]]:
    """Deal ``pool`` to the seats (``need`` cards each) and the talon (key -1)."""

    def attempt(number: int, room: dict[int, int], out: dict[int, list[int]]) -> bool:
        rest = pool
        if must is not None:
            seat, rank = must
            candidates = [c for c in pool if C.rank_of(c) == rank]
            if not candidates or room[seat] == 0:
                raise ValueError("view is inconsistent: the player to act cannot hold the needed rank")
            first = rand.choice(rng, candidates)
            out[seat].append(first)
            room[seat] -= 1
            rest = [c for c in pool if c != first]
        options = []
        for c in rest:
            bit = 1 << (C.rank_of(c) - 1)
            seats = [s for s in room if s == _TALON or not lacks[s] & bit]
            options.append((len(seats), rng.random(), c, seats))
        options.sort()
        return place_on_try(number, options, room, out, rng)

    why = "view is inconsistent: no deal gives every seat its cards outside the ranks it showed it lacks"
    return dealt_within_tries(need, _TALON, talon, attempt, why)


def sample_round(
    game: NainJauneGame, view: NainJauneView, rng: random.Random
) -> tuple[NainJauneState, list[int]] | None:
    """A world at the first decision of the view's deal, and the deal's actions since.

    The hidden cards come from :func:`sample_world` (the talon stays out of
    play); the cards played this deal go back into the hands that played them,
    and the deal restarts at the opener's free start, with the tokens and the
    board as the stakes left them (read off the score sheet).  Every action of
    a deal is public, but a view keeps only the face-up pile, not the passes
    and claims between its cards, so those are rebuilt by stepping a copy of
    the world through the rules (see :func:`_round_actions`); that copy also
    checks that the actions reach the view.

    ``None`` in one case, where the view does not hold enough of the order to
    rebuild it: with both ``voluntary_stop`` and ``sequence_bonus``, a seat
    that plays rank *r* right after its own card of rank *r* - 1 may have done
    so at once, or after the whole table passed round to a new run (which pays
    the run's bonus).  The tokens say how many such restarts each seat made;
    they are drawn among the seat's candidate cards, and when that cannot
    match the view (a seat too poor to pay the bonus) no world is offered.
    """
    world = sample_world(game, view, rng)
    start = _round_start(game, view, world.hands)
    replay = start.clone()
    actions, candidates = _round_actions(replay, view, frozenset())
    if _reached(replay, view):
        return start, actions
    if not (game.voluntary and game.options["sequence_bonus"]):
        raise ValueError("view is inconsistent: its deal cannot be replayed to it")
    restarts = _draw_restarts(game, view, replay.tokens, candidates, rng)
    if restarts is None:
        return None
    replay = start.clone()
    actions, _ = _round_actions(replay, view, restarts)
    return (start, actions) if _reached(replay, view) else None


def _round_start(game: NainJauneGame, view: NainJauneView, hands: list[int]) -> NainJauneState:
    """The deal at its first decision: all cards dealt, the opener to start a run."""
    n = game.players
    start_hands = list(hands)
    for seat, c in view.played:
        start_hands[seat] |= 1 << c
    if view.sheet:
        tokens = list(view.sheet[-1].tokens)
        boxes = list(view.sheet[-1].boxes)
    else:
        tokens = [game.options["start_tokens"]] * n
        boxes = [0] * 5
    put_stakes(tokens, boxes, game.options["stake_unit"])  # as the state does before each deal
    dealt = 0
    for h in start_hands:
        dealt |= h
    return _in_play(
        game,
        view,
        to_act=view.opener,
        hands=start_hands,
        dealt=dealt,
        need=0,
        last=view.opener,
        asked=0,
        lacks=[0] * n,
        played=[],
        tokens=tokens,
        boxes=boxes,
        claim_box=-1,
        bonus_due=False,
    )


def _round_actions(
    state: NainJauneState, view: NainJauneView, restarts: frozenset[int]
) -> tuple[list[int], dict[int, list[int]]]:
    """Step ``state`` (the deal's start) through the view's pile; return the actions applied.

    The pile fixes the cards and who played them; the rest follows the rules:
    a box waiting to be claimed (``manual_claim``) was claimed exactly when it
    is empty in the view (stakes always refill a box before a deal, and only a
    claim empties it during one), otherwise the same seat let it go by playing
    on, or by passing; with ``voluntary_stop`` the seats asked before the one
    who played the next card passed, the fewest passes that make the card
    legal.  The pile index of each card in ``restarts`` is instead played only
    once the whole table has passed round to a new run.  Also returns, per
    seat, the pile indices where that seat continued its own run at once with
    the bonus still due: the places such a restart could have happened.
    """
    n = state.n
    limit = (C.KING + 1) * n + 2  # more actions than that between two cards: no way through
    actions: list[int] = []
    candidates: dict[int, list[int]] = {s: [] for s in range(n)}

    def act(action: int) -> None:
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise ValueError(f"view is inconsistent: its deal cannot be replayed ({exc.reason})") from None
        actions.append(action)

    def settle_claim() -> None:
        box = state.claim_box
        act(CLAIM if view.boxes[box] == 0 else PASS)

    for i, (seat, c) in enumerate(view.played):
        for _ in range(limit):
            if state.claim_box >= 0 and view.boxes[state.claim_box] == 0:
                settle_claim()
                continue
            if state.to_act == seat and state.is_legal(c) and not (i in restarts and state.need):
                if (
                    state.claim_box < 0
                    and state.last == seat
                    and state.asked == 0
                    and state.need == C.rank_of(c)
                    and state.bonus_due
                ):
                    candidates[seat].append(i)
                act(c)
                break
            act(PASS)
        else:
            raise ValueError("view is inconsistent: a card of its pile can never be played")
    if view.claim_box is None:
        target = (view.need or 0, view.asked, view.last)
        for _ in range(limit):
            if state.claim_box >= 0:
                settle_claim()
            elif (state.need, state.asked, state.last) != target:
                act(PASS)
            else:
                break
    return actions, candidates


def _reached(state: NainJauneState, view: NainJauneView) -> bool:
    """Whether ``state`` shows the viewer what ``view`` does (the fields a replay can change)."""
    return (
        state.to_act == view.current_player
        and state.need == (view.need or 0)
        and state.last == view.last
        and state.asked == view.asked
        and state.claim_box == (-1 if view.claim_box is None else view.claim_box)
        and state.bonus_due == view.bonus_due
        and tuple(state.tokens) == view.tokens
        and tuple(state.boxes) == view.boxes
        and tuple(state.lacks) == view.lacks
        and state.hands[view.seat] == C.mask_of(view.hand)
    )


def _draw_restarts(
    game: NainJauneGame,
    view: NainJauneView,
    tokens: list[int],
    candidates: dict[int, list[int]],
    rng: random.Random,
) -> frozenset[int] | None:
    """Which own-run continuations were restarts, to pay the bonuses the view's tokens show.

    A restart pays the sequence bonus: its seat gets 1 token from each of the
    ``n - 1`` others.  With ``f[s]`` restarts by seat ``s`` and ``F`` in all,
    seat ``s`` ends ``n * f[s] - F`` tokens above the replay without them, so
    the differences fix ``f`` up to the same count for every seat; the fewest
    restarts are drawn (uniformly among the seat's candidates).
    """
    n = game.players
    diff = [v - t for v, t in zip(view.tokens, tokens, strict=True)]
    if sum(diff) != 0 or any((d - diff[0]) % n for d in diff):
        return None
    total = max(-d for d in diff)
    total += (-(diff[0] + total)) % n
    chosen: list[int] = []
    for seat in range(n):
        count = (diff[seat] + total) // n
        if count > len(candidates[seat]):
            return None
        chosen.extend(rng.sample(candidates[seat], count))
    return frozenset(chosen)
