"""Flat float vectors of kozyr observations, for learning code (PettingZoo, OpenSpiel).

Every vector is built from ``state.observation(seat)`` alone, from the observer's point of
view: per-seat blocks are in *relative* seat order (block 0 is the observer, block 1 the
next seat clockwise, ...). Card blocks have 52 entries indexed by card id (= action id),
0 or 1. Counts are scaled to about [0, 1]. All values lie in [0, 1].

Imperial (``n`` = 2 or 3 players), in order:

====================  ========  ==============================================
block                 size      content
====================  ========  ==============================================
hand                  52        the observer's hand
played                n x 52    cards each seat played this deal
shown                 n x 52    public cards still in each hand (I13)
trick                 n x 52    the card each seat put on the current trick
leader                n         one-hot: who led the current trick
trump                 4         one-hot trump suit
trump card            52        the turn-up (2 players) / the dealer's shown card
dealer                n         one-hot
to act                n         one-hot
hand sizes            n         cards in hand / 12
tricks won            n         tricks this deal / 12
captures              n x 2     trump J / trump A captured by each seat (I9)
imperials             n         marked imperials / target (capped at 1)
loose points          n         loose points / 24 (capped at 1)
====================  ========  ==============================================

Emperor (``n`` = 3 or 4 players), in order:

====================  ========  ==============================================
block                 size      content
====================  ========  ==============================================
hand                  52        the observer's hand
played                n x 52    cards each seat played this round
known                 n x 52    cards known to be in each other hand (E7, E5)
trick                 n x 52    the card each seat put on the current trick
voids                 n x 4     suits each seat has shown out of
trump                 6         one-hot: S, H, D, C, no trumps, not named yet
trump card            52        round 1's shown card
phase                 6         one-hot: play, exchange, bargain, trump, over, deal
titles                n x n     one-hot title rank of each seat (all 0 in round 1)
to act                n         one-hot
leader                n         one-hot: who leads the tricks of this round
hand sizes            n         cards in hand / 13
tricks                n         tricks this round / 13
totals                n         game totals / (13 x rounds) (capped at 1)
round                 1         round / rounds
bargain               n + 2     one-hot pending bargain target, last offer / 3,
                                1 when the taker must answer an offer
====================  ========  ==============================================
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kozyr.games.emperor import EmperorObservation
from kozyr.games.imperial import ImperialObservation

__all__ = ["emperor_size", "emperor_vector", "imperial_size", "imperial_vector"]

_EMPEROR_PHASES = ("play", "exchange", "bargain", "trump", "over", "deal")

Vector = npt.NDArray[np.float32]


def _cards(out: Vector, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = 1.0
        mask ^= low


def imperial_size(players: int) -> int:
    n = players
    return 52 + 3 * n * 52 + n + 4 + 52 + 2 * n + 2 * n + 2 * n + 2 * n


def imperial_vector(obs: ImperialObservation, out: Vector | None = None) -> Vector:
    """The Imperial vector of ``obs`` (see the module doc); fills ``out`` if given."""
    n = obs.options.players
    if out is None:
        out = np.zeros(imperial_size(n), np.float32)
    else:
        out.fill(0.0)
    me = obs.seat or 0

    def rel(seat: int) -> int:
        return (seat - me) % n

    at = 0
    if obs.hand is not None:
        _cards(out, at, obs.hand)
    at += 52
    for s in range(n):
        _cards(out, at + 52 * rel(s), obs.played[s])
    at += 52 * n
    for s in range(n):
        _cards(out, at + 52 * rel(s), obs.shown[s])
    at += 52 * n
    for s, c in obs.trick:
        out[at + 52 * rel(s) + c] = 1.0
    at += 52 * n
    if obs.trick:
        out[at + rel(obs.trick[0][0])] = 1.0
    at += n
    if obs.trump is not None:
        out[at + obs.trump] = 1.0
    at += 4
    card = obs.turnup if obs.turnup is not None else obs.trump_card
    if card is not None:
        out[at + card] = 1.0
    at += 52
    if obs.dealer is not None:
        out[at + rel(obs.dealer)] = 1.0
    at += n
    if obs.to_act is not None:
        out[at + rel(obs.to_act)] = 1.0
    at += n
    for s in range(n):
        out[at + rel(s)] = obs.hand_sizes[s] / 12.0
    at += n
    for s in range(n):
        out[at + rel(s)] = obs.tricks[s] / 12.0
    at += n
    if obs.trump is not None:
        jack = 13 * obs.trump + 9  # rank 11 (J) is bit 9; ace (14) bit 12
        ace = 13 * obs.trump + 12
        for s in range(n):
            out[at + 2 * rel(s)] = float(obs.captures[s] >> jack & 1)
            out[at + 2 * rel(s) + 1] = float(obs.captures[s] >> ace & 1)
    at += 2 * n
    target = obs.options.target
    for s, (imperials, loose) in enumerate(obs.scores):
        out[at + rel(s)] = min(imperials / target, 1.0)
        out[at + n + rel(s)] = min(loose / 24.0, 1.0)
    at += 2 * n
    assert at == out.shape[0]
    return out


def emperor_size(players: int) -> int:
    n = players
    return 52 + 3 * n * 52 + 4 * n + 6 + 52 + 6 + n * n + 2 * n + 3 * n + 1 + n + 2


def emperor_vector(obs: EmperorObservation, out: Vector | None = None) -> Vector:
    """The Emperor vector of ``obs`` (see the module doc); fills ``out`` if given."""
    n = obs.players
    if out is None:
        out = np.zeros(emperor_size(n), np.float32)
    else:
        out.fill(0.0)
    me = obs.seat or 0

    def rel(seat: int) -> int:
        return (seat - me) % n

    at = 0
    if obs.hand is not None:
        _cards(out, at, obs.hand)
    at += 52
    for s in range(n):
        _cards(out, at + 52 * rel(s), obs.played[s])
    at += 52 * n
    for s, m in obs.known.items():
        _cards(out, at + 52 * rel(s), m)
    at += 52 * n
    for s, c in obs.trick:
        out[at + 52 * rel(s) + c] = 1.0
    at += 52 * n
    for s in range(n):
        for suit in range(4):
            out[at + 4 * rel(s) + suit] = float(obs.voids[s] >> suit & 1)
    at += 4 * n
    if not obs.trump_named:
        out[at + 5] = 1.0
    elif obs.trump is None:
        out[at + 4] = 1.0
    else:
        out[at + obs.trump] = 1.0
    at += 6
    if obs.trump_card is not None:
        out[at + obs.trump_card] = 1.0
    at += 52
    out[at + _EMPEROR_PHASES.index(obs.phase)] = 1.0
    at += 6
    if obs.title_order is not None:
        for rank, s in enumerate(obs.title_order):
            out[at + n * rel(s) + rank] = 1.0
    at += n * n
    if obs.to_act is not None:
        out[at + rel(obs.to_act)] = 1.0
    at += n
    if obs.play_order:
        out[at + rel(obs.play_order[0])] = 1.0
    at += n
    for s in range(n):
        out[at + rel(s)] = obs.hand_sizes[s] / 13.0
        out[at + n + rel(s)] = obs.tricks[s] / 13.0
        out[at + 2 * n + rel(s)] = min(obs.totals[s] / (13.0 * obs.options.rounds), 1.0)
    at += 3 * n
    out[at] = obs.round / obs.options.rounds
    at += 1
    if obs.phase == "bargain" and obs.swaps:
        pending = obs.swaps[-1]
        out[at + rel(pending.target)] = 1.0
        mine = [o for o in obs.offers if o.taker == pending.taker and o.target == pending.target]
        if mine and mine[-1].answer is None:
            out[at + n] = mine[-1].tricks / 3.0
            out[at + n + 1] = 1.0
        elif mine:
            out[at + n] = mine[-1].tricks / 3.0
    at += n + 2
    assert at == out.shape[0]
    return out
