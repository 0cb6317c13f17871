"""Determinization: deal the hidden cards to the other seats consistently with what is public.

Constraints kept (hard, always): each seat's hand size, the cards shown in its hand
(I13), cards played or turned up are nobody's, voids shown in play (a seat that did not
follow suit has none of that suit; one that also did not trump has no trumps), and
honours: every honour held at the deal is declared and shown (I6), so an honour neither
shown nor played is in nobody else's hidden cards (with two players it may be in the
stock). With two players the 7 unused stock cards are unknown, so the opponent's hidden
cards are drawn from every unseen card and the rest are left in the stock.

The deal's declarations are facts about each dealt hand (the hand now, plus the cards it
has played) and are kept too (:class:`Declared`): the announced point (I6.4: its suit has
exactly that length and value, and no other suit beats it), and the number of imperials
the seat announced (I6.3: unmarked ones are counted aloud, a seat that announced nothing
held none). The point suit is dealt first, from the subsets of its unseen cards with the
right length and value; the rest is checked on the finished deal and redrawn if it fails.
If no fitting deal turns up after many draws (an observation built by hand can announce an
impossible point) the declarations are dropped for that world rather than failing.

The draw is not exactly uniform over consistent deals (cards are placed most-constrained
first, each to a holder chosen in proportion to its free room), which is close enough for
PIMC and fast; the rare dead end is retried, and as a last resort solved as a bipartite
matching (:func:`kozyr.bots.matching.match_hands`), so a consistent deal is always found.
This is the one Imperial sampler: the bots and the interop layer
(:mod:`kozyr.interop.sampling`) both use it.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from kozyr.bots.matching import SampleError, match_hands
from kozyr.cards import card_list, suit_name
from kozyr.games.imperial import (
    ImperialObservation,
    ImperialState,
    find_imperials,
    honour_mask,
    point_of,
)
from kozyr.games.imperial.card_tables import CARD_VALUE, low_rank_for
from kozyr.games.tricks import suits_cards

from .knowledge import DealKnowledge, knowledge

__all__ = ["Declared", "SampleError", "Sampler", "declared", "sample_hidden"]

_TRIES = 40
# Draws that must also fit the declarations before they are given up for one world.
_DECLARED_TRIES = 300
_SUIT_OF_LETTER = {suit_name(s): s for s in range(4)}


@dataclass(frozen=True, slots=True)
class Declared:
    """What one seat announced about its dealt hand in this deal (I6, I13)."""

    point: tuple[int, int, int] | None
    """(suit, length, value) of the announced point, or None if none was announced."""
    imperials: int | None
    """Imperials the seat announced (0 if it announced none), or None when the deal's
    declarations are not known (an observation without its events)."""


def declared(obs: ImperialObservation) -> list[Declared]:
    """Per seat, its announcements in the current deal, read from the public events."""
    n = obs.options.players
    start = 0
    for i, e in enumerate(obs.events):
        if e["type"] == "deal":
            start = i
    points: dict[int, tuple[int, int, int]] = {}
    counts: dict[int, int] = {}
    white = False
    for e in obs.events[start:]:
        if e["type"] == "white_imperial":
            white = True
        if e["type"] != "declare":
            continue
        if e["kind"] == "point":
            points[e["seat"]] = (_SUIT_OF_LETTER[e["suit"]], e["length"], e["value"])
        elif e["kind"] == "imperials":
            counts[e["seat"]] = e["count"]
    # The point is announced after the imperials (I6.4): once it is, every seat that
    # announced no imperial count held none. A white deal has no play to search.
    known = bool(points) and not white
    return [Declared(points.get(s), counts.get(s, 0) if known else None) for s in range(n)]


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
        self.declared = declared(obs)
        self._low = low_rank_for(k.players)
        # Per other seat with an announced point: the cards it has already shown of its
        # dealt hand (played, or shown in hand), and the subsets of the unseen cards of
        # the point suit it may still hold that complete the point's length and value.
        self._point_sets: list[list[int] | None] = []
        for h, s in enumerate(self._seats):
            d = self.declared[s]
            if d.point is None:
                self._point_sets.append(None)
                continue
            suit, length, total = d.point
            suit_mask = suits_cards(1 << suit)
            public = (obs.played[s] | obs.shown[s]) & suit_mask
            want = length - public.bit_count()
            rest = total - sum(CARD_VALUE[c] for c in card_list(public))
            free = card_list(k.unseen & suit_mask & self._allowed[h])
            sets = (
                [
                    sum(1 << c for c in combo)
                    for combo in itertools.combinations(free, want)
                    if sum(CARD_VALUE[c] for c in combo) == rest
                ]
                if 0 <= want <= len(free)
                else []
            )
            self._point_sets.append(sets)
        # A seat whose point suit is dealt first takes no more cards of that suit.
        allowed = self._allowed[:]
        for h, s in enumerate(self._seats):
            point = self.declared[s].point
            if point is not None:
                allowed[h] &= ~suits_cards(1 << point[0])
        self._eligible_declared = [
            [h for h, a in enumerate(allowed) if a >> c & 1 and self._caps[h]] for c in self._cards
        ]
        self._has_points = any(sets is not None for sets in self._point_sets)
        self._constrained = any(
            d.point is not None or d.imperials is not None
            for s, d in enumerate(self.declared)
            if s != k.seat
        )

    def hidden(self, rng: random.Random) -> list[int]:
        """One guess of every seat's hand (bit masks; the observer's entry is his hand)."""
        if self._constrained:
            for _ in range(_DECLARED_TRIES):
                got = self._try_declared(rng)
                if got is not None:
                    return got
        for _ in range(_TRIES):
            got = self._try(rng)
            if got is not None:
                return self._hands(got)
        holders = range(len(self._caps))
        return self._hands(match_hands(holders, self._caps, self._allowed, self._pool, rng))

    def fits_declarations(self, hidden: list[int]) -> bool:
        """Whether every other seat's dealt hand in ``hidden`` (its hand now plus the cards
        it has played) makes the point and the imperial count it announced (I6)."""
        k = self.know
        for s in self._seats:
            d = self.declared[s]
            dealt = hidden[s] | self.obs.played[s]
            if d.point is not None and point_of(dealt) != d.point:
                return False
            if d.imperials is not None:
                turnup = self.obs.turnup if s == self.obs.dealer else None
                found = find_imperials(dealt, k.trump, self._low, turnup)
                if sum(i.count for i in found) != d.imperials:
                    return False
        return True

    def _try_declared(self, rng: random.Random) -> list[int] | None:
        # Deal each announced point suit first, then the rest; check the whole deal.
        forced = [0] * len(self._caps)
        banned = 0
        for h, sets in enumerate(self._point_sets):
            if sets is None:
                continue
            if not sets:
                return None
            pick = rng.choice(sets)
            if pick & banned or pick.bit_count() > self._caps[h]:
                return None
            forced[h] = pick
            banned |= pick
        got = self._try(rng, forced) if self._has_points else self._try(rng)
        if got is None:
            return None
        hidden = self._hands(got)
        return hidden if self.fits_declarations(hidden) else None

    def _try(self, rng: random.Random, forced: list[int] | None = None) -> list[int] | None:
        eligible = self._eligible
        free = self._caps[:]
        masks = [0] * len(free)
        cards: list[int] = list(range(len(self._cards)))
        if forced is not None:
            taken = 0
            for h, m in enumerate(forced):
                masks[h] = m
                free[h] -= m.bit_count()
                taken |= m
            cards = [i for i in cards if not taken >> self._cards[i] & 1]
            eligible = self._eligible_declared
        order = cards
        rng.shuffle(order)
        order.sort(key=lambda i: len(eligible[i]))
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
