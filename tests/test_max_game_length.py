"""``Game.max_history_length()`` bounds every seeded match (OpenSpiel's ``max_game_length``; issue 27, point 6).

Why a property test: the bounds are sums over the rules' own limits (the deck
dealt and played, the sum rule of Le Malin, the passes a variant allows...),
easy to get wrong by one phase; random seeded matches under random options
(the options that change a match's length) must all stay within them.
Sticheln's is exact (a drawn first dealer reaches it; Wizard's counts a trump
choice per round, made only when a Wizard is turned up); Le Nain Jaune without
``max_deals`` has none (a match can last for ever) and says so.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import atout

OPTIONS: dict[str, st.SearchStrategy[dict[str, Any]]] = {
    "wizard": st.fixed_dictionaries(
        {}, optional={"rounds": st.integers(1, 3), "start_round": st.integers(1, 4)}
    ),
    "sticheln": st.fixed_dictionaries(
        {},
        optional={"hands": st.integers(1, 2), "two_pain_colours": st.booleans(), "start_round": st.just(2)},
    ),
    "malin": st.fixed_dictionaries(
        {"start_score": st.integers(2, 6)},
        optional={
            "rounds": st.integers(1, 4),
            "fun": st.booleans(),
            "clamp_at_zero": st.booleans(),
            "malheur_gain": st.sampled_from(["odd_crossed", "final_odd", "per_point"]),
        },
    ),
    "nain-jaune": st.fixed_dictionaries(
        {"max_deals": st.integers(1, 3)},
        optional={
            "voluntary_stop": st.booleans(),
            "manual_claim": st.booleans(),
            "start_round": st.integers(1, 3),
        },
    ),
}


@st.composite
def matches(draw: st.DrawFn) -> tuple[str, int, dict[str, Any], int]:
    name = draw(st.sampled_from(sorted(OPTIONS)))
    cls = atout.load(name, players=4).__class__
    players = draw(st.integers(max(3, cls.min_players), min(6, cls.max_players)))
    return name, players, draw(OPTIONS[name]), draw(st.integers(0, 2**32))


@settings(max_examples=120, derandomize=True, deadline=None, database=None)
@given(matches())
def test_every_seeded_match_stays_within_max_history_length(
    case: tuple[str, int, dict[str, Any], int],
) -> None:
    name, players, options, seed = case
    game = atout.load(name, players=players, **options)
    bound = game.max_history_length()
    assert bound is not None
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        assert len(state.history) <= bound, (name, players, options, seed)


def test_exact_where_the_rules_fix_the_length() -> None:
    """Sticheln deals, lays and plays the whole deck every hand: a drawn first dealer reaches the bound."""
    for players, options in ((4, {"hands": 2}), (5, {"two_pain_colours": True, "hands": 1})):
        game = atout.load("sticheln", players=players, **options)
        state = game.new_state(3)
        rng = random.Random(3)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        assert len(state.history) == game.max_history_length()


def test_nain_jaune_without_a_deal_limit_has_no_bound() -> None:
    assert atout.load("nain-jaune", players=4).max_history_length() is None
    assert atout.load("nain-jaune", players=4, max_deals=2).max_history_length() is not None
