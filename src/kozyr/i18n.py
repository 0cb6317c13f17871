"""The terminal's texts rendered, and the grammar around them: counts, cases, decimals.

The texts themselves are in the catalogue, :mod:`kozyr.texts` (the terminal's in
:mod:`kozyr.texts.terminal`); :func:`t` renders one of them by its key there.

>>> t("illegal", "en", reason="no"), t("round", "en", n=3)
('Not allowed: no', 'Round 3')
"""

from __future__ import annotations

import os

from kozyr.texts import Lang, decline, is_you, ru_plural, template, text

__all__ = [
    "count",
    "decimal",
    "default_lang",
    "is_you",
    "ru_case",
    "ru_plural",
    "ru_verb",
    "t",
]


def t(key: str, lang: Lang = "en", **kwargs: object) -> str:
    """The terminal's text ``key`` (``terminal.<key>`` of the catalogue) in ``lang``,
    filled with ``kwargs``."""
    return text(f"terminal.{key}", lang, **kwargs)


def count(n: int, unit: str, lang: Lang = "en") -> str:
    """A number with its noun in the right form (``grammar.count.<unit>``): "+4 points",
    "2 tricks", "1 trick".

    >>> count(4, "point"), count(21, "trick"), count(1, "trick"), count(5, "card")
    ('4 points', '21 tricks', '1 trick', '5 cards')
    """
    return text(f"grammar.count.{unit}", lang, n=n)


def decimal(x: float, lang: Lang = "en", digits: int = 1) -> str:
    """A number with ``digits`` decimals, written as a reader of ``lang`` expects: a
    decimal comma in Russian (as the page writes it), a point in English.

    >>> decimal(4.56, "ru"), decimal(4.56), decimal(94.0, "ru"), decimal(-0.25, "ru", 2)
    ('4,6', '4.6', '94,0', '-0,25')
    """
    written = f"{x:.{digits}f}"
    return written.replace(".", ",") if lang == "ru" else written


def ru_case(name: str, case: str) -> str:
    """A seat's name in a Russian case: the genitive (``"gen"``), dative (``"dat"``) or
    instrumental (``"ins"``), where the catalogue declines it (the seat names the terminal
    makes, ``grammar.*``); any other name, English ones included, as it is."""
    if name == template("grammar.you", "en"):
        return name
    return decline(name, case)


def ru_verb(name: str, singular: str, plural: str) -> str:
    """The verb form agreeing with a seat name: the plural for the person at the terminal
    (the polite "you" of Russian), the singular for anyone else."""
    return plural if is_you(name) else singular


def default_lang() -> Lang:
    """Russian when the environment's locale is Russian, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"
