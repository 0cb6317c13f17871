"""Guessing the hidden hands of a deal from one seat's observation (determinization).

The interop layer needs its own sampler (the bots' samplers are written elsewhere and
may change): :func:`sample_imperial_hidden` and :func:`sample_emperor_hidden` return one
guess of every other seat's hand that agrees with everything the observer knows, ready for
``State.from_observation(obs, hidden)``.

What the guesses respect:

- **both games**: hand sizes; the observer's hand and every played card are nobody else's;
  cards known to be in a hand are in it; a seat that has shown out of a suit holds none.
- **Imperial**: shown cards (marked imperials, declared honours, a white hand, the
  3-player trump card); the 2-player turn-up; the observation's ``voids`` (did not
  follow: void in the suit led; did not follow and did not trump: void in trumps too);
  honours: every honour held at the deal was declared and shown (I6), so an honour that
  is neither shown nor played lies in the observer's hand or, with 2 players, in the stock.
  Not used: unmarked imperial counts, the point declaration (longest suit and its value),
  and with ``must_head`` what a failure to head the trick reveals.
- **Emperor**: ``known`` cards (the shown trump card, hands given away in swaps, and
  elimination), ``voids``; with 3 players the 13 undealt cards form one more "hand" (the
  round-1 trump card is public and always in it).

The method: the known cards are placed first; the free cards are then dealt one at a
time, in random order, each to a seat (or the stock) with room for it and allowed to hold
it, chosen with probability proportional to the room left, provided the rest can still be
completed (checked with Hall's condition over the few buckets, with bit masks). Without
void or honour constraints this is exactly uniform over the consistent deals; with them
it is close to uniform, and always consistent.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyr.cards import DECK_52
from kozyr.games.emperor import EmperorObservation
from kozyr.games.imperial import ImperialObservation, honour_mask
from kozyr.games.imperial.card_tables import deck_for, low_rank_for
from kozyr.games.tricks import suits_cards

__all__ = [
    "SamplingError",
    "fill_buckets",
    "sample_emperor_hidden",
    "sample_imperial_hidden",
]


class SamplingError(ValueError):
    """The constraints admit no deal (an inconsistent observation)."""


def _feasible(needs: Sequence[int], allowed: Sequence[int], free: int) -> bool:
    """Hall's condition: every set of buckets finds enough free cards it may take.

    Total room equals the number of free cards, so this is exactly the condition for
    every bucket to be filled and every card placed.
    """
    k = len(needs)
    for subset in range(1, 1 << k):
        room = 0
        reach = 0
        for b in range(k):
            if subset >> b & 1:
                room += needs[b]
                reach |= allowed[b]
        if room > (reach & free).bit_count():
            return False
    return True


def fill_buckets(
    free: int, needs: Sequence[int], allowed: Sequence[int], rng: random.Random
) -> list[int]:
    """Deals the cards of ``free`` into buckets of sizes ``needs`` (summing to the number
    of free cards), bucket ``b`` taking only cards of ``allowed[b]``; raises
    :class:`SamplingError` when that is impossible."""
    needs = list(needs)
    allowed = list(allowed)
    if sum(needs) != free.bit_count():
        raise SamplingError(f"{sum(needs)} places for {free.bit_count()} free cards")
    if not _feasible(needs, allowed, free):
        raise SamplingError("no deal agrees with the observation")
    out = [0] * len(needs)
    cards = [c for c in range(52) if free >> c & 1]
    rng.shuffle(cards)
    constrained = any(free & ~a for a in allowed)
    for c in cards:
        b_card = 1 << c
        free &= ~b_card
        candidates = [b for b in range(len(needs)) if needs[b] and allowed[b] & b_card]
        while candidates:
            weights = [needs[b] for b in candidates]
            b = rng.choices(candidates, weights)[0]
            needs[b] -= 1
            if not constrained or _feasible(needs, allowed, free):
                out[b] |= b_card
                break
            needs[b] += 1
            candidates.remove(b)
        else:  # pragma: no cover - excluded by the feasibility check before each card
            raise SamplingError("sampler dead end")
    return out


def sample_imperial_hidden(obs: ImperialObservation, rng: random.Random) -> list[int]:
    """One guess of every seat's hand (the observer's entry is his own hand)."""
    if obs.seat is None or obs.hand is None or obs.trump is None:
        raise SamplingError("need a seat's observation of a deal in play")
    n = obs.options.players
    me = obs.seat
    deck = deck_for(n)
    public = obs.hand
    for m in obs.played:
        public |= m
    if obs.turnup is not None:
        public |= 1 << obs.turnup
    for s in range(n):
        if s != me:
            public |= obs.shown[s]
    free = deck & ~public
    honours = honour_mask(obs.trump, low_rank_for(n))
    voids = obs.voids
    others = [s for s in range(n) if s != me]
    needs = [obs.hand_sizes[s] - obs.shown[s].bit_count() for s in others]
    allowed = [DECK_52 & ~honours & ~suits_cards(voids[s]) for s in others]
    stock = free.bit_count() - sum(needs)
    if stock:
        needs.append(stock)  # 2 players: the seven unused cards
        allowed.append(DECK_52)
    filled = fill_buckets(free, needs, allowed, rng)
    hidden = [0] * n
    hidden[me] = obs.hand
    for i, s in enumerate(others):
        hidden[s] = filled[i] | obs.shown[s]
    return hidden


def sample_emperor_hidden(obs: EmperorObservation, rng: random.Random) -> list[int]:
    """One guess of every seat's hand (the observer's entry is his own hand)."""
    if obs.seat is None or obs.hand is None:
        raise SamplingError("need a seat's observation")
    n = obs.players
    me = obs.seat
    public = obs.hand
    for m in obs.played:
        public |= m
    others = [s for s in range(n) if s != me]
    for s in others:
        public |= obs.known.get(s, 0)
    undealt = 13 if n == 3 else 0
    if n == 3 and obs.round == 1 and obs.trump_card is not None:
        public |= 1 << obs.trump_card  # E5: the shown card lies in the undealt pile
        undealt -= 1
    free = DECK_52 & ~public
    needs = [obs.hand_sizes[s] - obs.known.get(s, 0).bit_count() for s in others]
    allowed = [DECK_52 & ~suits_cards(obs.voids[s]) for s in others]
    if undealt:
        needs.append(undealt)
        allowed.append(DECK_52)
    filled = fill_buckets(free, needs, allowed, rng)
    hidden = [0] * n
    hidden[me] = obs.hand
    for i, s in enumerate(others):
        hidden[s] = filled[i] | obs.known.get(s, 0)
    return hidden
