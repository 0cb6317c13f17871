"""The exchange of hands (E7) and the bargaining over it (E8), as small pure helpers
the state calls: what a target may offer and how swap knowledge moves."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["offer_range", "swap_hands"]


def offer_range(last_offer: int, total: int, max_offer: int) -> range:
    """The offers a target may make now (E8): strictly more than his last offer this
    bargain, at most ``max_offer``, never more than his game total. Empty means he can
    only yield (for example a total of 0)."""
    return range(last_offer + 1, min(max_offer, total) + 1)


def swap_hands(hands: list[int], known: Sequence[list[int]], a: int, b: int) -> None:
    """Seats ``a`` and ``b`` exchange hands (E7), in place, with what everyone knows.

    ``known[s][t]`` is what seat ``s`` knows to be in seat ``t``'s hand (a spectator
    row works the same way). The swap is public, so every piece of knowledge follows the
    hand it is about; and each of the two swappers now knows the other's hand, because
    it is the one he just gave away.
    """
    ha, hb = hands[a], hands[b]
    hands[a], hands[b] = hb, ha
    for row in known:
        row[a], row[b] = row[b], row[a]
    if a < len(known):
        known[a][a] = 0
        known[a][b] = ha
    if b < len(known):
        known[b][b] = 0
        known[b][a] = hb
