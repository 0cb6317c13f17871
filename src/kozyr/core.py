"""The compiled core: which modules ``scripts/build-core`` compiles with mypyc, and the
switch back to their Python source.

The engines' hot modules, and the Imperial bots' playout policy and sampler, are plain,
strictly typed Python, and that source is always the reference. Compiled (mypyc, a C
extension next to each ``.py``) the engines run about twice as fast and a level-3 search
plays four to five times the worlds in its time (``docs/performance.md``). The compiled
build is used only while it is whole and current: all of it or none, because compiled
modules call one another directly, so one stale extension beside a changed source would
run old rules.

* ``KOZYR_PURE=1`` in the environment: the Python source, always.
* A source newer than the build (edited since ``scripts/setup`` last built it): the
  Python source, until the build is made again.
* No build (no C compiler, or never built): the Python source.

:func:`use_source_if_stale` runs when :mod:`kozyr` is first imported, before any of these
modules is.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED", "STAMP", "build_is_current", "core_kind", "use_source_if_stale"]

_FILES = (
    "cards.py",
    "games/tricks.py",
    "games/dealing.py",
    "games/imperial/card_tables.py",
    "games/imperial/declarations.py",
    "games/imperial/state.py",
    "games/emperor/actions.py",
    "games/emperor/tables.py",
    "games/emperor/titles.py",
    "games/emperor/exchange.py",
    "games/emperor/state.py",
    "bots/imperial/heuristic.py",
    "bots/imperial/value.py",
    "bots/imperial/knowledge.py",
    "bots/imperial/sampler.py",
)
# (as files of the package, not module names: what this module compiles, it never imports)

COMPILED: tuple[str, ...] = tuple("kozyr." + f[:-3].replace("/", ".") for f in _FILES)
"""The modules of the compiled core, each also kept as its Python source. A module whose
frozen dataclass may be unpickled stays out (a compiled one cannot be: ``ImperialDeal``,
the search loop's ``Ranked``)."""

STAMP = ".core-build"
"""The file, in the package's folder, that ``scripts/build-core`` writes last: its time
is the build's."""

_ROOT = Path(__file__).resolve().parent


def _source(module: str) -> Path:
    return _ROOT.parent.joinpath(*module.split(".")).with_suffix(".py")


def _extensions(module: str) -> list[Path]:
    source = _source(module)
    return [
        source.with_name(source.stem + suffix)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if source.with_name(source.stem + suffix).exists()
    ]


def build_is_current() -> bool:
    """Whether a compiled build of every module is there and newer than every source."""
    try:
        built = (_ROOT / STAMP).stat().st_mtime
        newest = max(_source(m).stat().st_mtime for m in COMPILED)
    except OSError:
        return False
    return newest <= built and all(_extensions(m) for m in COMPILED)


class _SourceFirst:
    """A meta path finder that loads the compiled core's modules from their ``.py``."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(name, _source(name))


def use_source_if_stale() -> None:
    """Makes the compiled core's modules load from their Python source when asked to
    (``KOZYR_PURE``), or when the build is missing or older than a source."""
    if any(m in sys.modules for m in COMPILED) or any(
        isinstance(f, _SourceFirst) for f in sys.meta_path
    ):
        return
    if os.environ.get("KOZYR_PURE") or not build_is_current():
        sys.meta_path.insert(0, _SourceFirst())


def core_kind() -> str:
    """What runs the engines' hot modules in this process: "compiled (mypyc)" or "pure
    Python" (with why, when a build is there but not used)."""
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        return "compiled (mypyc)"
    if os.environ.get("KOZYR_PURE"):
        return "pure Python (KOZYR_PURE is set)"
    if any(_extensions(m) for m in COMPILED):
        return "pure Python (the compiled build is older than the source: run scripts/setup)"
    return "pure Python"
