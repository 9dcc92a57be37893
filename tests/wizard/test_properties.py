"""Property tests over random Wizard matches, every player count and variant.

A random match is walked step by step; at every step the engine is compared
with the rule texts (reference functions in :mod:`.helpers`), and at random
steps the expensive properties run (illegal actions, no-leak, sampling,
clone independence, redacted history).  Hypothesis draws the random seeds;
example counts stay small so the folder runs in well under a minute.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from atout.core.errors import IllegalAction, NotationError
from atout.core.game import CHANCE, TERMINAL
from atout.games.wizard import WizardGame, WizardState

from .helpers import (
    BLIND_TEXTS,
    FULL_DECK,
    SUIT_LETTER,
    SUIT_NAMES,
    bid_all,
    deal,
    play,
    random_step,
    rule_led_suit,
    rule_legal_cards,
    rule_score,
    rule_trick_winner,
    vd,
)

VARIANTS: list[dict[str, Any]] = [
    {},
    {"plus_minus_one": True},
    {"bids": "hidden_until_play"},
    {"bids": "hidden_until_end"},
    {"clairvoyance": True},
    {"clairvoyance": True, "bids": "hidden_until_end", "first_dealer": 2},
]
VARIANT_IDS = [
    "base",
    "plus_minus_one",
    "hidden_until_play",
    "hidden_until_end",
    "clairvoyance",
    "clair+hidden",
]

FEW = settings(
    max_examples=2,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)


#: Card text of each physical slot (the engine's bit layout: 52 ordinary cards, 4 Z, 4 N).
CARD_OF_SLOT = [f"{s}{r}" for s in "BGRY" for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4


def trump_letter(view: dict[str, Any]) -> str | None:
    return None if view["trump"] is None else SUIT_LETTER[view["trump"]]


def clairvoyant_round(state: WizardState) -> bool:
    return bool(state.game.options["clairvoyance"]) and state.round == 1


def all_hands(state: WizardState) -> list[list[str]]:
    """Every seat's cards, each read from a view that may show them."""
    n = state.game.players
    if clairvoyant_round(state):
        return [list(vd(state, (s + 1) % n)["seen_hands"][s]) for s in range(n)]
    return [list(vd(state, s)["hand"]) for s in range(n)]


def bids_secret(state: WizardState) -> bool:
    """Whether the bids of the current round are still secret (by the variant's rule)."""
    mode = state.game.options["bids"]
    if mode == "open":
        return False
    if mode == "hidden_until_end":
        return True
    return not all(vd(state, 0)["has_bid"])


def snapshot(state: WizardState) -> tuple[Any, ...]:
    n = state.game.players
    return (
        [vd(state, s) for s in range(n)],
        list(state.history),
        state.current_player,
        state.legal_actions(),
        state.scores(),
        state.round,
    )


def played_cards(view: dict[str, Any]) -> list[str]:
    cards = [c for _, c in view["trick"]]
    for t in view["tricks"]:
        cards.extend(c for _, c in t["cards"])
    return cards


# --- per-step checks --------------------------------------------------------------------------


def check_turn(state: WizardState) -> None:
    """Exactly one seat (or chance, or nobody at the end) is to act."""
    n = state.game.players
    cp = state.current_player
    views = [state.view(s) for s in range(n)]
    assert all(v.current_player == cp for v in views)
    if cp == TERMINAL:
        assert state.legal_actions() == [] and state.chance_outcomes() == []
        assert all(v.legal_actions == () for v in views)
    elif cp == CHANCE:
        outcomes = state.chance_outcomes()
        assert outcomes and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        assert state.legal_actions() == sorted(a for a, _ in outcomes)
        assert all(v.legal_actions == () for v in views)
    else:
        assert 0 <= cp < n
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal))
        assert state.legal_mask() == [int(a in legal) for a in range(state.game.num_actions)]
        for s, v in enumerate(views):
            assert v.legal_actions == (tuple(legal) if s == cp else ())


def check_conservation(state: WizardState) -> None:
    """hands + played this round + turned + undealt == the 60 cards."""
    n = state.game.players
    v = vd(state, 0)
    hands = all_hands(state)
    known: Counter[str] = Counter()
    for h in hands:
        known.update(h)
    known.update(played_cards(v))
    if v["turned"] is not None:
        known[v["turned"]] += 1
    assert not known - FULL_DECK, f"cards beyond the deck: {known - FULL_DECK}"
    assert [len(h) for h in hands] == v["hand_sizes"]
    if v["phase"] in ("trump", "bid", "play"):
        r = v["round"]
        played_by = Counter(s for s, _ in v["trick"])
        for t in v["tricks"]:
            played_by.update(s for s, _ in t["cards"])
        assert v["hand_sizes"] == [r - played_by[s] for s in range(n)]
        assert (v["turned"] is None) == (r * n == 60)
    undealt_count = 60 - known.total()
    if state.current_player == CHANCE and v["phase"] in ("deal", "turn-up"):
        undealt: Counter[str] = Counter()
        for outcome, p in state.chance_outcomes():
            copies = p * undealt_count
            assert abs(copies - round(copies)) < 1e-6
            undealt[state.action_to_text(outcome).split()[-1]] += round(copies)
        assert known + undealt == FULL_DECK
    if state.current_player != TERMINAL and v["phase"] != "first-dealer":
        # white box: the engine's own record of the undealt cards (a mask of slots)
        stack = Counter(CARD_OF_SLOT[i] for i in range(60) if not state.dealt >> i & 1)
        assert known + stack == FULL_DECK


def check_legal_vs_rules(state: WizardState, bids: dict[int, int]) -> None:
    cp = state.current_player
    v = vd(state, cp)
    texts = v["legal_actions"]
    r = v["round"]
    if v["phase"] == "play":
        if clairvoyant_round(state):
            assert len(texts) == 1 and texts[0] in BLIND_TEXTS
            return
        expected = rule_legal_cards(v["hand"], [(s, c) for s, c in v["trick"]])
        assert set(texts) == {f"play {c}" for c in expected}
        assert len(texts) == len(expected)
    elif v["phase"] == "bid":
        allowed = list(range(r + 1))
        if state.game.options["plus_minus_one"] and cp == v["dealer"]:
            rest = r - sum(bids.values())
            if 0 <= rest <= r:
                allowed.remove(rest)
        assert texts == [f"bid {b}" for b in allowed]
    elif v["phase"] == "trump":
        assert cp == v["dealer"] and v["turned"] == "Z"
        assert sorted(texts) == ["trump blue", "trump green", "trump red", "trump yellow"]
    else:  # pragma: no cover - a decision in another phase is a bug
        raise AssertionError(v["phase"])


def check_round_start(state: WizardState) -> None:
    """First decision of a round: turned card, trump, who acts."""
    n = state.game.players
    v = vd(state, 0)
    r, dealer = v["round"], v["dealer"]
    assert v["hand_sizes"] == [r] * n
    assert v["tricks"] == [] and v["trick"] == [] and v["tricks_won"] == [0] * n
    assert v["has_bid"] == [False] * n
    turned = v["turned"]
    if r * n == 60:
        assert turned is None and v["trump"] is None and v["phase"] == "bid"
    elif turned == "Z":
        assert v["phase"] == "trump" and state.current_player == dealer
        return
    elif turned == "N":
        assert v["trump"] is None
    else:
        assert turned is not None and trump_letter(v) == turned[0]
    assert v["phase"] == "bid" and state.current_player == (dealer + 1) % n


def check_illegal(state: WizardState, rng: random.Random) -> None:
    """Illegal actions (and bad notation) are refused, the state unchanged."""
    game = state.game
    space = game.num_chance_outcomes if state.is_chance else game.num_actions
    legal = set(state.legal_actions())
    candidates = [a for a in range(space) if a not in legal]
    tries = [*rng.sample(candidates, min(3, len(candidates))), space, 10**6]
    before = snapshot(state)
    for action in tries:
        with pytest.raises(IllegalAction) as err:
            state.apply(action)
        assert err.value.reason
        assert snapshot(state) == before
    with pytest.raises(NotationError):
        state.apply("castle kingside")
    assert snapshot(state) == before
    # refusing a held card that does not follow: the rule, and the cards that do
    if state.is_chance or state.is_terminal or clairvoyant_round(state):
        return
    v = vd(state, state.current_player)
    led = rule_led_suit([(seat, c) for seat, c in v["trick"]])
    if v["phase"] != "play" or led is None:
        return
    follow = sorted({c for c in v["hand"] if c[0] == led and c not in ("Z", "N")}, key=lambda c: int(c[1:]))
    for card in v["hand"]:
        if follow and card not in ("Z", "N") and card[0] != led:
            with pytest.raises(IllegalAction) as err:
                state.apply(f"play {card}")
            message = str(err.value)
            assert message.startswith(f"you must follow {SUIT_NAMES[led]}: you hold ")
            assert message.replace(",", "").split(": you hold ")[1].split() == follow
            assert snapshot(state) == before


def rule_voids(view: dict[str, Any]) -> dict[int, set[str]]:
    """Suits each seat showed it lacks this round (did not follow a led suit)."""
    voids: dict[int, set[str]] = {}
    for trick in [t["cards"] for t in view["tricks"]] + [view["trick"]]:
        for i, (seat, card) in enumerate(trick):
            led = rule_led_suit(trick[:i])
            if led is not None and card not in ("Z", "N") and card[0] != led:
                voids.setdefault(seat, set()).add(led)
    return voids


def check_sampling(state: WizardState, seat: int, rng: random.Random) -> None:
    """sample_state gives a world with the same view for ``seat``, voids respected."""
    game = state.game
    view = state.view(seat)
    sample = game.sample_state(view, random.Random(rng.random()))
    assert isinstance(sample, WizardState)
    assert sample.history == []
    assert sample.view(seat) == view
    assert sample.view(seat).to_dict() == view.to_dict()
    assert sample.current_player == state.current_player
    if seat == state.current_player:
        assert sample.legal_actions() == state.legal_actions()
    check_conservation(sample)
    hands = all_hands(sample)
    assert [len(h) for h in hands] == view.to_dict()["hand_sizes"]
    for s, suits in rule_voids(view.to_dict()).items():
        assert not any(c[0] in suits for c in hands[s] if c not in ("Z", "N")), (s, suits, hands[s])
    # the sample is a full state: it can be played on
    walk_rng = random.Random(rng.random())
    for _ in range(2 * game.players):
        if sample.is_terminal:
            break
        random_step(sample, walk_rng)


def _bits(mask: int) -> list[int]:
    return [1 << i for i in range(60) if mask >> i & 1]


def _kind(bit: int) -> int:
    slot = bit.bit_length() - 1
    return slot if slot < 52 else (52 if slot < 56 else 53)


def hidden_variants(state: WizardState, seat: int, rng: random.Random) -> list[WizardState]:
    """Clones that differ from ``state`` only in what ``seat`` may not know."""
    n = state.game.players
    out = []
    undealt = _bits(((1 << 60) - 1) & ~state.dealt) if state.view(0).phase in ("trump", "bid", "play") else []
    if clairvoyant_round(state):
        own = _bits(state.hands[seat])
        if own and undealt:
            a, u = own[0], rng.choice(undealt)
            if _kind(a) != _kind(u):
                c = state.clone()
                c.hands[seat] ^= a | u
                c.dealt ^= a | u
                out.append(c)
        return out
    others = [t for t in range(n) if t != seat and state.hands[t]]
    if len(others) >= 2:
        x, y = rng.sample(others, 2)
        a, b = rng.choice(_bits(state.hands[x])), rng.choice(_bits(state.hands[y]))
        if _kind(a) != _kind(b):
            c = state.clone()
            c.hands[x] ^= a | b
            c.hands[y] ^= a | b
            out.append(c)
    if others and undealt:
        x = rng.choice(others)
        a, u = rng.choice(_bits(state.hands[x])), rng.choice(undealt)
        if _kind(a) != _kind(u):
            c = state.clone()
            c.hands[x] ^= a | u
            c.dealt ^= a | u
            out.append(c)
    if bids_secret(state):
        for t in range(n):
            if t != seat and state.bids[t] >= 0:
                c = state.clone()
                c.bids[t] = (c.bids[t] + 1) % (state.round + 1)
                out.append(c)
    return out


def check_no_leak(state: WizardState, seat: int, rng: random.Random, stats: Counter[str]) -> None:
    view = vd(state, seat)
    others_before = [vd(state, t) for t in range(state.game.players)]
    for twin in hidden_variants(state, seat, rng):
        assert vd(twin, seat) == view
        # the change was real: somebody else's view (or the world) differs
        if [vd(twin, t) for t in range(state.game.players)] != others_before:
            stats["real hidden change"] += 1


def check_redacted(state: WizardState, seat: int, events: list[tuple[str, int, int]]) -> None:
    """Redacted history hides exactly the other seats' cards and the secret bids."""
    red = state.redacted_history(seat)
    hist = state.history
    assert len(red) == len(hist) == len(events)
    secret = bids_secret(state)
    for (kind, who, rnd), full, shown in zip(events, hist, red, strict=True):
        if kind == "deal":
            clair = bool(state.game.options["clairvoyance"]) and rnd == 1
            hidden = (who == seat) if clair else (who != seat)
        elif kind == "bid":
            hidden = secret and rnd == state.round and who != seat
        else:
            hidden = False
        assert shown == (None if hidden else full), (kind, who, rnd, seat)


def check_clone(state: WizardState, rng: random.Random) -> None:
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    for _ in range(3):
        if twin.is_terminal:
            break
        random_step(twin, rng)
    assert snapshot(state) == before
    if not state.is_terminal:
        twin_before = snapshot(twin)
        clone2 = state.clone()
        random_step(clone2, rng)
        assert snapshot(twin) == twin_before
        assert snapshot(state) == before


# --- the walk ------------------------------------------------------------------------------------


def walk(game: WizardGame, seed: int | None, play_seed: int, heavy: float) -> Counter[str]:
    """Play a random match with every check; ``heavy`` is the rate of expensive checks."""
    rng = random.Random(play_seed)
    n = game.players
    state = game.new_state(seed)
    labels = HistoryLabels(game)
    bids: dict[int, int] = {}
    round_started = -1
    stats: Counter[str] = Counter()
    dealers: list[int] = []
    steps = 0
    while True:
        steps += 1
        assert steps < 20000
        check_turn(state)
        check_conservation(state)
        if state.is_terminal:
            check_illegal(state, rng)
            check_clone(state, rng)
            break
        v0 = vd(state, 0)
        cp = state.current_player
        new_round = cp != CHANCE and state.round != round_started
        if cp != CHANCE:
            if new_round:
                round_started = state.round
                check_round_start(state)
                dealers.append(v0["dealer"])
                bids = {}
            check_legal_vs_rules(state, bids)
        if new_round or rng.random() < heavy:
            stats["heavy"] += 1
            check_illegal(state, rng)
            check_clone(state, rng)
            if cp != CHANCE:
                for seat in range(n):
                    check_no_leak(state, seat, rng, stats)
                check_sampling(state, rng.randrange(n) if rng.random() < 0.5 else cp, rng)
                check_redacted(state, rng.randrange(n), labels.update(state))
        # choose and apply, recording what the rules say should happen
        if cp == CHANCE:
            random_step(state, rng)
            continue
        action = rng.choice(state.legal_actions())
        text = state.action_to_text(action)
        card = None
        if v0["phase"] == "play":
            card = vd(state, (cp + 1) % n)["seen_hands"][cp][0] if text in BLIND_TEXTS else text.split()[1]
        elif v0["phase"] == "bid":
            bids[cp] = int(text.split()[1])
        state.apply(action)
        v1 = vd(state, 0)
        if card is not None:
            check_play_transition(state, v0, v1, cp, card, bids)
        elif v0["phase"] == "bid":
            if len(bids) < n:
                assert state.current_player == (cp + 1) % n, "bidding goes clockwise"
            else:
                assert cp == v0["dealer"], "the dealer bids last"
                assert v1["phase"] == "play" and state.current_player == (v0["dealer"] + 1) % n
    final = vd(state, 0)
    assert len(final["sheet"]) == final["rounds"] == (game.options["rounds"] or 60 // n)
    assert all(b == (a + 1) % n for a, b in itertools.pairwise(dealers)), dealers
    assert len(dealers) == final["rounds"]
    assert state.scores() == [sum(line["deltas"][s] for line in final["sheet"]) for s in range(n)]
    best = max(state.scores())
    assert state.winners() == [s for s in range(n) if state.scores()[s] == best]
    return stats


class HistoryLabels:
    """Labels every history entry (deal to whom, bid by whom, other) by following
    the history on a seedless copy of the match, one entry at a time."""

    def __init__(self, game: WizardGame) -> None:
        self.replay = WizardGame(game.players, **dict(game.options)).new_state()
        self.events: list[tuple[str, int, int]] = []

    def update(self, state: WizardState) -> list[tuple[str, int, int]]:
        replay = self.replay
        for action in state.history[len(replay.history) :]:
            r = replay.round
            if replay.is_chance:
                words = replay.action_to_text(action).split()
                event = ("deal", int(words[1]), r) if words[0] == "deal" else ("chance", -1, r)
            else:
                kind = "bid" if vd(replay, 0)["phase"] == "bid" else "act"
                event = (kind, replay.current_player, r)
            self.events.append(event)
            replay.apply(action)
        return self.events


def check_play_transition(
    state: WizardState, v0: dict[str, Any], v1: dict[str, Any], cp: int, card: str, bids: dict[int, int]
) -> None:
    n = state.game.players
    trick = [*v0["trick"], [cp, card]]
    if len(trick) < n:
        assert v1["trick"] == trick
        assert state.current_player == (cp + 1) % n, "play goes clockwise"
        return
    winner = rule_trick_winner([(s, c) for s, c in trick], trump_letter(v0))
    won = list(v0["tricks_won"])
    won[winner] += 1
    if len(v0["tricks"]) + 1 < v0["round"]:
        assert v1["tricks"][-1] == {"cards": trick, "winner": winner}
        assert v1["tricks_won"] == won
        assert v1["leader"] == winner and v1["trick"] == []
        assert state.current_player == winner, "the trick's winner leads the next trick"
        return
    # the round is over: scored by the rules
    line = v1["sheet"][-1]
    assert len(v1["sheet"]) == v0["round"]
    assert line["tricks"] == won and sum(won) == v0["round"]
    assert line["bids"] == [bids[s] for s in range(n)]
    assert line["deltas"] == [rule_score(bids[s], won[s]) for s in range(n)]
    for d in line["deltas"]:
        assert (d >= 20 and d % 10 == 0) or (d <= -10 and d % 10 == 0)
    assert v1["scores"] == [a + d for a, d in zip(v0["scores"], line["deltas"], strict=True)]
    if state.is_terminal:
        assert v0["round"] == v0["rounds"]
    else:
        assert v1["round"] == v0["round"] + 1
        assert v1["dealer"] == (v0["dealer"] + 1) % n, "the dealer moves one seat left"


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@FEW
@given(seed=st.integers(0, 2**31 - 1), seeded=st.booleans(), short=st.integers(1, 4))
@example(seed=20261129, seeded=True, short=4)  # always one full match per configuration
def test_random_matches_follow_the_rules(
    players: int, variant: dict[str, Any], seed: int, seeded: bool, short: int
) -> None:
    rounds = None if short == 4 else short
    game = WizardGame(players, rounds=rounds, **variant)
    stats = walk(game, seed if seeded else None, seed, heavy=0.1)
    assert stats["real hidden change"] > 0, "the no-leak check never changed a hidden card"


def deals_of(game: WizardGame, seed: int, play_seed: int) -> list[tuple[Any, ...]]:
    """Per round: dealer, every seat's cards and the turned card, seen at its first decision."""
    rng = random.Random(play_seed)
    state = game.new_state(seed)
    out: list[tuple[Any, ...]] = []
    while not state.is_terminal:
        if len(out) < state.round:
            v = vd(state, 0)
            out.append((v["round"], v["dealer"], [sorted(h) for h in all_hands(state)], v["turned"]))
        random_step(state, rng)
    return out


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=4, derandomize=True, deadline=None, database=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    plays=st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)),
    variant=st.sampled_from(VARIANTS),
)
def test_same_seed_same_deals_whatever_is_played(
    players: int, seed: int, plays: tuple[int, int], variant: dict[str, Any]
) -> None:
    game = WizardGame(players, rounds=4, **variant)
    a = deals_of(game, seed, plays[0])
    b = deals_of(game, seed, plays[1])
    assert len(a) == 4
    assert a == b
    others = [deals_of(game, other, plays[0]) for other in (seed + 1, seed + 2)]
    assert any(o != a for o in others), "the seed matters"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=3, derandomize=True, deadline=None, database=None)
@given(seed=st.integers(0, 2**31 - 1), variant=st.sampled_from(VARIANTS))
def test_a_seeded_history_replays_without_the_seed(players: int, seed: int, variant: dict[str, Any]) -> None:
    game = WizardGame(players, rounds=3, **variant)
    rng = random.Random(seed)
    state = game.new_state(seed)
    while not state.is_terminal:
        random_step(state, rng)
    replay = game.new_state()
    for i, action in enumerate(state.history):
        replay.apply(action)
        assert replay.history == state.history[: i + 1]
    assert [vd(replay, s) for s in range(players)] == [vd(state, s) for s in range(players)]
    assert replay.scores() == state.scores()
    assert all(vd(state, s).get("seed") is None for s in range(players))


ODD_CARDS = ["Z", "N", "B1", "B13", "G7", "R2", "R12", "Y5", "Y13", "G1"]


@settings(max_examples=60, derandomize=True, deadline=None, database=None)
@given(
    players=st.integers(3, 6),
    data=st.data(),
)
def test_one_trick_winner_matches_the_rules(players: int, data: st.DataObject) -> None:
    """Round 1 (one card each), cards drawn from a pool heavy in Wizards and Jesters."""
    pool = ["Z"] * 4 + ["N"] * 4 + [c for c in ODD_CARDS if c not in ("Z", "N")]
    chosen = data.draw(st.permutations(pool))[: players + 1]
    cards, turned = chosen[:players], chosen[players]
    dealer = data.draw(st.integers(0, players - 1))
    trump_choice = data.draw(st.sampled_from(["blue", "green", "red", "yellow"]))
    state = WizardGame(players, first_dealer=dealer).new_state()
    order = [(dealer + 1 + i) % players for i in range(players)]
    deal(
        state,
        dict(zip(order, cards, strict=True)),
        turn=turned,
        trump=trump_choice if turned == "Z" else None,
    )
    v = vd(state, 0)
    trump = SUIT_LETTER[trump_choice] if turned == "Z" else (None if turned == "N" else turned[0])
    assert trump_letter(v) == trump
    bid_all(state, [0] * players)
    assert play(state, *cards) == order
    winner = rule_trick_winner(list(zip(order, cards, strict=True)), trump)
    line = vd(state, 0)["sheet"][0]
    assert line["tricks"] == [int(s == winner) for s in range(players)]
    assert line["deltas"] == [-10 if s == winner else 20 for s in range(players)]


@pytest.mark.parametrize("players", [3, 6])
def test_chance_outcomes_are_the_undealt_copies_over_the_undealt_cards(players: int) -> None:
    """Each kind's probability is its copies still in the deck over the deck's size, at every deal and turn-up."""
    from atout.games.wizard import cards as C
    from atout.games.wizard.rules import DEAL, SLOTS_OF_KIND, TURN_UP

    rng = random.Random(players)
    state = WizardGame(players=players).new_state(None)
    checked = 0
    while not state.is_terminal:
        if state.is_chance and state.phase in (DEAL, TURN_UP):
            remaining = C.FULL_MASK & ~state.dealt
            total = remaining.bit_count()
            expected = [
                (kind, (remaining & SLOTS_OF_KIND[kind]).bit_count() / total)
                for kind in range(C.NUM_KINDS)
                if remaining & SLOTS_OF_KIND[kind]
            ]
            assert state.chance_outcomes() == expected
            assert abs(sum(p for _, p in expected) - 1.0) < 1e-9
            checked += 1
            state.apply(rng.choice(expected)[0])
        elif state.is_chance:
            state.apply(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100
