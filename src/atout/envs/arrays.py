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
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

import numpy as np

from ..core.game import Game, View
from ..core.tensor import TensorBuffer


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


#: The dtypes of :class:`Observer`'s arrays, made once: ``np.frombuffer(b, np.float32)`` makes
#: a dtype of the scalar type at each call, half the cost of the call (issue 48).
_FLOAT32: Final = np.dtype(np.float32)
_INT8: Final = np.dtype(np.int8)
_frombuffer: Final = np.frombuffer


class Observer:
    """Builds what the PettingZoo and Gymnasium environments observe of a view, for one game and tensor.

    Why a class: an environment observes at every step, and what does not change
    between steps (the tensor's size and kind, the action count) is read once here,
    not looked up again each time.  Each call returns fresh arrays (the caller may keep
    them: a replay buffer, say), each a numpy view of its own Python buffer: the tensor
    is written into a fresh (zeroed) ``bytearray`` through a float32 ``memoryview`` of it
    (the encoder's item assignments cost less there than on a numpy array, which boxes a
    scalar at each ``+=``, and half of what they cost on an ``array("f")``, whose item
    assignment parses its value with ``PyArg_Parse``: bench/RESULTS.md, issue 48), the mask
    into a ``bytearray`` (a third of the cost of numpy's indexed assignment for a handful of
    legal ids).  Same float32 values: each store rounds its value to float32 as numpy's
    would (tests/envs/test_fast_tensors.py).
    """

    __slots__ = ("actions", "encode", "game", "information_state", "nbytes", "size")

    def __init__(self, game: Game, tensor: str) -> None:
        self.game = game
        self.information_state = tensor == "information_state"
        self.size = _sizes(game)[self.information_state]
        self.nbytes = 4 * self.size
        self.actions = game.num_actions
        #: What writes the tensor: the game's layout's ``encode`` itself when ``write_tensor``
        #: would only call it (the game's own views are all this observes: the check that
        #: ``write_tensor`` makes of each view's game, and its look-up of the layout, are paid
        #: here once); else ``write_tensor``, which a game may override.
        self.encode: Callable[[View, bool, TensorBuffer], object] = game.write_tensor
        layout = game._tensor_layout()
        if layout is not None and type(game).write_tensor is Game.write_tensor:
            self.encode = layout.encode

    def __call__(self, view: View) -> dict[str, np.ndarray[Any, Any]]:
        """``{"observation": float32 tensor, "action_mask": int8 mask}`` of ``view`` (see :func:`observation_of`)."""
        out = bytearray(self.nbytes)
        if view.game is self.game:
            self.encode(view, self.information_state, memoryview(out).cast("f"))
        else:  # another game object (an equal one is accepted, any other refused): its checks
            self.game.write_tensor(view, self.information_state, memoryview(out).cast("f"))
        mask = bytearray(self.actions)
        for action in view.legal_actions:
            mask[action] = 1
        return {"observation": _frombuffer(out, _FLOAT32), "action_mask": _frombuffer(mask, _INT8)}


def observation_of(view: View, tensor: str) -> dict[str, np.ndarray[Any, Any]]:
    """What the PettingZoo and Gymnasium environments observe of ``view``'s seat.

    ``{"observation": float32 tensor ("information_state" or "observation"), "action_mask": int8
    mask of the legal action ids}``: one :class:`Observer`, so every adapter (and a policy playing
    as a bot) sees exactly the same thing.
    """
    return Observer(view.game, tensor)(view)
