"""A state's fields, declared once (issue 19).

A game state is a record of a few dozen fields.  Copying it by hand in
``clone()``, comparing it in tests and rebuilding it in the sampling code wrote
every field out three or four times, and a field added in one place and missed
in another was caught only by luck.  A :class:`StateFields` table names each
field once with how it is copied, and derives the rest:

* :meth:`StateFields.cloner` writes the ``clone`` function (generated code, as
  fast as the hand-written copy: search bots clone millions of times);
* :meth:`StateFields.build` makes a state from a value for every field, and
  refuses a missing or unknown one (the sampling modules' rebuilds);
* :meth:`StateFields.diff` names the fields in which two states differ (tests:
  "an illegal move leaves the state unchanged");
* :meth:`StateFields.check` refuses a state carrying a field the table does
  not declare (a test runs it on states of every game).

>>> class Tally:
...     pass
>>> FIELDS = StateFields(shared=("n",), copied=("counts",), nested=("hands",))
>>> t = FIELDS.build(Tally, n=2, counts=[0, 1], hands=[[1], [2]])
>>> clone = FIELDS.cloner(Tally)
>>> u = clone(t)
>>> u.hands[0].append(9)
>>> FIELDS.diff(t, u), t.hands
(['hands'], [[1], [2]])
>>> FIELDS.build(Tally, n=2, counts=[])
Traceback (most recent call last):
...
TypeError: Tally needs a value for every field: missing hands
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class StateFields:
    """The fields of a state class, each once, grouped by how a copy treats them.

    * ``shared``: values never changed in place (numbers, strings, tuples,
      frozen records, the game, bit masks): the copy shares them;
    * ``copied``: flat containers changed in place (lists, dicts, sets): the
      copy gets ``.copy()``;
    * ``nested``: lists of flat containers (a hand per seat as a list): the copy
      copies each.
    """

    __slots__ = ("copied", "name_set", "names", "nested", "shared")

    def __init__(self, *, shared: Sequence[str] = (), copied: Sequence[str] = (), nested: Sequence[str] = ()):
        self.shared = tuple(shared)
        self.copied = tuple(copied)
        self.nested = tuple(nested)
        self.names = (*self.shared, *self.copied, *self.nested)
        #: The names as a set: :meth:`build` compares a world's keys with it at every sample.
        self.name_set = frozenset(self.names)
        for name in self.names:
            if not name.isidentifier():
                raise ValueError(f"{name!r} is not a field name")
        if len(set(self.names)) != len(self.names):
            twice = sorted({n for n in self.names if self.names.count(n) > 1})
            raise ValueError(f"fields declared twice: {', '.join(twice)}")

    def cloner(self, cls: type[T]) -> Callable[[T], T]:
        """The ``clone`` function of ``cls``: a new object with every field copied as declared.

        Generated once as plain Python (one assignment a field) so that it costs
        what the hand-written copy cost.
        """
        lines = ["def clone(self):", "    new = _new(_cls)"]
        lines += [f"    new.{name} = self.{name}" for name in self.shared]
        lines += [f"    new.{name} = self.{name}.copy()" for name in self.copied]
        lines += [f"    new.{name} = [x.copy() for x in self.{name}]" for name in self.nested]
        lines.append("    return new")
        # ``cls.__new__``: a subclass of a compiled (mypyc) state takes its base's allocator.
        namespace: dict[str, Any] = {"_new": cls.__new__, "_cls": cls}
        exec("\n".join(lines), namespace)  # the code is built from checked identifiers only
        clone: Callable[[T], T] = namespace["clone"]
        clone.__qualname__ = f"{cls.__qualname__}.clone"
        clone.__doc__ = f"A copy of the {cls.__name__}, sharing nothing that changes in place."
        return clone

    def build(self, cls: type[T], **values: Any) -> T:
        """A new ``cls`` object with these field values, which must name every field and no other."""
        if values.keys() != self.name_set:  # one set comparison in the common case (every world)
            missing = [n for n in self.names if n not in values]
            unknown = sorted(set(values) - self.name_set)
            parts = []
            if missing:
                parts.append("missing " + ", ".join(missing))
            if unknown:
                parts.append("unknown " + ", ".join(unknown))
            raise TypeError(f"{cls.__name__} needs a value for every field: {'; '.join(parts)}")
        new: T = cls.__new__(cls)
        for name in self.names:
            setattr(new, name, values[name])
        return new

    def values(self, state: object) -> dict[str, Any]:
        """Every field's value, by name (shared with the state: copy before changing)."""
        return {name: getattr(state, name) for name in self.names}

    def diff(self, a: object, b: object) -> list[str]:
        """The names of the fields in which two states differ, in declaration order."""
        return [name for name in self.names if getattr(a, name) != getattr(b, name)]

    def check(self, state: object) -> None:
        """Refuse a state whose attributes are not exactly the declared fields."""
        have = set(getattr(state, "__dict__", ()))
        for cls in type(state).__mro__:  # a slotted state's fields are its set slots
            slots = getattr(cls, "__slots__", ())
            # A compiled (mypyc) class's attributes are its ``__mypyc_attrs__``.
            native = vars(cls).get("__mypyc_attrs__", ())
            for name in (*((slots,) if isinstance(slots, str) else slots), *native):
                if name not in ("__dict__", "__weakref__") and hasattr(state, name):
                    have.add(name)
        declared = set(self.names)
        if have != declared:
            extra = sorted(have - declared)
            missing = sorted(declared - have)
            raise AssertionError(
                f"{type(state).__name__}'s fields and its declaration differ: "
                f"undeclared {extra or 'none'}, never set {missing or 'none'}"
            )


#: The fields every game's state has: what ``atout.core.game.State.__init__``
#: sets, and ``phase``.  Declared here once; :func:`state_fields` puts them in
#: each game's table.
STATE_SHARED = ("game", "seed", "start", "n", "round", "phase")
STATE_COPIED = ("history",)


def state_fields(
    *, shared: Sequence[str] = (), copied: Sequence[str] = (), nested: Sequence[str] = ()
) -> StateFields:
    """A game state's field table: the fields every state has, then the game's own (see :class:`StateFields`)."""
    return StateFields(shared=(*STATE_SHARED, *shared), copied=(*STATE_COPIED, *copied), nested=nested)
