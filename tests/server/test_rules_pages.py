"""The rules pages: each game's rules in English and Russian, rendered from docs/rules-*.md,
and a clear error for an unknown game or language."""

from __future__ import annotations

import httpx
import pytest
from tests.server.support import ServerProc


@pytest.mark.parametrize(
    ("game", "lang", "heading", "words"),
    [
        ("imperial", "en", "Imperial (Империал): the rules as kozyr plays them", "Imperial tombé"),
        ("imperial", "ru", "Империал: правила, как в них играет kozyr", "Хвалёж"),
        ("emperor", "en", "Emperor (Император): the rules as kozyr plays them", "Bargaining"),
        ("emperor", "ru", "Император: правила, как в них играет kozyr", "бескозырку"),
    ],
)
def test_rules_page_in_each_language(
    server: ServerProc, game: str, lang: str, heading: str, words: str
) -> None:
    r = httpx.get(f"{server.base}/rules/{game}", params={"lang": lang})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{heading}</h1>" in page  # the Markdown rendered, not shown raw
    assert words in page
    assert "<strong>" in page and "**" not in page
    other = "ru" if lang == "en" else "en"
    assert f'href="/rules/{game}?lang={other}"' in page
    assert 'href="/css/kozyr.css"' in page and "<script" not in page


def test_rules_page_defaults_to_english(server: ServerProc) -> None:
    r = httpx.get(f"{server.base}/rules/emperor")
    assert r.status_code == 200 and '<html lang="en">' in r.text


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/rules/poker", 404, "bad_game"),
        ("/rules/imperial?lang=de", 400, "bad_lang"),
        ("/rules/imperial?lang=", 400, "bad_lang"),
    ],
)
def test_rules_page_refuses_bad_input(
    server: ServerProc, path: str, status: int, code: str
) -> None:
    r = httpx.get(f"{server.base}{path}")
    assert r.status_code == status
    body = r.json()
    assert body["code"] == code
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]
