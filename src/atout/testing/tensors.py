"""Checks of the tensor encodings (``Game.observation_tensor`` and friends).

Research adapters hand these vectors to learners: they must have the
advertised length, stay in [-1, 1], be a deterministic function of the view,
and be equal in every world consistent with the view (else they would leak).
"""

from __future__ import annotations

import math
import random

from ..core.game import Game, View


def _check_vector(game: Game, view: View, where: str) -> None:
    for kind, size, encode in (
        ("observation", game.observation_tensor_size(), game.observation_tensor),
        ("information state", game.information_state_tensor_size(), game.information_state_tensor),
    ):
        tensor = encode(view)
        assert len(tensor) == size, f"{where}: {kind} tensor has {len(tensor)} values, not {size}"
        bad = [x for x in tensor if not (math.isfinite(x) and -1.0 <= x <= 1.0)]
        assert not bad, f"{where}: {kind} tensor values outside [-1, 1]: {bad[:5]}"
        assert encode(view) == tensor, f"{where}: {kind} tensor differs on a second call"


def check_tensors(game: Game, seed: int, every: int = 3, samples: int = 1) -> None:
    """Tensor length, range and determinism for every seat along a random match.

    Also at the first chance node of a seedless state (OpenSpiel asks for the
    tensor shape there), and in worlds sampled from the acting seat's view:
    the tensors must not change there.
    """
    assert game.observation_tensor_size() > 0 and game.information_state_tensor_size() > 0
    start = game.new_state(None)
    for seat in range(game.players):
        _check_vector(game, start.view(seat), f"{game!r}, seedless start, seat {seat}")
    rng = random.Random(seed)
    state = game.new_state(seed)
    step = 0
    while True:
        if step % every == 0 or state.is_terminal:
            for seat in range(game.players):
                where = f"{game!r}, seed {seed}, step {step}, seat {seat}"
                view = state.view(seat)
                _check_vector(game, view, where)
                again = state.clone().view(seat)
                assert game.observation_tensor(again) == game.observation_tensor(view), where
            if not state.is_terminal:
                actor = state.current_player
                view = state.view(actor)
                obs, info = game.observation_tensor(view), game.information_state_tensor(view)
                for _ in range(samples):
                    world = game.sample_state(view, rng).view(actor)
                    where = f"{game!r}, seed {seed}, step {step}: seat {actor}'s"
                    assert game.observation_tensor(world) == obs, f"{where} observation tensor leaks"
                    assert game.information_state_tensor(world) == info, f"{where} information state leaks"
        if state.is_terminal:
            return
        state.apply(rng.choice(state.legal_actions()))
        step += 1
