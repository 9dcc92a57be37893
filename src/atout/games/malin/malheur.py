"""Le Malin's Malheur cards (the jeu fun): their windows, the reactions to them and their effects.

A Malheur **window** gives every seat holding a Malheur card, one at a time clockwise
from the seat after the one who just acted, the choice to play one or to pass; a play
resets the round of passes, and the window closes when every holder has passed in a
row.  A card aimed at a seat (or at its card) first opens a **reaction**: the target may
answer with L'Avocat du Diable (or pass) before the effect resolves (a value reversed,
halved or zeroed; Le Malin's steals, chance events).  Seats without Malheur cards are
never asked (how many Malheur cards a seat holds is public, so skipping them leaks
nothing); seats with cards are always asked, even when none of their cards could be
played, so that the question itself reveals nothing either.  The state machine (``game.py``)
opens a window before the bidding and after each card, and hands these phases here:
what may be played in them (each refusal and the legal list from the same predicates)
and how a move goes on.  Apart because it is a game inside the game, which the plain
game (no jeu fun) never enters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.reason import Num, Reason, Seat, Word, reason
from . import cards as C
from .cards import AVOCAT, BELZ, MALIN, NUM_MALHEURS, SIX
from .rules import (
    AVOCAT_BASE,
    BID,
    C_STEAL,
    EFFECT_BASE,
    EFFECT_TYPES,
    MALIN_BASE,
    MALIN_TARGETS,
    MAX_SEATS,
    NO_WINDOW,
    PASS,
    PLAY,
    PREBID_WINDOW,
    REACT,
    STEAL,
    WINDOW,
    WINDOW_NAMES,
    Pending,
    malheur_target,
    malheur_type,
    malin_targets,
)

if TYPE_CHECKING:
    from .game import MalinState


# -- what may be played ---------------------------------------------------------------------
def aim_refusal(state: MalinState, mtype: int, seat: int) -> Reason | None:
    """Why a card effect of ``mtype`` may not aim at ``seat``'s card in the current trick (None: it may)."""
    for p in state.trick:
        if p.seat == seat:
            if mtype == SIX and not isinstance(p.value, int):
                return reason("malin.six_whole", seat=Seat(seat), v=Num(C.value_text(p.value)))
            return None
    return reason("malin.no_card_to_aim", seat=Seat(seat))


def steal_refusal(state: MalinState, seat: int, targets: tuple[int, ...]) -> Reason | None:
    """Why ``seat``'s Le Malin may not take from ``targets`` (None: it may)."""
    for t in targets:
        if t >= state.n or t == seat:
            return reason("malin.steal_self")
        if not any(state.mal[t]):
            return reason("malin.nothing_to_take", seat=Seat(t))
    return None


def legal_window(state: MalinState) -> list[int]:
    seat = state.to_act
    held = state.mal[seat]
    out = [PASS]
    for i, mtype in enumerate(EFFECT_TYPES):
        if held[mtype]:
            base = EFFECT_BASE + i * MAX_SEATS
            out.extend(base + p.seat for p in state.trick if aim_refusal(state, mtype, p.seat) is None)
    if held[MALIN]:
        out.extend(
            MALIN_BASE + i
            for i, targets in enumerate(MALIN_TARGETS)
            if steal_refusal(state, seat, targets) is None
        )
    return sorted(out)


def window_refusal(state: MalinState, action: int) -> Reason | None:
    if action == PASS:
        return None
    mtype = malheur_type(action)
    if mtype < 0:
        return reason("malin.window_open", window=Word("window", WINDOW_NAMES[state.win_kind]))
    if mtype == AVOCAT:
        return reason("malin.avocat_answers")
    if not state.mal[state.to_act][mtype]:
        return reason("malin.malheur_not_held", card=Word("malheur", C.MALHEUR_TITLES[mtype]))
    if mtype == MALIN:
        return steal_refusal(state, state.to_act, malin_targets(action))
    return aim_refusal(state, mtype, malheur_target(action))


def redirect_refusal(state: MalinState, x: int) -> Reason | None:
    """Why the seat asked may not send the pending Malheur card on to seat ``x`` (None: it may)."""
    pending = state.pending
    assert pending is not None
    if x == state.to_act:
        return reason("malin.avocat_not_back")
    if pending.mtype == MALIN:
        if x >= state.n or x == pending.caster or x in pending.targets or not any(state.mal[x]):
            return reason("malin.not_a_new_victim", seat=Seat(x))
        return None
    return aim_refusal(state, pending.mtype, x)


def legal_reactions(state: MalinState) -> list[int]:
    """A pass, and L'Avocat du Diable to each seat it may send the pending card on to."""
    out = [PASS]
    if state.mal[state.to_act][AVOCAT]:
        out.extend(AVOCAT_BASE + x for x in range(state.n) if redirect_refusal(state, x) is None)
    return out


def react_refusal(state: MalinState, action: int) -> Reason | None:
    if action == PASS:
        return None
    pending = state.pending
    assert pending is not None
    if malheur_type(action) != AVOCAT:
        card = Word("malheur", C.MALHEUR_TITLES[pending.mtype])
        return reason("malin.aims_at_you", card=card, action=state._verb(action))
    if not state.mal[state.to_act][AVOCAT]:
        return reason("malin.malheur_not_held", card=Word("malheur", C.MALHEUR_TITLES[AVOCAT]))
    return redirect_refusal(state, malheur_target(action))


# -- how a move goes on ---------------------------------------------------------------------
def open_window(state: MalinState, kind: int, opener: int) -> None:
    """Open a Malheur window of ``kind``, asking first the holder after ``opener``.

    Without a Malheur card held (or outside the jeu fun) it closes at once:
    the bidding or the play goes on.
    """
    if state.game.fun and any(state.mal_count(s) for s in range(state.n)):
        state.win_kind = kind
        state.passed = 0
        next_priority(state, opener)
    else:
        state.win_kind = kind
        close_window(state)


def window_move(state: MalinState, action: int) -> None:
    """Apply a move in a window: a pass, or a Malheur card played."""
    if action == PASS:
        state.passed |= 1 << state.to_act
        next_priority(state, state.to_act)
    else:
        cast(state, action)


def next_priority(state: MalinState, after: int) -> None:
    """Give priority to the next holder clockwise after ``after`` who has not passed."""
    n = state.n
    for i in range(1, n + 1):
        s = (after + i) % n
        if not state.passed >> s & 1 and state.mal_count(s) > 0:
            state.phase = WINDOW
            state.to_act = s
            return
    close_window(state)


def close_window(state: MalinState) -> None:
    kind = state.win_kind
    state.win_kind = NO_WINDOW
    state.passed = 0
    if kind == PREBID_WINDOW:
        state.phase = BID
        state.to_act = (state.dealer + 1) % state.n
    elif len(state.trick) == state.n:
        state._resolve_trick()
    else:
        state.phase = PLAY
        state.to_act = (state.last_actor + 1) % state.n


def cast(state: MalinState, action: int) -> None:
    seat = state.to_act
    mtype = malheur_type(action)
    state.mal[seat][mtype] -= 1
    state.discard[mtype] += 1
    state.mlog.append((seat, action))
    targets = malin_targets(action) if mtype == MALIN else (malheur_target(action),)
    state.pending = Pending(seat, mtype, targets, 0, (False,) * len(targets))
    state.passed = 0
    advance_react(state)


def react_move(state: MalinState, action: int) -> None:
    """Apply the answer of a seat a Malheur card aims at: a pass, or L'Avocat du Diable sending it on."""
    pending = state.pending
    assert pending is not None
    i = pending.asking
    if action == PASS:
        state.pending = pending._replace(asking=i + 1)
    else:
        seat = state.to_act
        state.mal[seat][AVOCAT] -= 1
        state.discard[AVOCAT] += 1
        state.mlog.append((seat, action))
        targets = (*pending.targets[:i], malheur_target(action), *pending.targets[i + 1 :])
        redirected = (*pending.redirected[:i], True, *pending.redirected[i + 1 :])
        state.pending = pending._replace(targets=targets, redirected=redirected)
    advance_react(state)


def advance_react(state: MalinState) -> None:
    """Ask the next target whether it answers with L'Avocat du Diable; resolve when all did."""
    pending = state.pending
    assert pending is not None
    caster, _, targets, i, redirected = pending
    while i < len(targets):
        t = targets[i]
        if any(state.mal[t]) and (t != caster or redirected[i]):
            if i != pending.asking:
                state.pending = pending._replace(asking=i)
            state.phase = REACT
            state.to_act = t
            return
        i += 1
    if i != pending.asking:
        state.pending = pending._replace(asking=i)
    resolve_malheur(state)


def resolve_malheur(state: MalinState) -> None:
    pending = state.pending
    assert pending is not None
    mtype = pending.mtype
    if mtype == MALIN:
        victims = [v for v in pending.targets if any(state.mal[v])]
        if state.game.options["malin_steal"] == "one_total":
            state.steal_groups = [tuple(victims)] if victims else []
        else:
            state.steal_groups = [(v,) for v in victims]
        next_steal(state)
        return
    pos = next(i for i, p in enumerate(state.trick) if p.seat == pending.targets[0])
    played = state.trick[pos]
    value = played.value
    if mtype == SIX:
        assert isinstance(value, int)
        value = C.reverse_digits(value, state.game.pad_to_two)
    elif mtype == BELZ:
        value = C.halve(value, state.game.halve_floor)
    else:
        value = 0
    state.trick[pos] = played._replace(value=value)
    if pos == state.wish_pos:
        state.wish_mod = True
    end_malheur(state)


def steal_move(state: MalinState, outcome: int) -> None:
    """Apply a chance outcome of Le Malin's steal: the card taken from a victim to the caster."""
    victim, mtype = divmod(outcome - C_STEAL, NUM_MALHEURS)
    state.mal[victim][mtype] -= 1
    assert state.pending is not None
    state.mal[state.pending.caster][mtype] += 1
    state.steals += 1
    state.steal_groups.pop(0)
    next_steal(state)


def next_steal(state: MalinState) -> None:
    if state.steal_groups:
        state.phase = STEAL
        return
    end_malheur(state)


def end_malheur(state: MalinState) -> None:
    assert state.pending is not None
    caster = state.pending.caster
    state.pending = None
    state.passed = 0
    next_priority(state, caster)
