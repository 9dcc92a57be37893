"""NainJauneBatch against the engine: every match, every step (masks, state, tokens, rewards, terminal, tensors).

The batch and ``NainJauneGame.new_state(seed)`` play side by side as
:mod:`.engine_compare` says, deals included (both deal from the seed;
``ahead`` small, so that the batch tops its deals up many times within a match).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from atout.batch import IllegalActions, NainJauneBatch, common
from atout.batch.bits import unpack
from atout.batch.nain_jaune import deal_hands, deal_starts
from atout.games.nain_jaune import cards as C
from atout.games.nain_jaune.bot import NainJauneHeuristicBot
from atout.games.nain_jaune.game import NainJauneGame, NainJauneState

from . import engine_compare
from .engine_compare import Before, assert_basics, play_auto_reset, sample_seeds, step_held


def assert_same(
    batch: NainJauneBatch, mask: np.ndarray[Any, Any], lacks: Any, g: int, state: NainJauneState
) -> None:
    where = f"match {g}, deal {state.round}, {len(state.history)} actions"
    assert_basics(batch, mask, g, state, where)
    assert int(batch.phase[g]) == state.phase, where
    assert int(batch.deals_done[g]) == len(state.sheet), where
    assert int(batch.opener[g]) == state.opener, where
    assert batch.boxes[g].tolist() == state.boxes, where
    assert batch.hands[g].tolist() == state.hands, where
    assert lacks[g].tolist() == state.lacks, where
    assert (int(batch.need[g]), int(batch.last[g]), int(batch.asked[g])) == (
        state.need,
        state.last,
        state.asked,
    )
    assert int(batch.claim_box[g]) == state.claim_box, where
    assert bool(batch.bonus_due[g]) == state.bonus_due, where
    pile = [c for _, c in state.played]
    assert C.cards_in(int(batch.pile[g])) == sorted(pile), where
    assert [int(batch.pile_order[g, c]) for c in pile] == list(range(1, len(pile) + 1)), where
    for seat in range(state.n):
        assert C.cards_in(int(batch.played_by[g, seat])) == sorted(c for s, c in state.played if s == seat)


def compare(batch: NainJauneBatch, mask: np.ndarray[Any, Any], states: Sequence[NainJauneState]) -> None:
    bits, offset = batch.legal_bits()
    assert (offset == 0).all() and (unpack(bits, C.NUM_CARDS + 2) == mask).all()
    lacks = batch.lacks
    for g, state in enumerate(states):
        assert_same(batch, mask, lacks, g, state)


def play_along(
    players: int,
    seeds: list[int],
    policy: str = "random",
    tensors: bool = False,
    ahead: int | None = 2,
    **options: Any,
) -> int:
    """Play the batch and the engine side by side; returns the steps taken."""
    game = NainJauneGame(players, **options)
    start = game.options["start_tokens"]

    def rewards(state: NainJauneState, before: Before) -> list[int]:
        # A deal's reward: the difference of the score sheet's last two lines (the first: from the start).
        if len(state.sheet) == before.lines:
            return [0] * players
        previous = list(state.sheet[-2].tokens) if len(state.sheet) > 1 else [start] * players
        return [a - b for a, b in zip(state.sheet[-1].tokens, previous, strict=True)]

    return engine_compare.play_along(
        NainJauneBatch(players, seeds, ahead=ahead, **options),
        game,
        seeds,
        NainJauneHeuristicBot(),
        compare=compare,
        rewards=rewards,
        policy=policy,
        tensors=tensors,
        start=start,
    )


@pytest.mark.parametrize(("players", "count"), [(2, 4), (3, 8), (4, 16), (5, 24), (6, 24), (7, 24), (8, 32)])
def test_random_play_equals_engine(players: int, count: int) -> None:
    # Whole matches (until a player cannot stake): 2 players play ≈ 60 deals, 8 players ≈ 3.
    play_along(players, sample_seeds(count, players))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_heuristic_play_equals_engine_bot(players: int) -> None:
    play_along(players, sample_seeds(6, 10 + players), policy="heuristic", max_deals=6)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_tensors_equal_engine(players: int) -> None:
    play_along(players, sample_seeds(2, 20 + players), tensors=True, max_deals=2)


OPTIONS: list[tuple[int, dict[str, Any]]] = [
    (4, {"stuck_rule": "free_restart"}),
    (3, {"voluntary_stop": True, "max_deals": 4}),
    (4, {"first_card": "lowest", "direction": "counterclockwise", "max_deals": 6}),
    (5, {"payment": "per_card", "kept_pay_card": "base_stake", "stake_unit": 2, "start_tokens": 60}),
    (4, {"kept_pay_card": "no_penalty", "grand_opera": "take_all_boxes", "next_dealer": "deal_winner"}),
    (2, {"grand_opera": "double_payments", "start_tokens": 40, "first_dealer": 1}),
    (6, {"manual_claim": True, "max_deals": 4}),
    (3, {"manual_claim": True, "voluntary_stop": True, "sequence_bonus": True, "max_deals": 3}),
    (
        4,
        {
            "sequence_bonus": True,
            "stuck_rule": "free_restart",
            "direction": "counterclockwise",
            "max_deals": 5,
        },
    ),
    (
        7,
        {
            "first_card": "lowest",
            "manual_claim": True,
            "grand_opera": "take_all_boxes",
            "payment": "per_card",
            "next_dealer": "deal_winner",
            "max_deals": 3,
        },
    ),
]


@pytest.mark.parametrize(("players", "options"), OPTIONS)
def test_options_equal_engine(players: int, options: dict[str, Any]) -> None:
    seeds = sample_seeds(8, 30 + players)
    play_along(players, seeds, **options)
    play_along(players, seeds[:4], policy="heuristic", ahead=None, **options)
    play_along(players, seeds[:1], tensors=True, **{**options, "max_deals": 2})


@pytest.mark.parametrize("variant", ["take_all_boxes", "double_payments"])
def test_grand_opera_equals_engine(variant: str) -> None:
    # Seeds whose first deal the heuristic opener (8 players, 6 cards) sheds entirely
    # before anybody else plays: the variant's case, rare in random samples.
    seeds = [93, 224, 459, 467, 557, 5, 6]
    options: dict[str, Any] = {"grand_opera": variant, "max_deals": 2}
    play_along(8, seeds, policy="heuristic", **options)
    game = NainJauneGame(8, **options)
    bot = NainJauneHeuristicBot()
    grand = []
    for s in seeds:
        state = game.new_state(seed=s)
        while not state.is_terminal:
            state.apply(bot.choose(state.view(state.current_player)))
        grand.append(state.sheet[0].grand_opera)
    assert grand[:5] == [True] * 5


@pytest.mark.parametrize("rows", [300, 7])
def test_vectorised_and_python_deals_agree(rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 texts are dealt by the vectorised generator (in passes of 128: DEAL_ROWS patched), 7 by random.Random.
    monkeypatch.setattr(common, "DEAL_ROWS", 128)
    game = NainJauneGame(5)
    seeds = sample_seeds(rows, 5)
    texts = [b"%d:deal:%d" % (s, 1 + i % 9) for i, s in enumerate(seeds)]
    together = deal_hands(texts, game)
    h = game.hand_size
    for i in range(0, rows, 13 if rows > 100 else 1):
        deck = list(range(C.NUM_CARDS))
        random.Random(texts[i].decode()).shuffle(deck)
        assert together[i].tolist() == [C.mask_of(deck[j * h : (j + 1) * h]) for j in range(5)]
    matches = sample_seeds(60, 6)
    starts = deal_starts(matches, game, 5)  # 60 first-dealer draws, 300 deals: vectorised
    for i in range(0, 60, 7):
        alone = deal_starts([matches[i]], game, 5)  # random.Random itself
        assert alone.first_dealer[0] == starts.first_dealer[i]
        assert (alone.hands[0] == starts.hands[i]).all()
        assert alone.first_dealer[0] == random.Random(f"{matches[i]}:first-dealer").randrange(5)


def test_auto_reset_replays_in_the_engine() -> None:
    batch = NainJauneBatch(4, [1, 2, 3], auto_reset=True, reset_seeds=[4, 5, 6, 7], max_deals=2, ahead=1)
    game = NainJauneGame(4, max_deals=2)
    ends = play_auto_reset(batch, game, 400, np.random.default_rng(0))  # each replayed in the engine
    assert sorted(ends) == [1, 2, 3, 4, 5, 6, 7] and batch.terminal.all()
    assert batch.matches_done == 7


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    batch = NainJauneBatch(3, [11, 12], max_deals=1)
    rng = np.random.default_rng(3)
    for _ in range(5):
        batch.step(batch.random_actions(rng))
    before = {k: v.copy() for k, v in vars(batch).items() if isinstance(v, np.ndarray)}
    good = batch.random_actions(rng)
    mask = batch.legal_mask()
    wrong = int(np.flatnonzero(~mask[1])[0])
    with pytest.raises(IllegalActions, match=r"match 1 .*legal: play") as refused:
        batch.step([int(good[0]), wrong])
    assert "any suit" in str(refused.value) or "new run" in str(refused.value)
    with pytest.raises(IllegalActions, match="match 0"):
        batch.step([-1, int(good[1])])
    for key, value in before.items():
        assert np.array_equal(getattr(batch, key), value), key
    batch.step(good)  # the legal actions still go through


def test_held_matches_keep_their_state() -> None:
    seeds = [21, 22, 23, 24]
    batch = NainJauneBatch(4, seeds, max_deals=2)
    game = NainJauneGame(4, max_deals=2)
    states = [game.new_state(seed=s) for s in seeds]
    rng = np.random.default_rng(5)
    step = 0
    while not batch.terminal.all():
        active = (np.arange(4) + step) % 3 != 0
        step_held(batch, states, batch.random_actions(rng), active)
        mask, lacks = batch.legal_mask(), batch.lacks
        for g, state in enumerate(states):
            assert_same(batch, mask, lacks, g, state)
        step += 1


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least one seed"):
        NainJauneBatch(4, [])
    with pytest.raises(ValueError, match="start_tokens"):
        NainJauneBatch(8, [1], start_tokens=2**29)
    with pytest.raises(ValueError, match="seats"):
        NainJauneBatch(4, [1, 2]).observation_tensor([0, 4])
