"""The computer's levels with their numbers on the players' rating scale (#31 item 4), in
a real browser: the lobby's level choices and a table's seat picker, for the game and
number of players chosen, in English and in Russian, at 360, 375 and 1280 px."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.browsing import BROWSER, _page, create_table, guest, shot, switch_language

from kozyr.bots.level_ratings import level_ratings
from kozyr.games import GAMES
from kozyr.server.accounts.ratings import display
from kozyr.server.routes.game_facts import SETTLED_SIGMA

pytestmark = BROWSER

NAMES = {
    "en": ["1: beginner", "2: amateur", "3: club player", "4: expert", "5: master"],
    "ru": ["1: новичок", "2: любитель", "3: клубный игрок", "4: знаток", "5: мастер"],
}


def _expected(game: str, players: int, lang: str) -> list[str]:
    """Each level's name, with " ≈ N" where the shipped ratings have that level."""
    rated = level_ratings(game).get(players, {})
    out = []
    for level, name in enumerate(NAMES[lang], start=1):
        r = rated.get(level)
        mark = "?" if r is not None and r.sigma > SETTLED_SIGMA else ""
        out.append(name if r is None else f"{name} ≈ {display(r.mu, r.sigma)}{mark}")
    return out


def _options(page: Any, where: str) -> list[str]:
    return [s.strip() for s in page.locator(f"{where} select[name=level] option").all_inner_texts()]


def _choose(page: Any, form: str, game: str, players: int) -> None:
    f = page.locator(form)
    radio = f.locator(f"input[name=game][value={game}]")  # the quick form's game cards
    if radio.count():
        radio.check()
    else:
        f.locator("select[name=game]").select_option(game)
    f.locator("select[name=players]").select_option(str(players))


def test_the_shipped_ratings_cover_two_player_imperial() -> None:
    # what the page below is held to: at least one variant has its numbers
    rated = level_ratings("imperial").get(2, {})
    assert sorted(rated) == [1, 2, 3, 4, 5]


def _level_widths(page: Any, form: str) -> tuple[float, float]:
    """The width the longest level's words take in the level choice's font, plus room for
    its arrow and padding, and the width the choice has: the rating must not be cut off."""
    need, have = page.eval_on_selector(
        f"{form} select[name=level]",
        """(select) => {
            const style = getComputedStyle(select);
            const ctx = document.createElement("canvas").getContext("2d");
            ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const widths = [...select.options].map((o) => ctx.measureText(o.text).width);
            const longest = Math.max(...widths);
            const pad = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
            return [longest + pad + 20, select.getBoundingClientRect().width];
        }""",
    )
    return float(need), float(have)


@pytest.mark.parametrize("size", [(360, 640), (375, 740), (1280, 860)])
def test_levels_show_their_ratings_in_the_lobby_and_the_seat_picker(
    browser: Any, server: str, size: tuple[int, int]
) -> None:
    width, height = size
    page = _page(browser, width, height)
    guest(page, server)
    for lang in ("en", "ru"):
        switch_language(page, lang)
        for game, spec in GAMES.items():
            for players in spec.player_counts:
                for form in (".quick-form", ".create-form"):
                    _choose(page, form, game, players)
                    assert _options(page, form) == _expected(game, players, lang), (form, game)
        for form in (".quick-form", ".create-form"):
            _choose(page, form, "imperial", 2)
            need, have = _level_widths(page, form)
            assert have >= need, (form, lang, width, need, have)
        _choose(page, ".quick-form", "imperial", 2)
        page.locator(".quick-form select[name=level]").scroll_into_view_if_needed()
        shot(page, f"60-levels-lobby-{width}-{lang}")
    switch_language(page, "en")
    create_table(page, "imperial", 2, {}, bots=False)
    page.wait_for_selector(".waiting .bot-level select[name=level]")
    assert _options(page, ".waiting .bot-level") == _expected("imperial", 2, "en")
    switch_language(page, "ru")
    page.wait_for_selector(".waiting .bot-level select[name=level]")
    assert _options(page, ".waiting .bot-level") == _expected("imperial", 2, "ru")
    shot(page, f"61-levels-seat-picker-{width}-ru")
    page.context.close()
