"""The Emperor levels offered to players (1-5).

1 beginner: heuristic with 30% random moves; 2 amateur: 10%; 3 club player: search,
at most 0.25 s a decision; 4 expert: 0.8 s; 5 master: 2 s. The search levels also
have a work limit (simulated card plays) that usually ends the search before the clock
does, so a seeded game is reproducible unless the machine is slow or busy. Measured on
this machine (2 shared cores, load ~6): median 63 ms (level 3), 0.5 s (4), 1.05 s (5).
"""

from __future__ import annotations

from kozyr.bots.base import Bot

from .heuristic import EmperorHeuristic
from .search import EmperorSearch

__all__ = ["LEVELS", "make_level"]

# level: (kind, mistakes or cap in seconds, work in simulated card plays)
LEVELS: dict[int, tuple[str, float, int | None]] = {
    1: ("heuristic", 0.30, None),
    2: ("heuristic", 0.10, None),
    3: ("search", 0.25, 5_000),
    4: ("search", 0.8, 60_000),
    5: ("search", 2.0, 150_000),
}


def make_level(level: int, seed: int | None = None) -> Bot:
    kind, x, work = LEVELS[level]
    name = f"level{level}"
    if kind == "heuristic":
        return EmperorHeuristic(seed, mistakes=x, name=name)
    return EmperorSearch(seed, cap=x, work=work, name=name)
