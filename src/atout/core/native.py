"""What the compiled engine needs of its typing, with no dependency (issue 48).

mypyc compiles the states and games as *native* classes (C structs, attributes
read without a dictionary).  Two things it reads from the typed source live here,
in a module that is never compiled, so that the engine still imports the standard
library only:

* :func:`mypyc_attr`: mypyc's class options (``allow_interpreted_subclasses``:
  a game written in plain Python may still subclass :class:`~.game.State` and
  :class:`~.game.Game`).  mypy and mypyc see ``mypy_extensions``'s; at run time
  it is a decorator that changes nothing (mypyc reads it at compile time only);
* :data:`i64`: mypyc's native 64-bit int, for the hot loops' masks and counters (a
  compiled ``int`` is a tagged value checked at every operation and boxed when large); at
  run time it is ``int``, as in ``mypy_extensions``;
* :data:`G`: the game type a state holds (``State[WizardGame]``): one declared
  type of ``game`` along the hierarchy, as native classes need, where each
  state class used to narrow the attribute again.  Covariant, with ``Game`` as
  its default (a plain ``State`` is any game's), which the standard library's
  ``TypeVar`` of Python 3.11 cannot say: mypy reads ``typing_extensions``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import i64 as i64
    from mypy_extensions import mypyc_attr as mypyc_attr
    from typing_extensions import TypeVar as DefaultTypeVar

    from .game import Game

    G = DefaultTypeVar("G", bound=Game, default=Game, covariant=True)
else:

    def mypyc_attr(*attrs: str, **options: Any) -> Any:
        """mypyc's class options, read at compile time: nothing to do at run time."""
        return lambda cls: cls

    i64 = int

    G = TypeVar("G", bound="Game", covariant=True)

__all__ = ["G", "i64", "mypyc_attr"]
