"""How cards and seats look in the terminal (Rich markup)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kozyr.cards import Card, Lang, Suit, card_name, parse_card, suit_of
from kozyr.i18n import t


def card_markup(c: Card, lang: Lang) -> str:
    name = card_name(c, lang, symbols=True)
    if suit_of(c) in (Suit.HEARTS, Suit.DIAMONDS):
        return f"[bold red]{name}[/bold red]"
    return f"[bold]{name}[/bold]"


def cards_markup(cards: Iterable[Card], lang: Lang) -> str:
    return " ".join(card_markup(c, lang) for c in cards)


def text_cards(names: Iterable[str], lang: Lang) -> str:
    """Event cards (English text such as ``"QS"``) in the reader's language."""
    return cards_markup((parse_card(n) for n in names), lang)


def seat_names(players: int, human: int | None, lang: Lang) -> list[str]:
    """``You`` for the person, ``Computer N`` for the others (N = seat number)."""
    return [t("you", lang) if s == human else t("computer", lang, n=s) for s in range(players)]


def name_of(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)
