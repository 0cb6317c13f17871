"""Everything a person reads, in English and Russian: the one catalogue.

Each area has its module here, holding one table ``TEXTS``: a key -> (English, Russian)
templates with named ``{parameters}`` (``str.format``), every key starting with its
module's name (``rules.not_in_hand`` is in :mod:`kozyr.texts.rules`). :data:`TEXTS` is
all of them, merged; :func:`text` renders one in a language, :func:`both` in both.

>>> text("terminal.round", "ru", n=3), both("terminal.trick")
('Тур 3', ('Trick', 'Взятка'))
>>> text("grammar.count.trick", "ru", n=2), text("stakes.pays", "en", payer="You",
...     payee="Computer 1", chips="5 chips")
('2 взятки', 'You pay Computer 1: 5 chips')

Beside ``str.format``, a template may ask for grammar (:mod:`kozyr.texts.render`): a
count's word form (``{n:trick|tricks}``, ``{n:взятка|взятки|взяток}``), a name's case
(``{name:gen}``) and a verb agreeing with a name (``{who:берёт|берёте}``). Both templates
of an entry name the same parameters; a test holds every entry to it.

The package imports nothing else of kozyr, so every layer may use it. Adding a text: put
it into the area's table (a new area: a module here with its ``TEXTS``, and a line in
:data:`AREAS`), in both languages, and render it with :func:`text` where it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from kozyr.texts import (
    accounts,
    bots,
    cards,
    chips,
    cli,
    emperor_view,
    games,
    grammar,
    imperial_view,
    learn,  # kozyr learn (#29)
    lessons,
    markets,
    pages,
    protocol,
    puzzles,
    refusal_words,
    review,
    rules,
    stakes,
    terminal,
    wallet,
)
from kozyr.texts.render import decline, fill, is_you, ru_plural

__all__ = [
    "AREAS",
    "LANGS",
    "TEXTS",
    "Lang",
    "both",
    "decline",
    "fill",
    "is_you",
    "ru_plural",
    "template",
    "text",
]

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, ...] = ("en", "ru")

AREAS: Mapping[str, Mapping[str, tuple[str, str]]] = MappingProxyType(
    {
        module.__name__.rpartition(".")[2]: MappingProxyType(module.TEXTS)
        for module in (
            rules,
            refusal_words,
            cards,
            grammar,
            terminal,
            imperial_view,
            emperor_view,
            stakes,
            review,
            bots,
            games,
            markets,
            cli,
            protocol,
            accounts,
            chips,
            wallet,
            pages,
            lessons,
            puzzles,  # puzzles from real deals (#29)
            learn,  # kozyr learn (#29)
        )
    }
)
"""Each area's table by the area's name (the name its keys start with)."""


def _merged() -> dict[str, tuple[str, str]]:
    merged: dict[str, tuple[str, str]] = {}
    for area, table in AREAS.items():
        for key, pair in table.items():
            if key in merged:
                raise ValueError(f"{key} of {area} is in another area already")
            merged[key] = pair
    return merged


TEXTS: Mapping[str, tuple[str, str]] = MappingProxyType(_merged())
"""Every text: key -> (English, Russian) templates."""


def template(key: str, lang: Lang = "en") -> str:
    """The template of ``key`` in ``lang``, unfilled."""
    en, ru = TEXTS[key]
    return ru if lang == "ru" else en


def text(key: str, /, lang: Lang = "en", **params: Any) -> str:
    """The text of ``key`` in ``lang`` with ``params`` put in."""
    return fill(template(key, lang), **params)


def both(key: str, /, **params: Any) -> tuple[str, str]:
    """The text of ``key`` in English and in Russian, for what carries both (a market's
    title, a game's name, an error's two messages)."""
    en, ru = TEXTS[key]
    return fill(en, **params), fill(ru, **params)
