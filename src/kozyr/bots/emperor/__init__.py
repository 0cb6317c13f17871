"""Emperor computer players (made by :mod:`kozyr.bots.registry`, which lists them).

Kinds: ``heuristic``, ``search``, ``oracle`` (measurement only) and the levels
``level1`` .. ``level5`` (see :mod:`kozyr.bots.emperor.levels` and docs/bots.md).
"""

from kozyr.bots.emperor.heuristic import EmperorHeuristic
from kozyr.bots.emperor.hint import hint
from kozyr.bots.emperor.levels import LEVELS, make_level
from kozyr.bots.emperor.oracle import EmperorOracle
from kozyr.bots.emperor.search import EmperorSearch

__all__ = [
    "LEVELS",
    "EmperorHeuristic",
    "EmperorOracle",
    "EmperorSearch",
    "hint",
    "make_level",
]
