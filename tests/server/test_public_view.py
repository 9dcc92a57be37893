"""The spectator's view (``State.public_view``) carries nothing a seat could hide.

For every game, a whole seeded match is played by random choices; at every step the
public view must (1) hold no hand and no legal action, and (2) be the same in every
world that any seat finds consistent with what it sees (``game.sample_state``): a
spectator knows less than each player, so nothing hidden from any one seat may change
it.  The server's spectator messages are checked against the true hands in
test_living.py.
"""

from __future__ import annotations

import random

import pytest

from atout.core.registry import load

from .conftest import game_names, short_options


@pytest.mark.parametrize("game_name", game_names())
def test_public_view_is_common_knowledge(game_name: str) -> None:
    game = load(game_name, 3, **short_options(game_name))
    state = game.new_state(7)
    rng = random.Random(3)
    step = 0
    while not state.is_terminal:
        public = state.public_view().to_dict()
        assert not public["hand"], "a spectator holds no card"
        assert not state.public_view().legal_actions
        if step % 9 == 0:
            for seat in range(game.players):
                world = game.sample_state(state.view(seat), rng)
                assert world.public_view().to_dict() == public, (
                    f"seat {seat}'s hidden facts show at step {step}"
                )
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    assert state.public_view().to_dict()["hand"] == []
