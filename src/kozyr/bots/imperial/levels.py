"""The Imperial bot levels offered to players (1-5)."""

from __future__ import annotations

from kozyr.bots.base import Bot

from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["LEVEL_CAPS", "SOLVE_FROM_ROOT", "SOLVE_WITHIN", "level_bot"]

LEVEL_CAPS: dict[int, float] = {3: 0.25, 4: 0.8, 5: 2.0}
"""Seconds per card of the search levels (the ``budget`` given to ``choose`` may lower it).
Level 3's cap keeps its decisions under 300 ms median on a shared 2-core machine."""

_MISTAKES = {1: 0.3, 2: 0.1}

SOLVE_WITHIN: dict[int, int] = {5: 8}
"""Levels whose playouts play their last tricks double dummy (two players): level 5
hands each playout to the solver (:mod:`.solver`) for the last 8 tricks. Until
2026-12-03 it was 6: the solver alone had made level 5 better than level 3 (heuristic
playouts with eight times level 3's worlds had not), so more of each playout is now
played double dummy, at fewer worlds (about 40-90 for a deal's first card against
about 375; docs/bots.md)."""

SOLVE_FROM_ROOT: dict[int, int] = {5: 10}
"""Levels that, with this many tricks left or fewer, play every world's rest of the deal
double dummy from the card searched on (two players): level 5 from 10 tricks left,
where that still leaves about 25-140 worlds in its 2 s."""


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
            solve_from_root=SOLVE_FROM_ROOT.get(level),
        )
    raise ValueError(f"bot level must be 1-5, not {level}")
