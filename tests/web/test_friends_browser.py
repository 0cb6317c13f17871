"""Friends, blocks and challenges in the page (#44): two people in separate browser
contexts, A at 1280 px in English and B on a 360 px phone in Russian. A challenge from A
appears in B's lobby and, accepted, opens its table on both pages; a block stops B from
sitting at A's table and from challenging A, and B is told nothing of a block."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from tests.web.browsing import BROWSER, CSP_WATCH, _page, clean, held_to_policy, page_script, shot

pytestmark = BROWSER

PASSWORD = "a long password"
_n = itertools.count()


def signed_up(browser: Any, server: str, prefix: str, **how: Any) -> tuple[Any, str]:
    """A new account's page in the lobby, and its name."""
    name = f"{prefix}{int(time.time() * 1000) % 10**7}{next(_n)}"
    page = _page(browser, **how)
    made = page.context.request.post(
        f"{server}api/register", data={"name": name, "password": PASSWORD}
    )
    assert made.status == 201, made.text()
    page.goto(server)
    page.wait_for_selector("#screen-lobby:not([hidden]) .friends-panel:not([hidden])")
    return page, name


def fits(page: Any, selector: str) -> None:
    """``selector``'s box lies within the page's width (no sideways scrolling)."""
    right = page.evaluate(
        "(s) => Math.max(...[...document.querySelectorAll(s)].map((e) =>"
        " e.getBoundingClientRect().right))",
        selector,
    )
    assert right <= page.viewport_size["width"], (selector, right)


@pytest.fixture
def two(browser: Any, server: str) -> Any:
    a, a_name = signed_up(browser, server, "ann", width=1280, height=860)
    b, b_name = signed_up(browser, server, "bor", width=360, height=740, locale="ru-RU")
    yield a, a_name, b, b_name
    clean(a)
    clean(b)
    a.context.close()
    b.context.close()


def test_a_challenge_from_a_appears_in_bs_lobby_and_opens_the_table(two: Any) -> None:
    a, a_name, b, b_name = two
    assert b.evaluate("document.documentElement.lang") == "ru"
    # A follows B by name: B is online (his page is open)
    a.fill(".friends-form input[name=name]", b_name)
    a.click(".friends-form button[value=follow]")
    row = a.locator(f".friend-list .friend[data-name='{b_name}']")
    row.wait_for()
    assert "online" in row.inner_text()
    # B's page is in the background (another tab) as the challenge comes
    title = b.title()
    b.evaluate(
        """() => { window.__hidden = true; Object.defineProperty(document, "hidden",
                   { get: () => window.__hidden, configurable: true }); }"""
    )
    # ... and challenges him from the list: Imperial for two, no stake
    row.locator("button[data-act=challenge]").click()
    dialog = a.locator(".challenge-dialog[open]")
    dialog.wait_for()
    dialog.locator("select[name=game]").select_option("imperial")
    dialog.locator("select[name=players]").select_option("2")
    dialog.locator("button[type=submit]").click()
    a.locator(".challenge-item.outgoing").wait_for()
    # B's lobby shows it at once, in Russian, within his phone's width
    incoming = b.locator(".challenge-item.incoming")
    incoming.wait_for()
    assert f"Вас вызывает {a_name}" in incoming.inner_text()
    # ... and his tab says so while he is away, and is itself again when he is back
    assert b.title() == "● Вас вызывают на игру — " + title
    b.evaluate(
        "() => { window.__hidden = false; document.dispatchEvent(new Event('visibilitychange')); }"
    )
    assert b.title() == title
    fits(b, ".challenge-item")
    fits(b, ".friends-panel")
    shot(b, "challenge-banner-360-ru")
    incoming.locator("button[data-answer=accept]").click()
    # both pages open the same table, each seated
    b.wait_for_function("() => /^#\\/table\\//.test(location.hash)")
    a.wait_for_function("() => /^#\\/table\\//.test(location.hash)")
    assert a.evaluate("location.hash") == b.evaluate("location.hash")
    for page in (a, b):
        page.wait_for_selector("#screen-table:not([hidden])")
        page.wait_for_function("() => window.kozyr.table && window.kozyr.table.you != null")
    assert a.evaluate("window.kozyr.table.you") == 0
    assert b.evaluate("window.kozyr.table.you") == 1
    assert b.locator(".challenge-item").count() == 0


def test_a_block_stops_b_sitting_at_as_table_and_challenging_a(two: Any, server: str) -> None:
    a, a_name, b, b_name = two
    a.fill(".friends-form input[name=name]", b_name)
    a.click(".friends-form button[value=block]")
    a.locator(f".block-list .friend[data-name='{b_name}']").wait_for()
    made = a.context.request.post(f"{server}api/tables", data={"game": "imperial", "players": 2})
    assert made.status == 201, made.text()
    table = made.json()["table"]["id"]
    # B sees A's table in the lobby, and is refused a seat in ordinary words
    b.evaluate("() => { location.hash = '#/wallet'; }")
    b.evaluate("() => { location.hash = '#/'; }")
    join = b.locator(f"button[data-do=join][data-id='{table}']")
    join.wait_for()
    join.click()
    toast = b.locator(".toast:not([hidden])")
    toast.wait_for()
    assert toast.inner_text() == "За этот стол сесть нельзя."
    assert b.evaluate("location.hash") == "#/"
    # nor can he challenge A: the form says so, in words that name no block
    b.fill(".friends-form input[name=name]", a_name)
    b.click(".friends-form button[value=challenge]")
    form = b.locator(".challenge-dialog[open] .challenge-form")
    form.wait_for()
    form.locator("button[type=submit]").click()
    error = form.locator(".form-error")
    b.wait_for_function("() => document.querySelector('.challenge-dialog .form-error').textContent")
    assert error.inner_text() == "Этого игрока сейчас нельзя вызвать на игру."
    fits(b, ".challenge-dialog")
    shot(b, "challenge-refused-360-ru")
    b.locator(".challenge-close").click()
    assert a.locator(".challenge-item").count() == 0


def test_the_friends_panel_and_the_banner_are_made_for_fingers(browser: Any, server: str) -> None:
    """On a touch phone at 360 px in Russian: every control of the panel (a friend's row,
    a blocked person's) and of an incoming challenge is a whole 44x44 target."""
    other, other_name = signed_up(browser, server, "oth")
    third, third_name = signed_up(browser, server, "thd")
    ctx = browser.new_context(
        viewport={"width": 360, "height": 640},
        locale="ru-RU",
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
    )
    ctx.add_init_script(CSP_WATCH)
    page = ctx.new_page()
    held_to_policy(page)
    name = f"tch{int(time.time() * 1000) % 10**7}{next(_n)}"
    assert ctx.request.post(f"{server}api/register", data={"name": name, "password": PASSWORD}).ok
    for path in (f"api/friends/{other_name}", f"api/blocks/{third_name}"):
        assert ctx.request.post(server + path).ok
    page.goto(server)
    page.locator(f".friend-list .friend[data-name='{other_name}']").wait_for()
    page.locator(f".block-list .friend[data-name='{third_name}']").wait_for()
    sent = other.context.request.post(
        f"{server}api/challenges", data={"to": name, "game": "emperor", "players": 3}
    )
    assert sent.status == 201, sent.text()
    page.locator(".challenge-item.incoming").wait_for()
    page.locator(".friends-panel").scroll_into_view_if_needed()
    got = page.evaluate(page_script("tap_targets.js"), "friends 360 ru")
    assert not got["problems"], got["problems"]
    fits(page, ".friends-panel")
    page.locator(".friends-panel h2").scroll_into_view_if_needed()
    shot(page, "friends-panel-360-ru")
    for p in (other, third):
        p.context.close()
    ctx.close()
