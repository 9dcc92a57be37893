"""Property-based invariants over random matches (every player count, variant sets).

* card conservation: the hands, the face-up pile and the undealt cards partition
  the 52 cards; a hand only ever loses cards during a deal;
* token conservation: tokens in front of the players plus tokens on the board
  are always players x start_tokens;
* exactly one seat to act, and only its view carries legal actions;
* a refused action leaves the state unchanged;
* no leak: swapping two same-rank cards between other hands (or with the undealt
  cards) leaves a seat's view unchanged, and a world sampled from a view gives
  back the same view.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.core.errors import IllegalAction
from atout.core.game import CHANCE, TERMINAL
from atout.games.nain_jaune import NainJauneGame, NainJauneState
from atout.games.nain_jaune import cards as C

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"voluntary_stop": True},
    {"manual_claim": True},
    {"stuck_rule": "free_restart", "direction": "counterclockwise", "first_card": "lowest"},
    {
        "grand_opera": "take_all_boxes",
        "sequence_bonus": True,
        "kept_pay_card": "base_stake",
        "payment": "per_card",
        "next_dealer": "deal_winner",
    },
    {"grand_opera": "double_payments", "stake_unit": 2, "manual_claim": True, "voluntary_stop": True},
]


def snapshot(state: NainJauneState) -> tuple[object, ...]:
    views = tuple(json.dumps(state.view(s).to_dict(), sort_keys=True) for s in range(state.game.players))
    return (tuple(state.history), state.current_player, tuple(state.scores()), views)


def check_cards(state: NainJauneState) -> None:
    game = state.game
    n = game.players
    hands = [set(state.view(s).hand) for s in range(n)]
    played = [c for _, c in state.view(0).played]
    seen: set[int] = set(played)
    assert len(seen) == len(played), "a card was played twice"
    for hand in hands:
        assert not hand & seen, "a card is in two places"
        seen |= hand
    assert sum(map(len, hands)) + len(played) == game.hand_size * n
    assert len(set(range(52)) - seen) == 52 - game.hand_size * n, "the undealt cards changed"


def swap_same_rank(state: NainJauneState, viewer: int, rng: random.Random) -> NainJauneState | None:
    """A copy where two hidden same-rank cards of different owners (not ``viewer``) swap."""
    n = state.game.players
    owners = {}
    for seat in range(n):
        if seat != viewer:
            for c in C.cards_in(state.hands[seat]):
                owners[c] = seat
    played = {c for _, c in state.played}
    for c in range(52):
        if c not in owners and not state.hands[viewer] >> c & 1 and c not in played:
            owners[c] = -1  # out of play
    pairs = [
        (a, b)
        for a in owners
        for b in owners
        if a < b and C.rank_of(a) == C.rank_of(b) and owners[a] != owners[b]
    ]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    world = state.clone()
    for card, new_owner in ((a, owners[b]), (b, owners[a])):
        old = owners[card]
        if old >= 0:
            world.hands[old] &= ~(1 << card)
        else:
            world.dealt |= 1 << card
        if new_owner >= 0:
            world.hands[new_owner] |= 1 << card
        else:
            world.dealt &= ~(1 << card)
    return world


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    which=st.integers(0, len(OPTION_SETS) - 1),
)
def test_invariants_hold_through_random_matches(players: int, seed: int, which: int) -> None:
    options = OPTION_SETS[which]
    game = NainJauneGame(players, max_deals=3, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    total = players * game.options["start_tokens"]
    previous: list[set[int]] | None = None
    deal_no = state.round
    steps = 0
    while not state.is_terminal:
        steps += 1
        assert state.current_player != CHANCE
        # tokens
        view0 = state.view(0)
        assert sum(view0.tokens) + sum(view0.boxes) == total
        assert min(view0.tokens) >= 0 and min(view0.boxes) >= 0
        # cards
        check_cards(state)
        hands = [set(state.view(s).hand) for s in range(players)]
        if previous is not None and state.round == deal_no:
            assert all(h <= p for h, p in zip(hands, previous, strict=True)), "a hand gained a card"
        previous, deal_no = hands, state.round
        # one seat to act
        actor = state.current_player
        assert 0 <= actor < players
        legal = state.legal_actions()
        assert legal
        for s in range(players):
            assert bool(state.view(s).legal_actions) == (s == actor)
        # refusals change nothing
        if steps % 3 == 0:
            # The refusal and the generator are one rule: exactly the legal ids have no reason.
            accepted = [a for a in range(-1, game.num_actions + 1) if state.illegal_reason(a) is None]
            assert accepted == sorted(legal)
            illegal = [a for a in range(game.num_actions) if a not in legal]
            before = snapshot(state)
            bad = rng.choice(illegal)
            try:
                state.apply(bad)
            except IllegalAction as exc:
                assert exc.reason
            else:
                raise AssertionError(f"illegal {bad} accepted")
            assert snapshot(state) == before
        # no leak
        if steps % 4 == 0:
            viewer = rng.randrange(players)
            world = swap_same_rank(state, viewer, rng)
            if world is not None:
                assert world.view(viewer) == state.view(viewer)
            sampled = game.sample_state(state.view(actor), rng)
            assert isinstance(sampled, NainJauneState)
            assert sampled.view(actor) == state.view(actor)
            check_cards(sampled)
        state.apply(rng.choice(legal))
    assert state.current_player == TERMINAL
    assert sum(state.scores()) + sum(state.view(0).boxes) == total
    assert state.winners()


def test_chance_refusals_are_the_outcomes_rule() -> None:
    """At the draw of the first dealer and during a deal, exactly the outcomes offered have no reason."""
    state = NainJauneGame(3).new_state()
    rng = random.Random(2)
    while state.current_player == CHANCE:
        offered = [a for a, _ in state.chance_outcomes()]
        space = range(-1, state.game.num_chance_outcomes + 1)
        assert [a for a in space if state.illegal_reason(a) is None] == offered
        state.apply(rng.choice(offered))
    assert state.phase_name == "play"


def test_the_swap_check_can_see_a_difference() -> None:
    """The swap really moves cards: the seats involved see their hands change."""
    state = NainJauneGame(4).new_state(seed=3)
    rng = random.Random(1)
    world = swap_same_rank(state, 0, rng)
    assert world is not None
    assert [world.view(s).hand for s in range(4)] != [state.view(s).hand for s in range(4)]


def test_sampled_worlds_respect_revealed_gaps() -> None:
    """A seat that said "sans 7" never gets a 7 in a sampled world."""
    rng = random.Random(5)
    for seed in range(20):
        game = NainJauneGame(5)
        state = game.new_state(seed)
        for _ in range(25):
            if state.is_terminal:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        view = state.view(state.current_player)
        for _ in range(5):
            world = game.sample_state(view, rng)
            assert isinstance(world, NainJauneState)
            for seat in range(5):
                for c in C.cards_in(world.hands[seat]):
                    assert not view.lacks[seat] >> (C.rank_of(c) - 1) & 1
            if view.need is not None and view.claim_box is None:
                assert world.hands[view.current_player] & C.RANK_MASK[view.need]
