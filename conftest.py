"""The doctests of the compiled core's modules.

When the compiled core (mypyc, ``kozyr/core.py``) is in use, its modules are C extensions
and pytest cannot import their ``.py`` files for the doctests (an import file mismatch):
those doctests run instead against the Python source, with the engines' tests, in
``tests/test_core.py``.
"""

from __future__ import annotations

from pathlib import Path

from kozyr.core import COMPILED, core_kind

_SRC = Path(__file__).resolve().parent / "src"
_COMPILED_SOURCES = frozenset(
    (_SRC.joinpath(*m.split(".")).with_suffix(".py")).resolve() for m in COMPILED
)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.resolve() in _COMPILED_SOURCES and core_kind().startswith("compiled"):
        return True
    return None
