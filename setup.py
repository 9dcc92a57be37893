"""The compiled build of the rules engine (issue 48): everything else is in pyproject.toml.

The modules :data:`atout._build.COMPILED` names are compiled with mypyc from
their typed source into extension modules beside it (an editable install puts
them in ``src/``).  The ``.py`` files stay the one source of the rules and the
pure fallback, installed either way:

* ``ATOUT_PURE=1`` at build time: no compilation, a pure install;
* no mypyc, or no working C compiler: a pure install too, with a message
  saying so (the engine runs the same rules, slower).

At run time ``ATOUT_PURE=1`` selects the pure modules even where compiled ones
are present, and a compiled module older than its source is never run
(src/atout/_build.py).
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """:data:`atout._build.COMPILED`, read from the file (the package is not importable yet)."""
    tree = ast.parse((HERE / "src/atout/_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "COMPILED"
        ):
            assert node.value is not None
            value: list[str] = list(ast.literal_eval(node.value))
            return value
    raise RuntimeError("src/atout/_build.py declares no COMPILED")


def say(text: str) -> None:
    print(f"atout: {text}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):
    """Compile the extensions if a compiler can; otherwise leave the pure install, saying so."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing or failing compiler: CCompilerError, PlatformError...
            self.extensions = []
            say(
                f"could not compile the rules engine ({type(error).__name__}: {str(error)[:160]}); installing the pure Python engine"
            )
            return
        # Newer than every source now, even those whose C code did not change (a comment edited,
        # so nothing was rebuilt): atout._build takes a .so older than its .py for a stale build.
        for extension in self.extensions:
            built = self.get_ext_fullpath(extension.name)
            if os.path.exists(built):
                os.utime(built)


def ext_modules() -> list[Any]:
    if os.environ.get("ATOUT_PURE") == "1":
        say("ATOUT_PURE=1: installing the pure Python rules engine (not compiled)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed: installing the pure Python rules engine (not compiled)")
        return []
    modules = compiled_modules()
    say(f"compiling the rules engine with mypyc ({len(modules)} modules, a minute or two)")
    paths = [str(Path("src") / m) for m in modules]
    try:
        extensions: list[Any] = mypycify(paths, opt_level="3", verbose=False)
    except (Exception, SystemExit) as error:  # mypyc reports a type error by exiting
        say(f"mypyc could not compile the rules engine ({error}); installing the pure Python engine")
        return []
    return extensions


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
