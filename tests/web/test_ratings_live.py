"""The rating pages against the real server after a rated game (#13): the page opens a
rated table, plays it to the end, and finds the game and the new ratings on the
profile, in the history and on the leaderboard.

It runs against the server's rated tables, ``/api/users/...`` and ``/api/leaderboard``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.server.support import unique_name
from tests.web.browsing import BROWSER, _page, clean, create_table, play_to_end, shot

pytestmark = BROWSER


def test_a_rated_game_shows_on_the_profile_the_history_and_the_leaderboard(
    server: str, browser: Any
) -> None:
    page = _page(browser)
    name = unique_name("rated")
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    page.fill(".auth-form[data-mode=register] input[name=name]", name)
    page.fill(".auth-form[data-mode=register] input[name=password]", "a long password")
    page.click(".auth-form[data-mode=register] button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.check(".create-form input[name=rated]")
    table = create_table(page, "imperial", 2, {"target": 2}, bots=True)
    page.wait_for_selector(".table-bar")
    assert page.is_visible(".table-tools .table-rated")
    play_to_end([page])
    shot(page, "40-rated-over")

    # The profile: one rated Imperial game for two, so one point on its chart, and a
    # provisional rating (fewer than 10 games).
    page.click(".over-dialog a[href='#/']")
    page.click(".top-nav .nav-me")
    card = '.rating-card[data-variant="imperial-2p"]'
    page.wait_for_selector(f"{card} .rating-chart")
    me = page.evaluate(f"fetch('/api/users/{name}').then(r => r.json())")
    rating = me["ratings"]["imperial-2p"]
    assert me["games"] == 1 and rating["games"] == 1 and rating["provisional"] is True
    assert page.inner_text(f"{card} .big-rating") == f"{rating['rating']}?"
    assert page.locator(f"{card} svg circle.pt").count() == 1
    ticks = page.eval_on_selector_all(f"{card} svg .y-label", "els => els.map(e => +e.textContent)")
    assert len(set(ticks)) == len(ticks) >= 2 and min(ticks) <= rating["rating"] <= max(ticks)
    row = f'.latest tr[data-game="{table}"]'
    page.wait_for_selector(row)
    change = rating["history"][0]["rating"] - 1500  # a new player shows 1500
    sign = "+" if change > 0 else "\u2212" if change < 0 else "\u00b1"
    assert page.inner_text(f"{row} .change") == f"{sign}{abs(change)}"
    assert page.get_attribute(f"{row} a[href^='#/replay/']", "href") == f"#/replay/{table}"
    won = page.locator(f"{row} .pill.won").count() == 1
    shot(page, "41-rated-profile")

    # The history has the game; the leaderboard has him and the computer he played, the
    # winner above the loser (both started equal).
    page.click(".all-games")
    page.wait_for_selector(f'#screen-history tr[data-game="{table}"]')
    page.click(".top-nav .nav-board")
    page.wait_for_selector(".board tbody tr")
    names = page.eval_on_selector_all(
        ".board tbody tr td:nth-child(2)", "tds => tds.map(td => td.innerText)"
    )
    assert name in names and "Computer, level 1" in names, names
    assert (names.index(name) < names.index("Computer, level 1")) == won, (names, won)
    board = page.evaluate("fetch('/api/leaderboard?variant=imperial-2p').then(r => r.json())")
    mine = next(p for p in board["players"] if p["name"] == name)
    assert mine["rating"] == rating["rating"], json.dumps(board)
    shot(page, "42-rated-leaderboard")
    clean(page)
    page.context.close()
