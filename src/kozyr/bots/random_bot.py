"""A player that picks uniformly among the legal actions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyr.games.base import Observation


class RandomBot:
    """Uniform legal moves; seeded, so a game against it can be replayed (B2)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        return self._rng.choice(legal)
