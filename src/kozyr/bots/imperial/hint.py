"""Hints for a human Imperial player: every legal card with its estimated value."""

from __future__ import annotations

import random

from kozyr.bots.search import Ranked
from kozyr.games.imperial import ImperialObservation

from .search import search_observation

__all__ = ["hint"]


def hint(
    observation: ImperialObservation,
    budget: float = 0.5,
    seed: int | None = 0,
    max_worlds: int | None = None,
) -> list[Ranked]:
    """Every legal card of the observer, best first, with its estimated value: the mean,
    over sampled deals of the hidden cards, of the observer's score difference at the end
    of the deal (an imperial is 24 points; a win of the game is worth 1000)."""
    if not observation.legal_actions:
        raise ValueError("the observer has no card to play now")
    return search_observation(
        observation,
        observation.legal_actions,
        budget,
        random.Random(seed),
        max_worlds=max_worlds,
    )
