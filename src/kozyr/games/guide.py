"""How to play (#29): each game's rules for players, one Markdown file per language under
``kozyr/games/<game>/guide/`` (``en.md``, ``ru.md``), shipped in the package.

A guide is a title (``# ...``), then sections, each a level-two heading ending with its
id, ``## Dealing {#dealing}``: the same ids, in the same order, in both languages, so the
page (and the table's Rules link) can open either language at the same place. The
glossary section's terms are level-three headings with ids of their own,
``### Wipe {#term-wipe}``. A fenced block with the info string ``cards`` is a picture:
card texts in the engine's notation (``AH KH | 7H``, ``|`` between groups), each a card
of the game's deck (its facts' ``GUIDE_DECK``), none twice in a group.

This module only reads and checks the files; rendering is the server's
(``server/routes/guide.py``). It is pure: it reads the package's files through
:mod:`importlib.resources`.

>>> guide = load("imperial", "en")
>>> guide.ids()[:3]
('aim', 'deck', 'dealing')
>>> card_groups("KH QH | 7H")
[['KH', 'QH'], ['7H']]
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from kozyr.cards import CardError, card_name, parse_card
from kozyr.texts import LANGS, Lang

__all__ = [
    "Guide",
    "GuideError",
    "Section",
    "Term",
    "card_groups",
    "load",
    "parse",
]

_TITLE = re.compile(r"^# (?P<title>\S.*)$")
_SECTION = re.compile(r"^## (?P<title>\S.*?) \{#(?P<id>[a-z][a-z0-9-]*)\}$")
_TERM = re.compile(r"^### (?P<title>\S.*?) \{#(?P<id>term-[a-z][a-z0-9-]*)\}$")
_FENCE = re.compile(r"^```(?P<info>\S*)\s*$")
GROUP_SEPARATOR = "|"
MAX_CARDS = 16
"""The most cards one group of a picture may hold (a hand is 12 or 13)."""


class GuideError(ValueError):
    """A guide file that is missing or does not make a guide."""


@dataclass(frozen=True, slots=True)
class Term:
    """A glossary entry: its id (``term-wipe``) and its name in the guide's language."""

    id: str
    title: str


@dataclass(frozen=True, slots=True)
class Section:
    """One section: its id, its heading's text, and its Markdown without the heading."""

    id: str
    title: str
    body: str

    def pictures(self) -> list[str]:
        """The text of each ``cards`` block, in order."""
        return _pictures(self.body)

    def terms(self) -> list[Term]:
        """The glossary terms this section defines."""
        return [
            Term(m["id"], m["title"])
            for line in self.body.splitlines()
            if (m := _TERM.match(line)) is not None
        ]


@dataclass(frozen=True, slots=True)
class Guide:
    """One game's how-to-play text in one language."""

    game: str
    lang: Lang
    title: str
    sections: tuple[Section, ...]

    def ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sections)

    def section(self, section_id: str) -> Section:
        for s in self.sections:
            if s.id == section_id:
                return s
        raise KeyError(section_id)

    def terms(self) -> list[Term]:
        """Every glossary term, in order."""
        return [t for s in self.sections for t in s.terms()]


def card_groups(block: str) -> list[list[str]]:
    """A ``cards`` block's text as groups of card texts (checked by :func:`parse`)."""
    return [part.split() for part in block.replace("\n", " ").split(GROUP_SEPARATOR)]


def _pictures(body: str) -> list[str]:
    out: list[str] = []
    inside: str | None = None
    lines: list[str] = []
    for line in body.splitlines():
        m = _FENCE.match(line)
        if inside is None and m is not None:
            inside = m["info"]
            lines = []
        elif inside is not None and line.strip() == "```":
            if inside == "cards":
                out.append("\n".join(lines))
            inside = None
        elif inside is not None:
            lines.append(line)
    if inside is not None:
        raise GuideError("a fenced block is not closed")
    return out


def _deck(game: str) -> int:
    facts = importlib.import_module(f"kozyr.games.{game}.facts")
    deck: int = facts.GUIDE_DECK
    return deck


def _check_picture(game: str, where: str, block: str) -> None:
    deck = _deck(game)
    groups = card_groups(block)
    for group in groups:
        if not group or len(group) > MAX_CARDS:
            raise GuideError(f"{where}: a group of cards must hold 1 to {MAX_CARDS} cards")
        seen: set[int] = set()
        for text in group:
            try:
                c = parse_card(text)
            except CardError as e:
                raise GuideError(f"{where}: {text!r} is not a card") from e
            if card_name(c) != text:
                raise GuideError(f"{where}: {text!r} is not in the engine's notation")
            if not deck >> c & 1:
                raise GuideError(f"{where}: {text} is not in this game's deck")
            if c in seen:
                raise GuideError(f"{where}: {text} twice in one group")
            seen.add(c)


def parse(game: str, lang: Lang, text: str) -> Guide:
    """Reads a guide's text; :class:`GuideError` says what is wrong with it."""
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    head = _TITLE.match(lines[first]) if first is not None else None
    if first is None or head is None:
        raise GuideError(f"{game}/{lang}: the guide must start with a '# title' line")
    sections: list[Section] = []
    current: tuple[str, str] | None = None
    body: list[str] = []

    def close() -> None:
        if current is not None:
            sections.append(Section(current[0], current[1], "\n".join(body).strip() + "\n"))

    for line in lines[first + 1 :]:
        if line.startswith("## ") or line.startswith("# "):
            m = _SECTION.match(line)
            if m is None:
                raise GuideError(f"{game}/{lang}: a section heading needs an id: {line!r}")
            close()
            current = (m["id"], m["title"])
            body = []
        elif current is None:
            if line.strip():
                raise GuideError(f"{game}/{lang}: text before the first section: {line!r}")
        else:
            if line.startswith("### ") and "{#" in line and _TERM.match(line) is None:
                raise GuideError(f"{game}/{lang}: a bad term heading: {line!r}")
            body.append(line)
    close()
    ids = [s.id for s in sections]
    if not sections or len(set(ids)) != len(ids):
        raise GuideError(f"{game}/{lang}: sections must exist and have unique ids")
    guide = Guide(game, lang, head["title"], tuple(sections))
    term_ids = [t.id for t in guide.terms()]
    if len(set(term_ids)) != len(term_ids):
        raise GuideError(f"{game}/{lang}: glossary ids must be unique")
    for s in sections:
        for n, block in enumerate(s.pictures(), 1):
            _check_picture(game, f"{game}/{lang}#{s.id} picture {n}", block)
    return guide


@lru_cache(maxsize=16)
def load(game: str, lang: Lang) -> Guide:
    """The guide of a game (a name of :data:`kozyr.games.GAMES`) in a language."""
    if lang not in LANGS or not re.fullmatch(r"[a-z]+", game):
        raise GuideError(f"no guide for {game!r} in {lang!r}")
    try:
        path = resources.files(f"kozyr.games.{game}") / "guide" / f"{lang}.md"
        text = path.read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError) as e:
        raise GuideError(f"no guide for {game!r} in {lang!r}") from e
    return parse(game, lang, text)
