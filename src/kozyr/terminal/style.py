"""How cards and seats look in the terminal (Rich markup)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kozyr.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    Card,
    Lang,
    Suit,
    card_name,
    parse_card,
    rank_of,
    suit_of,
)
from kozyr.texts import text

# I2: Imperial ranks K Q J A 10 9 8 7 (6), as the seed lists them (king, queen, jack, ace,
# 10 ...).
_IMPERIAL_HIGH = {KING: 0, QUEEN: 1, JACK: 2, ACE: 3}


def _imperial_place(r: int) -> int:
    return _IMPERIAL_HIGH.get(r, 4 + 10 - r)


def _natural_place(r: int) -> int:
    return ACE - r


# How each game's hand is drawn in order (a UI map): games not listed rank ace high (E1).
_RANK_PLACE: dict[str, Callable[[int], int]] = {"imperial": _imperial_place}


def rank_place(c: Card, game: str) -> int:
    """A card's place in its suit, highest 0: Imperial I2 (K Q J A 10 ...), else E1
    (A K Q J 10 ...)."""
    return _RANK_PLACE.get(game, _natural_place)(rank_of(c))


def sort_cards(cards: Iterable[Card], game: str, trump: int | None = None) -> list[Card]:
    """Cards as a player holds them: trumps first, then spades, hearts, diamonds, clubs;
    each suit high to low in the game's rank order.

    >>> from kozyr.cards import parse_cards
    >>> [card_name(c) for c in sort_cards(parse_cards("7H AH QH KH 10H JH"), "imperial")]
    ['KH', 'QH', 'JH', 'AH', '10H', '7H']
    >>> [card_name(c) for c in sort_cards(parse_cards("2S AH 10H KH"), "emperor", trump=1)]
    ['AH', 'KH', '10H', '2S']
    """

    def key(c: Card) -> tuple[int, int, int]:
        s = suit_of(c)
        return (0 if s == trump else 1, int(s), rank_place(c, game))

    return sorted(cards, key=key)


def card_markup(c: Card, lang: Lang) -> str:
    name = card_name(c, lang, symbols=True)
    if suit_of(c) in (Suit.HEARTS, Suit.DIAMONDS):
        return f"[bold red]{name}[/bold red]"
    return f"[bold]{name}[/bold]"


def cards_markup(cards: Iterable[Card], lang: Lang) -> str:
    return " ".join(card_markup(c, lang) for c in cards)


def text_cards(names: Iterable[str], lang: Lang, game: str | None = None) -> str:
    """Event cards (English text such as ``"QS"``) in the reader's language; with
    ``game``, in that game's rank order (a trick keeps the order of play)."""
    cards = [parse_card(n) for n in names]
    return cards_markup(cards if game is None else sort_cards(cards, game), lang)


def seat_names(players: int, human: int | None, lang: Lang) -> list[str]:
    """``You`` for the person, ``Computer N`` for the others (N = seat number)."""
    return [
        text("grammar.you", lang) if s == human else text("grammar.computer", lang, n=s)
        for s in range(players)
    ]


def name_of(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)
