"""Determinization: deal the hidden cards to the other seats consistently with what is public.

Constraints kept (hard): each seat's hand size, the cards shown in its hand (I13), cards
played or turned up are nobody's, and voids shown in play (a seat that did not follow
suit has none of that suit; one that also did not trump has no trumps). With two players
the 7 unused stock cards are unknown, so the opponent's hidden cards are drawn from every
unseen card and the rest are left in the stock.

The draw is not exactly uniform over consistent deals (cards are placed most-constrained
first, each to a holder chosen in proportion to its free room), which is close enough for
PIMC and always fast.
"""

from __future__ import annotations

import random

from kozyr.cards import SUIT_OF, card_list
from kozyr.games.imperial import ImperialObservation, ImperialState

from .knowledge import DealKnowledge, knowledge

__all__ = ["Sampler"]

_TRIES = 40


class Sampler:
    """Deals hidden hands for one observation; build it once per decision."""

    def __init__(self, obs: ImperialObservation) -> None:
        self.obs = obs
        self.know: DealKnowledge = knowledge(obs)
        k = self.know
        self._cards = card_list(k.unseen)
        # Holders: the other seats, then (two players) the stock, which takes any card.
        self._seats = [s for s in range(k.players) if s != k.seat]
        self._caps = [k.need[s] for s in self._seats]
        stock = len(self._cards) - sum(self._caps)
        if stock < 0:
            raise ValueError("observation has fewer unseen cards than hidden hand slots")
        self._caps.append(stock)
        self._voids = [k.void[s] for s in self._seats] + [0]
        # For every card, which holders may take it (by index into the holder lists).
        self._eligible = self._eligibility(self._voids)
        self.relaxed = False

    def _eligibility(self, voids: list[int]) -> list[list[int]]:
        out = []
        for c in self._cards:
            suit_bit = 1 << SUIT_OF[c]
            out.append([h for h, v in enumerate(voids) if not v & suit_bit and self._caps[h]])
        return out

    def hidden(self, rng: random.Random) -> list[int]:
        """One guess of every seat's hidden hand (bit masks; the observer's entry is 0).

        If the void constraints cannot be met after some tries (they always can in a real
        game, but the greedy draw may miss), they are dropped for this observation."""
        for _ in range(_TRIES):
            got = self._try(rng, self._eligible)
            if got is not None:
                return got
        self.relaxed = True
        self._eligible = self._eligibility([0] * len(self._voids))
        got = self._try(rng, self._eligible)
        assert got is not None  # no constraint but sizes: always succeeds
        return got

    def _try(self, rng: random.Random, eligible: list[list[int]]) -> list[int] | None:
        order = list(range(len(self._cards)))
        rng.shuffle(order)
        order.sort(key=lambda i: len(eligible[i]))
        free = self._caps[:]
        masks = [0] * len(free)
        for i in order:
            choices = [h for h in eligible[i] if free[h]]
            if not choices:
                return None
            if len(choices) == 1:
                h = choices[0]
            else:
                r = rng.randrange(sum(free[h] for h in choices))
                for h in choices:
                    r -= free[h]
                    if r < 0:
                        break
            free[h] -= 1
            masks[h] |= 1 << self._cards[i]
        k = self.know
        hidden = [0] * k.players
        for h, s in enumerate(self._seats):
            hidden[s] = masks[h] | self.obs.shown[s]
        return hidden

    def world(self, rng: random.Random) -> ImperialState:
        """A full state consistent with the observation (a determinization)."""
        return ImperialState.from_observation(self.obs, self.hidden(rng))
