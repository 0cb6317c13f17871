"""How to play (#29) in the page: the table's Rules link opens the game's how-to-play page
at the part that matters now (Imperial: the declarations before a deal's first card, then
the play; Emperor: the phase of the round), the page draws its card pictures with the
page's own faces and follows the language switch, and a glossary tip links to its term."""

from __future__ import annotations

import time
from typing import Any

from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    clean,
    create_table,
    guest,
    over,
    shot,
    step,
    switch_language,
)

pytestmark = BROWSER

# The model's phase and the Rules link's address, read at one moment.
LOOK = """() => {
  const link = document.querySelector('#screen-table a[data-tool="rules"]');
  const v = window.kozyr.table && window.kozyr.table.view;
  if (!link || !v) return null;
  const events = v.events || [];
  let i = events.length - 1;
  while (i >= 0 && events[i].type !== 'deal' && events[i].type !== 'play') i--;
  return {
    href: link.getAttribute('href'),
    target: link.getAttribute('target'),
    phase: v.phase || (v.over ? 'over' : 'play'),
    fresh: i >= 0 && events[i].type === 'deal',
    mine: document.querySelectorAll('#screen-table .hand .card.legal').length > 0,
  };
}"""

# Where the page is: the section or term at the top of the window, and the pictures drawn.
WHERE = """(target) => {
  const el = document.querySelector(`#screen-howto [data-section="${target}"]`)
    || document.querySelector(`#screen-howto [data-anchor="${target}"]`);
  const faces = document.querySelectorAll('#screen-howto .guide-card svg.face').length;
  const boxes = document.querySelectorAll('#screen-howto .guide-cards').length;
  const empty = [...document.querySelectorAll('#screen-howto .guide-cards')]
    .filter((b) => !b.querySelector('svg')).length;
  return {
    top: el ? Math.round(el.getBoundingClientRect().top) : null,
    // a part near the end cannot come to the top: the page is then scrolled to its end
    end: Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight,
    height: window.innerHeight,
    marked: el ? el.classList.contains('howto-target') : false,
    faces, boxes, empty,
    lang: document.querySelector('#screen-howto .howto')?.getAttribute('lang'),
    title: document.querySelector('#screen-howto h1')?.textContent,
    wide: document.documentElement.scrollWidth,
  };
}"""


def _open_rules(page: Page, expected: str) -> Page:
    """Follows the table's Rules link (a new tab: the game goes on) and waits for the
    how-to-play page at ``expected``."""
    with page.context.expect_page() as opened:
        page.click('#screen-table a[data-tool="rules"]')
    howto: Page = opened.value
    howto.errors = []  # type: ignore[attr-defined]
    howto.on("pageerror", lambda e: howto.errors.append(str(e)))  # type: ignore[attr-defined]
    howto.wait_for_selector("#screen-howto .guide-card svg")
    assert howto.url.endswith(expected), howto.url
    return howto


def _placed(where: dict[str, Any]) -> bool:
    top = where["top"]
    return (
        top is not None
        and bool(where["marked"])
        and (-4 <= top <= 40 or (bool(where["end"]) and 0 <= top < where["height"] - 40))
    )


def _at(howto: Page, target: str) -> dict[str, Any]:
    # (a busy machine may lay the pictures out after the scroll: the place is awaited)
    where: dict[str, Any] = howto.evaluate(WHERE, target)
    for _ in range(50):
        if _placed(where):
            break
        howto.wait_for_timeout(100)
        where = howto.evaluate(WHERE, target)
    assert where["top"] is not None, where
    # scrolled to it: at the top of the window, or in view with the page at its end
    assert -4 <= where["top"] <= 40 or (
        where["end"] and 0 <= where["top"] < where["height"] - 40
    ), where
    assert where["marked"], where
    assert where["faces"] >= 20 and where["boxes"] >= 6 and where["empty"] == 0, where
    assert where["wide"] <= howto.viewport_size["width"], where  # nothing wider than the screen
    return where


def test_imperial_rules_link_opens_the_declarations_then_the_play(
    server: str, browser: Any
) -> None:
    page = _page(browser, 1280, 800)
    guest(page, server)
    create_table(page, "imperial", 2, {}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    # Play until it is the person's turn to lead a fresh deal: its declarations are on
    # the table and no card of it is played (in two-player Imperial he leads every other
    # deal).
    start = time.time()
    while True:
        assert time.time() - start < 120, "no fresh deal for the person to lead"
        look = page.evaluate(LOOK)
        if look and look["mine"] and look["fresh"]:
            break
        if look:  # at any moment the link says what the table shows
            want = "declarations" if look["fresh"] else "play"
            assert look["href"] == f"#/howto/imperial/{want}", look
        if step(page) is None:
            page.wait_for_timeout(25)
    assert look["href"] == "#/howto/imperial/declarations" and look["target"] == "_blank", look
    howto = _open_rules(page, "#/howto/imperial/declarations")
    where = _at(howto, "declarations")
    assert where["lang"] == "en" and where["title"] == "How to play Imperial", where
    shot(howto, "80-howto-imperial-declarations-en")
    # the language switch: the same part of the page, in Russian
    switch_language(howto, "ru")
    howto.wait_for_function("() => document.querySelector('#screen-howto .howto[lang=ru]')")
    howto.wait_for_timeout(100)
    where = howto.evaluate(WHERE, "declarations")
    assert where["title"] == "Как играть в Империал" and where["empty"] == 0, where
    assert -4 <= where["top"] <= 40, where  # the same part, in the other language
    shot(howto, "80-howto-imperial-declarations-ru")
    clean(howto)
    howto.close()
    # a card of the deal played: the play
    assert step(page) is not None
    page.wait_for_function(
        """() => document.querySelector('#screen-table a[data-tool="rules"]')
             .getAttribute('href') === '#/howto/imperial/play'"""
    )
    clean(page)
    page.context.close()


def test_imperial_glossary_tip_links_to_its_term(server: str, browser: Any) -> None:
    page = _page(browser, 375, 740)
    guest(page, server)
    create_table(page, "imperial", 2, {}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    # A deal's summary names its scores with tips on the games' words; a tip opened at
    # once, in the page (the summary leaves the table after its reading time).
    open_tip = """() => {
      const term = document.querySelector('.deal-summary:not([hidden]) .term');
      if (!term) return null;
      term.click();
      const more = term.parentElement.querySelector('.term-about .term-more');
      return more && {key: term.dataset.term, href: more.getAttribute('href'),
                      target: more.getAttribute('target'), text: more.textContent};
    }"""
    start = time.time()
    while (tip := page.evaluate(open_tip)) is None:
        assert time.time() - start < 120 and not over(page), "no summary with a tip"
        waiting = page.locator(".me-line .summary-waiting")
        if waiting.count():
            waiting.first.click()
            continue
        if step(page) is None:
            page.wait_for_timeout(25)
    key = tip["key"]
    assert tip["href"] == f"#/howto/imperial/term-{key}", tip
    assert tip["target"] == "_blank" and tip["text"] == "More in the rules", tip
    howto = page.context.new_page()
    howto.goto(f"{server}{tip['href']}")
    howto.wait_for_selector("#screen-howto .guide-card svg")
    where = _at(howto, f"term-{key}")
    assert where["lang"] == "en", where
    shot(howto, "81-howto-imperial-term-375-en")
    howto.close()
    clean(page)
    page.context.close()


def test_emperor_rules_link_follows_the_phase(server: str, browser: Any) -> None:
    page = _page(browser, 1280, 800)
    guest(page, server)
    create_table(page, "emperor", 3, {"rounds": 2, "bargain_from": 2}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    sections = {
        "play": "play",
        "exchange": "swaps",
        "bargain": "bargaining",
        "trump": "king",
        "over": "scoring",
    }
    seen: dict[str, str] = {}
    start = time.time()
    while not over(page):
        assert time.time() - start < 180, f"the game did not end in time: {seen}"
        look = page.evaluate(LOOK)
        if look and look["phase"] in sections:
            assert look["href"] == f"#/howto/emperor/{sections[look['phase']]}", look
            seen[look["phase"]] = look["href"]
        if step(page) is None:
            page.wait_for_timeout(20)
    # round 1 is played; round 2 has the swaps and the King's trump before its play
    assert "play" in seen and {"exchange", "bargain", "trump"} & set(seen), seen
    page.wait_for_function(
        """() => document.querySelector('#screen-table a[data-tool="rules"]')
             .getAttribute('href') === '#/howto/emperor/scoring'"""
    )
    clean(page)
    page.context.close()


def test_the_howto_page_without_signing_in_at_every_width(server: str, browser: Any) -> None:
    for width in (360, 375, 1280):
        for lang, locale in (("en", "en-US"), ("ru", "ru-RU")):
            page = _page(browser, width, 760, locale=locale)
            page.goto(f"{server}#/howto/emperor/swaps")
            page.wait_for_selector("#screen-howto .guide-card svg")
            switch_language(page, lang)
            page.wait_for_function(
                "(l) => document.querySelector(`#screen-howto .howto[lang=${l}]`)", arg=lang
            )
            howto_where = _at(page, "swaps")
            assert howto_where["lang"] == lang
            # a picture's cards named for screen readers in the page's language
            label = page.locator("#screen-howto [data-section=swaps] .guide-cards").get_attribute(
                "aria-label"
            )
            assert label and ("9 of hearts" if lang == "en" else "9 червей") in label, label
            shot(page, f"82-howto-emperor-swaps-{width}-{lang}")
            # the contents lead to a section; an unknown part leaves the page at its top
            page.click("#screen-howto .howto-toc a[href$='/glossary']")
            page.wait_for_function("() => location.hash === '#/howto/emperor/glossary'")
            _at(page, "glossary")
            clean(page)
            page.context.close()
    page = _page(browser, 375, 760)
    page.goto(f"{server}#/howto/durak")
    page.wait_for_selector("#screen-howto .howto-error")
    assert "imperial or emperor" in page.inner_text("#screen-howto .howto-error")
    page.context.close()
