"""Determinization: deal the hidden cards to the other seats consistently with what is public.

Constraints kept (hard, always): each seat's hand size, the cards shown in its hand
(I13), cards played or turned up are nobody's, voids shown in play (a seat that did not
follow suit has none of that suit; one that also did not trump has no trumps), and
honours: every honour held at the deal is declared and shown (I6), so an honour neither
shown nor played is in nobody else's hidden cards (with two players it may be in the
stock). With two players the 7 unused stock cards are unknown, so the opponent's hidden
cards are drawn from every unseen card and the rest are left in the stock.

The draw is not exactly uniform over consistent deals (cards are placed most-constrained
first, each to a holder chosen in proportion to its free room), which is close enough for
PIMC and fast; the rare dead end is retried, and as a last resort solved as a bipartite
matching (:func:`kozyr.bots.matching.match_hands`), so a consistent deal is always found.
This is the one Imperial sampler: the bots and the interop layer
(:mod:`kozyr.interop.sampling`) both use it.
"""

from __future__ import annotations

import random

from kozyr.bots.matching import SampleError, match_hands
from kozyr.cards import card_list
from kozyr.games.imperial import ImperialObservation, ImperialState, honour_mask
from kozyr.games.imperial.card_tables import low_rank_for
from kozyr.games.tricks import suits_cards

from .knowledge import DealKnowledge, knowledge

__all__ = ["SampleError", "Sampler", "sample_hidden"]

_TRIES = 40


def sample_hidden(obs: ImperialObservation, rng: random.Random) -> list[int]:
    """One guess of every seat's hand (the observer's entry is his real hand), fit for
    ``ImperialState.from_observation(obs, hidden)``."""
    return Sampler(obs).hidden(rng)


class Sampler:
    """Deals hidden hands for one observation; build it once per decision."""

    def __init__(self, obs: ImperialObservation) -> None:
        self.obs = obs
        self.know: DealKnowledge = knowledge(obs)
        k = self.know
        self._pool = k.unseen
        self._cards = card_list(k.unseen)
        # Holders: the other seats, then (two players) the stock, which takes any card.
        self._seats = [s for s in range(k.players) if s != k.seat]
        self._caps = [k.need[s] for s in self._seats]
        stock = len(self._cards) - sum(self._caps)
        if stock < 0:
            raise SampleError("observation has fewer unseen cards than hidden hand slots")
        self._caps.append(stock)
        honours = honour_mask(k.trump, low_rank_for(k.players))
        # The cards each holder may take.
        self._allowed = [k.deck & ~suits_cards(k.void[s]) & ~honours for s in self._seats]
        self._allowed.append(k.deck)
        # For every card, which holders may take it (by index into the holder lists).
        self._eligible = [
            [h for h, a in enumerate(self._allowed) if a >> c & 1 and self._caps[h]]
            for c in self._cards
        ]

    def hidden(self, rng: random.Random) -> list[int]:
        """One guess of every seat's hand (bit masks; the observer's entry is his hand)."""
        for _ in range(_TRIES):
            got = self._try(rng)
            if got is not None:
                return self._hands(got)
        holders = range(len(self._caps))
        return self._hands(match_hands(holders, self._caps, self._allowed, self._pool, rng))

    def _try(self, rng: random.Random) -> list[int] | None:
        eligible = self._eligible
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
        return masks

    def _hands(self, masks: list[int]) -> list[int]:
        k = self.know
        hidden = [0] * k.players
        hidden[k.seat] = k.hand
        for h, s in enumerate(self._seats):
            hidden[s] = masks[h] | self.obs.shown[s]
        return hidden

    def world(self, rng: random.Random) -> ImperialState:
        """A full state consistent with the observation (a determinization)."""
        return ImperialState.from_observation(self.obs, self.hidden(rng))
