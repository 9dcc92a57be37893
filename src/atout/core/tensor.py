"""The generic tensor encoding every game gets until it ships its own.

Research adapters (PettingZoo, Gymnasium, OpenSpiel) need a fixed-size vector
for every seat's view.  A game with a hand-made layout names its module in
:attr:`Game.tensors` (all four built-in games do, e.g. ``games/wizard/tensor.py``);
any other game falls back on *feature hashing* of ``view.to_dict()``: each
leaf of the JSON view, named by its path (``bids.2=1``, ``hand.0="B7"``),
sets one of :data:`GENERIC_TENSOR_SIZE` cells to 1.  Why hashing: it is the only
fixed-size encoding that works for any view shape (lists grow with the round,
games differ), it is derived from the view only (so it cannot leak what the
seat may not know), and it is a stable function of the view: equal views give
equal tensors in every process (BLAKE2, not Python's salted ``hash``).  The
price is collisions between features that share a cell; learning code copes,
and a game that wants an exact layout writes one.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any, Final, Protocol, SupportsIndex, TypeVar


class TensorBuffer(Protocol):
    """Where a tensor is written: a list of floats, or a preallocated numpy array.

    Why a protocol: the engine stays free of numpy (encoders build lists), while
    the research adapters hand the encoders their own zeroed float32 buffers and
    skip the list-to-array conversion, which costs more than the encoding itself.
    """

    def __getitem__(self, index: SupportsIndex, /) -> Any: ...

    def __setitem__(self, index: SupportsIndex, value: float, /) -> None: ...

    def __len__(self) -> int: ...


#: A particular kind of buffer, given and returned (a list stays a list, an array an array).
Buffer = TypeVar("Buffer", bound=TensorBuffer)


#: The value 1.0 as one float object, for ``tensor[cell[i]] = ONE``.  Why not the literal:
#: compiled, ``tensor[i] = 1.0`` boxes a new float at every store (mypyc keeps floats as C
#: doubles and folds a ``Final`` literal into each use), and frees it after; a value computed
#: at import is a module constant stored as it is.  The encoders' hot loops are made of such
#: stores (issue 48: a third of a Le Nain Jaune AEC step was its encoder).
ONE: Final[Any] = float("1")

#: The boxed cell indices ``0 .. n - 1`` (see :func:`cells`); grown, never shrunk.
_cells: tuple[Any, ...] = tuple(range(4096))


def cells(size: int) -> tuple[Any, ...]:
    """A tuple of the ints ``0 .. size - 1`` at least, for ``tensor[cell[i]] = value``.

    Why: compiled, ``tensor[i]`` boxes the C integer ``i`` at every store, and above 256
    (CPython's cached small ints) that allocates an int and frees it after; a tuple read
    costs a fraction of that.  Together with :data:`ONE` a cell store costs ~14 ns
    instead of ~25 (tensor writes through a float32 memoryview, mypyc; issue 48).  The
    encoders ask once per tensor, with the tensor's size, so any layout is covered.
    """
    global _cells
    if len(_cells) < size:
        _cells = tuple(range(size))
    return _cells


def one_hot(tensor: TensorBuffer, at: int, index: int, size: int) -> int:
    """Set cell ``index`` of the block of ``size`` cells from ``at``; the next block's start.

    The step every game's encoder repeats block after block (the phase, the dealer,
    the leader, each relative to the viewer): one place that writes it and moves on.
    One store a block: its index is boxed as it is (not read from :func:`cells`).
    """
    tensor[at + index] = ONE
    return at + size


def seat_hot(tensor: TensorBuffer, at: int, rel: list[int], seat: int) -> int:
    """:func:`one_hot` of ``seat`` as the viewer sees it (``rel[seat]``: 0 for the viewer), in a block
    of a cell per seat, left empty when ``seat`` is none of the table's (the player to act at a
    chance node or at the end, a trick's winner not known yet); the next block's start."""
    n = len(rel)
    if 0 <= seat < n:
        tensor[at + rel[seat]] = ONE
    return at + n


#: Length of the generic (hashed) observation and information-state tensors.
GENERIC_TENSOR_SIZE = 2048


@lru_cache(maxsize=1 << 16)
def _cell(feature: str, size: int) -> int:
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") % size


def _scalar(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return _JSON_WORDS[value]
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


_JSON_WORDS = {None: "null", True: "true", False: "false"}
_CONTAINERS = (dict, list, tuple)


def _leaves(value: Any, path: str, out: list[str]) -> None:
    # Scalars are formatted in place, containers recursed into: a view has a
    # few hundred leaves and this runs once per observation.
    if isinstance(value, dict):
        items: Any = value.items()
        prefix = f"{path}." if path else ""
    else:
        if not value:
            out.append(f"{path}=[]")
            return
        items = enumerate(value)
        prefix = f"{path}."
    for key, item in items:
        if isinstance(item, _CONTAINERS):
            _leaves(item, f"{prefix}{key}", out)
        else:
            out.append(f"{prefix}{key}={_scalar(item)}")


def view_features(data: dict[str, Any]) -> list[str]:
    """The named leaves of a view's JSON form: ``path=value`` strings."""
    out: list[str] = []
    _leaves(data, "", out)
    return out


def hashed_tensor(data: dict[str, Any], size: int = GENERIC_TENSOR_SIZE) -> list[float]:
    """Feature-hashed 0/1 vector of ``size`` cells for a JSON-ready dict."""
    return write_hashed(data, [0.0] * size)


def write_hashed(data: dict[str, Any], out: Buffer) -> Buffer:
    """:func:`hashed_tensor` written into ``out`` (zeroed; its length is the size)."""
    size = len(out)
    for feature in view_features(data):
        out[_cell(feature, size)] = 1.0
    return out
