"""Imperial computer players (made by :mod:`kozyr.bots.registry`, which lists them).

Kinds: ``level1``..``level5``, ``heuristic``, ``search`` and ``oracle`` (measurement only:
it needs the real state, see :mod:`.oracle`).
"""

from .heuristic import HeuristicBot
from .hint import hint
from .levels import LEVEL_CAPS, level_bot
from .oracle import OracleBot
from .sampler import Sampler, sample_hidden
from .search import SearchBot

__all__ = [
    "LEVEL_CAPS",
    "HeuristicBot",
    "OracleBot",
    "Sampler",
    "SearchBot",
    "hint",
    "level_bot",
    "sample_hidden",
]
