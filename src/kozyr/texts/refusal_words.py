"""The words a refusal's parameters are written with (:mod:`kozyr.messages`): the ranks a
short deck lacks (I1) and a list of seats. The page gets the ranks too, as
``RANKS_PLURAL`` of ``web/static/js/rule_messages.js``."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # "There are no sixes": English plural, Russian genitive plural.
    "refusal_words.ranks.2": ("twos", "двоек"),
    "refusal_words.ranks.3": ("threes", "троек"),
    "refusal_words.ranks.4": ("fours", "четвёрок"),
    "refusal_words.ranks.5": ("fives", "пятёрок"),
    "refusal_words.ranks.6": ("sixes", "шестёрок"),
    # Seats a swap may take: "seat 1 or seat 3".
    "refusal_words.seat": ("seat {seat}", "место {seat}"),
    "refusal_words.or": (" or ", " или "),
}
