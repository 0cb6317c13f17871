"""The heuristic Emperor player: rules of thumb for every decision, fast enough to be the
playout policy of the search.

* Card play: :func:`kozyr.bots.emperor.cardplay.choose_card`.
* Hand strength (E7, E9): :func:`hand_value` estimates the tricks a 13-card hand takes
  with a given trump; the King values a hand by its best trump, since he names trump
  after the exchange; the others by a mix, since they do not know it yet.
* Exchange (E7): take the hand whose expected value beats one's own by a margin; a hand
  known from earlier swaps (``obs.known``) is valued exactly, a hand a taker just gave
  away is presumed weak.
* Bargaining (E8): the target offers up to what the swap would cost him; the taker
  accepts an offer worth about what he expects to gain (an offer is itself a sign that
  the hand is good).
* Trump (E9): the King names the suit (or no trumps) that makes his hand best.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from kozyr.cards import SUIT_MASKS
from kozyr.games.base import Observation
from kozyr.games.emperor import (
    ACCEPT,
    OFFER,
    PASS,
    REFUSE,
    SWAP,
    TRUMP,
    TRUMP_NT,
    YIELD,
    EmperorObservation,
)
from kozyr.games.tricks import NO_TRUMP as NT

from .cardplay import choose_card
from .sampler import sample_hidden

__all__ = [
    "EmperorHeuristic",
    "average_hand_value",
    "best_king_trump",
    "decide",
    "hand_value",
    "king_trump_value",
    "king_value",
    "play_card",
    "subject_value",
]

SWAP_MARGIN = 0.35  # tricks a swap must gain to be worth the trouble (estimates are rough)
REJECTED = 0.4  # a hand a taker just gave away is worse than average
CHOSEN = 0.3  # a hand a taker just took is better than average
NT_SHARE = 0.2  # how often a non-King expects the King to name no trumps
ACCEPT_MARGIN = 2.5  # an offer must exceed the expected gain of the swap by this much


def hand_value(hand: int, trump: int, players: int = 4) -> float:
    """Expected tricks of a 13-card ``hand`` with ``trump`` (0..3, or 4 for no trumps)."""
    v = 0.0
    tl = (hand & SUIT_MASKS[trump]).bit_count() if trump != NT else 0
    for s in range(4):
        m = hand >> (13 * s) & 0x1FFF
        n = m.bit_count()
        a, k, q, j = m >> 12 & 1, m >> 11 & 1, m >> 10 & 1, m >> 9 & 1
        if s == trump:
            v += a + k * (0.9 if n >= 2 else 0.5) + q * (0.7 if n >= 3 else 0.25)
            v += j * (0.45 if n >= 4 else 0.1)
            v += max(0, n - 3) * 0.8
        elif trump == NT:
            v += a + k * (0.8 if n >= 2 else 0.3) + q * (0.5 if n >= 3 else 0.1)
            v += j * (0.25 if n >= 4 else 0.0)
            if n >= 5:
                v += (n - 4) * (0.8 if a or k else 0.4)
        else:
            if n == 0:
                v += 0.5 * min(tl, 2) if tl >= 2 else 0.0  # ruffs
            elif n == 1 and tl >= 3:
                v += 0.35
            v += a * (1.0 if n <= 5 else 0.8) + k * (0.75 if 2 <= n <= 5 else 0.3)
            v += q * (0.4 if 3 <= n <= 5 else 0.1)
            if n >= 5 and tl >= 3:
                v += (n - 4) * 0.3
    if players == 3:
        # Fewer opponents and 13 dead cards: every hand takes more (fitted on heuristic
        # self-play, 40 games: tricks = 1.45 + 0.87 * estimate).
        return 1.45 + 0.87 * v
    return v


def king_trump_value(hand: int, trump: int, players: int) -> float:
    """A hand's worth to the King with ``trump``. He leads every trick (E10), so he
    never ruffs; trumps left with the others only let them ruff his winners. Hence a
    penalty by the share of the trump suit he does not hold (paired self-play, 150
    games: +0.4 tricks a game over plain :func:`hand_value`)."""
    v = hand_value(hand, trump, players)
    if trump != NT:
        v -= 1.5 * (13 - (hand & SUIT_MASKS[trump]).bit_count()) / 13
    return v


def best_king_trump(hand: int, players: int) -> int:
    """The trump (0..3, or 4 for no trumps) the King names with ``hand`` (E9)."""
    return max(range(5), key=lambda t: (king_trump_value(hand, t, players), t == NT))


def king_value(hand: int, players: int) -> float:
    """A hand's worth to the King, who will name its best trump (E9)."""
    return max(king_trump_value(hand, t, players) for t in range(5))


def subject_value(hand: int, players: int) -> float:
    """A hand's worth to a non-King, who does not know the trump yet."""
    suits = sum(hand_value(hand, t, players) for t in range(4)) / 4
    return (1 - NT_SHARE) * suits + NT_SHARE * hand_value(hand, NT, players)


@lru_cache(maxsize=4)
def average_hand_value(players: int, king: bool) -> float:
    """The mean worth of a random hand (seeded, so every process agrees)."""
    rng = random.Random(20240501)
    deck = list(range(52))
    total = 0.0
    count = 300
    for _ in range(count):
        h = 0
        for c in rng.sample(deck, 13):
            h |= 1 << c
        total += king_value(h, players) if king else subject_value(h, players)
    return total / count


def _worth(hand: int, king: bool, players: int) -> float:
    return king_value(hand, players) if king else subject_value(hand, players)


def expected_hand(
    obs: EmperorObservation, seat: int, king: bool, rng: random.Random, samples: int = 6
) -> float:
    """What ``seat``'s current hand is worth to the observer if he took it."""
    n = obs.players
    known = obs.known.get(seat, 0)
    size = obs.hand_sizes[seat]
    if known.bit_count() == size:
        return _worth(known, king, n)
    if known:
        total = 0.0
        for _ in range(samples):
            total += _worth(sample_hidden(obs, rng)[seat], king, n)
        return total / samples
    v = average_hand_value(n, king)
    for rec in reversed(obs.swaps):
        if rec.result != "swapped":
            continue
        if rec.target == seat:
            return v - REJECTED
        if rec.taker == seat:
            return v + CHOSEN
    return v


def play_card(obs: EmperorObservation, legal: Sequence[int]) -> int:
    """The heuristic's card in the play phase."""
    cur = [c for _, c in obs.trick]
    followers = obs.play_order[len(cur) + 1 :]
    gone = 0
    for m in obs.played:
        gone |= m
    trump = NT if obs.trump is None else obs.trump
    return choose_card(
        obs.own_hand(), legal, cur, trump, gone, obs.voids, followers, obs.hand_sizes
    )


def _exchange(obs: EmperorObservation, legal: Sequence[int], rng: random.Random) -> int:
    order = obs.title_order
    assert order is not None and obs.seat is not None
    n = obs.players
    king = order[0] == obs.seat
    mine = _worth(obs.own_hand(), king, n)
    best, best_gain = PASS, SWAP_MARGIN
    for a in legal:
        if a == PASS:
            continue
        gain = expected_hand(obs, a - SWAP, king, rng) - mine
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _offer(obs: EmperorObservation, legal: Sequence[int], rng: random.Random) -> int:
    """The target's answer: buy the swap off while it costs less than the swap (E8)."""
    n = obs.players
    taker = obs.swaps[-1].taker
    mine = subject_value(obs.own_hand(), n)
    theirs = expected_hand(obs, taker, False, rng)
    if not obs.known.get(taker, 0):
        theirs -= REJECTED  # he wants my hand, so his is probably poor
    loss = mine - theirs
    # Tricks lost also cost rank in next round's titles (E6), hence a premium.
    cap = loss * 1.15 - 0.25
    offers = [a - OFFER for a in legal if OFFER < a <= OFFER + 3]
    for k in offers:
        if k <= cap:
            return OFFER + k
    return YIELD


def _answer(obs: EmperorObservation, rng: random.Random) -> int:
    """The taker's answer to an offer of ``k`` tricks (E8)."""
    assert obs.title_order is not None and obs.seat is not None
    n = obs.players
    rec = obs.swaps[-1]
    k = obs.offers[-1].tricks
    king = obs.title_order[0] == obs.seat
    gain = expected_hand(obs, rec.target, king, rng) - _worth(obs.own_hand(), king, n)
    # An offer says the target values his hand well above what the prior says, and a
    # refusal brings either a higher offer or that hand: accept only a rich offer
    # (paired self-play, 150 games: +1.0 tricks a game over a threshold of gain + 0.4).
    return ACCEPT if k >= max(gain, 0.0) + ACCEPT_MARGIN else REFUSE


def _trump(obs: EmperorObservation) -> int:
    best = best_king_trump(obs.own_hand(), obs.players)
    return TRUMP_NT if best == NT else TRUMP + best


def decide(obs: EmperorObservation, legal: Sequence[int], rng: random.Random) -> int:
    """The heuristic's action for any phase (without mistakes)."""
    if len(legal) == 1:
        return legal[0]
    phase = obs.phase
    if phase == "play":
        return play_card(obs, legal)
    if phase == "exchange":
        return _exchange(obs, legal, rng)
    if phase == "bargain":
        if ACCEPT in legal:
            return _answer(obs, rng)
        return _offer(obs, legal, rng)
    if phase == "trump":
        return _trump(obs)
    return legal[0]


class EmperorHeuristic:
    """Rules of thumb for every Emperor decision. ``mistakes``: the chance of a random
    legal action instead (the weak levels)."""

    def __init__(
        self, seed: int | None = None, mistakes: float = 0.0, name: str = "heuristic"
    ) -> None:
        self.name = name
        self.mistakes = mistakes
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        obs = cast(EmperorObservation, observation)
        if self.mistakes and self._rng.random() < self.mistakes:
            return self._rng.choice(list(legal))
        a = decide(obs, legal, self._rng)
        return a if a in legal else legal[0]
