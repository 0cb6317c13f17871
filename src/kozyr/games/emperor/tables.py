"""Precomputed tables that keep the hot path (legal cards, trick play) allocation-light."""

from __future__ import annotations

from kozyr.cards import card_name

__all__ = [
    "CARD_NAMES",
    "ROTATIONS",
    "SUIT_CARDS",
    "SUIT_MASKS",
    "SUIT_OF",
    "SUIT_SHIFT",
    "mask_cards",
]

SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52))
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
SUIT_SHIFT: tuple[int, ...] = (0, 13, 26, 39)
CARD_NAMES: tuple[str, ...] = tuple(card_name(c) for c in range(52))

# SUIT_CARDS[s][m]: the card ids of suit s whose rank bits (13 bits) are set in m.
_RANK_LISTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = (
    _RANK_LISTS,
    *(tuple(tuple(r + 13 * s for r in ranks) for ranks in _RANK_LISTS) for s in (1, 2, 3)),
)

# ROTATIONS[n][leader]: the seats in clockwise play order from ``leader`` (E5).
ROTATIONS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n)) for n in (3, 4)
}


def mask_cards(mask: int) -> list[int]:
    """The cards of a mask, ascending, by four table look-ups."""
    return [
        *SUIT_CARDS[0][mask & 0x1FFF],
        *SUIT_CARDS[1][mask >> 13 & 0x1FFF],
        *SUIT_CARDS[2][mask >> 26 & 0x1FFF],
        *SUIT_CARDS[3][mask >> 39 & 0x1FFF],
    ]
