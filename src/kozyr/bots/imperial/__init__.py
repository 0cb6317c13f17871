"""Imperial computer players; importing this package registers them (see registry).

Kinds: ``level1``..``level5``, ``heuristic``, ``search`` and ``oracle`` (measurement only:
it needs the real state, see :mod:`.oracle`).
"""

from kozyr.bots.registry import register

from .heuristic import HeuristicBot
from .hint import hint
from .levels import KINDS, LEVEL_CAPS, level_bot
from .oracle import OracleBot
from .sampler import Sampler
from .search import SearchBot

for _kind, _factory in KINDS.items():
    register("imperial", _kind, _factory)

__all__ = ["LEVEL_CAPS", "HeuristicBot", "OracleBot", "Sampler", "SearchBot", "hint", "level_bot"]
