"""Determinized search shared by both games: perfect-information Monte Carlo (PIMC).

A game supplies ``sample(rng)``, one *world* consistent with everything the observer knows
(a determinization: hidden hands, or a state built from them), and
``evaluate(world, action, rng)``, the observer's value of playing ``action`` in that world
(for instance a playout to the end of the deal with a fast policy). :func:`pimc` tries
every action in each world (common random numbers: all actions share the worlds, which
keeps the comparison fair with few worlds) and adds up the values; the game turns the
means into its ranking (ties, priors, grouped cards).

Limits: ``work`` counts abstract units (a game says what one world costs: Emperor counts
simulated card plays, Imperial counts worlds), so a search with a seed and a work limit
is reproducible; the clock stops it earlier on a slow or busy machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["Ranked", "Tally", "pimc"]

World = TypeVar("World")


@dataclass(frozen=True, slots=True)
class Ranked:
    """One legal action with its estimated value for the observer (higher is better)."""

    action: int
    value: float
    visits: int


@dataclass(slots=True)
class Tally:
    """What a search found: the weighted sum of values per action over ``worlds`` worlds."""

    totals: dict[int, float]
    weight: float
    worlds: int
    work: int

    def mean(self, action: int) -> float:
        """The weighted mean value of ``action``; 0 when no world was searched."""
        return self.totals[action] / self.weight if self.worlds else 0.0


def pimc(
    actions: Sequence[int],
    sample: Callable[[random.Random], World],
    evaluate: Callable[[World, int, random.Random], float],
    rng: random.Random,
    *,
    seconds: float,
    hard_seconds: float | None = None,
    work: int | None = None,
    world_work: int = 1,
    min_worlds: int = 1,
    weigh: Callable[[World], float] | None = None,
) -> Tally:
    """Values every action of ``actions`` in worlds drawn by ``sample`` until a limit.

    - ``work``: a world starts only while the work done is below it; each world costs
      ``world_work`` units.
    - ``seconds``: no world starts after it, nor one that would end after it at the mean
      pace so far.
    - ``hard_seconds`` (default ``seconds``): a world still running past it is dropped
      unfinished (its values would cover only some actions), and the search ends.
    - ``min_worlds``: worlds the clock may neither prevent nor cut (the work limit may).
    - ``weigh(world)``: how much the world counts (default 1), e.g. how well it explains
      the cards the others played.

    Everything random goes through ``rng``, in a fixed order, so a seed and a work limit
    that ends the search before the clock give the same tally every time.
    """
    if not actions:
        raise ValueError("no legal action to rank")
    start = time.perf_counter()
    deadline = start + seconds
    hard = start + (seconds if hard_seconds is None else hard_seconds)
    totals = dict.fromkeys(actions, 0.0)
    weight = 0.0
    worlds = spent = 0
    while work is None or spent < work:
        if worlds >= min_worlds:
            now = time.perf_counter()
            if now >= deadline or (worlds and now + (now - start) / worlds > deadline):
                break
        world = sample(rng)
        w = 1.0 if weigh is None else weigh(world)
        values: list[float] = []
        for a in actions:
            if values and worlds >= min_worlds and time.perf_counter() >= hard:
                break
            values.append(evaluate(world, a, rng))
        if len(values) < len(actions):
            break
        for a, v in zip(actions, values, strict=True):
            totals[a] += w * v
        weight += w
        worlds += 1
        spent += world_work
    return Tally(totals, weight, worlds, spent)
