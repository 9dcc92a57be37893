"""Which build of the rules engine runs: compiled (mypyc) or pure Python (issue 48).

The modules of :data:`COMPILED` are compiled by ``setup.py`` into extension
modules (``.so``) beside their sources when a C compiler is there; the same
``.py`` files stay the one source of the rules and the pure fallback.  This
module decides, once, when :mod:`atout` is imported, which of the two runs:

* ``ATOUT_PURE=1`` in the environment: the pure modules, even where ``.so``
  files are present (tests run the rules both ways so);
* a compiled module older than its source (a rules file edited, or changed by
  ``git checkout``, since the last build): the pure modules, all of them, with a
  warning.  All or none: compiled modules call each other directly in C, so one
  fresh ``.py`` beside stale ``.so`` files would still run the stale code.
  ``./run`` rebuilds in that case (it asks :func:`stale`);
* otherwise the ``.so`` files when they are all there, else the pure modules.

Pure mode puts a finder first on ``sys.meta_path`` that loads these modules from
their ``.py`` files.  Standard library only, like the engine; ``setup.py`` reads
:data:`COMPILED` from this file without importing :mod:`atout`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

#: The modules compiled by mypyc, relative to ``src/`` (one group: they call each other
#: natively).  The states and games (``core/game.py``, each game's ``game.py``) are native
#: classes (issue 48): attributes in a C struct, methods called through a vtable.  What that
#: took: ``State[G]`` generic over its game (one declared type of ``game`` along the
#: hierarchy: mypyc refuses a subclass narrowing an attribute), ``clone`` written out per
#: game and checked against the fields table (tests/test_state_shape.py: a native class
#: takes no generated method), class attributes declared ``ClassVar`` (mypyc makes any
#: other an instance attribute), no ``__slots__`` or instance ``__dict__`` (what modules keep
#: on a game is in ``Game.cache``), the phases' refusals dispatched by a native method, and
#: ``Game``/``State`` marked ``allow_interpreted_subclasses`` (:mod:`atout.core.native`),
#: so that a game written in plain Python still subclasses them (tests/test_plain_game.py);
#: each game's state too, as then mypyc's ``__new__`` makes the blank state ``clone`` and
#: ``fields.build`` fill (otherwise it runs ``__init__``; ``serializable`` runs it never).
#: ``core/rng.py``: ``random.Random``'s shuffle and draws with the same numbers, compiled (a
#: seeded deal and every sampled world shuffle).  Each game's ``seen.py``: the values of a
#: seat's view (the work of ``view.make_view``, run at every decision of every playout).
#: Left pure: the view classes (``core/view.py``, the games' ``view.py``: a game's view
#: extends ``BaseView`` and ``LastTrick``, which mypyc refuses as a native class, "Multiple
#: inheritance is not supported (except for traits)"; kept as Python classes in a compiled
#: module, ``@mypyc_attr(native_class=False)``, mypyc 2.4 stops with an internal error at
#: the first nested function or lambda of a method, and ``read_dict``/``to_dict`` are made of
#: them), so the views' values are computed in ``seen.py`` and the view built from them at
#: once (``BaseView.made``); ``core/tricks.py`` (the views' mixin); the games' heuristic
#: bots (``bot.py``): compiled as Python classes (their methods rewritten without nested
#: functions, which compiles), an interpreted subclass's instance is refused by the
#: compiled methods it inherits ("WizardHeuristicBot object expected; got
#: WizardPlayoutBot"), and the Wizard playout model, and anyone's bot, extend them;
#: their rules are compiled instead as functions of a view in each game's ``heuristic.py``,
#: which the bot classes call.  ``core/playout.py``: the playouts' loops (a random playout,
#: researchers' and the bench's; the searches' ``play_out_round``), so that a playout's moves
#: are driven from C.  ``core/shown.py``: ``shown_tricks``, run at every view, apart from
#: ``core/tricks.py``'s mixin.  Module constants the hot code reads are ``Final`` (mypyc
#: reads any other module global from the module's dictionary, a lookup at every use), and
#: the options read at every move are fields of the game (``MalinGame.wish_rule``...);
#: ``core/bot.py`` and ``core/errors.py`` (subclassed everywhere), the packages'
#: ``__init__.py``, bots, renderers, the registry, the rules pages and the terminal's words
#: (``core/words.py``: its ``Words`` is subclassed by the CLI's review) (no hot code).
COMPILED: tuple[str, ...] = (
    "atout/core/actions.py",
    "atout/core/bits.py",
    "atout/core/deal.py",
    "atout/core/fields.py",
    "atout/core/game.py",
    "atout/core/options.py",
    "atout/core/playout.py",
    "atout/core/position.py",
    "atout/core/reason.py",
    "atout/core/rng.py",
    "atout/core/shown.py",
    "atout/core/tensor.py",
    "atout/core/viewdict.py",
    "atout/games/wizard/cards.py",
    "atout/games/wizard/game.py",
    "atout/games/wizard/heuristic.py",
    "atout/games/wizard/position.py",
    "atout/games/wizard/rules.py",
    "atout/games/wizard/sampling.py",
    "atout/games/wizard/seen.py",
    "atout/games/wizard/tensor.py",
    "atout/games/malin/cards.py",
    "atout/games/malin/chance.py",
    "atout/games/malin/choices.py",
    "atout/games/malin/game.py",
    "atout/games/malin/heuristic.py",
    "atout/games/malin/malheur.py",
    "atout/games/malin/notation.py",
    "atout/games/malin/options.py",
    "atout/games/malin/position.py",
    "atout/games/malin/rules.py",
    "atout/games/malin/sampling.py",
    "atout/games/malin/seen.py",
    "atout/games/malin/tensor.py",
    "atout/games/sticheln/cards.py",
    "atout/games/sticheln/game.py",
    "atout/games/sticheln/heuristic.py",
    "atout/games/sticheln/position.py",
    "atout/games/sticheln/rules.py",
    "atout/games/sticheln/sampling.py",
    "atout/games/sticheln/seen.py",
    "atout/games/sticheln/tensor.py",
    "atout/games/nain_jaune/cards.py",
    "atout/games/nain_jaune/game.py",
    "atout/games/nain_jaune/heuristic.py",
    "atout/games/nain_jaune/position.py",
    "atout/games/nain_jaune/rules.py",
    "atout/games/nain_jaune/sampling.py",
    "atout/games/nain_jaune/seen.py",
    "atout/games/nain_jaune/tensor.py",
)

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # src/ (or site-packages/)


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _extension(path: str) -> str | None:
    """The compiled file of a module's source, or None when it is not built."""
    base = os.path.join(_ROOT, path.removesuffix(".py"))
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if os.path.exists(base + suffix):
            return base + suffix
    return None


#: Whether the sources are a checkout one edits (``src/`` beside ``.git``: an editable
#: install), where a source newer than its build is a stale build.  An installed wheel is
#: not: its files' times are those of its unpacking, in no useful order.
_CHECKOUT = os.path.exists(os.path.join(_ROOT, os.pardir, ".git"))


def stale(modules: Sequence[str] = COMPILED) -> list[str]:
    """The compiled modules not built, or built before their source last changed ("rebuild these")."""
    out = []
    for path in modules:
        built = _extension(path)
        source = os.path.join(_ROOT, path)
        if built is None or (
            _CHECKOUT and os.path.exists(source) and os.path.getmtime(source) > os.path.getmtime(built)
        ):
            out.append(path)
    return out


class _PureFinder:
    """Loads the modules of :data:`COMPILED` from their ``.py`` files, never from a ``.so``."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names or path is None:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            source = os.path.join(entry, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def _choose() -> str:
    """Install the pure finder when the pure build is to run; say which build it is."""
    if not COMPILED:
        return "pure"
    names = frozenset(_module_name(p) for p in COMPILED)
    if os.environ.get("ATOUT_PURE") == "1":
        reason = "pure (ATOUT_PURE=1)"
    else:
        missing = stale()
        if not missing:
            return "compiled"
        if len(missing) == len(COMPILED):
            return "pure"  # never built (an install without a compiler, or ATOUT_PURE=1 at build time)
        warnings.warn(
            f"atout: the compiled rules engine is older than its source ({', '.join(missing[:3])}"
            f"{'...' if len(missing) > 3 else ''}): running the pure Python modules; "
            "rebuild with `./run` or `pip install -e .`",
            RuntimeWarning,
            stacklevel=3,
        )
        reason = "pure (compiled build out of date)"
    sys.meta_path.insert(0, _PureFinder(names))
    return reason


#: Which build runs in this process: "compiled", or "pure" and why; set by :func:`choose`.
BUILD = ""


def choose() -> str:
    """Decide which build runs (once: :mod:`atout` calls it before importing the engine)."""
    global BUILD
    if not BUILD:
        BUILD = _choose()
    return BUILD


def compiled() -> bool:
    """Whether the rules engine runs compiled (mypyc) in this process, rather than as pure Python."""
    return choose() == "compiled"


if __name__ == "__main__":
    # ``python src/atout/_build.py``: exit 1 when a compiled build is there and out of date
    # (./run rebuilds then); 0 when it is current, or when there is none (a pure install stays so).
    old = stale()
    sys.exit(1 if old and any(_extension(p) for p in COMPILED) else 0)
