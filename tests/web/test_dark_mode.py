"""The dark mode (#44 item 6): the page follows the device's colour scheme unless the
player chose light or dark with the header's switch, which is remembered; and every piece
of text on the lobby, a table in play and the wallet keeps a contrast of at least 4.5:1
(WCAG 2, level AA) with what is behind it, in both modes. Dark screenshots of the three
screens at 360 and 1280 px in both languages go to ``tests/web/screenshots/45-dark-*``
(``scripts/refresh-screenshots`` copies four of them into ``docs/screenshots/``)."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import (
    BROWSER,
    SHOTS,
    Page,
    _page,
    clean,
    create_table,
    guest,
    page_script,
    switch_language,
)

pytestmark = BROWSER

CONTRAST = page_script("contrast_check.js")
AA = 4.5  # WCAG 2's least contrast for text of normal size


def set_theme(page: Page, choice: str) -> None:
    """The header's switch, clicked until it says ``choice`` (auto, light, dark)."""
    for _ in range(3):
        if page.get_attribute(".top .theme-switch", "data-choice") == choice:
            return
        page.click(".top .theme-switch")
    assert page.get_attribute(".top .theme-switch", "data-choice") == choice


def theme(page: Page) -> str:
    return str(page.evaluate("document.documentElement.dataset.theme"))


def unreadable(page: Page) -> list[dict[str, Any]]:
    texts = page.evaluate(CONTRAST)
    assert len(texts) >= 10, texts  # the check saw the screen's words
    return [t for t in texts if t["ratio"] < AA]


def readable_both_ways(page: Page, screen: str) -> None:
    for choice in ("light", "dark"):
        set_theme(page, choice)
        assert theme(page) == choice
        bad = [
            f"{t['where']} {t['text']!r}: {t['ink']} on {t['paper']}, {t['ratio']}"
            for t in unreadable(page)
        ]
        assert not bad, f"{screen}, {choice}:\n" + "\n".join(bad)


def shots(page: Page, name: str) -> None:
    """Dark screenshots of the screen on show at 360 and 1280 px, in both languages."""
    set_theme(page, "dark")
    for width, height in ((360, 740), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("ru", "en"):
            switch_language(page, lang)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(SHOTS / f"45-dark-{name}-{width}-{lang}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_theme_follows_the_device_until_the_player_chooses(server: str, browser: Any) -> None:
    page = _page(browser, colours="dark")
    guest(page, server)
    # auto, the first time: the device's dark
    assert page.get_attribute(".top .theme-switch", "data-choice") == "auto"
    assert theme(page) == "dark"
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    assert page.get_attribute(".top .theme-switch", "aria-label") == "Theme: auto (as the device)"
    # the switch goes auto -> light -> dark, in the page's language
    page.click(".top .theme-switch")
    assert page.get_attribute(".top .theme-switch", "aria-label") == "Theme: light"
    page.click(".top .theme-switch")
    assert (theme(page), page.get_attribute(".top .theme-switch", "aria-label")) == (
        "dark",
        "Theme: dark",
    )
    switch_language(page, "ru")
    assert page.get_attribute(".top .theme-switch", "aria-label") == "Тема: тёмная"
    # remembered: a new visit is dark on a light device
    page.reload()
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert theme(page) == "dark"
    assert page.get_attribute(".top .theme-switch", "aria-label") == "Тема: тёмная"
    # the browser's bar takes the dark header's colour whatever the device prefers
    bars = page.eval_on_selector_all('meta[name="theme-color"]', "ms => ms.map(m => m.content)")
    assert bars == ["#0f1316", "#0f1316"]
    clean(page)
    page.context.close()


def test_every_text_is_readable_in_light_and_dark(server: str, browser: Any) -> None:
    page = _page(browser, colours="dark")
    guest(page, server)
    page.wait_for_selector(".create-form select[name=players] option", state="attached")
    readable_both_ways(page, "lobby")
    shots(page, "lobby")

    create_table(page, "imperial", 2, {"target": 5}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    switch_language(page, "en")
    readable_both_ways(page, "table")
    shots(page, "table")

    page.goto(server + "#/wallet")
    page.wait_for_selector(".wallet-root .wallet-sums")
    switch_language(page, "en")
    readable_both_ways(page, "wallet")
    shots(page, "wallet")
    clean(page)
    page.context.close()
