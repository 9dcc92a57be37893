"""The adapters' arrays: tensors written straight into float32, lists converted fast.

The hot path is :func:`tensor_array`: the game's encoder writes into a zeroed
float32 array (:meth:`atout.Game.write_tensor`), so no list of a few thousand
floats is built and converted at every step.  For lists that exist anyway,
``np.asarray(list, np.float32)`` converts element by element through Python
floats; packing with :mod:`struct` first is about 2.5 times faster
(bench/adapters.py).
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.game import Game, View


@lru_cache(maxsize=64)
def _packer(size: int) -> struct.Struct:
    return struct.Struct(f"{size}f")


def float32_array(values: list[float]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A fresh, writable float32 array holding ``values``."""
    return np.frombuffer(_packer(len(values)).pack(*values), np.float32).copy()


def float32_view(values: list[float]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A read-only float32 array over a packed copy of ``values`` (to copy from)."""
    return np.frombuffer(_packer(len(values)).pack(*values), np.float32)


def _sizes(game: Game) -> tuple[int, int]:
    # Kept on the game object: hashing a game (its sorted options) costs more than the lookup saves.
    sizes: tuple[int, int] | None = game.cache.get("_adapter_sizes")
    if sizes is None:
        sizes = game.cache["_adapter_sizes"] = (
            game.observation_tensor_size(),
            game.information_state_tensor_size(),
        )
    return sizes


def tensor_array(game: Game, view: View, information_state: bool) -> np.ndarray[Any, np.dtype[np.float32]]:
    """A fresh float32 array of ``view``'s information-state (or observation) tensor."""
    out = np.zeros(_sizes(game)[information_state], np.float32)
    game.write_tensor(view, information_state, out)
    return out


def tensor_size_of(game: Game, information_state: bool) -> int:
    """The tensor's length, cached per game configuration (games are hashable)."""
    return _sizes(game)[information_state]


def observation_of(view: View, tensor: str) -> dict[str, np.ndarray[Any, Any]]:
    """What the PettingZoo and Gymnasium environments observe of ``view``'s seat.

    ``{"observation": float32 tensor ("information_state" or "observation"), "action_mask": int8
    mask of the legal action ids}``: one function, so every adapter (and a policy playing as a
    bot) sees exactly the same thing.
    """
    game = view.game
    mask = np.zeros(game.num_actions, np.int8)
    if view.legal_actions:
        mask[list(view.legal_actions)] = 1
    return {"observation": tensor_array(game, view, tensor == "information_state"), "action_mask": mask}
