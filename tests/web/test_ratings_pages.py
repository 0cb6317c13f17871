"""The rating pages (#13) in a real browser against the contract's routes, faked
(``fake_ratings``): profiles with their charts, the paged history, the leaderboard, and
account settings. Run with ``pytest -m browser``; screens go to ``tests/web/screenshots/``.
"""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from tests.server.support import unique_name
from tests.web.browsing import BROWSER, Page, _page, clean, guest, shot
from tests.web.fake_ratings import EMPEROR_4P, IMPERIAL_2P, IMPERIAL_3P, FakeRatings

pytestmark = BROWSER


def _go(page: Page, hash_: str) -> None:
    page.evaluate(f"location.hash = {json.dumps(hash_)}")


def _rows(page: Page, selector: str) -> list[str]:
    games = page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.game)")
    return [str(x) for x in games]


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
    assert cards == ["imperial-2p", "imperial-3p", "emperor-4p"]
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
    assert [t.rsplit(" ", 1)[1] for t in titles] == [str(r) for r in IMPERIAL_2P]
    assert page.locator(f"{imp} .chart-data tbody tr").count() == len(IMPERIAL_2P)
    label = page.eval_on_selector(
        f"{imp} svg", "s => document.getElementById(s.getAttribute('aria-labelledby')).textContent"
    )
    assert label == "Rating in Imperial, 2 players after each game: 12 games, from 1500 to 1612"
    # The points rise and fall with the ratings (SVG y grows downwards).
    ys = page.eval_on_selector_all(
        f"{imp} svg circle.pt", "els => els.map(e => +e.getAttribute('cy'))"
    )
    for (a, b), (ya, yb) in zip(pairwise(IMPERIAL_2P), pairwise(ys), strict=True):
        assert (b > a) == (yb < ya), (a, b, ya, yb)
    # One game: one point, and labels still apart (1540 and 1550 around 1547).
    one = '.rating-card[data-variant="imperial-3p"]'
    assert page.inner_text(f"{one} .big-rating") == "1547?"
    assert page.locator(f"{one} svg circle.pt").count() == len(IMPERIAL_3P)
    ticks = page.eval_on_selector_all(f"{one} svg .y-label", "els => els.map(e => +e.textContent)")
    assert ticks == [1540, 1550], ticks
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
    row = '#screen-history tr[data-game="{}"] td[data-label="{}"]'
    assert page.inner_text(row.format("g40", "Rating")).strip() == "casual"
    assert page.inner_text(row.format("g45", "Result")) == "1st of 2 won"
    assert page.inner_text(row.format("g44", "Result")) == "2nd of 2"
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


def _error(code: str, en: str, ru: str, status: int) -> dict[str, Any]:
    body = {"type": "error", "code": code, "message": en, "message_ru": ru}
    return {"status": status, "content_type": "application/json", "body": json.dumps(body)}


def test_leaderboard_by_variant_and_a_guest_is_not_rated(server: str, browser: Any) -> None:
    page = _page(browser, width=1280, height=800)
    fake = FakeRatings()
    fake.install(page)
    open_table = {
        "id": "t-rated",
        "game": "emperor",
        "players": 4,
        "options": {"rounds": 10},
        "private": False,
        "status": "open",
        "rated": True,
        "seats": [
            {"seat": 0, "kind": "person", "name": "Вера", "user_id": 7},
            {"seat": 1, "kind": "bot", "level": 2},
            {"seat": 2, "kind": "empty"},
            {"seat": 3, "kind": "empty"},
        ],
    }
    page.route(
        "**/api/tables?*",
        lambda route: route.fulfill(
            json={"tables": [open_table], "total": 1, "offset": 0, "limit": 50}
        ),
    )
    guest(page, server)
    # The lobby: the rated table says so, its player's name leads to her profile, and a
    # guest's "rated" switches are off with the reason.
    row = page.locator('.open-list li[data-table="t-rated"]')
    row.wait_for()
    assert row.locator(".pill.rated").inner_text() == "rated"
    assert row.locator("a.person").get_attribute("href") == "#/user/%D0%92%D0%B5%D1%80%D0%B0"
    for form in (".quick-form", ".create-form"):
        assert page.is_disabled(f"{form} input[name=rated]")
        hint = page.inner_text(f"{form} .rated-hint")
        assert hint == (
            "Guests play casual games only: create an account to be rated. "
            "Keep my games: create an account"
        )
        assert page.get_attribute(f"{form} .rated-hint a", "href") == "#/account"
    shot(page, "37-lobby-guest-rated")
    # The leaderboard from the header: the first variant, then another from the picker.
    page.click(".top-nav .nav-board")
    page.wait_for_selector(".board tbody tr")
    assert fake.requests[-1] == "/api/leaderboard?variant=imperial-2p"
    assert page.get_attribute(".nav-board", "aria-current") == "page"
    rows = page.eval_on_selector_all(
        ".board tbody tr", "trs => trs.map(tr => [...tr.cells].map(c => c.innerText))"
    )
    assert rows == [
        ["1", "Anna", "1612", "12"],
        ["2", "Computer, level 5", "1580", "140"],
        ["3", "Boris", "1499?", "4"],
    ]
    assert page.locator(".board tbody tr:nth-child(2) a").count() == 0  # a bot has no page
    assert page.get_attribute(".board tbody tr:nth-child(3) a", "href") == "#/user/Boris"
    shot(page, "34-leaderboard")
    page.click('.variant-pick:has(input[value="emperor-4p"])')
    page.wait_for_function("() => location.hash === '#/leaderboard?variant=emperor-4p'")
    page.wait_for_selector(".board caption:text('Emperor, 4 players')")
    assert fake.requests[-1] == "/api/leaderboard?variant=emperor-4p"
    assert page.inner_text(".board tbody") == "1\tВера\t1701\t33"
    assert page.is_checked('.variant-pick input[value="emperor-4p"]')
    # A variant with nobody in it; then Russian.
    page.click('.variant-pick:has(input[value="imperial-3p"])')
    page.wait_for_selector(".empty-board")
    page.click(".top .lang-switch")
    assert page.inner_text(".leaderboard h1") == "Таблица рейтинга"
    assert page.inner_text(".empty-board") == (
        "За последние 90 дней рейтинговых партий в эту игру не было."
    )
    assert page.inner_text('.variant-pick:has(input[value="imperial-3p"])') == "Империал, 3 игрока"
    # An address with a variant that does not exist shows the first one.
    _go(page, "#/leaderboard?variant=chess")
    page.wait_for_selector(".board tbody tr")
    assert fake.requests[-1] == "/api/leaderboard?variant=imperial-2p"
    page.set_viewport_size({"width": 375, "height": 740})
    _no_sideways_scroll(page)
    shot(page, "35-leaderboard-phone-ru")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click(".top .lang-switch")

    # A guest's account page offers only to become an account; the server's refusal is
    # shown in its words, then the upgrade keeps him signed in under his new name.
    answers = [
        _error("name_confusable", "Too much like Anna.", "Слишком похоже на Anna.", 409),
        {"json": {"user": {"id": 99, "name": "Clara", "guest": False}}},
    ]
    sent: list[Any] = []

    def upgrade(route: Any) -> None:
        sent.append(route.request.post_data_json)
        route.fulfill(**answers.pop(0))

    page.route("**/api/me/upgrade", upgrade)
    _go(page, "#/account")
    page.wait_for_selector('form[data-form="upgrade"]')
    assert page.get_attribute(".nav-board", "aria-current") is None
    assert page.locator('form[data-form="rename"], form[data-form="delete"]').count() == 0
    page.fill('form[data-form="upgrade"] input[name=name]', "Anna1")
    page.fill('form[data-form="upgrade"] input[name=password]', "a long password")
    page.click('form[data-form="upgrade"] button[type=submit]')
    page.wait_for_selector('form[data-form="upgrade"] .form-msg.bad')
    assert page.inner_text('form[data-form="upgrade"] .form-msg') == "Too much like Anna."
    page.fill('form[data-form="upgrade"] input[name=name]', "Clara")
    page.click('form[data-form="upgrade"] button[type=submit]')
    page.wait_for_selector('form[data-form="rename"] .form-msg.ok')
    assert sent == [
        {"name": "Anna1", "password": "a long password"},
        {"name": "Clara", "password": "a long password"},
    ]
    assert page.inner_text('form[data-form="rename"] .form-msg') == (
        "Done: you are now Clara, with all your games."
    )
    assert page.inner_text(".nav-me") == "Clara"
    assert page.get_attribute(".nav-me", "href") == "#/user/Clara"
    _go(page, "#/")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert not page.is_disabled(".create-form input[name=rated]")
    assert page.inner_text(".create-form .rated-hint") == "The result changes the players' ratings."
    clean(page)
    page.context.close()


def test_account_settings_show_the_servers_refusals(server: str, browser: Any) -> None:
    page = _page(browser, width=375, height=740)
    name = unique_name("acct")
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    page.fill(".auth-form[data-mode=register] input[name=name]", name)
    page.fill(".auth-form[data-mode=register] input[name=password]", "a long password")
    page.click(".auth-form[data-mode=register] button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert page.inner_text(".nav-me") == name
    assert not page.is_disabled(".quick-form input[name=rated]")
    renames: list[Any] = []

    def rename(route: Any) -> None:
        renames.append(route.request.post_data_json)
        if len(renames) == 1:
            route.fulfill(**_error("name_taken", "That name is taken.", "Это имя уже занято.", 409))
        else:
            route.fulfill(json={"user": {"id": 5, "name": "Dora", "guest": False}})

    page.route("**/api/me/name", rename)
    page.route(
        "**/api/me/password",
        lambda route: route.fulfill(
            **_error("bad_password", "Wrong password.", "Неверный пароль.", 403)
        ),
    )
    page.route("**/api/me/delete", lambda route: route.fulfill(json={"ok": True}))
    page.click(".nav-me")  # the header's name leads to one's own profile
    page.wait_for_selector("#screen-profile:not([hidden])")
    assert page.evaluate("location.hash") == f"#/user/{name}"
    _go(page, "#/account")
    page.wait_for_selector('form[data-form="rename"]')
    assert page.locator('form[data-form="upgrade"]').count() == 0
    page.fill('form[data-form="rename"] input[name=name]', "Boris")
    page.click('form[data-form="rename"] button[type=submit]')
    msg = 'form[data-form="rename"] .form-msg.bad'
    page.wait_for_selector(msg)
    assert page.inner_text(msg) == "That name is taken."
    page.click(".top .lang-switch")
    assert page.inner_text(msg) == "Это имя уже занято."
    assert page.inner_text('form[data-form="rename"] button') == "Сменить имя"
    shot(page, "36-account-phone-ru")
    page.click(".top .lang-switch")
    # Too short a password is refused by the page itself, with nothing sent.
    page.fill('form[data-form="password"] input[name=old]', "whatever it was")
    page.fill('form[data-form="password"] input[name=new]', "short")
    page.click('form[data-form="password"] button[type=submit]')
    assert page.evaluate(
        "!document.querySelector('form[data-form=\"password\"] input[name=new]').validity.valid"
    )
    assert page.inner_text('form[data-form="password"] .form-msg') == ""
    page.fill('form[data-form="password"] input[name=new]', "a longer new password")
    page.click('form[data-form="password"] button[type=submit]')
    page.wait_for_selector('form[data-form="password"] .form-msg.bad')
    assert page.inner_text('form[data-form="password"] .form-msg') == "Wrong password."
    # A rename that works: the header follows.
    page.fill('form[data-form="rename"] input[name=name]', "Dora")
    page.click('form[data-form="rename"] button[type=submit]')
    page.wait_for_selector('form[data-form="rename"] .form-msg.ok')
    assert page.inner_text('form[data-form="rename"] .form-msg') == "Your name is now Dora."
    assert page.inner_text(".nav-me") == "Dora"
    assert renames == [{"name": "Boris"}, {"name": "Dora"}]
    # Deleting says what stays, asks for the password, and signs out.
    about = page.inner_text('section[data-part="delete"] p')
    assert "games stay" in about and '"deleted"' in about
    page.fill('form[data-form="delete"] input[name=password]', "a long password")
    page.click('form[data-form="delete"] button[type=submit]')
    page.wait_for_selector("#screen-auth:not([hidden])")
    assert page.inner_text("#screen-auth .form-error") == "Your account was deleted."
    assert page.evaluate("location.hash") == "#/"
    clean(page)
    page.context.close()
