"""Letters as a reader sees them: Unicode's confusables table (UTS #39), case aside.

The table is Unicode's own ``confusables.txt`` (``data/confusables.txt``, version 13.0,
its data lines as published), read once. No package fits: ``confusable-homoglyphs`` keeps
the pairs without saying which side is the prototype (and loses the right-to-left and
space lines), and ``confusables``, the one that ships the file, also installs a top-level
``tests`` package over everyone's. Each line maps one code point to its *prototype*; a
string's UTS #39 *skeleton* is its NFD with every code point replaced by its prototype,
NFD again: two strings with one skeleton can be taken for each other.

A skeleton keeps case ("b" and "B" differ) and reserved words are matched whatever the
case, so a name is folded twice, each fold compared with the word's own:

- in capitals (:func:`fold_upper`): upper-cased, then its skeleton; a prototype that has
  no case of its own stands for the capital of the letters it stands for (the small
  capital "ʙ" is the prototype of Cyrillic "в", whose capital "В" reads "B"); combining
  marks are dropped ("Ё" reads "E"); repeated until nothing changes;
- in small letters (:func:`fold_lower`): lower-cased, then its skeleton, marks dropped.

So "ʙot", "ʙᴏᴛ", "ВОТ" and "вот" all fold to "BOT" in capitals, as "bot" does.
"""

from __future__ import annotations

import functools
import unicodedata
from collections import defaultdict
from pathlib import Path

DATA = Path(__file__).with_name("data") / "confusables.txt"


@functools.cache
def table() -> dict[str, str]:
    """Code point -> its prototype, from Unicode's ``confusables.txt``.

    >>> "\\u0299" in table(), table()["\\u0432"], table()["0"]  # ʙ is a prototype; в -> ʙ
    (False, 'ʙ', 'O')
    """
    mapping: dict[str, str] = {}
    with DATA.open(encoding="utf-8") as f:
        for line in f:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            source, target, _kind = (part.strip() for part in data.split(";"))
            mapping[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton (names hold no default-ignorable code points to remove).

    >>> skeleton("Вот"), skeleton("B0t")
    ('Boᴛ', 'BOt')
    """
    mapping = table()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(mapping.get(c, c) for c in decomposed))


def _marks_dropped(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) not in ("Mn", "Me"))


@functools.cache
def _caseless_capitals() -> dict[str, str]:
    """A prototype with no case of its own -> the skeleton of its sources' capitals,
    where they all agree (``ʙ`` -> ``B``: its sources are ``в`` and Cherokee ``ᏼ``, whose
    capitals ``В`` and ``Ᏼ`` both read ``B``)."""
    found: dict[str, set[str]] = defaultdict(set)
    for source, prototype in table().items():
        if len(prototype) != 1 or prototype.upper() != prototype or prototype.lower() != prototype:
            continue
        capital = source.upper()
        if capital != source:
            found[prototype].add(_marks_dropped(skeleton(capital)))
    return {p: next(iter(c)) for p, c in found.items() if len(c) == 1}


@functools.cache
def fold_upper(c: str) -> str:
    """One character read in capitals (see the module's docstring).

    >>> fold_upper("ʙ"), fold_upper("в"), fold_upper("b"), fold_upper("ᴛ"), fold_upper("Ё")
    ('B', 'B', 'B', 'T', 'E')
    """
    capitals = _caseless_capitals()
    text = c
    for _ in range(4):  # each round only moves towards prototypes: two are enough
        folded = _marks_dropped("".join(capitals.get(p, p) for p in skeleton(text.upper())))
        if folded == text:
            break
        text = folded
    return text


@functools.cache
def fold_lower(c: str) -> str:
    """One character read in small letters.

    >>> fold_lower("О"), fold_lower("о"), fold_lower("ё"), fold_lower("I")
    ('o', 'o', 'e', 'i')
    """
    text = c
    for _ in range(4):
        folded = _marks_dropped(skeleton(text.lower()))
        if folded == text:
            break
        text = folded
    return text
