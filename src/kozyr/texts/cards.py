"""The suits' names in words (:func:`kozyr.cards.suit_name` with ``long``). The cards'
notation itself (``QS``, ``Д♠``) is no text to translate: it is what the card parser
reads, and lives with it in :mod:`kozyr.cards`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "cards.suit.S": ("spades", "пики"),
    "cards.suit.H": ("hearts", "черви"),
    "cards.suit.D": ("diamonds", "бубны"),
    "cards.suit.C": ("clubs", "трефы"),
}
