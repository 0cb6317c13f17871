"""The web page's scripts without a browser (issue 28, "the client in parts"): their pure
logic (plurals, formatting, the score sheet and summaries, sorting a hand, stakes, the
store) under Node's own test runner, ``node --test tests/js``, skipped where there is no
``node`` (``.ci/run`` installs Debian's nodejs); and their shape, read from the source: no
module of code over 600 lines, no module importing itself back however far round."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kozyr.games import GAMES
from kozyr.web import STATIC

JS_TESTS = Path(__file__).parent / "js"
SCRIPTS = STATIC / "js"
MOST_LINES = 600
CATALOGUES = {"i18n.js"}  # the message catalogue: words, not code
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s+["'](\.[^"']+)["']""", re.M)


def _scripts() -> dict[str, Path]:
    return {p.relative_to(SCRIPTS).as_posix(): p for p in sorted(SCRIPTS.rglob("*.js"))}


def _normal(path: str) -> str:
    """A path without its ``.`` and ``..`` parts: ``views/../games/index.js`` is
    ``games/index.js``."""
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def _imports() -> dict[str, set[str]]:
    """Each module's imports (and re-exports) of the page's own modules, by path."""
    graph: dict[str, set[str]] = {}
    for name, path in _scripts().items():
        here = Path(name).parent.as_posix()
        targets = IMPORT.findall(path.read_text(encoding="utf-8"))
        graph[name] = {_normal(f"{here}/{target}") for target in targets}
    return graph


def test_no_script_module_is_over_600_lines() -> None:
    long = {
        name: n
        for name, path in _scripts().items()
        if name not in CATALOGUES
        and (n := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def test_no_script_module_imports_itself_back() -> None:
    graph = _imports()
    assert {"app.js", "views/lobby.js", "games/index.js"} <= graph.keys()
    assert "views/table_screen.js" in graph["app.js"]
    assert all(target in graph for targets in graph.values() for target in targets)
    circles = []
    for start in graph:
        # every module reachable from start; start among them is a circle
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(graph[name])
        if start in seen:
            circles.append(start)
    assert circles == []


def test_the_facts_the_js_tests_use_are_the_specs() -> None:
    # tests/js/game_facts.json stands in for GET /api/game-facts.
    written = json.loads((JS_TESTS / "game_facts.json").read_text(encoding="utf-8"))
    assert written == [game.facts() for game in GAMES.values()]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_pages_pure_logic_passes_its_node_tests() -> None:
    assert sorted(JS_TESTS.glob("*.test.mjs")), "no JS tests found"
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, "--test", str(JS_TESTS)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout
