"""The Imperial bot levels offered to players (1-5)."""

from __future__ import annotations

from kozyr.bots.base import Bot

from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["LEVEL_CAPS", "level_bot"]

LEVEL_CAPS: dict[int, float] = {3: 0.25, 4: 0.8, 5: 2.0}
"""Seconds per card of the search levels (the ``budget`` given to ``choose`` may lower it).
Level 3's cap keeps its decisions under 300 ms median on a shared 2-core machine."""

_MISTAKES = {1: 0.3, 2: 0.1}


def level_bot(level: int, seed: int | None = None, max_worlds: int | None = None) -> Bot:
    """The bot of a level 1-5; ``max_worlds`` fixes the search levels' world count."""
    if level in _MISTAKES:
        bot = HeuristicBot(seed, mistakes=_MISTAKES[level])
        bot.name = f"level{level}"
        return bot
    if level in LEVEL_CAPS:
        return SearchBot(seed, cap=LEVEL_CAPS[level], max_worlds=max_worlds, name=f"level{level}")
    raise ValueError(f"bot level must be 1-5, not {level}")
