"""The rules of each game as a page, in English or Russian, rendered from ``docs/rules-*.md``
(the same text the repository documents), so the table can link to them."""

from __future__ import annotations

import asyncio
import html
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

import kozyr
from kozyr.games import GAMES
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import Lang, template

router = APIRouter()

# A wheel carries the pages in kozyr/rules/ (pyproject's force-include); a checkout has them
# in docs/.
_PLACES = (
    Path(kozyr.__file__).resolve().parent / "rules",
    Path(kozyr.__file__).resolve().parents[2] / "docs",
)
_LANGS: dict[str, tuple[Lang, Lang]] = {"en": ("en", "ru"), "ru": ("ru", "en")}
"""Each language of the pages, as the query names it, and the other one (the page links
to itself in it, naming that language in itself)."""


def _source(game: str, lang: str) -> Path | None:
    name = f"rules-{game}.md" if lang == "en" else f"rules-{game}.{lang}.md"
    for place in _PLACES:
        if (place / name).is_file():
            return place / name
    return None


@lru_cache(maxsize=8)
def _render(game: str, lang: str) -> str | None:
    path = _source(game, lang)
    if path is None:
        return None
    # Raw HTML in the Markdown is escaped ("html": False): the page shows text only.
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(path.read_text(encoding="utf-8"))
    title = GAMES[game].title[0 if lang == "en" else 1]
    this, other = _LANGS[lang]
    other_name = template("pages.language", other)
    back = template("pages.back_to_game", this)
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>"
        '<link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/css/kozyr.css"></head>'
        f'<body class="rules-page"><nav class="rules-nav"><a href="/">{back}</a> · '
        f'<a href="/rules/{game}?lang={other}" hreflang="{other}">{other_name}</a></nav>'
        f'<main class="rules-text">{body}</main></body></html>'
    )


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules_page(game: str, lang: str = "en") -> HTMLResponse:
    if game not in GAMES:
        raise ProtocolError("bad_game", status=404)
    if lang not in _LANGS:
        raise ProtocolError("bad_lang")
    page = await asyncio.to_thread(_render, game, lang)
    if page is None:
        raise ProtocolError("no_rules", status=404)
    return HTMLResponse(page)
