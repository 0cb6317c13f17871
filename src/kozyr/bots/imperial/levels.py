"""The Imperial bot levels offered to players (1-5)."""

from __future__ import annotations

from kozyr.bots.base import Bot

from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["LEVEL_CAPS", "SOLVE_WITHIN", "level_bot"]

LEVEL_CAPS: dict[int, float] = {3: 0.25, 4: 0.8, 5: 2.0}
"""Seconds per card of the search levels (the ``budget`` given to ``choose`` may lower it).
Level 3's cap keeps its decisions under 300 ms median on a shared 2-core machine."""

_MISTAKES = {1: 0.3, 2: 0.1}

SOLVE_WITHIN: dict[int, int] = {5: 6}
"""Levels whose playouts play their last tricks double dummy (two players): level 5
hands each playout to the solver (:mod:`.solver`) for the last 6 tricks. With 8 it
searched 14-56 worlds for a deal's first card against about 120 with 6 (bench/strength.py
``imperial-dd6-l3``, ``imperial-dd8-l3``; docs/bots.md)."""


def level_bot(level: int, seed: int | None = None, max_worlds: int | None = None) -> Bot:
    """The bot of a level 1-5; ``max_worlds`` fixes the search levels' world count."""
    if level in _MISTAKES:
        bot = HeuristicBot(seed, mistakes=_MISTAKES[level])
        bot.name = f"level{level}"
        return bot
    if level in LEVEL_CAPS:
        return SearchBot(
            seed,
            cap=LEVEL_CAPS[level],
            max_worlds=max_worlds,
            name=f"level{level}",
            solve_within=SOLVE_WITHIN.get(level),
        )
    raise ValueError(f"bot level must be 1-5, not {level}")
