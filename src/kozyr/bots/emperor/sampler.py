"""Determinization: other seats' hands consistent with everything one seat may know.

Constraints honoured: hand sizes, cards known in other hands (``obs.known``: the shown
trump card, hands given away in swaps), cards played, public voids (``obs.voids``), and
with 3 players the 13 undealt cards (E2): a card nobody has seen may lie in the pile,
and in round 1 the shown card is certainly there (E5).

Sampling is random-greedy (the most constrained seat draws first); the rare dead end is
retried, and as a last resort solved as a bipartite matching
(:func:`kozyr.bots.matching.match_hands`), so a consistent sample is always found when
one exists. This is the one Emperor sampler: the bots and the interop layer
(:mod:`kozyr.interop.sampling`) both use :func:`sample_hidden`. Hard facts only: what
the public exchange, bargaining and trump suggest about the hands is soft evidence,
weighed on top of these worlds by :mod:`.evidence` (the search's worlds).
"""

from __future__ import annotations

import random

from kozyr.bots.matching import SampleError, match_hands
from kozyr.cards import DECK_52 as DECK
from kozyr.cards import card_list
from kozyr.games.emperor import EmperorObservation
from kozyr.games.tricks import suits_cards

__all__ = ["SampleError", "sample_hidden", "unseen_pool"]


def unseen_pool(obs: EmperorObservation) -> int:
    """Cards the observer has not seen and may lie in another hand (or the pile)."""
    gone = 0
    for m in obs.played:
        gone |= m
    known = 0
    for m in obs.known.values():
        known |= m
    pool = DECK & ~obs.own_hand() & ~gone & ~known
    if obs.players == 3 and obs.round == 1 and obs.trump_card is not None:
        pool &= ~(1 << obs.trump_card)  # E5: the shown card is the bottom of the pile
    return pool


def sample_hidden(obs: EmperorObservation, rng: random.Random) -> list[int]:
    """One guess of every seat's hand (the observer's entry is his real hand), fit for
    ``EmperorState.from_observation(obs, hidden)``."""
    n = obs.players
    me = obs.seat
    pool = unseen_pool(obs)
    base = [0] * n
    need = [0] * n
    allowed = [0] * n
    seats: list[int] = []
    for t in range(n):
        if t == me:
            base[t] = obs.own_hand()
            continue
        k = obs.known.get(t, 0)
        base[t] = k
        need[t] = obs.hand_sizes[t] - k.bit_count()
        if need[t] < 0:
            raise SampleError(f"seat {t} is known to hold more cards than he has")
        allowed[t] = pool & ~suits_cards(obs.voids[t])
        if need[t]:
            seats.append(t)
    if not seats:
        return base
    # The most constrained seats first: fewest spare cards among those they may hold.
    seats.sort(key=lambda t: allowed[t].bit_count() - need[t])
    for _ in range(24):
        left = pool
        hands = base[:]
        ok = True
        for t in seats:
            cand = card_list(allowed[t] & left)
            if len(cand) < need[t]:
                ok = False
                break
            for c in rng.sample(cand, need[t]):
                hands[t] |= 1 << c
                left &= ~(1 << c)
        if ok:
            return hands
    got = match_hands(seats, need, allowed, pool, rng)
    return [b | g for b, g in zip(base, got, strict=True)]
