"""The rating pages (#13) in a real browser against the contract's routes, faked
(``fake_ratings``): profiles with their charts, the paged history, the leaderboard, and
account settings. Run with ``pytest -m browser``; screens go to ``tests/web/screenshots/``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, guest, shot
from tests.web.fake_ratings import EMPEROR_4P, IMPERIAL_2P, FakeRatings

pytestmark = BROWSER


def _go(page: Page, hash_: str) -> None:
    page.evaluate(f"location.hash = {json.dumps(hash_)}")


def _rows(page: Page, selector: str) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.game)")]


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_profile_with_its_charts_and_the_history_page_by_page(server: str, browser: Any) -> None:
    page = _page(browser, width=1280, height=800)
    fake = FakeRatings()
    fake.install(page)
    guest(page, server)
    _go(page, "#/user/Anna")
    page.wait_for_selector(".rating-card .rating-chart")
    assert page.inner_text("#screen-profile h1").strip() == "Anna"
    facts = page.inner_text(".profile-head .facts")
    assert "21 games" in facts and "7 won" in facts
    # Cards in the variants' order; a provisional rating carries "?".
    cards = page.eval_on_selector_all(".rating-card", "els => els.map(e => e.dataset.variant)")
    assert cards == ["imperial-2p", "emperor-4p"]
    imp = '.rating-card[data-variant="imperial-2p"]'
    emp = '.rating-card[data-variant="emperor-4p"]'
    assert page.inner_text(f"{imp} .big-rating") == "1612"
    assert page.inner_text(f"{emp} .big-rating") == "1534?"
    # One point per history entry, each with its rating in its title; and the same
    # history as a table for whoever cannot see the chart.
    assert page.locator(f"{imp} svg circle.pt").count() == len(IMPERIAL_2P)
    assert page.locator(f"{emp} svg circle.pt").count() == len(EMPEROR_4P)
    titles = page.eval_on_selector_all(
        f"{imp} svg circle.pt title", "els => els.map(e => e.textContent)"
    )
    assert [t.rsplit(": ", 1)[1] for t in titles] == [str(r) for r in IMPERIAL_2P]
    assert page.locator(f"{imp} .chart-data tbody tr").count() == len(IMPERIAL_2P)
    label = page.eval_on_selector(
        f"{imp} svg", "s => document.getElementById(s.getAttribute('aria-labelledby')).textContent"
    )
    assert label == "Rating in Imperial, 2 players after each game: 12 games, from 1500 to 1612"
    # The points rise and fall with the ratings (SVG y grows downwards).
    ys = page.eval_on_selector_all(f"{imp} svg circle.pt", "els => els.map(e => +e.getAttribute('cy'))")
    for (a, b), (ya, yb) in zip(zip(IMPERIAL_2P, IMPERIAL_2P[1:]), zip(ys, ys[1:]), strict=True):
        assert (b > a) == (yb < ya), (a, b, ya, yb)
    # Axes: ratings on round numbers around the range, the first game's date (28 May 2026).
    ticks = page.eval_on_selector_all(f"{imp} svg .y-label", "els => els.map(e => +e.textContent)")
    assert min(ticks) <= 1500 and max(ticks) >= 1612, ticks
    dates = page.eval_on_selector_all(f"{imp} svg .x-label", "els => els.map(e => e.textContent)")
    assert dates[0] == "28 May" and dates[-1] == "8 Jun", dates
    # The latest games (five of them), newest first, with replays and rating changes.
    assert _rows(page, ".latest tbody tr") == ["g45", "g44", "g43", "g42", "g41"]
    assert page.get_attribute('.latest tr[data-game="g45"] a[href^="#/replay/"]', "href") == (
        "#/replay/g45"
    )
    assert page.inner_text('.latest tr[data-game="g43"] .change') == "+12"
    assert page.inner_text('.latest tr[data-game="g44"] .change') == "\u22128"
    assert page.get_attribute('.latest tr[data-game="g44"] .change', "title") == "1544 → 1536"
    assert page.locator('.latest tr[data-game="g45"] .change').count() == 0  # casual
    assert page.inner_text('.latest tr[data-game="g45"] .pill.casual') == "casual"
    assert page.inner_text('.latest tr[data-game="g45"]').count("Boris") == 1
    assert "Computer, level 3" in page.inner_text('.latest tr[data-game="g44"]')
    assert "/api/users/Anna/games?offset=0&limit=5" in fake.requests
    shot(page, "30-profile")
    clean(page)

    # All games, 20 a page, newest first: 45 games make pages of 20, 20 and 5.
    page.click(".all-games")
    page.wait_for_selector(".history-page")
    assert page.evaluate("location.hash") == "#/user/Anna/games"
    assert _rows(page, "#screen-history tbody tr") == [f"g{n}" for n in range(45, 25, -1)]
    assert page.inner_text(".page-pos") == "Page 1 of 3"
    assert page.get_attribute(".pager .newer", "aria-disabled") == "true"
    assert page.inner_text('#screen-history tr[data-game="g40"] td[data-label="Rating"]').strip() == "casual"
    assert page.inner_text('#screen-history tr[data-game="g45"] td[data-label="Result"]') == "1st of 2 won"
    assert page.inner_text('#screen-history tr[data-game="g44"] td[data-label="Result"]') == "2nd of 2"
    page.click(".pager .older")
    page.wait_for_function("() => location.hash === '#/user/Anna/games?page=2'")
    page.wait_for_selector('#screen-history tr[data-game="g25"]')
    assert _rows(page, "#screen-history tbody tr") == [f"g{n}" for n in range(25, 5, -1)]
    page.click(".pager .older")
    page.wait_for_selector('#screen-history tr[data-game="g5"]')
    assert _rows(page, "#screen-history tbody tr") == ["g5", "g4", "g3", "g2", "g1"]
    assert page.inner_text(".page-pos") == "Page 3 of 3"
    assert page.get_attribute(".pager .older", "aria-disabled") == "true"
    assert "/api/users/Anna/games?offset=40&limit=20" in fake.requests
    shot(page, "31-history")
    # A name nobody has: the server's words.
    _go(page, "#/user/Nobody")
    page.wait_for_selector("#screen-profile .form-error")
    assert page.inner_text("#screen-profile .form-error") == "No such user."
    clean(page)
    page.context.close()


def test_profile_and_history_on_a_phone_in_russian(server: str, browser: Any) -> None:
    page = _page(browser, width=375, height=740, locale="ru-RU")
    FakeRatings().install(page)
    guest(page, server)
    _go(page, "#/user/Anna")
    page.wait_for_selector(".rating-card .rating-chart")
    facts = page.inner_text(".profile-head .facts")
    assert "21 партия" in facts and "7 выиграно" in facts, facts
    emp = '.rating-card[data-variant="emperor-4p"]'
    assert page.inner_text(f"{emp} .muted") == "3 партии"
    assert "12 партий" in page.inner_text('.rating-card[data-variant="imperial-2p"]')
    # The chart fits the phone at its own scale, so its 11 px labels stay 11 px.
    box = page.eval_on_selector(
        f"{emp} svg",
        "s => ({w: s.getBoundingClientRect().width, vb: s.viewBox.baseVal.width, "
        "card: s.closest('.rating-card').getBoundingClientRect().width})",
    )
    assert box["w"] <= box["card"] and box["w"] == box["vb"], box
    dates = page.eval_on_selector_all(f"{emp} svg .x-label", "els => els.map(e => e.textContent)")
    assert dates[0] == "28 мая", dates
    _no_sideways_scroll(page)
    shot(page, "32-profile-phone-ru")
    page.click(".all-games")
    page.wait_for_selector(".history-page")
    assert page.inner_text(".page-pos") == "Страница 1 из 3"
    result = '#screen-history tr[data-game="g43"] td:nth-child(4)'
    assert page.get_attribute(result, "data-label") == "Итог"
    assert page.inner_text(result) == "1-е из 2 победа"
    assert page.inner_text('#screen-history tr[data-game="g43"] .change') == "+12"
    _no_sideways_scroll(page)
    shot(page, "33-history-phone-ru")
    # The language switch re-words the page without fetching it again.
    page.click(".top .lang-switch")
    assert page.inner_text(".page-pos") == "Page 1 of 3"
    assert "1st of 2" in page.inner_text('#screen-history tr[data-game="g43"]')
    clean(page)
    page.context.close()
