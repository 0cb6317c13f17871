"""Precomputed per-card tables for Imperial: order in play (I2) and values (I3).

The engine works on int bit masks (see :mod:`kozyr.cards`); these tables turn the
per-card questions of the hot path (how strong, which cards beat it) into list look-ups.
Suits, names and mask-to-list come from :mod:`kozyr.cards`, the trick rules from
:mod:`kozyr.games.tricks`.
"""

from __future__ import annotations

from typing import Final

from kozyr.cards import ACE, DECK_32, DECK_36, JACK, KING, QUEEN
from kozyr.games.tricks import above_table

__all__ = [
    "ABOVE",
    "ALL_COURT",
    "CARD_VALUE",
    "RANK_ORDER",
    "STRENGTH",
    "SUIT_VALUE",
    "bit",
    "deck_for",
    "low_rank_for",
    "rank_bit",
]

# I2: K Q J A 10 9 8 7 6, high to low. Ranks below 6 never occur; they get -1.
_ORDER = (KING, QUEEN, JACK, ACE, 10, 9, 8, 7, 6)
RANK_ORDER: tuple[int, ...] = _ORDER
"""Ranks high to low within a suit (I2)."""
_STRENGTH_OF_RANK = {rank: len(_ORDER) - i for i, rank in enumerate(_ORDER)}

# I3: A 11, K Q J 10 each, others their pips (used only to break point ties).
_VALUE_OF_RANK = {r: (11 if r == ACE else 10 if r >= 10 else r) for r in range(2, 15)}

STRENGTH: Final[tuple[int, ...]] = tuple(_STRENGTH_OF_RANK.get(c % 13 + 2, -1) for c in range(52))
CARD_VALUE: tuple[int, ...] = tuple(_VALUE_OF_RANK[c % 13 + 2] for c in range(52))

ABOVE: Final[tuple[int, ...]] = above_table(STRENGTH)
"""Cards of the same suit that beat a card under I2 (the ``above`` of
:mod:`kozyr.games.tricks`, which adds the trumps)."""

# I3 value total of a 13-bit suit pattern (point ties, I6).
SUIT_VALUE: tuple[int, ...] = tuple(
    sum(_VALUE_OF_RANK[b + 2] for b in range(13) if m >> b & 1) for m in range(1 << 13)
)


def rank_bit(rank: int) -> int:
    """The bit of a rank inside a 13-bit suit pattern."""
    return 1 << (rank - 2)


def bit(card: int) -> int:
    return 1 << card


# Every king, queen and jack: a hand without any of them is white (I11).
ALL_COURT: int = sum(rank_bit(r) << (13 * s) for s in range(4) for r in (JACK, QUEEN, KING))


def deck_for(players: int) -> int:
    """I1: 32 cards (7-A) for two players, 36 (6-A) for three."""
    return DECK_32 if players == 2 else DECK_36


def low_rank_for(players: int) -> int:
    """The low honour and imperial card: 7 with two players, 6 with three (I4, I6)."""
    return 7 if players == 2 else 6
