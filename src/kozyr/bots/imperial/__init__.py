"""Imperial computer players (made by :mod:`kozyr.bots.registry`, which lists them).

Kinds: ``level1``..``level5``, ``heuristic``, ``search`` and ``oracle`` (measurement only:
it needs the real state, see :mod:`.oracle`). The hints are in :mod:`.hint`, not imported
here, so that a change to them leaves the strength rows current (bench/strength.py).
"""

from .heuristic import HeuristicBot
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
    "level_bot",
    "sample_hidden",
]
