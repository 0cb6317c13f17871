"""The layers of ``ARCHITECTURE.md``, checked.

Every module under ``src/kozyr`` is parsed (never imported) and each of its kozyr imports
is found: at module level, under ``if TYPE_CHECKING:``, inside functions, relative ones,
and a module named by a string (``importlib.import_module("kozyr.bots.imperial.review")``
through a table of names). A module's layer is its top-level module or package under
``kozyr`` (``kozyr.games.imperial.state`` is in ``games``). Each layer may import only the
layers :data:`ALLOWED` gives it, which is the table of ``ARCHITECTURE.md``, row for row
(a test compares them); every allowed layer lies below it in :data:`LAYERS`. The root
package ``kozyr`` (``__version__``, and the compiled core's switch) may be imported by anyone.

An upward edge is an error unless it is in :data:`KNOWN_UPWARD`, with its reason; such an
import must stay inside a function (so that importing any module never loads a layer
above it), and an exception that no longer occurs must leave the list and the document.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import kozyr

SRC = Path(kozyr.__file__).resolve().parent
DOC = Path(__file__).resolve().parents[1] / "ARCHITECTURE.md"

LAYERS: tuple[str, ...] = (
    "core",
    "texts",
    "cards",
    "i18n",
    "messages",
    "games",
    "records",
    "bots",
    "interop",
    "arena",
    "review",
    "terminal",
    "review_command",
    "server",
    "web",
    "cli",
    "__main__",
)
"""Bottom first, as ``ARCHITECTURE.md`` lists them."""

_CORE = frozenset({"texts", "cards", "messages", "games", "records"})

ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "texts": frozenset(),
    "cards": frozenset({"texts"}),
    "i18n": frozenset({"texts", "cards"}),
    "messages": frozenset({"texts", "cards"}),
    "games": frozenset({"texts", "cards", "messages"}),
    "records": frozenset({"texts", "cards", "messages", "games"}),
    "bots": _CORE,
    "interop": _CORE | {"bots"},
    "arena": _CORE | {"bots"},
    "review": _CORE | {"bots"},
    "terminal": _CORE | {"i18n", "bots"},
    "review_command": _CORE | {"i18n", "bots", "review", "terminal"},
    "server": _CORE | {"i18n", "bots", "review", "review_command"},
    "web": frozenset(),
    "cli": frozenset(LAYERS) - {"core", "web", "cli", "__main__"},
    "__main__": frozenset({"cli"}),
}
"""What each layer may import besides itself and the root package ``kozyr``."""

KNOWN_UPWARD: dict[tuple[str, str], str] = {
    # The registry's `ismcts` kind plays through the OpenSpiel adapter, an optional extra:
    # imported inside the kind's constructor, so that no other bot ever loads OpenSpiel.
    ("kozyr.bots.registry", "kozyr.interop.ismcts"): "the arena's `ismcts` bot kind",
}
"""Edges pointing up the list, (importing module, imported module): each one inside a
function, and named in ``ARCHITECTURE.md``."""

_MODULE_NAME = re.compile(r"kozyr(\.[A-Za-z_][A-Za-z0-9_]*)+")


@dataclass(frozen=True)
class Edge:
    module: str
    target: str
    line: int
    lazy: bool
    """Inside a function: made when the function runs, not when the module is imported."""
    type_only: bool
    """Under ``if TYPE_CHECKING:``."""

    def __str__(self) -> str:
        where = " (in a function)" if self.lazy else " (TYPE_CHECKING)" if self.type_only else ""
        return f"{self.module}:{self.line} imports {self.target}{where}"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    """Whether ``kozyr.x.y`` names a module or package under ``src/kozyr``."""
    path = SRC.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "kozyr"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.edges: list[Edge] = []
        self._functions = 0
        self._type_checking = 0

    def _add(self, target: str, node: ast.AST) -> None:
        if target == "kozyr" or target.startswith("kozyr."):
            line = getattr(node, "lineno", 0)
            lazy, type_only = self._functions > 0, self._type_checking > 0
            self.edges.append(Edge(self.module, target, line, lazy, type_only))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function
    visit_Lambda = _function

    def visit_If(self, node: ast.If) -> None:
        if not _is_type_checking(node.test):
            self.generic_visit(node)
            return
        self._type_checking += 1
        for child in node.body:
            self.visit(child)
        self._type_checking -= 1
        for child in node.orelse:
            self.visit(child)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[: len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for alias in node.names:
            # `from kozyr import cards` imports the module kozyr.cards
            sub = f"{source}.{alias.name}"
            self._add(sub if _is_module(sub) else source, node)

    def visit_Constant(self, node: ast.Constant) -> None:
        # a module named by a string, for importlib.import_module
        value = node.value
        if isinstance(value, str) and _MODULE_NAME.fullmatch(value) and _is_module(value):
            self._add(value, node)


def _edges() -> list[Edge]:
    edges: list[Edge] = []
    for path in sorted(SRC.rglob("*.py")):
        visitor = _Imports(_module_name(path), path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        edges += visitor.edges
    return edges


EDGES = _edges()


def _table_rows(text: str, what: str) -> list[tuple[str, frozenset[str]]]:
    """The numbered rows of a table of ARCHITECTURE.md: (name, the names it may import),
    in order."""
    rows = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not re.fullmatch(r"\d+", cells[0]):
            continue
        name = re.fullmatch(r"`([\w()]+)`", cells[1])
        assert name, f"ARCHITECTURE.md: a {what} row names its {what} in backticks: {line}"
        rows.append((name.group(1), frozenset(re.findall(r"`(\w+)`", cells[2]))))
    return rows


def _doc_rows() -> list[tuple[str, frozenset[str]]]:
    """The layer table of ARCHITECTURE.md (the server's rooms have a table of their own)."""
    return _table_rows(DOC.read_text(encoding="utf-8").split("## Inside the server")[0], "layer")


_SAMPLE = """
from typing import TYPE_CHECKING
import kozyr.cards
from kozyr import games
from kozyr.games import GAMES
from . import deal
from ..records import load
if TYPE_CHECKING:
    from kozyr.server.storage.store import Store
def later():
    import kozyr.terminal.views
RANKERS = {"x": "kozyr.bots.registry", "y": "kozyr.db", "z": "not kozyr.review"}
"""


def test_the_walk_finds_imports_of_every_kind() -> None:
    """The parser sees every way of importing, in a module written for the test (as if
    it were ``kozyr/games/imperial/sample.py``)."""
    visitor = _Imports("kozyr.games.imperial.sample", is_package=False)
    visitor.visit(ast.parse(_SAMPLE))
    found = {e.target: (e.lazy, e.type_only) for e in visitor.edges}
    assert found == {
        "kozyr.cards": (False, False),
        "kozyr.games": (False, False),  # `from kozyr import games`, `from kozyr.games import`
        "kozyr.games.imperial.deal": (False, False),  # relative: `from . import deal`
        "kozyr.games.records": (False, False),  # `from ..records` (no such module: its layer)
        "kozyr.server.storage.store": (False, True),
        "kozyr.terminal.views": (True, False),
        "kozyr.bots.registry": (False, False),  # a module named by a string
    }


def test_every_module_is_in_a_layer() -> None:
    """A new top-level module or package goes into ARCHITECTURE.md and LAYERS first."""
    layers = {layer_of(_module_name(p)) for p in SRC.rglob("*.py")} - {"kozyr"}
    assert layers - set(LAYERS) == set(), "place these in ARCHITECTURE.md and LAYERS"


def test_the_root_package_imports_only_the_core_switch() -> None:
    assert [e.target for e in EDGES if e.module == "kozyr"] == ["kozyr.core"]


def test_each_layer_imports_only_what_it_may() -> None:
    wrong = [
        str(e)
        for e in EDGES
        if (a := layer_of(e.module)) != (b := layer_of(e.target))
        and "kozyr" not in (a, b)
        and b not in ALLOWED[a]
        and (e.module, e.target) not in KNOWN_UPWARD
    ]
    assert wrong == [], "imports ARCHITECTURE.md does not allow:\n" + "\n".join(wrong)


def test_allowed_imports_point_down_the_list() -> None:
    assert set(ALLOWED) == set(LAYERS)
    for layer, allowed in ALLOWED.items():
        above = {b for b in allowed if LAYERS.index(b) >= LAYERS.index(layer)}
        assert above == set(), f"{layer} may import layers at or above it: {above}"


@pytest.mark.parametrize(("module", "target"), sorted(KNOWN_UPWARD))
def test_known_upward_edges_are_lazy_and_still_there(module: str, target: str) -> None:
    assert LAYERS.index(layer_of(target)) > LAYERS.index(layer_of(module)), "not upward"
    edges = [e for e in EDGES if (e.module, e.target) == (module, target)]
    assert edges, "gone: remove it from KNOWN_UPWARD and from ARCHITECTURE.md"
    assert all(e.lazy for e in edges), [str(e) for e in edges if not e.lazy]
    path = module.removeprefix("kozyr.").replace(".", "/") + ".py"
    assert f"`{path}`" in DOC.read_text(encoding="utf-8"), f"ARCHITECTURE.md names {path}"


def test_architecture_md_has_this_layer_map() -> None:
    rows = _doc_rows()
    assert [layer for layer, _ in rows] == list(LAYERS)
    for layer, allowed in rows:
        assert allowed == ALLOWED[layer], f"ARCHITECTURE.md's row of {layer}"


# The server's rooms (ARCHITECTURE.md, "Inside the server"): bottom first; the root
# package's own modules (the composition) sit above every room.
SERVER_ROOMS: tuple[str, ...] = (
    "runtime",
    "storage",
    "transport",
    "play",
    "accounts",
    "money",
    "friends",
    "tables",
    "reviews",
    "talk",
    "(root)",
)


def room_of(name: str) -> str:
    """``kozyr.server.money.ledger`` is in ``money``; ``kozyr.server.app`` in the root."""
    parts = name.split(".")
    if len(parts) > 3 and parts[2] in SERVER_ROOMS:
        return parts[2]
    if len(parts) == 3 and parts[2] in SERVER_ROOMS:
        return parts[2]  # the room's package itself
    return "(root)"


def _server_doc_rows() -> list[tuple[str, frozenset[str]]]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Inside the server") :]
    return _table_rows(section[: section.index("\n## ", 1)], "room")


def test_every_server_folder_is_a_room() -> None:
    server = SRC / "server"
    folders = {p.name for p in server.iterdir() if (p / "__init__.py").is_file()}
    assert folders - {"routes"} == set(SERVER_ROOMS) - {"(root)"}


def test_architecture_md_has_this_room_map() -> None:
    rows = _server_doc_rows()
    assert [room for room, _ in rows] == list(SERVER_ROOMS)
    for floor, (room, allowed) in enumerate(rows):
        below = set(SERVER_ROOMS[:floor])
        if room == "(root)":
            continue  # "every room"
        assert allowed == below, f"ARCHITECTURE.md's row of {room}: {sorted(allowed)}"


def test_server_rooms_import_only_rooms_below() -> None:
    """A room imports itself and the rooms below it; TYPE_CHECKING and function-level
    imports count too (a circle held by them is still a circle)."""
    wrong = [
        str(e)
        for e in EDGES
        if e.module.startswith("kozyr.server.")
        and e.target.startswith("kozyr.server.")
        and SERVER_ROOMS.index(room_of(e.target)) > SERVER_ROOMS.index(room_of(e.module))
    ]
    assert wrong == [], "imports up the server's rooms:\n" + "\n".join(wrong)


def test_the_room_check_sees_an_upward_import() -> None:
    assert room_of("kozyr.server.money.ledger") == "money"
    assert room_of("kozyr.server.app") == "(root)"
    assert room_of("kozyr.server.routes.tables") == "(root)"
    assert SERVER_ROOMS.index(room_of("kozyr.server.tables.lobby")) > SERVER_ROOMS.index(
        room_of("kozyr.server.money.wallets")
    )
