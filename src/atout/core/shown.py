"""A state's finished tricks in its views' form, cached: :func:`shown_tricks`, compiled.

Why apart from :mod:`.tricks`: that module holds the views' ``LastTrick`` mixin,
a Python class the (pure) view classes extend, which mypyc would make a native
class; this function runs at every view of every playout, so it is compiled with
the engine (:data:`atout._build.COMPILED`) and called natively by each game's
``seen.py``.  :mod:`.tricks` re-exports it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

#: A finished trick as a game's view shapes it: (cards, winner).
T = TypeVar("T")
#: A finished trick as a game's state keeps it.
Kept = TypeVar("Kept")


def shown_tricks(
    cache: tuple[object, tuple[T, ...]] | None, tricks: Sequence[Kept], form: Callable[[Kept], T]
) -> tuple[object, tuple[T, ...]] | None:
    """A state's finished ``tricks`` in its view's form (``form`` of each), reusing ``cache``.

    Why: a search builds a view at every decision of every playout, and shaping
    every finished trick of the round again each time was a fifth of a view.  A
    state keeps the result (a field copied as shared by its clones) and passes it
    back: the tricks it already shaped are reused and only the new ones shaped.
    The cache is ``(the last trick it covers, the shaped tuple)``; it holds
    while that very object is still at its place in ``tricks`` (a round's tricks
    are appended, never changed; a new round, a sampled world or a restored state
    has new trick objects, and is shaped afresh).  None when there is no trick.
    """
    if not tricks:
        return None
    if cache is not None:
        done = len(cache[1])
        if 0 < done <= len(tricks) and tricks[done - 1] is cache[0]:
            if done == len(tricks):
                return cache
            return tricks[-1], cache[1] + tuple([form(t) for t in tricks[done:]])
    return tricks[-1], tuple([form(t) for t in tricks])
