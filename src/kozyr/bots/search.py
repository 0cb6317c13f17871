"""Determinized search shared by both games: perfect-information Monte Carlo (PIMC).

A game supplies two things: ``sample(rng)``, a full state consistent with everything the
observer knows (a *determinization*), and ``evaluate(state, rng)``, the value of a state
for the observer (for instance a playout to the end of the deal with a fast policy).
The search tries every legal action in each sampled world and ranks actions by their
mean value over the worlds, within a time budget and/or a fixed number of worlds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kozyr.games.base import GameState


@dataclass(frozen=True, slots=True)
class Ranked:
    """One legal action with its estimated value for the observer (higher is better)."""

    action: int
    value: float
    visits: int


def pimc(
    legal: Sequence[int],
    sample: Callable[[random.Random], GameState],
    evaluate: Callable[[GameState, random.Random], float],
    rng: random.Random,
    budget: float,
    max_worlds: int | None = None,
    min_worlds: int = 1,
) -> list[Ranked]:
    """Ranks ``legal`` by mean value over sampled worlds, best first.

    Stops after ``budget`` seconds (at least ``min_worlds`` worlds) or ``max_worlds``
    worlds, whichever comes first; ``max_worlds`` alone makes the search reproducible.
    """
    if not legal:
        raise ValueError("no legal action to rank")
    totals = dict.fromkeys(legal, 0.0)
    worlds = 0
    deadline = time.perf_counter() + budget
    if len(legal) > 1:
        while max_worlds is None or worlds < max_worlds:
            if worlds >= min_worlds and time.perf_counter() >= deadline:
                break
            world = sample(rng)
            for a in legal:
                child = world.clone()
                child.apply(a)
                totals[a] += evaluate(child, rng)
            worlds += 1
    n = max(worlds, 1)
    ranked = [Ranked(a, totals[a] / n, worlds) for a in legal]
    ranked.sort(key=lambda r: -r.value)
    return ranked
