"""Property-based invariants of the Sticheln engine, over random deals, play and variants.

Compared with the rule-level references of :mod:`.helpers` (written from the
rule texts): who takes each trick and what each hand scores.  Also: card
conservation, score totals, refusals leave the state unchanged, views leak
neither hands nor unrevealed handicap cards, records round-trip.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from atout.core.errors import IllegalAction
from atout.games.sticheln import StichelnGame, StichelnState
from atout.records import Record, parse_record

from .helpers import RULE_DECKS, deck_texts, random_step, rule_hand_score, rule_trick_winner

SETTINGS = settings(max_examples=50, deadline=None, derandomize=True)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"gentle": True},
    {"two_pain_colours": True},
    {"zero_lead_colour": "first_nonzero"},
    {"all_zero_trick": "void"},
    {"pain_card_only": True},
    {"hidden_pain": True, "two_pain_colours": True},
    {"first_lead": "dealer", "gentle": True, "zero_lead_colour": "first_nonzero", "all_zero_trick": "void"},
]

players_st = st.integers(min_value=3, max_value=8)
options_st = st.sampled_from(OPTION_SETS)
seed_st = st.integers(min_value=0, max_value=10_000)


def snapshot(state: StichelnState) -> str:
    views = [state.view(s).to_dict() for s in range(state.game.players)]
    return json.dumps([state.history, state.current_player, state.scores(), views])


def all_zero_rule(options: dict[str, Any]) -> str:
    return str(options.get("all_zero_trick", "leader_takes"))


@SETTINGS
@given(players_st, options_st, seed_st)
def test_tricks_and_hand_scores_follow_the_rules(players: int, options: dict[str, Any], seed: int) -> None:
    game = StichelnGame(players, hands=1, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        random_step(state, rng)
    view = state.view(0).to_dict()
    zero_lead = str(options.get("zero_lead_colour", "own"))
    captured: dict[int, list[str]] = {s: [] for s in range(players)}
    for trick in view["tricks"]:
        cards = [(seat, card) for seat, card in trick["cards"]]
        expected = rule_trick_winner(cards, zero_lead, all_zero_rule(options))
        assert trick["winner"] == (-1 if expected is None else expected)
        if expected is not None:
            captured[expected].extend(c for _, c in cards)
    deltas = [
        rule_hand_score(
            view["pains"][s],
            captured[s],
            gentle=bool(options.get("gentle")),
            pain_card_only=bool(options.get("pain_card_only")),
        )
        for s in range(players)
    ]
    assert view["sheet"][0]["deltas"] == deltas
    assert state.scores() == deltas
    best = max(deltas)
    assert state.winners() == [s for s in range(players) if deltas[s] == best], "ties share the win"


@SETTINGS
@given(players_st, options_st, seed_st)
def test_card_conservation_and_score_totals(players: int, options: dict[str, Any], seed: int) -> None:
    game = StichelnGame(players, hands=2, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    deck = set(deck_texts(players))
    per_hand = RULE_DECKS[players][2]
    while not state.is_terminal:
        views = [state.view(s).to_dict() for s in range(players)]
        seen: list[str] = []
        for s, v in enumerate(views):
            seen.extend(v["hand"])
            seen.extend(v["pains"][s])
            assert len(v["hand"]) == v["hand_sizes"][s]
        v0 = views[0]
        seen.extend(c for t in v0["tricks"] for _, c in t["cards"])
        seen.extend(c for _, c in v0["trick"])
        assert len(seen) == len(set(seen)), "a card is in two places"
        assert set(seen) <= deck
        if v0["phase"] in ("pain", "play"):
            assert len(seen) == players * per_hand, "every dealt card is somewhere"
        totals = [sum(line["deltas"][s] for line in v0["sheet"]) for s in range(players)]
        assert v0["scores"] == totals == state.scores()
        random_step(state, rng)


@SETTINGS
@given(players_st, options_st, seed_st)
def test_refused_actions_leave_the_state_unchanged(players: int, options: dict[str, Any], seed: int) -> None:
    game = StichelnGame(players, hands=1, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal:
        if step % 9 == 0:
            legal = set(state.legal_actions())
            illegal = [a for a in range(game.num_actions) if a not in legal]
            before = snapshot(state)
            for bad in rng.sample(illegal, min(3, len(illegal))):
                try:
                    state.apply(bad)
                except IllegalAction as exc:
                    assert exc.reason
                else:
                    raise AssertionError(f"illegal action {game.action_to_text(bad)} accepted")
                assert snapshot(state) == before
        random_step(state, rng)
        step += 1


def _mutate_hidden(state: StichelnState, viewer: int, rng: random.Random) -> StichelnState | None:
    """A copy where two cards the viewer cannot see trade places (other hands, unrevealed
    handicap cards), or None when no such trade exists."""
    world = state.clone()
    others = [s for s in range(state.n) if s != viewer]
    hidden: list[tuple[str, int, int]] = []  # (where, seat, card)
    for s in others:
        hidden.extend(("hand", s, k) for k in world.game.deck.kinds_in(world.hands[s]))
        if not world.revealed:
            hidden.extend(("pain", s, k) for k in world.pains[s])
    pairs = [(a, b) for a in hidden for b in hidden if a[1] != b[1] or a[0] != b[0]]
    if not pairs:
        return None
    (wa, sa, ka), (wb, sb, kb) = rng.choice(pairs)
    for where, seat, old, new in ((wa, sa, ka, kb), (wb, sb, kb, ka)):
        if where == "hand":
            world.hands[seat] ^= (1 << old) | (1 << new)
        else:
            world.pains[seat][world.pains[seat].index(old)] = new
    return world


@SETTINGS
@given(players_st, options_st, seed_st)
def test_views_leak_no_hand_and_no_unrevealed_handicap_card(
    players: int, options: dict[str, Any], seed: int
) -> None:
    game = StichelnGame(players, hands=1, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    step = 0
    checked_pain = False
    while not state.is_terminal:
        if step % 4 == 0 or state.view(0).phase == "pain":
            viewer = rng.randrange(players)
            world = _mutate_hidden(state, viewer, rng)
            if world is not None:
                assert world.view(viewer) == state.view(viewer)
                changed = [s for s in range(players) if world.view(s) != state.view(s)]
                assert changed, "the mutation changed something a seat can see"
                checked_pain = checked_pain or state.view(0).phase == "pain"
        random_step(state, rng)
        step += 1
    assert checked_pain


@settings(max_examples=10, deadline=None, derandomize=True)
@given(players_st, options_st, seed_st)
def test_records_round_trip(players: int, options: dict[str, Any], seed: int) -> None:
    game = StichelnGame(players, hands=2, **options)
    state = game.new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        random_step(state, rng)
    text = Record.from_state(state).to_text()
    assert parse_record(text).to_text() == text
    replayed = parse_record(text).replay()
    assert replayed.history == state.history
    assert replayed.scores() == state.scores()
