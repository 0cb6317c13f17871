"""Table talk in the page (#44): two people at a table and a spectator, each in a browser
context of his own, the second on a 360 px phone in Russian. The players talk; the
spectator's line reaches the players only when the game is over; the 200-character box,
muting, reporting and turning talk off."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    clean,
    create_table,
    guest,
    over,
    play_to_end,
    shot,
)

pytestmark = BROWSER


def talk_text(page: Page) -> str:
    return str(page.inner_text(".talk-panel .talk-lines"))


def wait_line(page: Page, words: str) -> None:
    page.wait_for_function(
        "(w) => document.querySelector('.talk-panel .talk-lines')?.innerText.includes(w)",
        arg=words,
    )


def say_text(page: Page, words: str) -> None:
    page.fill(".talk-form input[name=talk]", words)
    page.click(".talk-form button[type=submit]")


def test_players_talk_and_the_spectator_is_heard_after_the_game(server: str, browser: Any) -> None:
    alice = _page(browser)
    guest(alice, server)
    table = create_table(alice, "imperial", 2, {"target": 2}, bots=False)
    alice.wait_for_selector(".panel.waiting")
    # Bob on a 360 px phone, in Russian
    bob = _page(browser, width=360, height=740, locale="ru-RU")
    guest(bob, server)
    row = bob.locator(f'.open-list li[data-table="{table}"]')
    row.wait_for()
    row.locator('button[data-do="join"]').click()
    carol = _page(browser, width=1100, height=800)
    guest(carol, server)
    carol.goto(f"{server}#/table/{table}")
    for p in (alice, bob):
        p.wait_for_selector(".hand .card")
    carol.wait_for_selector(".table-bar")
    assert bob.evaluate("document.documentElement.lang") == "ru"

    # on a wide screen the talk opens over the table from the tool row; on the phone it
    # is under the table
    assert bob.locator(".talk-toggle").is_hidden() and bob.locator(".talk-panel").is_visible()
    assert alice.locator(".talk-panel").is_hidden()
    alice.click(".talk-toggle")
    # a quick phrase, shown in each reader's language
    alice.click('.talk-phrases button[data-phrase="good_luck"]')
    wait_line(bob, "Удачи!")
    wait_line(alice, "Good luck!")
    # carol's closed panel counts the line she has not read
    carol.wait_for_function(
        "() => document.querySelector('.talk-toggle').innerText.includes('(1)')"
    )
    carol.click(".talk-toggle")
    wait_line(carol, "Good luck!")
    assert carol.inner_text(".talk-toggle") == "Talk"
    # the spectator's line: the spectators see it, tagged; the players do not
    say_text(carol, "psst, bob holds the queen")
    wait_line(carol, "psst, bob holds the queen")
    assert "spectator" in carol.inner_text(".talk-lines li:last-child")
    # a later players' line reaches bob after anything sent to him for carol's
    say_text(alice, "hello bob")
    wait_line(bob, "hello bob")
    wait_line(alice, "hello bob")
    for p in (alice, bob):
        assert "psst" not in talk_text(p)
    # the box holds 200 characters: the 201st shows in red and sending is off
    bob.fill(".talk-form input[name=talk]", "я" * 201)
    assert bob.inner_text(".talk-count") == "201/200"
    assert bob.locator(".talk-form button[type=submit]").is_disabled()
    bob.fill(".talk-form input[name=talk]", "")
    # bob reports alice's line
    bob.locator(".talk-lines li", has_text="hello bob").locator(".talk-report").click()
    bob.wait_for_selector(".talk-lines .talk-report[disabled]")
    assert "Жалоба отправлена" in bob.inner_text(".talk-lines")
    # the phone's page is no wider than the phone, the talk panel included
    assert bob.evaluate("document.documentElement.scrollWidth") <= 360
    box = bob.locator(".talk-panel").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    shot(bob, "talk-360-ru")
    # carol mutes alice: her lines go, and come back with "show muted people again"
    carol.locator(".talk-lines li", has_text="hello bob").locator(".talk-mute").click()
    assert "hello bob" not in talk_text(carol) and "Good luck!" not in talk_text(carol)
    assert "psst" in talk_text(carol)
    carol.click(".talk-muted-note button")
    wait_line(carol, "hello bob")

    play_to_end([alice, bob], limit=90)
    assert over(alice) and over(bob)
    # the game is over: the players are sent the spectator's line
    wait_line(alice, "psst, bob holds the queen")
    wait_line(bob, "psst, bob holds the queen")
    assert "зритель" in bob.inner_text(".talk-lines")
    shot(alice, "talk-after-game")
    # talk off: the lines are hidden, and it is remembered by the page
    alice.click(".over-dialog[open] button[value=close]")
    alice.check(".talk-panel input[name=talk-off]")
    assert alice.locator(".talk-body").is_hidden()
    assert alice.evaluate("localStorage.getItem('kozyr.talk.off')") == "1"
    alice.uncheck(".talk-panel input[name=talk-off]")
    assert alice.locator(".talk-body").is_visible()
    # the replay shows the game's talk, both channels, in the reader's language
    bob.goto(f"{server}#/replay/{table}")
    bob.wait_for_selector("#screen-replay .replay-talk")
    said = bob.inner_text("#screen-replay .replay-talk")
    assert "Удачи!" in said and "hello bob" in said and "psst, bob holds the queen" in said
    assert bob.evaluate("document.documentElement.scrollWidth") <= 360
    for p in (alice, bob, carol):
        clean(p)
        p.context.close()
