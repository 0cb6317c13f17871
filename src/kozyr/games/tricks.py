"""The trick-taking core shared by both engines, their bots and the interop samplers.

Imperial (I7) and Emperor (E10) play tricks by the same law: follow the suit led; with
none of it, play a trump; with neither, any card. The highest trump wins, else the
highest card of the suit led; a card of another plain suit never wins. What differs is
written as parameters:

- the order of ranks, as an ``above`` table (``above[c]``: the cards of ``c``'s suit that
  beat ``c``): Imperial's K Q J A 10 ... (I2) and the natural order, ace high (E1);
- no trumps (Emperor, E9): ``trump`` is :data:`NO_TRUMP`;
- Imperial's option ``must_head``: a player must also beat the winning card when he can
  (:func:`must_beat_mask`).

Everything works on int bit masks (see :mod:`kozyr.cards`) and plain ints: a trick's
``led`` suit is -1 before its first card; ``best`` is the card now winning it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from kozyr.cards import SUIT_CARDS, SUIT_MASKS, SUIT_OF, card_list

__all__ = [
    "ABOVE_NATURAL",
    "NO_TRUMP",
    "TRUMP_MASKS",
    "above_table",
    "beaters",
    "beats",
    "follow_mask",
    "legal_cards",
    "must_beat_mask",
    "refusal",
    "shown_voids",
    "suits_cards",
    "trick_winner",
]

NO_TRUMP: Final = 4
"""The trump "suit" of a no-trump deal (E9)."""

TRUMP_MASKS: Final[tuple[int, ...]] = (*SUIT_MASKS, 0)
"""The cards of each trump suit, indexed by ``trump``; no trumps (:data:`NO_TRUMP`) has none."""


def above_table(strength: Sequence[int]) -> tuple[int, ...]:
    """The ``above`` table of a rank order: for each card, the cards of its suit with a
    higher ``strength`` (``strength[c]`` for each of the 52 cards).

    >>> from kozyr.cards import parse_card, card_names
    >>> table = above_table(range(52))  # natural order
    >>> card_names(table[parse_card("QS")])
    ['KS', 'AS']
    """
    return tuple(
        sum(1 << o for o in range(13 * (c // 13), 13 * (c // 13) + 13) if strength[o] > strength[c])
        for c in range(52)
    )


ABOVE_NATURAL: Final[tuple[int, ...]] = above_table(range(52))
"""Ace high, then K, Q, J, 10 ... 2 (E1): a higher card id of the same suit is higher."""


def suits_cards(suits: int) -> int:
    """The cards of the suits whose bits are set in ``suits`` (bit ``s``: suit ``s``).

    >>> suits_cards(0b0101) == SUIT_MASKS[0] | SUIT_MASKS[2]
    True
    """
    m = 0
    for s in range(4):
        if suits >> s & 1:
            m |= SUIT_MASKS[s]
    return m


def follow_mask(hand: int, led: int, trump: int) -> int:
    """The cards of ``hand`` that may be played to a trick whose suit ``led`` (-1: the
    player leads, any card): the suit led, else trumps, else any card (I7, E10)."""
    if led < 0:
        return hand
    return hand & SUIT_MASKS[led] or hand & TRUMP_MASKS[trump] or hand


def legal_cards(hand: int, led: int, trump: int) -> list[int]:
    """:func:`follow_mask` as a list, ascending (the engines' ``legal_actions``); one
    table look-up when the player must follow or trump."""
    if led >= 0:
        m = hand & SUIT_MASKS[led]
        if m:
            return list(SUIT_CARDS[led][m >> 13 * led])
        if trump != NO_TRUMP:
            m = hand & SUIT_MASKS[trump]
            if m:
                return list(SUIT_CARDS[trump][m >> 13 * trump])
    return card_list(hand)


def beaters(best: int, trump: int, above: Sequence[int]) -> int:
    """The cards that beat ``best``, the card now winning the trick: higher cards of its
    suit and, unless it is a trump, every trump (I7, E10). ``best`` is always of the suit
    led or a trump, so a card of another plain suit never beats it."""
    if SUIT_OF[best] == trump:
        return above[best]
    return above[best] | TRUMP_MASKS[trump]


def beats(card: int, best: int, trump: int, above: Sequence[int]) -> bool:
    """Whether ``card`` beats ``best``, the card now winning the trick."""
    return bool(beaters(best, trump, above) >> card & 1)


def must_beat_mask(hand: int, led: int, best: int, trump: int, above: Sequence[int]) -> int:
    """:func:`follow_mask` narrowed, when some of those cards beat ``best``, to them
    (Imperial's option ``must_head``, I7)."""
    legal = follow_mask(hand, led, trump)
    if led >= 0:
        heading = legal & beaters(best, trump, above)
        if heading:
            return heading
    return legal


def trick_winner(cards: Sequence[int], trump: int, above: Sequence[int]) -> int:
    """The index (in order of play) of the card that wins a trick (I7, E10)."""
    best = 0
    for i in range(1, len(cards)):
        if beaters(cards[best], trump, above) >> cards[i] & 1:
            best = i
    return best


def shown_voids(card: int, led: int, trump: int) -> int:
    """The suits (bit ``s``: suit ``s``) a player shows he lacks by playing ``card`` to a
    trick whose suit ``led``: none when he follows or leads; the suit led when he does
    not; trumps too when he does not trump either (I7, E10)."""
    s = SUIT_OF[card]
    if led < 0 or s == led:
        return 0
    if trump == NO_TRUMP or s == trump:
        return 1 << led
    return 1 << led | 1 << trump


def refusal(
    card: int,
    hand: int,
    led: int,
    best: int,
    trump: int,
    above: Sequence[int],
    must_beat: bool = False,
) -> tuple[str, dict[str, Any]] | None:
    """Why ``card`` may not be played from ``hand`` now, as a message code of
    :mod:`kozyr.messages` and its parameters, or None when it may.

    >>> from kozyr.cards import parse_card, parse_cards
    >>> hand = parse_cards("7H KS 8D").mask
    >>> code, params = refusal(parse_card("8D"), hand, 3, parse_card("AC"), 0, ABOVE_NATURAL)
    >>> code, params["led"], params["trump"]  # clubs led, spades trump: KS must be played
    ('must_trump', 3, 0)
    """
    if not hand >> card & 1:
        return "not_in_hand", {"card": card}
    if led < 0:
        return None
    s = SUIT_OF[card]
    if s != led and hand & SUIT_MASKS[led]:
        return "must_follow", {"card": card, "suit": led}
    if s != led and s != trump and hand & TRUMP_MASKS[trump]:
        return "must_trump", {"card": card, "led": led, "trump": trump}
    if must_beat:
        allowed = must_beat_mask(hand, led, best, trump, above)
        if not allowed >> card & 1:
            return "must_beat", {"card": card, "best": best, "cards": card_list(allowed)}
    return None
