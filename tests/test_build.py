"""The compiled and the pure rules engine (issue 48): which one runs, and that ATOUT_PURE=1 is obeyed."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import atout
from atout import _build

SRC = Path(atout.__file__).resolve().parent.parent


def _which(env: dict[str, str]) -> list[str]:
    """``atout.compiled()`` and the file each compiled module was loaded from, in a fresh process."""
    code = (
        "import importlib, atout, atout._build as b\n"
        "print(atout.compiled())\n"
        "for p in b.COMPILED: print(importlib.import_module(b._module_name(p)).__file__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(SRC), **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.split()


def test_pure_is_obeyed_even_beside_compiled_modules() -> None:
    flag, *files = _which({"ATOUT_PURE": "1"})
    assert flag == "False"
    assert files and all(f.endswith(".py") for f in files)


def test_the_build_said_is_the_build_loaded() -> None:
    """``atout.compiled()`` is true exactly when every compiled module comes from its extension."""
    flag, *files = _which({"ATOUT_PURE": ""})
    assert len(files) == len(_build.COMPILED)
    assert (
        all(f.endswith(".py") for f in files)
        if flag == "False"
        else not any(f.endswith(".py") for f in files)
    )
    assert (flag == "True") == (not _build.stale())


def test_the_compiled_modules_exist() -> None:
    """The list setup.py compiles names real modules (a module renamed would silently stay pure)."""
    for path in _build.COMPILED:
        assert (SRC / path).is_file(), path


def _opens_to_interpreted(node: ast.ClassDef) -> bool:
    """Whether a compiled class says ``@mypyc_attr(allow_interpreted_subclasses=True)``
    (:mod:`atout.core.native`): mypyc then takes an interpreted subclass (the engine's
    ``Game`` and ``State``, which a game written in plain Python extends)."""
    return any(
        isinstance(d, ast.Call)
        and isinstance(d.func, ast.Name)
        and d.func.id == "mypyc_attr"
        and any(
            k.arg == "allow_interpreted_subclasses"
            and isinstance(k.value, ast.Constant)
            and k.value.value is True
            for k in d.keywords
        )
        for d in node.decorator_list
    )


def _compiled_classes() -> dict[str, set[str]]:
    """The classes each compiled module defines that refuse interpreted subclasses, by module name
    (``atout.core.reason``)."""
    out: dict[str, set[str]] = {}
    for path in _build.COMPILED:
        tree = ast.parse((SRC / path).read_text(encoding="utf-8"))
        out[_build._module_name(path)] = {
            n.name for n in tree.body if isinstance(n, ast.ClassDef) and not _opens_to_interpreted(n)
        }
    return out


def test_the_engine_classes_open_to_plain_python_games() -> None:
    """``Game`` and ``State`` are compiled, and a game written in plain Python may extend them."""
    assert "atout/core/game.py" in _build.COMPILED
    assert not {"Game", "State"} & _compiled_classes()["atout.core.game"]


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an ``import from`` names, its dots resolved against ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")[: -node.level]
    return ".".join([*base, *([node.module] if node.module else [])])


def test_no_interpreted_class_inherits_from_a_compiled_one() -> None:
    """mypyc's classes refuse interpreted subclasses ("interpreted classes cannot inherit from
    compiled", at import or first use): a class of a compiled module that code elsewhere
    subclasses must stay pure.  Read from every module of atout and the tests, imports
    followed by name (``from ..core.words import Words as TableWords``) and by module
    (``words.Words``)."""
    compiled = _compiled_classes()
    roots = [(SRC / "atout", "atout"), (SRC.parent / "tests", "tests")]
    found = []
    for root, package in roots:
        for file in root.rglob("*.py"):
            rel = file.relative_to(root).with_suffix("")
            module = ".".join([package, *rel.parts]).removesuffix(".__init__")
            if f"{module.replace('.', '/')}.py" in _build.COMPILED:
                continue
            tree = ast.parse(file.read_text(encoding="utf-8"))
            classes: dict[str, str] = {}  # a local name: the compiled class it is
            modules: dict[str, str] = {}  # a local name: the compiled module it is
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    source = _absolute(module, node)
                    for alias in node.names:
                        local = alias.asname or alias.name
                        if alias.name in compiled.get(source, ()):
                            classes[local] = f"{source}.{alias.name}"
                        elif f"{source}.{alias.name}" in compiled:
                            modules[local] = f"{source}.{alias.name}"
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        if alias.name in compiled and alias.asname:
                            modules[alias.asname] = alias.name
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef):
                    continue
                for base in node.bases:
                    if isinstance(base, ast.Subscript):
                        base = base.value
                    name = None
                    if isinstance(base, ast.Name) and base.id in classes:
                        name = classes[base.id]
                    elif (
                        isinstance(base, ast.Attribute)
                        and isinstance(base.value, ast.Name)
                        and base.value.id in modules
                        and base.attr in compiled[modules[base.value.id]]
                    ):
                        name = f"{modules[base.value.id]}.{base.attr}"
                    if name:
                        found.append(f"{module}.{node.name} inherits from {name}")
    assert not found, found
