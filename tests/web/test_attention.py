"""Never miss your turn (#44 item 5) in the page: while the page is in the background, your
turn marks the tab's title and icon, and shows a notification once you allowed them; the
page asks the browser for that permission only when you press the switch, never on load.

The background is the page's own view of it: ``document.hidden`` and
``document.visibilityState`` answer what the test sets, and the page is told by the
``visibilitychange`` event, as a browser tells it when its tab is put behind another. The
browser's Notification stands in as a class that counts its questions and keeps what it
was asked to show (a headless browser shows no notifications)."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    await_turn,
    clean,
    create_table,
    guest,
    shot,
    step,
)

pytestmark = BROWSER

TITLE = "kozyr — Imperial · Emperor"  # index.html's
MARKED = "● Your turn — " + TITLE

STAND_INS = """
(() => {
  window.__hidden = false;
  const proto = Document.prototype;
  Object.defineProperty(proto, "hidden", { get: () => window.__hidden, configurable: true });
  Object.defineProperty(proto, "visibilityState", {
    get: () => (window.__hidden ? "hidden" : "visible"),
    configurable: true,
  });
  window.__asked = 0;
  window.__notes = [];
  class StandIn {
    static permission = "default";
    static requestPermission() {
      window.__asked += 1;
      StandIn.permission = "granted";
      return Promise.resolve("granted");
    }
    constructor(title, how) { window.__notes.push({ title, body: how.body, tag: how.tag }); }
    close() {}
  }
  window.Notification = StandIn;
})();
"""


def _background(page: Page, hidden: bool) -> None:
    page.evaluate(
        "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }",
        hidden,
    )


def _icon(page: Page) -> str:
    return str(page.get_attribute('link[rel="icon"]', "href"))


def test_your_turn_in_a_background_tab_marks_it_and_notifies_once_allowed(
    server: str, browser: Any
) -> None:
    page = _page(browser)
    page.add_init_script(STAND_INS)
    guest(page, server)
    assert page.title() == TITLE

    # Put behind another tab, then the table starts: your first turn marks the tab.
    _background(page, True)
    create_table(page, "imperial", 2, {"target": 2}, bots=True)
    page.wait_for_function(f"() => document.title === {MARKED!r}", timeout=20000)
    assert _icon(page).startswith("data:image/svg+xml,")
    assert page.evaluate("window.__notes") == []  # notifications not asked for

    # In view again: the tab as it was.
    _background(page, False)
    assert page.title() == TITLE
    assert _icon(page) == "favicon.svg"

    # Loading the lobby and the table asked the browser nothing; the switch's click does.
    switch = "#screen-table .notify-switch"
    assert page.get_attribute(switch, "aria-pressed") == "false"
    assert page.evaluate("window.__asked") == 0
    page.click(switch)
    page.wait_for_selector(f'{switch}[aria-pressed="true"]')
    assert page.evaluate("window.__asked") == 1
    assert page.inner_text(switch) == "Notifications: on"
    shot(page, "60-notify-switch-on")
    assert page.evaluate("localStorage.getItem('kozyr.notify')") == "on"

    # Behind another tab again: your card, the computer's, and your next turn is told.
    _background(page, True)
    await_turn(page, 10000)
    assert step(page) is not None
    page.wait_for_function(f"() => document.title === {MARKED!r}", timeout=20000)
    notes = page.evaluate("window.__notes")
    want = {"title": "Your turn", "body": "Your move at the Imperial table.", "tag": "kozyr-turn"}
    assert notes == [want]
    _background(page, False)
    assert page.title() == TITLE
    assert _icon(page) == "favicon.svg"
    assert page.evaluate("window.__asked") == 1
    clean(page)
    page.context.close()
