"""The Emperor levels offered to players (1-5).

1 beginner: heuristic with 30% random moves; 2 amateur: 10%; 3 club player: search,
at most 0.25 s a decision; 4 expert: 0.8 s; 5 master: 2 s. The search levels use their
time: they stop on the clock (80% of the cap, :data:`.search.SAFETY`), not on a work
limit. The old limits (5 000, 60 000 and 150 000 simulated cards) ended level 3's search
long before its time on an idle machine, with as few as 8 worlds early in a round (one
world costs 52 cards times the legal actions); with the clock alone level 3 searches
about three times as many worlds for about 25 ms more (bench/strength.py times it). The
price: a seeded search level is no longer reproducible move for move.
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
    3: ("search", 0.25, None),
    4: ("search", 0.8, None),
    5: ("search", 2.0, None),
}


def make_level(level: int, seed: int | None = None) -> Bot:
    kind, x, work = LEVELS[level]
    name = f"level{level}"
    if kind == "heuristic":
        return EmperorHeuristic(seed, mistakes=x, name=name)
    return EmperorSearch(seed, cap=x, work=work, name=name)
