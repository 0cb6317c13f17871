"""Time-outs and leaving in the page (issue 30, part 3): after a missed move the computer
plays your seat and the page says so in one clear state, with the one button that ends it
(no "Your turn", no clock frozen on your seat); leaving a game in progress asks first, in
the page's own dialog, saying what becomes of the seat and the stake; leaving an open
table before the game asks nothing.

The time-out comes from the table's own clock (the create form's seconds per move), not
from the server fixture's KOZYR_TURN_TIMEOUT, which is the default for tables that name
none.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, create_table, guest

pytestmark = BROWSER

AWAY = "() => { const tb = window.kozyr.table; return !!tb?.info?.seats?.[tb.you]?.away; }"
NOT_AWAY = "() => { const tb = window.kozyr.table; return tb?.info && !tb.info.seats[tb.you].away }"
PLAYING = "() => window.kozyr.table?.info?.status === 'playing' && !!window.kozyr.table.view"

# Waits for the bar's "I'm back" button, notes what the bar, your seat and your hand show,
# and presses it, all in one turn of the page's event loop.
LOOK_AND_COME_BACK = """
() => new Promise((resolve, reject) => {
  const words = (el) => (el ? el.innerText.split(/\\s+/).join(' ').trim() : '');
  const tryNow = () => {
    const back = document.querySelector('.bar-status .im-back');
    if (!back) return false;
    const look = {
      status: words(document.querySelector('.bar-status')),
      me: words(document.querySelector('.me-line')),
      timers: document.querySelectorAll('.me-line .timer:not([hidden])').length,
      legal: document.querySelectorAll('.hand .card.legal').length,
      myTurn: document.querySelector('.table-root').classList.contains('my-turn'),
    };
    back.click();
    resolve(look);
    return true;
  };
  if (tryNow()) return;
  const obs = new MutationObserver(() => { if (tryNow()) obs.disconnect(); });
  obs.observe(document.body, { childList: true, subtree: true, characterData: true });
  setTimeout(() => {
    obs.disconnect();
    reject(new Error('no "I am back" button in 10 s'));
  }, 10000);
})
"""

# Every text the bar's status shows, with whether your seat was away when it showed it.
WATCH_STATUS = """
() => {
  window.__status = [];
  const bar = document.querySelector('#screen-table .bar-status');
  const note = () => {
    const tb = window.kozyr.table;
    window.__status.push({
      text: bar.textContent,
      away: !!tb?.info?.seats?.[tb.you]?.away,
      mine: tb?.view?.to_act === tb?.you,
    });
  };
  new MutationObserver(note).observe(bar, { childList: true, subtree: true, characterData: true });
  note();
}
"""


def _table_info(server: str, table: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}api/tables/{table}", timeout=10) as r:
        return json.loads(r.read())["table"]  # type: ignore[no-any-return]


def _text(page: Page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def test_a_missed_move_hands_the_seat_to_the_computer_in_one_clear_state(
    server: str, browser: Any
) -> None:
    page = _page(browser, 1280, 800)
    guest(page, server)
    # Two seconds a move: the first turn of ours that nobody plays runs out.
    create_table(page, "imperial", 2, {"turn_timeout": 2}, bots=True)
    page.wait_for_function(PLAYING, timeout=30_000)
    page.evaluate(WATCH_STATUS)
    page.wait_for_function(AWAY, timeout=60_000)
    # The bots play at full speed once the computer has the seat, so the game can be over
    # a moment later: what the page shows is read, and the button pressed, in one script
    # inside the page, between two of the server's frames.
    look = page.evaluate(LOOK_AND_COME_BACK)
    status = look["status"]
    assert "The computer is playing for you" in status and "I'm back" in status
    assert "Your turn" not in status
    # Never "Your turn" while the computer has the seat, not even for the moment between
    # the time-out and its move (the old bar did, with the clock stopped on your seat).
    seen = page.evaluate("window.__status")
    assert not [s for s in seen if s["away"] and "Your turn" in s["text"]], seen
    assert [s for s in seen if s["away"] and "The computer is playing for you" in s["text"]]
    # Your seat says the same, with no clock; your cards are not offered for play.
    assert "the computer plays for you" in look["me"]
    assert look["timers"] == 0
    assert look["legal"] == 0
    assert not look["myTurn"]
    # One button ended it (pressed in that script): the seat is yours again, and the
    # computer stops.
    page.wait_for_function(NOT_AWAY, timeout=10_000)
    page.wait_for_function(
        "() => !document.querySelector('.bar-status').textContent.includes('playing for you')",
        timeout=10_000,
    )
    assert "the computer plays for you" not in _text(page, ".me-line")
    clean(page)
    page.context.close()


def test_leaving_a_game_in_progress_asks_first_and_says_what_becomes_of_seat_and_stake(
    server: str, browser: Any
) -> None:
    page = _page(browser, 375, 740, locale="ru-RU")
    guest(page, server)
    form = page.locator(".create-form")
    form.locator("select[name=stake_kind]").select_option("per_game")
    form.locator("input[name=stake_chips]").fill("10")
    table = create_table(page, "imperial", 2, {}, bots=True)
    page.wait_for_function(PLAYING, timeout=30_000)
    you = page.evaluate("window.kozyr.table.you")
    native: list[str] = []  # window.confirm and the like: none
    page.on("dialog", lambda d: (native.append(d.message), d.dismiss()))
    page.click(".leave-btn")
    dialog = page.locator(".leave-dialog[open]")
    dialog.wait_for()
    words = " ".join(dialog.inner_text().split())
    assert "Уйти из-за стола?" in words
    assert "за вас играет компьютер" in words and "Место остаётся за вами" in words
    assert "Ставка остаётся в игре" in words and "10 фишек" in words
    # Staying is the default: the first button, and Esc.
    page.keyboard.press("Escape")
    page.wait_for_selector(".leave-dialog", state="hidden")
    assert page.evaluate("location.hash").startswith("#/table/")
    assert not _table_info(server, table)["seats"][you]["away"]
    page.click(".leave-btn")
    dialog.wait_for()
    page.click(".leave-dialog .leave-stay")
    page.wait_for_selector(".leave-dialog", state="hidden")
    assert page.evaluate("location.hash").startswith("#/table/")
    # Leaving: the lobby, and the computer plays the seat, which stays ours.
    page.click(".leave-btn")
    dialog.wait_for()
    page.click(".leave-dialog .leave-go")
    page.wait_for_function("() => location.hash === '#/'")
    seat = _table_info(server, table)["seats"][you]
    assert seat["kind"] == "person" and seat["away"] is True
    # "My games" brings him back, and the seat is his again.
    back = page.locator(f'.games-list button[data-do=resume][data-id="{table}"]')
    back.wait_for()
    back.click()
    page.wait_for_function(NOT_AWAY, timeout=10_000)
    assert native == []
    clean(page)
    page.context.close()


def test_leaving_an_open_table_asks_nothing(server: str, browser: Any) -> None:
    page = _page(browser, 1280, 800)
    guest(page, server)
    table = create_table(page, "imperial", 2, {}, bots=False)
    page.wait_for_selector("#screen-table .waiting")
    page.click(".leave-btn")
    page.wait_for_function("() => location.hash === '#/'")
    assert page.locator(".leave-dialog[open]").count() == 0
    assert _table_info(server, table)["seats"][0]["kind"] == "empty"
    clean(page)
    page.context.close()
