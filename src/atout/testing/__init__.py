"""The conformance suite every atout game must pass, a user's own included.

Usage in a test file::

    from atout.testing import check_game
    check_game(atout.load("wizard", players=4), seeds=range(3))

Each check raises ``AssertionError`` naming the game, the seed and what broke.

The research adapters have their own checks in :mod:`atout.testing.adapters`
(they need the optional libraries: ``pip install atout[pettingzoo,openspiel]``).
"""

from .conformance import (
    check_chance_explicit,
    check_clone_independence,
    check_determinism,
    check_game,
    check_no_leak,
    check_random_play,
    check_record_round_trip,
    check_sample_round,
    check_view_dict,
)
from .tensors import check_tensors

__all__ = [
    "check_chance_explicit",
    "check_clone_independence",
    "check_determinism",
    "check_game",
    "check_no_leak",
    "check_random_play",
    "check_record_round_trip",
    "check_sample_round",
    "check_tensors",
    "check_view_dict",
]
