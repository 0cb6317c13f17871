"""The deal schedule: duplicate sets of games, with every bot in every seat.

A *duplicate set* is one deal seed played once per seating. In Imperial the seed fixes
every deal of the game by its index (``kozyr.games.dealing``, B2) and the first
dealer; in Emperor it fixes every round's cards and the join order. So within a set the
same hands are dealt to the same seats, and each bot holds each seat's cards once: luck
cancels out. Once play diverges the games may last a different number of deals, but
deal *k* is still the same cards in every game of the set.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Literal

Mode = Literal["rotations", "permutations"]


@dataclass(frozen=True, slots=True)
class Slot:
    """One game of the schedule: ``seats[s]`` is the index (in ``--bots``) of seat s's bot."""

    index: int
    set_index: int
    rotation: int
    seats: tuple[int, ...]
    deal_seed: int
    bot_seeds: tuple[int, ...]
    """The seed of each seat's bot."""


def derive_seed(master: int, *parts: object) -> int:
    """A 31-bit seed fixed by the arena seed and ``parts`` (stable across runs and platforms).

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    text = ":".join(["kozyr", "arena", str(master), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def seatings(players: int, mode: Mode = "rotations") -> list[tuple[int, ...]]:
    """The seatings of one duplicate set; ``seating[s]`` is the bot in seat s.

    ``rotations``: the n cyclic rotations (each bot sits once in each seat).
    ``permutations``: all n! orders (also every order of neighbours).

    >>> seatings(3)
    [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    >>> len(seatings(3, "permutations"))
    6
    """
    if players < 1:
        raise ValueError("a seating needs at least one player")
    if mode == "rotations":
        return [tuple((s + r) % players for s in range(players)) for r in range(players)]
    if mode == "permutations":
        return list(itertools.permutations(range(players)))
    raise ValueError(f"unknown schedule {mode!r}: expected rotations or permutations")


def schedule(players: int, games: int, seed: int, mode: Mode = "rotations") -> list[Slot]:
    """At least ``games`` games, rounded up to whole duplicate sets.

    Deal seeds and bot seeds derive from ``seed`` alone, so a game's result does not depend
    on which worker plays it or when.
    """
    if games < 1:
        raise ValueError("the arena needs at least one game")
    orders = seatings(players, mode)
    sets = -(-games // len(orders))
    out: list[Slot] = []
    for k in range(sets):
        deal_seed = derive_seed(seed, "deal", k)
        for r, order in enumerate(orders):
            bot_seeds = tuple(derive_seed(seed, "bot", k, r, s) for s in range(players))
            out.append(Slot(len(out), k, r, order, deal_seed, bot_seeds))
    return out
