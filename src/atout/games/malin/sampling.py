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

:func:`sample_round` serves that inference: the same worlds taken back to the
hand's first decision, with the hand's actions to replay (see its docstring
for what the view does not record and how it is rebuilt).
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from ...core import rng as rand
from ...core.deal import LastView, frame
from . import cards as C
from .cards import AVOCAT, MALIN, WISH
from .game import MalinGame, MalinState
from .rules import (
    BID,
    BID_BASE,
    DEAL,
    FIRST_DEALER,
    NO_WINDOW,
    PASS,
    PHASE_NAMES,
    PLAY,
    PREBID_WINDOW,
    REACT,
    REMOVE,
    STEAL,
    WINDOW,
    WINDOW_NAMES,
    Pending,
    Played,
    Trick,
    malheur_target,
    malheur_type,
    malin_targets,
    play_action,
)
from .view import MalinView, as_trick


class _Known(NamedTuple):
    """What a view alone says about its worlds (no draw in it): worked out once per view.

    A search samples many worlds of one view; the cards seen, the cards left to
    deal and the unseen Malheur cards are the same in each, so :func:`sample_world`
    keeps them for the view it was last asked about and only shuffles.  The
    refusals of an inconsistent view are kept as flags and raised where the
    one-piece draw raised them, after the same draws.
    """

    phase: int
    hands: list[int]
    #: The slots not seen, in slot order (shuffled per world): None before the deal.
    pool: list[int] | None
    too_many_hidden: bool
    too_many_malheurs: bool
    unseen: list[int]
    tricks: list[Trick]
    prev_round_trick: Trick | None
    trick: list[Played]
    wish_pos: int


#: What :func:`sample_world` knows from the last view it was asked about.
_KNOWN: Final[LastView[MalinGame, MalinView, _Known]] = LastView()


def sample_world(game: MalinGame, view: MalinView, rng: random.Random) -> MalinState:
    known = _KNOWN.get(game, view, _known)
    n = game.players
    hands = list(known.hands)
    out = 0
    if known.pool is not None:
        pool = list(known.pool)
        rand.shuffle(rng, pool)
        i = 0
        for seat in range(n):
            if seat == view.seat:
                continue
            need = view.hand_sizes[seat]
            for slot in pool[i : i + need]:
                hands[seat] |= 1 << slot
            i += need
        if known.too_many_hidden:
            raise ValueError("view is inconsistent: more hidden cards than unseen cards")
        undealt = 0
        for slot in pool[i:]:
            undealt |= 1 << slot
        out = game.deck & ~undealt

    # Malheur cards: the unseen copies go to the other seats and the draw pile.
    if known.too_many_malheurs:
        raise ValueError("view is inconsistent: more Malheur cards seen than exist")
    unseen = list(known.unseen)
    rand.shuffle(rng, unseen)
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

    dealt = view.removed is not None
    return MalinState.fields.build(
        MalinState,
        **frame(game, view.round, view.dealer),
        phase=known.phase,
        to_act=view.current_player,
        hands=hands,
        out=out,
        removed=-1 if view.removed is None else view.removed,
        deal_count=game.hand_size * n if dealt else 0,
        bids=[-1 if b is None else b for b in view.bids],
        tricks_won=list(view.tricks_won),
        leader=view.leader,
        trick=list(known.trick),
        wish_pos=known.wish_pos,
        wish_mod=view.wish_modified,
        last_actor=view.last_actor,
        tricks=list(known.tricks),
        prev_round_trick=known.prev_round_trick,
        scores_=list(view.scores),
        sheet=list(view.sheet),
        mal=mal,
        pile=pile,
        discard=list(view.malheur_discard),
        draws=0,
        steals=0,
        mlog=list(view.malheur_log),
        win_kind=WINDOW_NAMES.index(view.window) if view.window else NO_WINDOW,
        passed=sum(1 << s for s in view.passed),
        pending=None if view.pending is None else Pending(*view.pending),
        steal_groups=list(view.steal_groups),
        gain_queue=list(view.gain_queue),
        _deck=None,
    )


def _known(game: MalinGame, view: MalinView) -> _Known:
    """What ``view`` says of every world of it (see :class:`_Known`); ValueError for a card seen too often."""
    phase = PHASE_NAMES.index(view.phase)
    if phase in (FIRST_DEALER, REMOVE, DEAL):
        raise ValueError(f"nothing to sample during the {view.phase}: sample at a decision")
    n = game.players
    hands = [0] * n
    pool: list[int] | None = None
    too_many_hidden = False
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
        too_many_hidden = sum(view.hand_sizes[s] for s in range(n) if s != view.seat) > len(pool)
    unseen: list[int] = []
    too_many_malheurs = False
    for t in range(C.NUM_MALHEURS):
        count = game.copies[t] - view.malheur_discard[t] - view.malheur[t]
        if count < 0:
            too_many_malheurs = True
            break
        unseen.extend([t] * count)
    trick = [Played(*c) for c in view.trick]
    kinds = [p.kind for p in trick]
    return _Known(
        phase,
        hands,
        pool,
        too_many_hidden,
        too_many_malheurs,
        unseen,
        [as_trick(t) for t in view.tricks],
        None if view.prev_round_trick is None else as_trick(view.prev_round_trick),
        trick,
        kinds.index(WISH) if WISH in kinds else -1,
    )


def sample_round(game: MalinGame, view: MalinView, rng: random.Random) -> tuple[MalinState, list[int]] | None:
    """A world at the first decision of the view's hand, and the hand's actions since.

    The hidden cards come from :func:`sample_world`; the cards played this hand
    go back into the hands that played them, and the hand restarts right after
    its deal: at the Malheur window before the bidding (jeu fun, when anybody
    holds a Malheur card) or at the first bid.  The actions are the bids, the
    cards played and, in the jeu fun, the windows' passes and Malheur cards,
    the reactions and the steals, in the order the rules ask for them.

    The view does not record everything that happened this hand, so part of
    the history is rebuilt, any consistent version serving as well:

    * **Wish re-declarations.**  The view keeps only the Wish's last declared
      value.  That value differs from every other card of its trick and of the
      forbidden scope (a re-declaration must avoid them, and a later equal card
      would have forced another one), so playing the Wish at it from the start
      is legal and collides with nothing: the replay plays the Wish at its last
      value and skips the earlier re-declarations (a pending one, the view's
      own decision, is reached again).  Inference then does not weigh the
      re-declarations, which say little about the hands.
    * **Malheur cards (jeu fun).**  The view logs which were played and on whom,
      not in which window, nor what Le Malin took.  The hand's opening Malheur
      holdings are drawn (:func:`_opening_malheurs`: counts undone exactly,
      types drawn so that every seat could play what it played), then a small
      search (:func:`_replay`) times each logged card in a window where it is
      legal, preferring where the heuristic would have played it, and draws
      the steals, keeping the first replay whose finished tricks and final
      view match.  Up to :data:`_OPENING_ATTEMPTS` draws share a budget of
      :data:`_REPLAY_BUDGET` replayed actions.

    Returns None when a steal is still to resolve (a chance node, never a
    decision), or when no consistent replay turns up within that budget: some
    Malheur histories are hard to rebuild (cards passing through several
    thieves, a Wish whose value a Malheur card changed and that a later card
    then equals).  Measured: 0-4 % of the decisions of heuristic jeu-fun
    matches (more at larger tables), up to about 10 % under random play;
    never without a Malheur card played this hand (a failure there means an
    inconsistent view: ValueError).  As it depends on the draw, another call
    may succeed; search bots fall back to plain determinization
    (:func:`sample_world`) when the first one fails.
    """
    if view.steal_groups or view.removed is None:
        return None
    world = sample_world(game, view, rng)

    # Slots dealt this hand that no hand holds: the card set aside and the cards played.
    loose = world.out
    for h in world.hands:
        loose &= ~h
    removed = C.slots_of_kind(view.removed) & loose
    loose ^= removed & -removed
    hands = list(world.hands)
    cards = [(s, k, d) for trick, _ in view.tricks for s, k, d, _ in trick]
    cards += [(s, k, d) for s, k, d, _ in view.trick]
    plays: list[tuple[int, int]] = []
    for seat, kind, declared in cards:
        free = C.slots_of_kind(kind) & loose
        if not free:
            raise ValueError(f"view is inconsistent: {C.card_text(kind)} played twice")
        slot = free & -free
        loose ^= slot
        hands[seat] |= slot
        plays.append((seat, play_action(kind, declared)))

    if not view.malheur_log:  # no Malheur card played this hand: none changed hands
        opening = ([m.copy() for m in world.mal], list(world.pile), list(world.discard))
        start = _round_start(game, view, hands, world.out, opening)
        actions = _replay(start, view, plays, rng, [_REPLAY_BUDGET])
        if actions is None:
            raise ValueError("cannot replay this hand to the view: the view is inconsistent")
        return start, actions
    budget = [_REPLAY_BUDGET]  # shared by the attempts: a sample's cost stays bounded
    for _ in range(_OPENING_ATTEMPTS):
        drawn = _opening_malheurs(game, view, rng)
        if drawn is None:
            continue
        start = _round_start(game, view, hands, world.out, drawn)
        actions = _replay(start, view, plays, rng, budget)
        if actions is not None:
            return start, actions
    return None


def _round_start(
    game: MalinGame,
    view: MalinView,
    hands: list[int],
    out: int,
    opening: tuple[list[list[int]], list[int], list[int]],
) -> MalinState:
    """The hand right after its deal, with these hands and Malheur holdings."""
    mal, pile, discard = opening
    state = game.new_state()
    state.round = view.round
    state.dealer = view.dealer
    state.new_hand()
    state.prev_round_trick = None if view.prev_round_trick is None else as_trick(view.prev_round_trick)
    state.scores_ = list(view.scores)
    state.sheet = list(view.sheet)
    state.hands = list(hands)
    state.out = out
    state.removed = -1 if view.removed is None else view.removed
    state.deal_count = game.hand_size * game.players
    state.mal = [m.copy() for m in mal]
    state.pile = list(pile)
    state.discard = list(discard)
    state.gain_queue = []
    state.steal_groups = []
    state.open_window(PREBID_WINDOW, view.dealer)
    return state


def _opening_malheurs(
    game: MalinGame, view: MalinView, rng: random.Random
) -> tuple[list[list[int]], list[int], list[int]] | None:
    """Malheur holdings, draw pile and discard pile as the hand's first decision had them.

    Counts are public and every step of the log moves a known number of cards:
    a card played leaves its caster, and each final victim of a resolved Le
    Malin (a target holds a card when aimed at and loses none before it
    resolves) gives one to the caster; with ``malin_steal=one_total`` the one
    victim robbed among several is drawn.  The draw pile does not change within
    a hand.  Types: a seat held every card it played before it stole anything;
    a card played after a steal was held, or taken from one of its victims
    (drawn); the viewer's steals are undone with random types; the rest of the
    unseen cards are dealt at random.  None when the draw does not add up.
    """
    n = game.players
    one_total = game.options["malin_steal"] == "one_total"
    count = list(view.malheur_counts)
    played = [[0] * C.NUM_MALHEURS for _ in range(n)]
    stolen_from: list[list[int]] = [[] for _ in range(n)]  # victims so far, per thief
    robbed: list[int] = []  # the victims of the viewer's steals, one per card taken
    losses = 0  # cards taken from the viewer, to give back at random
    maybe_stolen: list[tuple[int, int, list[int]]] = []  # (seat, type, possible victims)
    pending: tuple[int, int, list[int]] | None = None  # the last card played, with its targets

    def resolve(caster: int, mtype: int, targets: list[int]) -> None:
        nonlocal losses
        if mtype != MALIN:
            return
        victims = [rand.choice(rng, targets)] if one_total and targets else targets
        for v in victims:
            count[v] += 1
            count[caster] -= 1
            stolen_from[caster].append(v)
            if caster == view.seat:
                robbed.append(v)
            losses += v == view.seat

    for seat, action in view.malheur_log:
        mtype = malheur_type(action)
        count[seat] += 1
        played[seat][mtype] += 1
        if seat != view.seat:
            if stolen_from[seat]:
                maybe_stolen.append((seat, mtype, list(stolen_from[seat])))
            else:
                maybe_stolen.append((seat, mtype, []))
        if mtype == AVOCAT:
            if pending is None or seat not in pending[2]:
                return None
            targets = pending[2]
            targets[targets.index(seat)] = malheur_target(action)
            continue
        if pending is not None:
            resolve(*pending)
        if mtype == MALIN:
            pending = (seat, mtype, list(malin_targets(action)))
        else:
            pending = (seat, mtype, [malheur_target(action)])
    if pending is not None and view.pending is None:
        resolve(*pending)

    discard = [view.malheur_discard[t] - sum(p[t] for p in played) for t in range(C.NUM_MALHEURS)]
    own = [view.malheur[t] + played[view.seat][t] for t in range(C.NUM_MALHEURS)]
    if min(discard) < 0 or min(count) < 0 or sum(own) - len(robbed) + losses != count[view.seat]:
        return None
    # A stolen card is most likely still held: give it back to its victim from the
    # current holdings first, keeping the cards the viewer played.
    kept = list(view.malheur)
    forced = [[0] * C.NUM_MALHEURS for _ in range(n)]
    for seat, mtype, victims in maybe_stolen:
        if not victims:  # played before the seat stole anything: held from the start
            forced[seat][mtype] += 1

    def give(victim: int, t: int, depth: int = 0) -> bool:
        """Make ``victim`` hold a ``t`` at the start, or one of its own victims."""
        if sum(forced[victim]) < count[victim]:
            forced[victim][t] += 1
            return True
        sources = [w for w in stolen_from[victim] if w != view.seat]
        return bool(sources) and depth < n and give(rand.choice(rng, sources), t, depth + 1)

    for victim in robbed:
        held = [t for t in range(C.NUM_MALHEURS) for _ in range(kept[t])]
        if held:
            t = rand.choice(rng, held)
            kept[t] -= 1
            own[t] -= 1
        else:
            # Not held any more: played since (then held from the start, or not)
            # or lost again to a later Le Malin (then of any type).
            held = [t for t in range(C.NUM_MALHEURS) for _ in range(own[t])]
            if held and not (losses and rng.random() < 0.5):
                t = rand.choice(rng, held)
                own[t] -= 1
            elif losses:
                losses -= 1
                free = [
                    t
                    for t in range(C.NUM_MALHEURS)
                    for _ in range(game.copies[t] - discard[t] - own[t] - sum(f[t] for f in forced))
                ]
                if not free:
                    return None
                t = rand.choice(rng, free)
            else:
                return None
        if not give(victim, t):
            return None
    # The other seats' cards played: held from the start, or (after a steal)
    # perhaps taken from a victim, who then held it (the viewer included: then
    # it is the card the viewer lost).
    lost: list[int] = []
    for seat, mtype, victims in maybe_stolen:
        if not victims:
            continue
        sources = [
            v
            for v in {seat, *victims}
            if (len(lost) < losses if v == view.seat else sum(forced[v]) < count[v])
        ]
        source = rand.choice(rng, sorted(sources)) if sources else seat
        if source == view.seat:
            lost.append(mtype)
        else:
            forced[source][mtype] += 1
    unseen = [game.copies[t] - discard[t] - own[t] for t in range(C.NUM_MALHEURS)]
    for t in lost:
        unseen[t] -= 1
        own[t] += 1
    if min(unseen) < 0:
        return None
    for _ in range(losses - len(lost)):
        pool = [t for t in range(C.NUM_MALHEURS) for _ in range(unseen[t])]
        if not pool:
            return None
        t = rand.choice(rng, pool)
        unseen[t] -= 1
        own[t] += 1
    mal = [[0] * C.NUM_MALHEURS for _ in range(n)]
    mal[view.seat] = own
    for s in range(n):
        if s != view.seat:
            for t in range(C.NUM_MALHEURS):
                mal[s][t] = forced[s][t]
                unseen[t] -= forced[s][t]
    if min(unseen) < 0:
        return None
    pool = [t for t in range(C.NUM_MALHEURS) for _ in range(unseen[t])]
    rand.shuffle(rng, pool)
    i = 0
    for s in range(n):
        if s != view.seat:
            need = count[s] - sum(mal[s])
            if need < 0:
                return None
            for t in pool[i : i + need]:
                mal[s][t] += 1
            i += need
    if len(pool) - i != view.malheur_pile:
        return None
    pile = [0] * C.NUM_MALHEURS
    for t in pool[i:]:
        pile[t] += 1
    return mal, pile, discard


#: Draws of the opening Malheur holdings tried before :func:`sample_round` gives up.
_OPENING_ATTEMPTS: Final = 8

#: Replay steps (actions applied) one :func:`sample_round` may spend searching.
_REPLAY_BUDGET: Final = 20000


def _replay(
    start: MalinState,
    view: MalinView,
    plays: list[tuple[int, int]],
    rng: random.Random,
    budget: list[int],
) -> list[int] | None:
    """The actions leading from ``start`` to ``view``, or None.

    Bids and cards are forced (the view gives them in order); a window passes
    unless the next logged Malheur card is its asked seat's and legal, where
    both are tried (in the order :func:`_likely_now` prefers); a reaction plays the next logged Avocat if
    it is the asked seat's; steals try every outcome.  A branch dies as soon as
    a finished trick differs from the view's, and the search ends at the first
    position whose view is the target.  Without Malheur cards played nothing
    branches, so this is a single linear replay.
    """
    target = view.to_dict()
    target_phase = PHASE_NAMES.index(view.phase)
    target_passed = sum(1 << s for s in view.passed)
    log = view.malheur_log
    bids = sum(1 for b in view.bids if b is not None)
    stack: list[tuple[MalinState, int, int, list[int]]] = [(start.clone(), 0, 0, [])]
    while stack:
        replay, ci, mi, actions = stack.pop()
        while budget[0] > 0:
            budget[0] -= 1
            phase = replay.phase
            if (
                ci == len(plays)
                and mi == len(log)
                and phase == target_phase
                and replay.to_act == view.current_player
                and (phase != WINDOW or replay.passed == target_passed)
                and sum(1 for b in replay.bids if b >= 0) == bids
            ):
                if replay.view(view.seat).to_dict() == target:
                    return actions
                break
            choices: list[int] = []
            nxt = log[mi] if mi < len(log) else None
            if phase == WINDOW:
                if (
                    nxt is not None
                    and nxt[0] == replay.to_act
                    and malheur_type(nxt[1]) != AVOCAT
                    and nxt[1] in replay.legal_actions()
                ):
                    choices = [nxt[1], PASS] if _likely_now(replay, view, nxt[1]) else [PASS, nxt[1]]
                else:
                    choices = [PASS]
            elif phase == REACT:
                if nxt is not None and nxt[0] == replay.to_act and malheur_type(nxt[1]) == AVOCAT:
                    choices = [nxt[1]] if nxt[1] in replay.legal_actions() else []
                else:
                    choices = [PASS]
            elif phase == STEAL:
                choices = [a for a, _ in replay.chance_outcomes()]
                rand.shuffle(rng, choices)
            elif phase == BID:
                bid = view.bids[replay.to_act]
                if bid is not None:
                    choices = [BID_BASE + bid]
            elif phase == PLAY and ci < len(plays) and plays[ci][0] == replay.to_act:
                choices = [plays[ci][1]]
            if not choices:
                break  # a dead end (a re-declaration the view does not explain, say)
            for alt in reversed(choices[1:]):
                other = replay.clone()
                if _step(other, alt, view):
                    stack.append(
                        (
                            other,
                            ci + (phase == PLAY),
                            mi + (alt != PASS and phase in (WINDOW, REACT)),
                            [*actions, alt],
                        )
                    )
            action = choices[0]
            if not _step(replay, action, view):
                break
            ci += phase == PLAY
            mi += action != PASS and phase in (WINDOW, REACT)
            actions.append(action)
    return None


def _likely_now(replay: MalinState, view: MalinView, action: int) -> bool:
    """Whether to try a logged Malheur card in this window before passing.

    Le Malin: yes (the heuristic plays it before the bidding).  A card effect:
    once the trick is complete (where the heuristic plays them, so that the
    timing inference weighs is the likely one), when its target's card in
    this trick ends with a value other than the declared one in the view.  The
    search still tries the other order: this only steers it.
    """
    if malheur_type(action) == MALIN:
        return True
    if len(replay.trick) < replay.n:
        return False
    target = malheur_target(action)
    k = len(replay.tricks)
    cards = view.tricks[k][0] if k < len(view.tricks) else view.trick
    return any(seat == target and declared != value for seat, _, declared, value in cards)


def _step(replay: MalinState, action: int, view: MalinView) -> bool:
    """Apply ``action``; False if it is illegal here or finished a trick unlike the view's.

    Legality matters: the view can come out right through an illegal step (a
    Wish played at the value a Malheur card later gave to a card before it).
    """
    if replay.current_player >= 0 and replay.illegal_reason(action) is not None:
        return False
    done = len(replay.tricks)
    replay.step(action)
    if len(replay.tricks) == done:
        return True
    return done < len(view.tricks) and replay.tricks[-1] == view.tricks[done]
