"""Outside bots by import path: ``py:MODULE:NAME`` and ``py:path/to/file.py:NAME``.

Why: a researcher's or hobbyist's bot lives in their own code, and should enter
``atout simulate``, ``atout tournament``, ``atout play`` and (when the operator
allows it) the web table without a harness of its own.  ``NAME`` is either

* a subclass of :class:`atout.Bot`, built as ``NAME(seed)`` (or ``NAME()``
  when its constructor takes no seed; its ``rng`` is then seeded for it), or
* any other callable ``view -> action`` (an action id, or its notation such as
  ``"bid 1"``), wrapped in :class:`CallableBot`.

``NAME`` may be dotted (``Outer.Inner``).  The current directory is searched
after ``sys.path`` (as ``python -m`` would), so ``py:mybot:MyBot`` finds
``./mybot.py`` from any ``atout`` command.  A file path runs that file as a
module (once per process, cached under a name derived from its absolute
path).  Whatever is wrong — no such module or file, an import that fails, no
such name, a name that is neither a bot class nor a callable — is an
:class:`~atout.core.errors.OptionError` saying which, and where.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..core.bot import Bot
from ..core.errors import OptionError
from ..core.game import View

#: The prefix of these bot names.
PREFIX = "py:"
USAGE = "write py:MODULE:NAME or py:path/to/file.py:NAME (NAME: an atout.Bot subclass or a view -> action callable)"


class CallableBot(Bot):
    """A plain function (any callable) ``view -> action`` playing as a bot.

    The answer may be an action id or its notation (``view.parse`` reads it);
    anything else is reported as the bot's fault, never replaced.
    """

    def __init__(self, policy: Callable[[View], int | str], name: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.name = name

    def choose(self, view: View) -> int:
        answer = self.policy(view)
        if isinstance(answer, str):
            return view.parse(answer)
        if isinstance(answer, Bot):
            raise TypeError(
                f"{self.name} returned a bot: it is called with each view and answers an action; "
                "to name a bot, name its class (a subclass of atout.Bot)"
            )
        if isinstance(answer, bool) or not isinstance(answer, int):
            raise TypeError(f"{self.name} returned {answer!r:.60}: expected an action id or its notation")
        return int(answer)


def split_spec(spec: str) -> tuple[str, str]:
    """``py:where:NAME`` -> (where, NAME); ``where`` may hold colons (a Windows path)."""
    body = spec[len(PREFIX) :] if spec.startswith(PREFIX) else spec
    where, sep, name = body.strip().rpartition(":")
    if not sep or not where or not name:
        raise OptionError(f"{spec!r}: {USAGE}")
    return where, name


def _is_file(where: str) -> bool:
    return where.endswith(".py") or "/" in where or os.sep in where


def _module_from_file(spec: str, where: str) -> Any:
    path = Path(where).expanduser()
    if not path.is_file():
        raise OptionError(f"{spec!r}: no file {where} (from {os.getcwd()})")
    resolved = path.resolve()
    # One module per file and process: a tournament builds a bot per match.
    name = "atout_py_bot_" + hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    loader_spec = importlib.util.spec_from_file_location(name, resolved)
    if loader_spec is None or loader_spec.loader is None:
        raise OptionError(f"{spec!r}: {where} cannot be loaded as Python")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[name] = module  # before running it: dataclasses and pickling look it up
    try:
        loader_spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise OptionError(f"{spec!r}: running {where} failed: {type(exc).__name__}: {exc}") from None
    return module


def _import(spec: str, where: str) -> Any:
    for attempt in range(2):
        try:
            return importlib.import_module(where)
        except ModuleNotFoundError as exc:
            missing = exc.name or where
            top = where.split(".")[0]
            cwd = os.getcwd()
            if attempt == 0 and missing == top and cwd not in sys.path:
                sys.path.append(cwd)  # the current directory, after everything else
                continue
            if where == missing or where.startswith(missing + "."):
                raise OptionError(
                    f"{spec!r}: no module named {missing!r} (searched sys.path and {cwd})"
                ) from None
            raise OptionError(f"{spec!r}: importing {where} failed: no module named {missing!r}") from None
        except Exception as exc:
            raise OptionError(f"{spec!r}: importing {where} failed: {type(exc).__name__}: {exc}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def _candidates(module: Any) -> list[str]:
    """Names in ``module`` that could be given: its own bot classes and functions."""
    out = []
    for key, value in vars(module).items():
        if key.startswith("_") or getattr(value, "__module__", None) != module.__name__:
            continue
        if (inspect.isclass(value) and issubclass(value, Bot)) or inspect.isfunction(value):
            out.append(key)
    return sorted(out)


def resolve(spec: str) -> Any:
    """The object ``spec`` names (a bot class or a callable), checked; see the module docstring."""
    where, name = split_spec(spec)
    module = _module_from_file(spec, where) if _is_file(where) else _import(spec, where)
    target: Any = module
    for i, part in enumerate(name.split(".")):
        if not hasattr(target, part):
            owner = where if i == 0 else f"{where}:{'.'.join(name.split('.')[:i])}"
            known = _candidates(module) if i == 0 else []
            hint = f" (it has: {', '.join(known)})" if known else ""
            raise OptionError(f"{spec!r}: {owner} has no {part!r}{hint}")
        target = getattr(target, part)
    if inspect.isclass(target):
        if not issubclass(target, Bot):
            raise OptionError(
                f"{spec!r}: {name} is a class but not an atout.Bot subclass "
                "(subclass atout.Bot, or name a function view -> action)"
            )
        if inspect.isabstract(target):
            missing = ", ".join(sorted(getattr(target, "__abstractmethods__", ())))
            raise OptionError(f"{spec!r}: {name} is abstract: it does not implement {missing}")
        return target
    if isinstance(target, Bot):
        raise OptionError(
            f"{spec!r}: {name} is a bot instance; name its class (every seat needs its own bot)"
        )
    if not callable(target):
        raise OptionError(
            f"{spec!r}: {name} is {type(target).__name__}, not an atout.Bot subclass nor a view -> action callable"
        )
    return target


def _construct(cls: type[Bot], seed: int | None) -> tuple[Bot, bool]:
    """``cls`` built with ``seed`` (by keyword when it has a ``seed`` parameter, else as
    the first argument), or without arguments; and whether the seed was given."""
    try:
        parameters = set(inspect.signature(cls).parameters)
    except (TypeError, ValueError):
        parameters = set()  # a signature Python cannot read: try positionally
    if "seed" in parameters:
        return cls(seed=seed), True
    try:
        inspect.signature(cls).bind()
        takes_nothing = True
    except (TypeError, ValueError):
        takes_nothing = False
    if takes_nothing:
        return cls(), False
    return cls(seed), True


def load_py_bot(spec: str, seed: int | None = None) -> Bot:
    """A fresh bot from a ``py:`` name (the object named is resolved once per process)."""
    target = resolve(spec)
    name = spec.strip()
    if not (inspect.isclass(target) and issubclass(target, Bot)):
        return CallableBot(target, name, seed)
    try:
        bot, seeded = _construct(target, seed)
    except Exception as exc:
        raise OptionError(
            f"{spec!r}: building {target.__name__} failed: {type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(getattr(bot, "rng", None), random.Random):
        bot.rng = random.Random(seed)  # a constructor that skipped Bot.__init__
    elif not seeded:
        bot.rng.seed(seed)
    if bot.name == Bot.name:
        bot.name = name  # a class without a name of its own is known by its spec
    return bot


__all__ = ["PREFIX", "CallableBot", "load_py_bot", "resolve", "split_spec"]
