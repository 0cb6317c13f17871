"""Precomputed per-card tables for Imperial: order in play, values, names, suit masks.

The engine works on int bit masks (see :mod:`kozyr.cards`); these tables turn the
per-card questions of the hot path (which suit, how strong, which cards beat it) into
list lookups.
"""

from __future__ import annotations

from kozyr.cards import ACE, DECK_32, DECK_36, JACK, KING, QUEEN, card_name, suit_mask

__all__ = [
    "ABOVE",
    "ALL_COURT",
    "CARD_VALUE",
    "NAME",
    "STRENGTH",
    "SUIT_CARDS",
    "SUIT_MASKS",
    "SUIT_OF",
    "SUIT_VALUE",
    "bit",
    "cards_list",
    "deck_for",
    "low_rank_for",
    "rank_bit",
]

# I2: K Q J A 10 9 8 7 6, high to low. Ranks below 6 never occur; they get -1.
_ORDER = (KING, QUEEN, JACK, ACE, 10, 9, 8, 7, 6)
_STRENGTH_OF_RANK = {rank: len(_ORDER) - i for i, rank in enumerate(_ORDER)}

# I3: A 11, K Q J 10 each, others their pips (used only to break point ties).
_VALUE_OF_RANK = {r: (11 if r == ACE else 10 if r >= 10 else r) for r in range(2, 15)}

NAME: tuple[str, ...] = tuple(card_name(c) for c in range(52))
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52))
STRENGTH: tuple[int, ...] = tuple(_STRENGTH_OF_RANK.get(c % 13 + 2, -1) for c in range(52))
CARD_VALUE: tuple[int, ...] = tuple(_VALUE_OF_RANK[c % 13 + 2] for c in range(52))
SUIT_MASKS: tuple[int, ...] = tuple(suit_mask(s) for s in range(4))

# Cards of the same suit that beat a card under I2 (a trump beats any other suit; the
# engine adds that separately because it depends on the trump of the deal).
ABOVE: tuple[int, ...] = tuple(
    sum(1 << o for o in range(13 * (c // 13), 13 * (c // 13) + 13) if STRENGTH[o] > STRENGTH[c])
    for c in range(52)
)

# Cards of a 13-bit suit pattern, ready to extend a list (legal_actions is hot).
SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * s + b for b in range(13) if m >> b & 1) for m in range(1 << 13))
    for s in range(4)
)

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


def cards_list(mask: int) -> list[int]:
    """The cards of a mask, ascending.

    >>> cards_list(0b101 | 1 << 20)
    [0, 2, 20]
    """
    out: list[int] = []
    for s in range(4):
        m = (mask >> (13 * s)) & 0x1FFF
        if m:
            out += SUIT_CARDS[s][m]
    return out
