"""What a hand declares (I6, I11): imperials, the point and the honours.

Pure functions on bit masks; the state decides the order and applies the scores.
"""

from __future__ import annotations

from dataclasses import dataclass

from kozyr.cards import ACE, JACK, KING, QUEEN

from .card_tables import ALL_COURT, SUIT_VALUE, rank_bit

__all__ = [
    "Imperial",
    "find_imperials",
    "honour_mask",
    "is_white",
    "point_of",
]

_KQJA = rank_bit(KING) | rank_bit(QUEEN) | rank_bit(JACK) | rank_bit(ACE)
_QJA = rank_bit(QUEEN) | rank_bit(JACK) | rank_bit(ACE)


@dataclass(frozen=True, slots=True)
class Imperial:
    """One imperial held: ``kind`` is ``"suit"``, ``"four"`` or ``"white"``."""

    kind: str
    cards: int
    """The cards that make it (bit mask); for a turned imperial this includes the turn-up."""
    count: int
    """How many imperials it is worth: 2 for a suit imperial in trumps or a white hand (I6, I11)."""
    turned: bool = False
    """Completed by the turn-up (2 players, dealer only, I6)."""


def _suit_imperial(pattern: int, low: int) -> int:
    """The 13-bit pattern of a suit imperial in a suit, or 0 (I6: at most one per suit)."""
    if pattern & _KQJA == _KQJA:
        return _KQJA
    q = _QJA | rank_bit(low)
    if pattern & q == q:
        return q
    return 0


def _four(rank: int) -> int:
    b = rank_bit(rank)
    return b | b << 13 | b << 26 | b << 39


def find_imperials(hand: int, trump: int, low: int, turnup: int | None = None) -> list[Imperial]:
    """The imperials of a hand (I6.3), suit imperials by suit, then fours by rank K Q J A low.

    ``low`` is 7 (two players) or 6 (three). With ``turnup`` (the dealer, two players) an
    imperial that needs the turn-up is a *turned* imperial; one the hand makes by itself
    is never counted as turned.

    >>> from kozyr.cards import parse_cards, parse_card, Suit
    >>> h = parse_cards("KS QS JS AS QH QD QC 8H 9H 10H 7C 8C").mask
    >>> [(i.kind, i.count) for i in find_imperials(h, Suit.HEARTS, 7)]
    [('suit', 1), ('four', 1)]
    >>> [(i.kind, i.count) for i in find_imperials(h, Suit.SPADES, 7)]
    [('suit', 2), ('four', 1)]
    >>> t = find_imperials(h & ~parse_cards("KS").mask, Suit.SPADES, 7, parse_card("KS"))
    >>> [(i.kind, i.count, i.turned) for i in t]
    [('suit', 2, True), ('four', 1, False)]
    """
    out: list[Imperial] = []
    full = hand if turnup is None else hand | 1 << turnup
    for s in range(4):
        shift = 13 * s
        own = _suit_imperial(hand >> shift & 0x1FFF, low)
        if own:
            out.append(Imperial("suit", own << shift, 2 if s == trump else 1))
        elif full != hand:
            got = _suit_imperial(full >> shift & 0x1FFF, low)
            if got:
                out.append(Imperial("suit", got << shift, 2 if s == trump else 1, True))
    for rank in (KING, QUEEN, JACK, ACE, low):
        m = _four(rank)
        if hand & m == m:
            out.append(Imperial("four", m, 1))
        elif full & m == m:
            out.append(Imperial("four", m, 1, True))
    return out


def is_white(hand: int) -> bool:
    """I11: twelve cards without a king, queen or jack."""
    return not hand & ALL_COURT


def point_of(hand: int) -> tuple[int, int, int]:
    """The point (I6.4): (suit, length, value) of the longest suit, ties by I3 value.

    Two suits equal in length and value both make the same point; the first in the
    order spades, hearts, diamonds, clubs is announced.

    >>> from kozyr.cards import parse_cards
    >>> point_of(parse_cards("7S 8S 9S AH 7H 8H KD QD JD 10C 9C 8C").mask)
    (2, 3, 30)
    """
    best = (-1, -1, -1)
    for s in range(4):
        pattern = hand >> (13 * s) & 0x1FFF
        length = pattern.bit_count()
        value = SUIT_VALUE[pattern]
        if length > best[1] or (length == best[1] and value > best[2]):
            best = (s, length, value)
    return best


def honour_mask(trump: int, low: int) -> int:
    """I4: the honours are the trump K, Q, J and the low card (7 or 6); not the ace."""
    return (rank_bit(KING) | rank_bit(QUEEN) | rank_bit(JACK) | rank_bit(low)) << (13 * trump)
