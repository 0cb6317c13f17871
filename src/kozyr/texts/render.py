"""How a template is filled: ``str.format`` with named parameters, plus two grammar
specs that keep a language's grammar in its own template.

- An int with forms, ``{n:trick|tricks}`` (English: one, other) or
  ``{n:взятка|взятки|взяток}`` (Russian: 1, 2-4, 5-20), gives the word form that agrees
  with the count; the number itself is written by ``{n}``.
- A person's name with forms, ``{who:pays|pay}``: the first form agrees with a third
  person, the second with the person at the terminal ("You", "Вы", which take the
  plural verb). With a case, ``{who:gen}`` (``dat``, ``ins``), the name is declined where
  its forms are known (the seat names the catalogue makes itself, a :class:`Name` that
  carries its cases, such as a lesson's cast); other names stay as they are.

>>> fill("{n} {n:trick|tricks}", n=1), fill("{n} {n:взятка|взятки|взяток}", n=22)
('1 trick', '22 взятки')
>>> fill("{who} {who:берёт|берёте}", who="Вы"), fill("у {who:gen}", who="Компьютер 2")
('Вы берёте', 'у Компьютера 2')
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Any

from kozyr.texts import grammar

__all__ = ["CASES", "Name", "decline", "fields", "fill", "is_you", "ru_plural"]

CASES = ("gen", "dat", "ins")
"""The cases a name can be declined in: genitive, dative, instrumental."""


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian word form for a count: 1 карта, 2 карты, 5 карт, 21 карта, 11 карт.

    The one plural rule of the project: it also chooses verb and participle forms that
    agree with a count ("1 взятка переходит", "2 взятки переходят").

    >>> [ru_plural(n, "карта", "карты", "карт") for n in (1, 3, 5, 11, 21, 22, 40)]
    ['карта', 'карты', 'карт', 'карт', 'карта', 'карты', 'карт']
    """
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def _forms(key: str) -> tuple[str, str]:
    return grammar.TEXTS[key]


# "You" in both languages; the person's own forms of it by case.
_YOU = _forms("grammar.you")
_YOU_CASES: dict[str, dict[str, str]] = {
    nominative: {case: _forms(f"grammar.you.{case}")[i] for case in CASES}
    for i, nominative in enumerate(_YOU)
}
# Seat names the terminal makes itself ("Компьютер 3"): first word -> its forms by case,
# each a template with {n}. A person's own name (from a server record) is left as it is:
# it cannot be declined safely without knowing it.
_SEAT_WORDS: dict[str, dict[str, str]] = {
    _forms(f"grammar.{who}")[i].partition(" ")[0]: {
        case: _forms(f"grammar.{who}.{case}")[i] for case in CASES
    }
    for who in ("computer", "player")
    for i in (0, 1)
}


class Name(str):
    """A name that knows its forms by case (a lesson's cast: "Борис", with "Бориса",
    "Борису", "Борисом"); it is the name itself wherever a ``str`` is.

    >>> fill("у {who:gen}", who=Name("Вера", {"gen": "Веры"})), fill("у {who:gen}", who="Вера")
    ('у Веры', 'у Вера')
    """

    cases: dict[str, str]

    def __new__(cls, name: str, cases: Mapping[str, str] | None = None) -> Name:
        self = super().__new__(cls, name)
        self.cases = dict(cases or {})
        return self


def is_you(name: str) -> bool:
    """Whether a seat name is the person at the terminal (verbs then take the plural)."""
    return name in _YOU


def decline(name: str, case: str) -> str:
    """A seat's name in the genitive (``"gen"``), dative (``"dat"``) or instrumental
    (``"ins"``): "Компьютер 3" -> "Компьютера 3", "Вы" -> "вас"; "You" -> "you"; any
    other name as it is.

    >>> decline("Компьютер 1", "dat"), decline("Вы", "ins"), decline("Маша", "gen")
    ('Компьютеру 1', 'вами', 'Маша')
    """
    if case not in CASES:
        raise ValueError(f"not a case: {case!r}")
    you = _YOU_CASES.get(name)
    if you is not None:
        return you[case]
    if isinstance(name, Name) and case in name.cases:
        return name.cases[case]
    word, _, rest = name.partition(" ")
    forms = _SEAT_WORDS.get(word)
    if forms is None or not rest.isdigit():
        return name
    return forms[case].format(n=rest)


class _Grammar(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> Any:
        if isinstance(value, str) and format_spec in CASES:
            return decline(value, format_spec)
        if "|" not in format_spec:
            return super().format_field(value, format_spec)
        forms = format_spec.split("|")
        if isinstance(value, str) and len(forms) == 2:
            return forms[1] if is_you(value) else forms[0]
        if isinstance(value, int) and not isinstance(value, bool) and len(forms) == 2:
            return forms[0] if abs(value) == 1 else forms[1]
        if isinstance(value, int) and not isinstance(value, bool) and len(forms) == 3:
            return ru_plural(value, forms[0], forms[1], forms[2])
        raise ValueError(f"forms {format_spec!r} do not fit the value {value!r}")


_GRAMMAR = _Grammar()


def fill(template: str, /, **params: Any) -> str:
    """``template`` with ``params`` put in: plain ``str.format``, and the grammar specs
    above where the template has them."""
    if "|" in template or ":gen}" in template or ":dat}" in template or ":ins}" in template:
        return _GRAMMAR.vformat(template, (), params)
    return template.format(**params)


def fields(template: str) -> set[str]:
    """The names of a template's parameters.

    >>> sorted(fields("{who} {who:pays|pay} {payee:dat}: {chips}"))
    ['chips', 'payee', 'who']
    """
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
