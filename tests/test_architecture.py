"""The import contract of docs/architecture.md, checked by reading the sources (issue 19).

Every ``import`` in src/atout is read with :mod:`ast` (nothing is imported),
including the imports inside functions, which are how a cycle or a wall
breach usually hides.  Imports under ``if TYPE_CHECKING:`` are left out: they
never run.  Two kinds of checks:

* **Walls**: which part of atout may import which other part and which
  third-party library (the rules engine imports the standard library only,
  rich only in ``render.py`` modules and the CLI, numpy only in the batch
  simulators, the research adapters and the statistics, ...).  A breach names the
  module, the line and the import.
* **Cycles**: the strongly connected components of the module graph must be
  single modules: no import cycle anywhere in atout, inside the game packages,
  bots and cli included.  Each game reads bottom-up (``cards`` -> ``rules`` ->
  ``view`` -> ``game`` -> ``sampling``, ``position``, ``tensor``, ``bot``), and a
  module the game needs but which imports it back is named by path
  (``Game.sampler``) rather than imported.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


@dataclass(frozen=True)
class Import:
    """One module imported by another: ``target`` is absolute (``atout.core.game``, ``numpy``)."""

    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} (line {self.line}) imports {self.target}"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted((SRC / "atout").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement that can run (``if TYPE_CHECKING:`` bodies skipped)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            for other in node.orelse:
                yield from _import_nodes(other)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _import_nodes(node)


def _imports_of(module: str, path: Path) -> list[Import]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[Import] = []
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend(Import(module, alias.name, node.lineno) for alias in node.names)
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join([*base, node.module] if node.module else base)
        else:
            target = node.module or ""
        if target == "__future__":
            continue
        for alias in node.names:
            # ``from . import cards`` imports the module ``pkg.cards``; ``from .game import X`` the module.
            sub = f"{target}.{alias.name}"
            out.append(Import(module, sub if sub in MODULES else target, node.lineno))
    return out


@functools.cache
def imports() -> list[Import]:
    """Every import of src/atout, read once a process, when a test first asks: not at collection,
    where every test worker of a run (and the pure pass) parsed the 195 modules for the few tests
    that read them on one worker (0.7 s of CPU a process, issue 48 item 4)."""
    return [imp for module, path in MODULES.items() for imp in _imports_of(module, path)]


def _top(name: str) -> str:
    return name.split(".")[0]


def _area(module: str) -> str:
    """The part of atout a module belongs to: ``core``, ``games``, ``cli``, ``match``, ...; ``atout`` itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "atout"


def _is_stdlib(name: str) -> bool:
    return _top(name) in sys.stdlib_module_names


#: What each part of atout may import from atout (besides itself).  The layers of
#: docs/architecture.md: the language folders (i18n, a data package importing the
#: standard library only) under everything, then the rules (core, games), the match
#: loop, records and bots over them, then the clients (tournament, envs, testing,
#: batch, server, cli).
ALLOWED_INTERNAL: dict[str, set[str]] = {
    "i18n": set(),  # the floor: every language's files, read by the engines' messages and every client
    "atout": {"core", "_build"},
    "_build": set(),  # which engine runs, compiled or pure (issue 48): decided before any is imported
    "core": {"i18n"},  # the refusals' templates, the terminal's words, the rules pages
    "games": {"core"},
    "match": {"core"},
    "records": {"core"},
    "bots": {"core", "match", "batch"},  # the batch-engine search (bots/batched.py) plays out in atout.batch
    "learn": {
        "core",
        "batch",
        "bots",
        "match",
    },  # training over the batch engine (distillation: teacher matches through the engine); writes the bots' model format
    "tournament": {"core", "bots", "match", "records"},
    "envs": {"core", "bots", "match", "batch"},  # the vector env steps atout.batch
    "testing": {"core", "envs", "records", "match", "bots"},
    "batch": {"core", "games"},  # a numpy simulator per game, built from that game's cards and rules
    "server": {"core", "bots", "match", "records", "i18n"},  # the languages spoken, the pages' dictionaries
    "cli": {"core", "bots", "match", "records", "tournament", "server", "learn"},
    "__main__": {"cli"},  # ``python -m atout``: the command line, nothing else
}

#: Third-party libraries, and the parts of atout that may import them: an area
#: (``cli``) or a pattern of module names (``atout.games.*.render``).
ALLOWED_THIRD_PARTY: dict[str, set[str]] = {
    "rich": {"cli", "atout.games.*.render", "atout.games.terminal"},
    "typer": {"cli"},
    "uvicorn": {"server", "cli"},
    "starlette": {"server"},
    "anyio": {"server"},
    "sqlalchemy": {"server"},
    "psycopg": {"server"},  # LISTEN/NOTIFY and advisory locks (several processes on PostgreSQL)
    "markdown_it": {"server"},
    "numpy": {
        "envs",
        "atout.testing.adapters",
        "batch",
        "tournament",
        "learn",
        "atout.bots.learned",
        "atout.bots.batched",
    },
    "jax": {"batch"},  # the JAX batch (atout.batch.jax, the optional 'jax' extra): nothing else needs it
    "torch": {"learn"},  # training only (the optional 'train' extra): nothing that plays imports it
    "pettingzoo": {"envs", "atout.testing.adapters"},
    "gymnasium": {"envs", "atout.testing.adapters"},
    "scipy": {"atout.batch.common"},  # the sparse tensors' product (a network's first layer, issue 49)
    "threadpoolctl": {
        "atout.envs.vector",
        "atout.learn.train",
    },  # numpy's BLAS threads: learned opponents, training (issue 49)
    "stable_baselines3": {"atout.envs.sb3"},  # optional: the SB3 VecEnv adapter, when installed
    "sb3_contrib": {"atout.envs.sb3"},  # optional: SB3Policy.load reads a MaskablePPO snapshot
    "pyspiel": {"envs", "atout.testing.adapters"},
    "open_spiel": {"envs", "atout.testing.adapters"},
    "openskill": {"tournament", "atout.server.profiles"},  # the accounts' ratings, on the tournament's scale
    "argon2": {"atout.server.accounts"},  # the accounts' password hashes
    "matplotlib": {"tournament", "learn"},
    "ray": {"tournament", "learn"},
}

#: Known breaches of the walls (issue 19), each to be removed when fixed.  None left: the
#: web table's card names ask each game to read its own notation (``Game.card_name``).
KNOWN_BREACHES: set[str] = set()


#: The drawing kit the games' terminal renderers share (rich): not a game, not the rules.
TERMINAL = "atout.games.terminal"


def _is_renderer(module: str) -> bool:
    return fnmatch(module, "atout.games.*.render")


def _may_import_third_party(imp: Import) -> bool:
    allowed = ALLOWED_THIRD_PARTY.get(_top(imp.target))
    if allowed is None:
        return False
    return any(_area(imp.source) == entry or fnmatch(imp.source, entry) for entry in allowed)


def _breaches() -> list[Import]:
    out = []
    for imp in imports():
        if _top(imp.target) == "atout":
            source, target = _area(imp.source), _area(imp.target)
            if source == target:
                other_game = imp.target.split(".")[:3] != imp.source.split(".")[:3]
                shared_kit = imp.target == TERMINAL and _is_renderer(imp.source)
                if source == "games" and other_game and not shared_kit:
                    out.append(imp)  # a game imports another game (renderers share the terminal kit)
                continue
            if target not in ALLOWED_INTERNAL[source]:
                out.append(imp)
        elif not _is_stdlib(imp.target) and not _may_import_third_party(imp):
            out.append(imp)
    return out


def test_every_area_has_a_rule() -> None:
    assert {_area(m) for m in MODULES} == set(ALLOWED_INTERNAL)


def test_the_reader_sees_the_imports() -> None:
    """Guard the guard: imports we know are there (in functions too) are found, TYPE_CHECKING ones are not."""
    found = {(imp.source, imp.target) for imp in imports()}
    assert ("atout.cli.tournament", "atout.tournament.report") in found  # inside a function
    assert ("atout.cli.output", "rich.console") in found
    assert ("atout.games.wizard.render", "atout.games.wizard.cards") in found  # ``from . import cards as C``
    assert ("atout.games.wizard.render", "atout.games.wizard.view") not in found  # TYPE_CHECKING only
    assert ("atout.core.reason", "atout.i18n") in found  # ``from .. import i18n``


def test_walls() -> None:
    breaches = _breaches()
    unknown = [str(imp) for imp in breaches if f"{imp.source} imports {imp.target}" not in KNOWN_BREACHES]
    assert not unknown, "imports across the walls of docs/architecture.md:\n  " + "\n  ".join(unknown)
    seen = {f"{imp.source} imports {imp.target}" for imp in breaches}
    assert seen >= KNOWN_BREACHES, f"fixed, strike off KNOWN_BREACHES: {sorted(KNOWN_BREACHES - seen)}"


def test_rules_engine_is_standard_library_only() -> None:
    """core and games (renderers aside) import nothing but the standard library, themselves and the
    language folders (``atout.i18n``: data read with the standard library, which imports nothing of atout)."""
    engine = [
        imp
        for imp in imports()
        if _area(imp.source) in ("core", "games", "i18n")
        and MODULES[imp.source].name != "render.py"
        and imp.source != TERMINAL
        and not (
            _is_stdlib(imp.target)
            or (_area(imp.target) in ("core", "games", "i18n") and _top(imp.target) == "atout")
        )
    ]
    assert not engine, "the rules engine must stay dependency-free:\n  " + "\n  ".join(map(str, engine))


def test_nothing_in_the_rules_imports_a_renderer() -> None:
    render = [
        imp
        for imp in imports()
        if (imp.target.endswith(".render") and _area(imp.source) != "cli")
        or (imp.target == TERMINAL and not _is_renderer(imp.source))
    ]
    assert not render, "render modules are for the CLI only:\n  " + "\n  ".join(map(str, render))


def _python_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in imports():
        if imp.target in MODULES and imp.target != imp.source:
            graph[imp.source].add(imp.target)
    return graph


def _cycles(graph: dict[str, set[str]] | None = None) -> set[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm, iterative).

    ``graph``: module -> the modules it imports (default: atout's Python modules).
    """
    if graph is None:
        graph = _python_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[frozenset[str]] = set()
    counter = 0
    for root in graph:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.add(frozenset(component))
    return out


def test_no_import_cycle() -> None:
    found = sorted(sorted(c) for c in _cycles())
    assert not found, f"import cycles (break them: bottom-up modules, or a module named by path): {found}"


# -- the web page's ES modules ----------------------------------------------------------------

STATIC = SRC / "atout" / "server" / "static"
#: ``import ... from "x"``, ``export ... from "x"``, ``import "x"`` and ``import("x")`` /
#: ``import(`./games/${game}.js`)`` (a template: every file its pattern matches).
_ES_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])(?P<a>[^'"]+)\1"""
    r"""|^\s*import\s*(['"])(?P<b>[^'"]+)\3"""
    r"""|\bimport\(\s*(?P<q>['"`])(?P<c>[^'"`]+)(?P=q)\s*\)""",
    re.M,
)


def _js_imports(path: Path) -> set[str]:
    """The static files ``path`` imports, as paths relative to the static folder."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)  # comments mention imports in prose
    out: set[str] = set()
    for m in _ES_IMPORT.finditer(text):
        spec = m.group("a") or m.group("b") or m.group("c")
        if not spec.startswith("."):
            continue
        pattern = re.sub(r"\$\{[^}]*\}", "*", spec)
        base = path.parent
        for target in base.glob(pattern) if "*" in pattern else [base / spec]:
            out.add(target.resolve().relative_to(STATIC.resolve()).as_posix())
    return out


def _js_graph() -> dict[str, set[str]]:
    files = sorted(STATIC.rglob("*.js"))
    return {p.relative_to(STATIC).as_posix(): _js_imports(p) for p in files}


def test_the_reader_sees_the_js_imports() -> None:
    graph = _js_graph()
    assert "decks/wizard.js" in graph["cards.js"]
    assert "decks/kit.js" in graph["decks/wizard.js"]
    assert {"games/wizard.js", "games/malin.js"} <= graph["table.js"]  # the dynamic import's pattern
    missing = {t for targets in graph.values() for t in targets} - set(graph)
    assert not missing, f"imports of files that do not exist: {sorted(missing)}"


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}, "d.js": {"a.js"}}
    assert _cycles(graph) == {frozenset({"a.js", "b.js", "c.js"})}


def test_no_js_import_cycle() -> None:
    found = sorted(sorted(c) for c in _cycles(_js_graph()))
    assert not found, f"ES module import cycles in static/ (move what both sides need down a module): {found}"
