"""Emperor computer players; importing this package registers them (see registry).

Kinds: ``heuristic``, ``search``, ``oracle`` (measurement only) and the levels
``level1`` .. ``level5`` (see :mod:`kozyr.bots.emperor.levels` and docs/bots.md).
"""

from kozyr.bots.emperor.levels import register_all

register_all()
