"""A card the rules refuse is not played, and the page says which rule in words, in the
player's language (issue 29: reasons for illegal moves; I7 follow suit, else trump)."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, create_table, guest, shot, step

pytestmark = BROWSER


def _until_a_card_is_refused(page: Page, limit: float = 120) -> str:
    """Plays on until it is the person's turn with a card in hand the rules refuse; that
    card."""
    start = time.time()
    while time.time() - start < limit:
        card = page.evaluate(
            """() => {
              const hand = [...document.querySelectorAll('#screen-table .hand .card')];
              if (!hand.some((c) => c.classList.contains('legal'))) return null;
              if (hand.some((c) => c.classList.contains('sending'))) return null;
              const refused = hand.find((c) => !c.classList.contains('legal'));
              return refused ? refused.dataset.card : null;
            }"""
        )
        if card:
            return str(card)
        if step(page, None) is None:
            page.wait_for_timeout(25)
    raise AssertionError("no turn with a refused card came")


def test_a_refused_card_is_not_played_and_the_rule_is_named(server: str, browser: Any) -> None:
    page = _page(browser, 375, 740)
    guest(page, server)
    create_table(page, "imperial", 2, {}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    card = _until_a_card_is_refused(page)
    before = page.locator(".hand .card").count()
    # drawn dim and aria-disabled, a refused card still answers a tap (force: Playwright
    # itself would not click an aria-disabled element)
    page.click(f'#screen-table .hand .card[data-card="{card}"]', force=True)
    hint = page.locator(".hand-hint")
    hint.filter(has_text="Not ").wait_for()
    # The engine's reason, as the rule says it: follow the suit led, or, holding none of
    # it, trump (I7), or beat the card at the head of the trick (a card game's I7 variant).
    assert re.fullmatch(
        r"Not \S+: (you hold \w+, the suit led, so you must follow suit"
        r"|you have no \w+ but you hold a trump \(\w+\), so you must trump"
        r"|at this table you must head the trick when you can: beat \S+ \(.+\))",
        hint.inner_text(),
    ), hint.inner_text()
    assert not re.search(r"\b[IEB]\d+\b", hint.inner_text())  # no ruling's code
    assert page.locator(".hand .card").count() == before  # not played
    assert page.locator(f'.hand .card[data-card="{card}"]').count() == 1
    shot(page, "47-refused-card-en")
    page.click(".top .lang-switch")  # the same note, now in Russian
    hint.filter(has_text="нельзя").wait_for()
    assert re.fullmatch(
        r"\S+ нельзя: (масть хода — \w+, и она у вас есть, значит, нужно ходить в масть"
        r"|масти хода \(\w+\) у вас нет, а козырь \(\w+\) есть, значит, нужно бить козырем"
        r"|за этим столом взятку нужно перебивать, когда можете: перебейте \S+ \(.+\))",
        hint.inner_text(),
    ), hint.inner_text()
    shot(page, "47-refused-card-ru")
    # and the player then simply plays a card he may
    assert step(page, None) is not None
    clean(page)
