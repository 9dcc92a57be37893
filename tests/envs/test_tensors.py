"""Tensors: length, range, determinism and no leak, for every game; Wizard's layout."""

from __future__ import annotations

import random

import pytest

import atout
from atout.core.tensor import GENERIC_TENSOR_SIZE, ONE, cells, hashed_tensor, view_features
from atout.games.wizard.game import WizardGame
from atout.games.wizard.tensor import blocks
from atout.testing import check_tensors

from .conftest import one_table_per_game


@pytest.mark.parametrize(("name", "players"), one_table_per_game())
def test_tensors_of_every_game(name: str, players: int) -> None:
    check_tensors(atout.load(name, players), seed=3, every=7)


def test_wizard_tensors_with_options() -> None:
    for options in ({"clairvoyance": True}, {"bids": "hidden_until_end"}, {"plus_minus_one": True}):
        check_tensors(atout.load("wizard", 3, rounds=4, **options), seed=5, every=2)


def _block(game: WizardGame, tensor: list[float], name: str) -> list[float]:
    at = 0
    for block, size in blocks(game, information_state=True):
        if block == name:
            return tensor[at : at + size]
        at += size
    raise KeyError(name)


def test_wizard_layout_reads_back() -> None:
    """Reading the documented blocks back gives the view's facts."""
    game = WizardGame(4)
    state = game.new_state(seed=8)
    rng = random.Random(8)
    while state.round < 3 or state.current_player != 2 or not state.view(2).trick:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(2)
    tensor = game.information_state_tensor(view)
    assert len(tensor) == game.information_state_tensor_size()
    assert game.observation_tensor(view) == tensor[: game.observation_tensor_size()]
    hand = _block(game, tensor, "hand")
    for kind in set(view.hand):
        weight = 1.0 if kind < 52 else 0.25
        assert hand[kind] == weight * view.hand.count(kind)
    assert sum(1 for x in hand if x) == len(set(view.hand))
    assert _block(game, tensor, "round")[view.round - 1] == 1.0
    to_act = _block(game, tensor, "to_act")
    assert to_act.index(1.0) == 0  # relative seats: the viewer is 0
    trick = _block(game, tensor, "trick")
    for seat, kind in view.trick:
        rel = (seat - 2) % 4
        assert trick[rel * 54 + kind] > 0
    bids = _block(game, tensor, "bids")
    r = game.full_rounds
    for seat, bid in enumerate(view.bids):
        assert bid is not None and bids[((seat - 2) % 4) * (r + 2) + bid] == 1.0
    played = [k for t, _ in view.tricks for _, k in t]
    expected = sum(1.0 if k < 52 else 0.25 for k in played)
    assert sum(_block(game, tensor, "past_tricks")) == pytest.approx(expected)


def test_wizard_secret_bids_are_flagged_not_shown() -> None:
    game = WizardGame(3, bids="hidden_until_end")
    state = game.new_state(seed=2)
    state.apply(state.legal_actions()[1])  # first bidder bids 1
    viewer = state.current_player
    tensor = game.observation_tensor(state.view(viewer))
    bids = _block(game, tensor + [0.0] * 10_000, "bids")
    r = game.full_rounds
    first = (viewer - 1) % 3
    rel = (first - viewer) % 3
    assert bids[rel * (r + 2) : (rel + 1) * (r + 2)] == [0.0] * (r + 1) + [1.0]


def test_generic_encoding_is_stable_and_sized() -> None:
    game = atout.load("wizard", 4)
    view = game.new_state(seed=1).view(0)
    data = view.to_dict()
    tensor = hashed_tensor(data)
    assert len(tensor) == GENERIC_TENSOR_SIZE and set(tensor) <= {0.0, 1.0}
    assert tensor == hashed_tensor(view.to_dict())
    assert "round=1" in view_features(data)
    # Fixed cells (BLAKE2, not the salted hash()): the same in every process.
    assert [i for i, x in enumerate(hashed_tensor({"a": 1, "b": [True, None]}, 64)) if x] == [13, 46, 52]


def test_the_boxed_cells_cover_any_size_and_hold_their_index() -> None:
    # The encoders store ``tensor[cell[i]] = value``: a cell past the table would be an
    # IndexError, a wrong one a tensor off by a cell (tests/envs/test_tensor_digests.py).
    small = cells(10)
    assert len(small) >= 10 and all(small[i] == i for i in range(10))
    big = cells(len(small) + 1000)
    assert len(big) >= len(small) + 1000 and list(big) == list(range(len(big)))
    assert cells(10) is big  # grown once, then the one table for every size
    assert ONE == 1.0 and type(ONE) is float
