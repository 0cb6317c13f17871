"""The one interface every computer player has."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from kozyr.games.base import Observation


class Bot(Protocol):
    """Chooses an action for the seat of ``observation`` within ``budget`` seconds."""

    name: str

    def choose(self, observation: Observation, legal: Sequence[int], budget: float) -> int: ...
