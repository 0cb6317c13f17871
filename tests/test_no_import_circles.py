"""No module of kozyr imports itself back, however far round (issue 28).

Every import counts: at the top of a module, under ``if TYPE_CHECKING:``, inside a
function. A circle held together only by type hints is still a circle: the two files
cannot be read, tested or moved one without the other. The graph is built from the
source with ``ast``, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "kozyr"


def _modules() -> dict[str, Path]:
    """Every module under src/kozyr by dotted name; a package is named by its __init__."""
    found: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve(module: str, path: Path, level: int, target: str | None) -> str:
    """The absolute name a relative ``from ... import`` in ``module`` points at."""
    if level == 0:
        return target or ""
    base = module.split(".")
    if not _is_package(path):
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([target] if target else []))


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is one of our modules."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _edges(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                hit = _known(alias.name, modules)
                if hit is not None:
                    out.add(hit)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path, node.level, node.module)
            for alias in node.names:
                # ``from kozyr.x import y`` where y is a submodule is an edge to it
                sub = f"{base}.{alias.name}" if base else alias.name
                if sub in modules:
                    out.add(sub)
                    continue
                hit = _known(base, modules)
                if hit is not None:
                    out.add(hit)
    out.discard(module)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _edges(name, path, modules) for name, path in modules.items()}


def _ancestors(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the list of modules round it, or None.

    An edge from a module to a package that contains it (``kozyr.server.x`` imports
    ``kozyr.server``) is left out: importing a submodule runs its package's __init__ first
    in any case, so such an edge closes no loop of its own.
    """
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        colour[node] = grey
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt in _ancestors(node):
                continue
            if colour.get(nxt, black) == grey:
                return [*stack[stack.index(nxt) :], nxt]
            if colour.get(nxt) == white:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        colour[node] = black
        return None

    for start in sorted(graph):
        if colour[start] == white:
            found = visit(start)
            if found:
                return found
    return None


def all_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module: every circle's members."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    parts: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w in _ancestors(v) or w not in graph:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part: list[str] = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                parts.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return parts


def test_the_graph_sees_the_package() -> None:
    graph = import_graph()
    assert "kozyr.cards" in graph
    assert "kozyr.server.app" in graph
    # a relative import, a TYPE_CHECKING import and a function-level import all count
    assert graph["kozyr.server.app"], "the app imports something of ours"


def test_find_cycle_sees_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_circles() -> None:
    graph = import_graph()
    cycle = find_cycle(graph)
    if cycle is not None:
        groups = "\n".join("  " + ", ".join(g) for g in all_cycles(graph))
        message = "import circle: " + " -> ".join(cycle) + "\nall circles:\n" + groups
        print(message)
        raise AssertionError(message)
