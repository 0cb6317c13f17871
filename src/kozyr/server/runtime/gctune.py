"""The cyclic garbage collector, tuned for a long-running server.

A server process holds a large, long-lived heap (every table's state, every connection)
and allocates a few short-lived objects per move. With Python's default thresholds
(700, 10, 10) a young collection runs every few moves and older generations follow
often, each walking objects that will live as long as the process: on a 2-core machine
with 1,000 people that was a quarter of the server's CPU per move
(``docs/performance.md``). A larger first threshold makes young collections rarer (the
cost of each grows only with what survived, which is little), and freezing what exists
when the server is ready takes startup's objects (modules, the engines' tables) out of
every later collection.
"""

from __future__ import annotations

import gc

DEFAULT = (20_000, 20, 100)
"""Measured side by side with the default by ``bench/load.py`` (docs/performance.md)."""


def parse_threshold(text: str) -> tuple[int, int, int]:
    """``"20000,20,100"`` → ``(20000, 20, 100)``; ``"default"`` → Python's own.

    >>> parse_threshold("20000, 20, 100")
    (20000, 20, 100)
    >>> parse_threshold("0,1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: KOZYR_GC_THRESHOLD must be three whole numbers, first above 0 ...
    """
    if text.strip().lower() == "default":
        return (700, 10, 10)
    parts = [p.strip() for p in text.split(",")]
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        numbers = ()
    if len(numbers) != 3 or numbers[0] <= 0 or min(numbers) < 0:
        raise ValueError(
            "KOZYR_GC_THRESHOLD must be three whole numbers, first above 0 "
            f"(e.g. 20000,20,100), not {text!r}"
        )
    return numbers[0], numbers[1], numbers[2]


def tune(threshold: tuple[int, int, int]) -> None:
    """Sets the thresholds and freezes the objects alive now (call once the server has
    started and restored its tables)."""
    gc.collect()
    gc.set_threshold(*threshold)
    gc.freeze()
