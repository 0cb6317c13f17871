"""The server's garbage-collector thresholds: read from ``KOZYR_GC_THRESHOLD``, checked,
applied once the server is ready."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator

import pytest

from kozyr.server.runtime import gctune
from kozyr.server.runtime.config import Settings


@pytest.fixture
def gc_restored() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_the_default_raises_the_first_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KOZYR_GC_THRESHOLD", raising=False)
    assert Settings().gc_threshold == (20_000, 20, 100)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1000,5,5", (1000, 5, 5)),
        (" 50000 , 50 , 1000 ", (50000, 50, 1000)),
        ("default", (700, 10, 10)),
    ],
)
def test_a_threshold_is_read(
    monkeypatch: pytest.MonkeyPatch, text: str, expected: tuple[int, int, int]
) -> None:
    monkeypatch.setenv("KOZYR_GC_THRESHOLD", text)
    assert Settings().gc_threshold == expected


@pytest.mark.parametrize("text", ["20000,20", "a,b,c", "0,10,10", "100,-1,10", "1,2,3,4"])
def test_a_bad_threshold_is_named(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("KOZYR_GC_THRESHOLD", text)
    with pytest.raises(ValueError, match="KOZYR_GC_THRESHOLD must be three whole numbers"):
        Settings()


def test_tuning_sets_the_thresholds_and_freezes_what_lives(gc_restored: None) -> None:
    alive = [object() for _ in range(10)]
    gctune.tune((12_345, 6, 7))
    assert gc.get_threshold() == (12_345, 6, 7)
    # everything alive at that moment (these objects included) is out of later collections
    assert gc.get_freeze_count() >= len(alive)


def test_serve_refuses_a_bad_threshold_with_its_name(tmp_path: object) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kozyr", "serve", "--port", "0", "--data", str(tmp_path)],
        env={"KOZYR_GC_THRESHOLD": "lots", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "KOZYR_GC_THRESHOLD must be three whole numbers" in done.stderr
    assert "Traceback" not in done.stderr
