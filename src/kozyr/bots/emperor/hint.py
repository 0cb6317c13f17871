"""Hints for a human Emperor player: the legal actions ranked by the search.

>>> from kozyr.games.emperor import EmperorState
>>> state = EmperorState.new(seed=3)
>>> obs = state.observation(state.to_act)
>>> ranked = hint(obs, 0.05)
>>> sorted(r.action for r in ranked) == sorted(obs.legal_actions)
True
"""

from __future__ import annotations

import random

from kozyr.bots.search import Ranked
from kozyr.games.emperor import EmperorObservation

from .search import EmperorSearch

__all__ = ["hint"]


def hint(observation: EmperorObservation, budget: float, seed: int | None = 0) -> list[Ranked]:
    """Every legal action of the seat to act, best first, with its estimated value
    (tricks this round plus the worth of the title they earn) and the worlds searched.
    Empty when it is not this seat's turn."""
    legal = list(observation.legal_actions)
    if not legal:
        return []
    if len(legal) == 1:
        return [Ranked(legal[0], 0.0, 0)]
    bot = EmperorSearch(seed if seed is not None else random.randrange(1 << 30), cap=budget)
    return bot.rank(observation, legal, budget)
