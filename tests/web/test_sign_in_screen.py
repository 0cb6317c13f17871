"""The first screen's forms and its picture: the password's rule said before submitting,
warnings in the page's language whatever the browser's, and the fan of cards clear of
every button (issue 30, items 10d and 10e)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.browsing import BROWSER, _page, clean, shot

pytestmark = BROWSER

# The rectangles of the fan's cards (turned: their bounding boxes) and of every control
# on the first screen; the ones that meet.
OVERLAPS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const cards = [...document.querySelectorAll('#screen-auth .fan-demo .mini-card')].map(box);
  const controls = [...document.querySelectorAll(
    '#screen-auth button, #screen-auth a, #screen-auth input, #screen-auth h2'
  )].filter((el) => el.offsetParent !== null);
  const hits = [];
  for (const el of controls) {
    if (cards.some((c) => meet(c, box(el)))) hits.push(el.className || el.tagName);
  }
  return {cards: cards.length, controls: controls.length, hits};
}"""


@pytest.mark.parametrize("size", [(360, 640), (375, 740), (1280, 800)])
def test_the_fan_of_cards_leaves_every_button_clear(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    for locale in ("en-US", "ru-RU"):
        page = _page(browser, *size, locale=locale)
        page.goto(server)
        page.wait_for_selector("#screen-auth:not([hidden]) .fan-demo .mini-card")
        got = page.evaluate(OVERLAPS)
        assert got["cards"] == 6 and got["controls"] >= 5, got
        assert got["hits"] == [], (size, locale, got)
        shot(page, f"90-first-screen-{size[0]}-{locale[:2]}")
        clean(page)
        page.context.close()


def test_the_password_rule_is_said_before_and_warned_in_the_pages_language(
    server: str, browser: Any
) -> None:
    # An English browser reading the page in Russian: the browser's own warnings would
    # come in English; the page's come in Russian.
    page = _page(browser, 375, 740, locale="en-US")
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    page.click(".top .lang-switch")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    form = page.locator('.auth-form[data-mode="register"]')
    # The rule, before anything is submitted.
    assert form.locator("label").nth(1).inner_text() == "Пароль (не меньше 8 символов)"
    password = form.locator('input[name="password"]')
    name = form.locator('input[name="name"]')
    # Nothing typed: the name is asked for, in Russian.
    form.locator('button[type="submit"]').click()
    assert name.evaluate("el => el.validationMessage") == "Заполните это поле."
    # A password of 5 characters: the rule again, in Russian, and no account is made.
    name.fill("Почтальон")
    password.fill("abcde")
    form.locator('button[type="submit"]').click()
    assert password.evaluate("el => el.validationMessage") == "Нужно не меньше 8 символов."
    assert name.evaluate("el => el.validationMessage") == ""
    shot(page, "91-register-short-password-ru")
    # Edited, the field is checked afresh: 8 characters are taken.
    password.fill("abcdefgh")
    assert password.evaluate("el => el.validationMessage") == ""
    assert password.evaluate("el => el.checkValidity()") is True
    status = page.evaluate("fetch('/api/me').then(r => r.status)")
    assert status == 401  # the refused tries made no account
    # In English the same warning reads in English.
    page.click(".top .lang-switch")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert form.locator("label").nth(1).inner_text() == "Password (8 characters or more)"
    password.fill("abc")
    form.locator('button[type="submit"]').click()
    assert password.evaluate("el => el.validationMessage") == "At least 8 characters, please."
    clean(page)
    page.context.close()
