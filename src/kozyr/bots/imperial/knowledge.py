"""What a seat can infer from public Imperial information (I13) plus its own hand.

Everything here is derived from an :class:`ImperialObservation` only: the cards played in
this deal, the voids shown in its tricks, the shown cards, the turn-up. The
sampler uses it to deal the hidden cards consistently; the heuristic uses the same
masks to know which cards are still out.
"""

from __future__ import annotations

from dataclasses import dataclass

from kozyr.games.imperial import ImperialObservation
from kozyr.games.imperial.card_tables import deck_for

__all__ = ["DealKnowledge", "knowledge"]


@dataclass(frozen=True, slots=True)
class DealKnowledge:
    """Public facts of the current deal, seen from ``seat``."""

    seat: int
    players: int
    trump: int
    deck: int
    """All cards of this deal's deck."""
    hand: int
    gone: int
    """Cards already played in this deal (by anyone)."""
    unseen: int
    """Cards whose place the observer does not know: not his, not played, not the turn-up,
    not shown in another hand. With two players this includes the 7 unused stock cards."""
    need: tuple[int, ...]
    """Hidden cards each seat still holds besides its shown ones (0 for the observer)."""
    void: tuple[int, ...]
    """Per seat, a 4-bit mask of suits it has shown it does not hold (I7: it did not follow
    suit, or it did not trump when it could not follow)."""


def knowledge(obs: ImperialObservation) -> DealKnowledge:
    """The public facts of the observation's deal for its seat (which must hold a hand)."""
    if obs.seat is None or obs.hand is None or obs.trump is None:
        raise ValueError("knowledge needs a seat's observation of a deal in play")
    n = obs.options.players
    trump = obs.trump
    deck = deck_for(n)
    gone = 0
    for m in obs.played:
        gone |= m
    known = gone | obs.hand
    if obs.turnup is not None:
        known |= 1 << obs.turnup
    for s in range(n):
        if s != obs.seat:
            known |= obs.shown[s]
    need = tuple(
        0 if s == obs.seat else obs.hand_sizes[s] - obs.shown[s].bit_count() for s in range(n)
    )
    return DealKnowledge(
        seat=obs.seat,
        players=n,
        trump=trump,
        deck=deck,
        hand=obs.hand,
        gone=gone,
        unseen=deck & ~known,
        need=need,
        void=obs.voids,
    )
