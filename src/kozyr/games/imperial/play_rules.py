"""The rules of card play (I7): which cards may be played, and why a card may not."""

from __future__ import annotations

from kozyr.cards import suit_name

from .card_tables import ABOVE, NAME, SUIT_MASKS, SUIT_OF, cards_list

__all__ = ["beaters", "illegal_reason", "legal_mask"]


def beaters(best: int, trump: int) -> int:
    """Cards that beat ``best``, the card now winning the trick (I7: highest trump wins,
    else the highest card of the suit led; a card of another plain suit never wins)."""
    if SUIT_OF[best] == trump:
        return ABOVE[best]
    return ABOVE[best] | SUIT_MASKS[trump]


def legal_mask(hand: int, led: int, best: int, trump: int, must_head: bool) -> int:
    """The cards of ``hand`` that may be played; ``led`` is -1 when leading.

    >>> from kozyr.cards import parse_cards, parse_card, Suit
    >>> h = parse_cards("7H KS 8D").mask
    >>> m = legal_mask(h, Suit.CLUBS, parse_card("AC"), Suit.SPADES, False)
    >>> [NAME[c] for c in cards_list(m)]
    ['KS']
    """
    if led < 0:
        return hand
    legal = hand & SUIT_MASKS[led]
    if not legal:
        legal = hand & SUIT_MASKS[trump] or hand
    if must_head:
        heading = legal & beaters(best, trump)
        if heading:
            legal = heading
    return legal


def illegal_reason(card: int, hand: int, led: int, best: int, trump: int, must_head: bool) -> str:
    """Why ``card`` may not be played here, in plain English (for IllegalAction, I7)."""
    name = NAME[card]
    if not hand >> card & 1:
        return f"{name}: not in your hand"
    if led >= 0 and SUIT_OF[card] != led and hand & SUIT_MASKS[led]:
        return f"{name}: you must follow suit ({suit_name(led, long=True)})"
    if led >= 0 and SUIT_OF[card] not in (led, trump) and hand & SUIT_MASKS[trump]:
        return (
            f"{name}: you have no {suit_name(led, long=True)}, so you must trump "
            f"({suit_name(trump, long=True)})"
        )
    if must_head:
        options = " ".join(
            NAME[c] for c in cards_list(legal_mask(hand, led, best, trump, must_head))
        )
        return f"{name}: you must head the trick over {NAME[best]} (must_head): play {options}"
    return f"{name}: may not be played now"
