"""The compiled core and its Python source pass the same tests (issue 32).

The full run uses whichever the checkout has: the compiled core after ``scripts/setup``
built it, the Python source where it could not. When it is the compiled core, this test
runs the engines' own tests and the compiled modules' doctests again in a process that
loads the Python source (``KOZYR_PURE=1``), so the fallback a machine without a C
compiler runs stays right too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import kozyr.cards
from kozyr.core import COMPILED, core_kind

ROOT = Path(__file__).resolve().parents[1]

# The engines' tests (rules, rulings, copies, the fast path, the cards beneath them) and
# those of the Imperial bots' compiled heuristic and values.
ENGINE_TESTS = (
    "tests/imperial",
    "tests/emperor",
    "tests/bots/imperial",
    "tests/test_cards.py",
    "tests/test_dealing.py",
    "tests/test_tricks.py",
)


def test_the_core_in_use_is_said_and_loaded_from_where_it_says() -> None:
    kind = core_kind()
    if os.environ.get("KOZYR_REQUIRE_CORE") and not os.environ.get("KOZYR_PURE"):
        # CI: the compiled core was built (scripts/build-core) and must be what runs
        assert kind.startswith("compiled"), kind
    loaded = Path(str(kozyr.cards.__file__)).suffix
    if kind.startswith("compiled"):
        assert loaded == ".so", kind
    else:
        assert loaded == ".py", kind


def test_the_python_source_passes_the_engines_tests_too() -> None:
    if not core_kind().startswith("compiled"):
        # This run is itself on the Python source: the engines' tests here are its tests.
        assert Path(str(kozyr.cards.__file__)).suffix == ".py"
        return
    sources = ["src/" + m.replace(".", "/") + ".py" for m in COMPILED]
    tests = [t for t in ENGINE_TESTS if (ROOT / t).exists()]
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "--doctest-modules",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            *tests,
            *sources,
        ],
        cwd=ROOT,
        env={**os.environ, "KOZYR_PURE": "1", "PYTEST_ADDOPTS": ""},
        capture_output=True,
        text=True,
        timeout=600,
    )
    tail = run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == 0, tail
    assert " passed" in run.stdout and "failed" not in run.stdout, tail
