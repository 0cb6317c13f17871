"""How to play (#29): each game's guide for players (``kozyr.games.guide``) as rendered
sections, for the page's ``#/howto/<game>``. The developer pages stay at ``/rules/{game}``
(``rules.py``).

A ``cards`` block becomes an empty placeholder holding the card texts
(``<div class="guide-cards" data-cards="KH | 7H">``), which the page fills with its own
card faces; a glossary term's heading carries its id as ``data-anchor``. Raw HTML in the
Markdown is escaped: the guide is text."""

from __future__ import annotations

import asyncio
import html
import re
from functools import lru_cache
from typing import Any

from fastapi import APIRouter
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from kozyr.games import GAMES
from kozyr.games.guide import GuideError, load
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import LANGS, Lang

router = APIRouter()

_TERM_HEADING = re.compile(r"^(### .*?) \{#(term-[a-z][a-z0-9-]*)\}$", re.MULTILINE)


def _fence(
    renderer: RendererHTML, tokens: list[Token], idx: int, options: OptionsDict, env: EnvType
) -> str:
    token = tokens[idx]
    if token.info.strip() == "cards":
        cards = " ".join(token.content.split())
        return f'<div class="guide-cards" data-cards="{html.escape(cards)}"></div>\n'
    return (
        "<pre><code>" + html.escape(token.content) + "</code></pre>\n"
    )  # no other fence is used; shown as text


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("fence", _fence)
    return md


_MD = _markdown()


def _render_body(body: str) -> str:
    anchors = [m[2] for m in _TERM_HEADING.finditer(body)]
    tokens = _MD.parse(_TERM_HEADING.sub(r"\1", body))
    terms = iter(anchors)
    for token in tokens:
        if token.type == "heading_open" and token.tag == "h3":
            anchor = next(terms, None)
            if anchor is not None:
                token.attrSet("data-anchor", anchor)
    return str(_MD.renderer.render(tokens, _MD.options, {}))


@lru_cache(maxsize=8)
def _guide(game: str, lang: Lang) -> dict[str, Any] | None:
    try:
        guide = load(game, lang)
    except GuideError:
        return None
    return {
        "game": game,
        "lang": lang,
        "title": guide.title,
        "sections": [
            {"id": s.id, "title": s.title, "html": _render_body(s.body)} for s in guide.sections
        ],
        "terms": [{"id": t.id, "title": t.title} for t in guide.terms()],
    }


@router.get("/api/guide/{game}")
async def game_guide(game: str, lang: str = "en") -> dict[str, Any]:
    if game not in GAMES:
        raise ProtocolError("bad_game", status=404)
    if lang not in LANGS:
        raise ProtocolError("bad_lang")
    language: Lang = "ru" if lang == "ru" else "en"
    guide = await asyncio.to_thread(_guide, game, language)
    if guide is None:
        raise ProtocolError("no_rules", status=404)
    return guide
