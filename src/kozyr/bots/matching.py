"""The exact last resort of both games' samplers: hidden cards to hands by bipartite
matching, for the rare observation where the fast random-greedy draw keeps dead-ending."""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyr.cards import card_list

__all__ = ["SampleError", "match_hands"]


class SampleError(ValueError):
    """No hands fit the observation (an inconsistent observation)."""


def match_hands(
    holders: Sequence[int],
    need: Sequence[int],
    allowed: Sequence[int],
    pool: int,
    rng: random.Random,
) -> list[int]:
    """Cards of ``pool`` to holders by augmenting paths (Kuhn), in random order: holder
    ``h`` (taken in the order of ``holders``) gets ``need[h]`` cards of ``allowed[h]``;
    cards of the pool may be left over. Returns the cards each holder got (a mask per
    index of ``need``); raises :class:`SampleError` when no assignment exists."""
    slots: list[int] = [h for h in holders for _ in range(need[h])]
    rng.shuffle(slots)
    cards = card_list(pool)
    rng.shuffle(cards)
    slot_card: list[int] = [-1] * len(slots)
    card_slot: list[int] = [-1] * len(cards)

    def augment(i: int, seen: list[bool]) -> bool:
        h = slots[i]
        for j, c in enumerate(cards):
            if seen[j] or not allowed[h] >> c & 1:
                continue
            seen[j] = True
            holder = card_slot[j]
            if holder < 0 or augment(holder, seen):
                card_slot[j] = i
                slot_card[i] = j
                return True
        return False

    for i in range(len(slots)):
        if not augment(i, [False] * len(cards)):
            raise SampleError("no hands fit what this seat knows")
    got = [0] * len(need)
    for i, j in enumerate(slot_card):
        got[slots[i]] |= 1 << cards[j]
    return got
