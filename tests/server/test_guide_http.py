"""How to play over HTTP (#29): GET /api/guide/{game}?lang= gives a game's guide as rendered
sections, the same ids in both languages, card pictures as placeholders the page fills and
glossary terms with anchors; an unknown game or language gets a coded error in both
languages."""

from __future__ import annotations

import re

import httpx
import pytest
from tests.server.support import ServerProc


@pytest.mark.parametrize(
    ("game", "lang", "title", "section", "words"),
    [
        ("imperial", "en", "How to play Imperial", "tombe", "Imperial tombé"),
        ("imperial", "ru", "Как играть в Империал", "wipes", "Очки сгорают"),
        ("emperor", "en", "How to play Emperor", "bargaining", "Bargaining"),
        ("emperor", "ru", "Как играть в Императора", "swaps", "Обмен вслепую"),
    ],
)
def test_a_guide_in_each_language(
    server: ServerProc, game: str, lang: str, title: str, section: str, words: str
) -> None:
    r = httpx.get(f"{server.base}/api/guide/{game}", params={"lang": lang})
    assert r.status_code == 200
    body = r.json()
    assert (body["game"], body["lang"], body["title"]) == (game, lang, title)
    by_id = {s["id"]: s for s in body["sections"]}
    assert by_id[section]["title"] == words
    # the Markdown rendered, not shown raw; pictures as placeholders of card texts
    html = "".join(s["html"] for s in body["sections"])
    assert "<strong>" in html and "**" not in html and "```" not in html
    pictures = re.findall(r'<div class="guide-cards" data-cards="([^"]+)"></div>', html)
    assert len(pictures) >= 6
    assert all(re.fullmatch(r"(10|[2-9JQKA])[SHDC]( \| | )?.*", p) for p in pictures)
    # the glossary's terms, each heading with its anchor
    glossary = by_id["glossary"]["html"]
    for term in body["terms"]:
        assert f'<h3 data-anchor="{term["id"]}">{term["title"]}</h3>' in glossary
    assert "<script" not in html


def test_both_languages_have_the_same_sections_and_terms(server: ServerProc) -> None:
    for game in ("imperial", "emperor"):
        en, ru = (
            httpx.get(f"{server.base}/api/guide/{game}", params={"lang": lang}).json()
            for lang in ("en", "ru")
        )
        assert [s["id"] for s in en["sections"]] == [s["id"] for s in ru["sections"]]
        assert [t["id"] for t in en["terms"]] == [t["id"] for t in ru["terms"]]
        assert en["sections"][0]["title"] != ru["sections"][0]["title"]


def test_a_guide_defaults_to_english(server: ServerProc) -> None:
    r = httpx.get(f"{server.base}/api/guide/emperor")
    assert r.status_code == 200 and r.json()["lang"] == "en"


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/api/guide/poker", 404, "bad_game"),
        ("/api/guide/poker?lang=ru", 404, "bad_game"),
        ("/api/guide/imperial?lang=de", 400, "bad_lang"),
        ("/api/guide/imperial?lang=", 400, "bad_lang"),
        ("/api/guide/IMPERIAL", 404, "bad_game"),
    ],
)
def test_a_bad_game_or_language_is_refused(
    server: ServerProc, path: str, status: int, code: str
) -> None:
    r = httpx.get(f"{server.base}{path}")
    assert r.status_code == status
    body = r.json()
    assert body["code"] == code
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]


def test_the_developer_rules_page_stays(server: ServerProc) -> None:
    r = httpx.get(f"{server.base}/rules/imperial", params={"lang": "en"})
    assert r.status_code == 200 and "I9" in r.text  # the rulings' codes, for developers
