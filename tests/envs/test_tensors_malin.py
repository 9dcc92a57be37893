"""Le Malin's tensor layout (src/atout/i18n/en/rules/le-malin.md, "Tensors"): sizes, read-back, no leak."""

from __future__ import annotations

import random

import pytest

import atout
from atout.games.malin import cards as C
from atout.games.malin.game import MalinGame
from atout.games.malin.tensor import PHASES, TABLE, blocks, max_hands, tensor_size
from atout.games.malin.view import MalinView
from atout.testing import check_tensors


def _block(game: MalinGame, tensor: list[float], name: str) -> list[float]:
    at = 0
    for block, size in blocks(game, information_state=True):
        if block == name:
            return tensor[at : at + size]
        at += size
    raise KeyError(name)


def _play_until(game: MalinGame, seed: int, stop: object) -> MalinView:
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    for _ in range(100_000):
        if state.is_terminal:
            break
        actor = state.current_player
        if actor >= 0 and stop(state.view(actor)):  # type: ignore[operator]
            return state.view(actor)
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the wanted position never came")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("fun", [False, True])
def test_sizes(players: int, fun: bool) -> None:
    game = MalinGame(players, fun=fun)
    n, h = players, game.hand_size
    obs = 11 + 1 + 2 * n + 2 * 37 + n + n * (max(h, 8) + 1) + n * (h + 1) + n * 38 + 2 * n + 1 + n
    if fun:
        obs += 5 + n + 1 + 5 + 3 + n + 4 * n + 5
    info = obs + h * (n * 38 + n) + (n * 5 if fun else 0)
    assert game.observation_tensor_size() == tensor_size(game, False) == obs
    assert game.information_state_tensor_size() == info
    view = game.new_state(seed=1).view(0)
    assert len(game.observation_tensor(view)) == obs
    assert len(game.information_state_tensor(view)) == info
    # The observation is the information state's first part.
    assert game.information_state_tensor(view)[:obs] == game.observation_tensor(view)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_checks_every_table(players: int) -> None:
    check_tensors(atout.load("malin", players, fun=True), seed=players, every=2)


def test_checks_options() -> None:
    for options in (
        {"start_score": 6, "clamp_at_zero": True},
        {"fun": True, "malin_copies": 0, "halve_rounding": "floor", "reverse_single_digit": "pad_to_two"},
        {"fun": True, "malin_steal": "one_total", "malheur_gain": "per_point"},
    ):
        check_tensors(atout.load("malin", 4, **options), seed=11, every=2)


def test_layout_reads_back() -> None:
    game = MalinGame(4)
    view = _play_until(game, 8, lambda v: v.round >= 2 and v.seat == 2 and len(v.trick) >= 2 and v.tricks)
    tensor = game.information_state_tensor(view)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % 4

    assert _block(game, tensor, "phase")[PHASES.index(view.phase)] == 1.0
    assert _block(game, tensor, "hand_number") == [view.round / max_hands(game)]
    assert _block(game, tensor, "to_act").index(1.0) == 0  # relative seats: the viewer is 0
    assert _block(game, tensor, "dealer").index(1.0) == rel(view.dealer)
    hand = _block(game, tensor, "hand")
    mask = C.mask_of(view.hand)
    assert hand == [float(mask >> s & 1) for s in range(37)]
    assert view.removed is not None
    removed = _block(game, tensor, "removed")
    assert sum(removed) == 1.0 and removed[C.mask_of([view.removed]).bit_length() - 1] == 1.0
    bids = _block(game, tensor, "bids")
    for seat, bid in enumerate(view.bids):
        assert bid is not None and bids[rel(seat) * 10 + bid] == 1.0
    won = _block(game, tensor, "tricks_won")
    for seat, count in enumerate(view.tricks_won):
        assert won[rel(seat) * 10 + count] == 1.0
    trick = _block(game, tensor, "trick")
    for seat, kind, declared, value in view.trick:
        cell = trick[rel(seat) * TABLE : (rel(seat) + 1) * TABLE]
        assert cell[kind] == 1.0 and sum(cell[:36]) == 1.0
        assert cell[36] == declared / 100 and cell[37] == float(value) / 100
    assert _block(game, tensor, "leader").index(1.0) == rel(view.leader)
    low, high = game.score_bounds()
    scores = _block(game, tensor, "scores")
    for seat, score in enumerate(view.scores):
        assert scores[rel(seat)] == score / max(-low, high)
    past = _block(game, tensor, "past_tricks")
    width = 4 * TABLE + 4
    for t, (cards, winner) in enumerate(view.tricks):
        row = past[t * width : (t + 1) * width]
        assert row[4 * TABLE + rel(winner)] == 1.0
        for seat, kind, _, _ in cards:
            assert row[rel(seat) * TABLE + kind] == 1.0
    assert sum(past[len(view.tricks) * width :]) == 0.0


def test_wish_values_scale() -> None:
    """The Wish's declared value -100..100 lands in [-1, 1]."""
    game = MalinGame(3)
    view = _play_until(game, 4, lambda v: any(k == C.WISH for _, k, _, _ in v.trick))
    seat, _, declared, value = next(c for c in view.trick if c[1] == C.WISH)
    cell = _block(game, game.observation_tensor(view) + [0.0] * 10_000, "trick")
    rel = (seat - view.seat) % 3
    assert cell[rel * TABLE + C.WISH] == 1.0
    assert cell[rel * TABLE + 36] == declared / 100 and cell[rel * TABLE + 37] == float(value) / 100


def test_fun_blocks_read_back() -> None:
    game = MalinGame(4, fun=True)
    view = _play_until(game, 5, lambda v: v.phase == "window" and sum(v.malheur) > 0)
    tensor = game.information_state_tensor(view)
    me = view.seat
    mine = _block(game, tensor, "malheur")
    assert mine == [count / 4 for count in view.malheur]
    counts = _block(game, tensor, "malheur_counts")
    for seat, count in enumerate(view.malheur_counts):
        assert counts[(seat - me) % 4] == count / 20
    window = _block(game, tensor, "window")
    assert window == [0.0, 1.0, 0.0] if view.window == "before bidding" else window == [0.0, 0.0, 1.0]


def test_pending_malheur_card_is_encoded() -> None:
    game = MalinGame(4, fun=True)
    view = _play_until(game, 6, lambda v: v.pending is not None)
    assert view.pending is not None
    caster, mtype, targets, asking, _ = view.pending
    tensor = game.observation_tensor(view) + [0.0] * 10_000
    me = view.seat
    assert _block(game, tensor, "pending_caster").index(1.0) == (caster - me) % 4
    assert _block(game, tensor, "pending_card") == [float(t == mtype) for t in range(5)]
    target_block = _block(game, tensor, "pending_targets")
    assert sorted(i for i, x in enumerate(target_block) if x) == sorted((s - me) % 4 for s in targets)
    assert _block(game, tensor, "pending_asking").index(1.0) == (targets[asking] - me) % 4


def test_deterministic_and_equal_in_sampled_worlds() -> None:
    for fun in (False, True):
        game = MalinGame(5, fun=fun)
        rng = random.Random(3)
        state = game.new_state(seed=3)
        for _ in range(60):
            if state.is_terminal:
                break
            actor = state.current_player
            if actor >= 0:
                view = state.view(actor)
                obs, info = game.observation_tensor(view), game.information_state_tensor(view)
                assert game.observation_tensor(state.clone().view(actor)) == obs
                for _ in range(3):
                    world = game.sample_state(view, rng).view(actor)
                    assert game.observation_tensor(world) == obs
                    assert game.information_state_tensor(world) == info
            state.apply(rng.choice(state.legal_actions()))


def test_foreign_view_is_refused() -> None:
    game = MalinGame(3)
    other = atout.load("wizard", 3)
    with pytest.raises(ValueError):
        game.observation_tensor(other.new_state(seed=1).view(0))
    with pytest.raises(ValueError):
        game.information_state_tensor(MalinGame(4).new_state(seed=1).view(0))
