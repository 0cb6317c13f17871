"""Bets, the wallet and the game's end told in words (issue 30, items 2 and 7), in the
page against the real server: the header's balance follows a bet the moment it is taken
and its settlement the moment it is paid; a bet returned because nobody backed the
outcome says so (it is not a win); the trick markets name the players; the wallet names
the table, the market and the result; the game-over dialog of a rated game shows the
rating change. Screenshots at 360, 375 and 1280 px, in English and Russian
(``pytest -m browser``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.betting_support import patient_start
from tests.server.support import ServerProc, unique_name
from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    clean,
    create_table,
    guest,
    play_to_end,
    shot,
    switch_language,
)
from tests.web.test_bets_browser import balance_of, give_chips, sign_in

pytestmark = BROWSER

WIDTHS = [(1280, 860), (375, 740), (360, 740)]


@pytest.fixture(scope="module")
def told_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """A server whose database the test can reach (to give people chips)."""
    proc = patient_start(ServerProc(Path(tmp_path_factory.mktemp("kozyr-told-web"))))
    yield proc
    proc.stop()


def text_of(page: Page, selector: str) -> str:
    return " ".join(page.inner_text(selector).split())


def until(page: Page, selector: str, text: str, timeout: float = 30_000) -> None:
    """Waits until ``selector`` shows ``text`` (spaces folded)."""
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel);"
        " return !!el && el.textContent.replace(/\\s+/g, ' ').trim() === text; }",
        arg=[selector, text],
        timeout=timeout,
    )


def shots(page: Page, name: str, show: str) -> None:
    """``name``-LANG-WIDTH at every width in both languages, ``show`` scrolled into view."""
    for lang in ("en", "ru"):
        switch_language(page, lang)
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            page.locator(show).first.scroll_into_view_if_needed()
            shot(page, f"{name}-{lang}-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    switch_language(page, "en")


def bet_through_the_page(page: Page, market: str, outcome: str, chips: int) -> None:
    form = page.locator(f'.bets-panel form.bet-form[data-market="{market}"]')
    form.wait_for()
    form.locator("select[name=outcome]").select_option(outcome)
    form.locator("input[name=chips]").fill(str(chips))
    form.locator("button[type=submit]").click()


def test_a_bet_moves_the_balance_at_once_and_a_refund_is_told_as_one(
    told_server: ServerProc, browser: Any
) -> None:
    server = told_server
    owner, _ = sign_in(server)
    rival, rival_user = sign_in(server)
    shape = {"game": "imperial", "players": 2, "options": {"target": 2}, "sit": False}
    created = owner.post("/api/tables", json={**shape, "bots": {"1": 1}})
    table = created.json()["table"]["id"]
    give_chips(server, rival_user["id"], 50)
    r = rival.post(
        f"/api/tables/{table}/bets",
        json={"market": "game.winner", "outcome": "seat:1", "chips": 10, "key": "rival"},
    )
    assert r.status_code == 201, r.text

    page = _page(browser)
    guest(page, server.base + "/")
    me = page.evaluate("window.kozyr.user")
    give_chips(server, me["id"], 100)
    page.goto(f"{server.base}/#/table/{table}")
    page.reload()  # the header reads the balance just given
    until(page, ".top .balance", "100 chips")
    # a market about one player names him as the table does (no "seat 2")
    tricks = '.bets-market[data-market="deal.1.tricks.1"] .bets-title'
    page.wait_for_selector(tricks)
    assert text_of(page, tricks) == "Deal 1: how many tricks Computer 2 takes"

    # each bet's chips leave the header's balance at once, from the bet's own answer
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/me" in r.url else None)
    bet_through_the_page(page, "deal.1.capot", "yes", 5)
    until(page, ".top .balance", "95 chips", timeout=5_000)
    bet_through_the_page(page, "game.winner", "seat:0", 20)
    until(page, ".top .balance", "75 chips", timeout=5_000)
    assert asked == [] and balance_of(server, me) == 75
    shot(page, "50-bet-taken-en-1280")

    # the first seat gets a bot: the bots play the game out while the page watches
    r = owner.post(f"/api/tables/{table}/bots", json={"seat": 0, "level": 1})
    assert r.status_code == 200, r.text
    capot = '.bets-market[data-market="deal.1.capot"][data-state="settled"]'
    page.wait_for_selector(capot, timeout=240_000)
    outcome = page.evaluate("window.kozyr.bets.markets.get('deal.1.capot').outcome")
    # nobody backed "no" (a capot in the first deal of random play is all but unknown),
    # or the deal was white (I11) and the market void: either way every bet comes back
    assert outcome in ("no", "void"), outcome
    if outcome == "no":
        assert text_of(page, f"{capot} .bets-mine") == (
            "yes: 5 chips · returned: 5 chips (nobody bet on the outcome)"
        )
        assert "Outcome: no. Nobody bet on it, so every bet is returned" in text_of(page, capot)
    else:
        assert text_of(page, f"{capot} .bets-mine") == (
            "yes: 5 chips · returned: 5 chips (market called off)"
        )
    winner = '.bets-market[data-market="game.winner"][data-state="settled"]'
    page.wait_for_selector(winner, timeout=240_000)
    won = page.evaluate("window.kozyr.bets.markets.get('game.winner').outcome") == "seat:0"
    # by hand: a pool of 30; seat 0 (my 20 alone) takes it all, seat 1 leaves me nothing
    paid = 30 if won else 0
    final = 75 + 5 + paid
    until(page, ".top .balance", f"{final} chips", timeout=10_000)  # live, no reload
    assert balance_of(server, me) == final
    mine = text_of(page, f"{winner} .bets-mine")
    result = "won: 30 chips paid" if won else "lost"
    assert mine == f"Computer 1: 20 chips · {result}"
    notice = text_of(page, ".bets-notice")
    assert notice == (
        "Who wins the game: Computer 1. Your bet won: you get 30 chips."
        if won
        else "Who wins the game: Computer 2. Your bet of 20 chips lost."
    ), notice
    page.wait_for_selector(".over-dialog[open]")
    page.keyboard.press("Escape")  # the spectator's game-over dialog: the panel behind it
    page.wait_for_selector(".over-dialog:not([open])", state="attached")
    page.wait_for_selector(".toast", state="hidden", timeout=10_000)  # the panel unhidden
    shots(page, "51-bets-settled", ".bets-done")

    # the wallet: each entry names the table's game, the market and how it came out
    page.click(".top .balance")
    page.wait_for_selector(".wallet .ledger li")
    game = "(Imperial: Computer 1 and Computer 2)"
    words = page.locator(".ledger li .what").evaluate_all("els => els.map(e => e.textContent)")
    back = (
        f"Bet returned: Deal 1: a capot — no, and nobody had bet on it {game}."
        if outcome == "no"
        else f"Bet returned: Deal 1: a capot — called off, as the game never answered it {game}."
    )
    assert f"{back} Replay" in words, words
    taken = f"Bet on Computer 1 — Who wins the game {game}. " + (
        "It won." if won else "Lost: the outcome was Computer 2."
    )
    assert f"{taken} Replay" in words, words
    link = page.locator(".ledger li[data-kind=bet] a.ledger-link").first
    assert link.get_attribute("href") == f"#/replay/{table}"
    switch_language(page, "ru")
    words = page.locator(".ledger li .what").evaluate_all("els => els.map(e => e.textContent)")
    said = "Возвращена: исход — «нет», а на него никто не ставил." if outcome == "no" else ""
    capot_ru = [w for w in words if w.startswith("Ставка на «да» — Сдача 1: капот")]
    assert len(capot_ru) == 1 and said in capot_ru[0], words
    assert not any(re.search(r"seat|места|\(bet\)|Другая запись", w) for w in words), words
    switch_language(page, "en")
    shots(page, "52-wallet-bets", ".ledger")
    clean(page)
    page.context.close()
    owner.close()
    rival.close()


def test_the_game_over_dialog_shows_the_rating_change_and_the_wallet_the_stake(
    told_server: ServerProc, browser: Any
) -> None:
    page = _page(browser)
    page.goto(told_server.base + "/")
    page.wait_for_selector("#screen-auth:not([hidden])")
    name = unique_name("rated")
    page.fill(".auth-form[data-mode=register] input[name=name]", name)
    page.fill(".auth-form[data-mode=register] input[name=password]", "a long password")
    page.click(".auth-form[data-mode=register] button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    until(page, ".top .balance", "1,000 chips")
    page.check(".create-form input[name=rated]")
    form = page.locator(".create-form")
    form.locator("select[name=stake_kind]").select_option("per_game")
    form.locator("input[name=stake_chips]").fill("10")
    table = create_table(page, "imperial", 2, {"target": 1}, bots=True)
    play_to_end([page])
    page.wait_for_selector(".over-dialog .rating-result .your-rating")
    info = page.evaluate("window.kozyr.table.info")
    you = page.evaluate("window.kozyr.table.you")
    mine, theirs = info["rating_changes"][you], info["rating_changes"][1 - you]
    assert (mine["before"], mine["provisional"]) == (1500, True)  # his first rated game

    def change(rc: dict[str, Any]) -> str:
        d = rc["after"] - rc["before"]
        sign = "+" if d > 0 else "\u2212" if d < 0 else "\u00b1"
        return f"{rc['before']} → {rc['after']}{'?' if rc['provisional'] else ''} ({sign}{abs(d)})"

    won = info["result"]["places"][0] == you
    assert (mine["after"] > 1500) == won
    assert text_of(page, ".over-dialog .your-rating") == f"Rating {change(mine)}"
    assert text_of(page, ".over-dialog .rating-others") == f"Computer {2 - you}: {change(theirs)}"
    page.click(".over-dialog .lang-switch")
    assert text_of(page, ".over-dialog .your-rating") == f"Рейтинг {change(mine)}"
    page.click(".over-dialog .lang-switch")
    for lang in ("en", "ru"):
        if page.evaluate("document.documentElement.lang") != lang:
            page.click(".over-dialog .lang-switch")
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)
            shot(page, f"53-over-rating-{lang}-{width}")
    page.set_viewport_size({"width": 1280, "height": 860})
    page.click(".over-dialog .lang-switch")  # back to English

    # the wallet: the stake names the game, the opponent and the result
    page.click(".over-dialog a[href='#/']")
    page.click(".top .balance")
    page.wait_for_selector(".wallet .ledger li")
    bot = f"Computer {2 - you}"
    escrow = text_of(page, '.ledger li[data-kind="escrow"] .what')
    if won:
        assert escrow == (
            f"Stake held: Imperial against {bot}. You won. "
            "The settlement paid back 20 chips. Replay"
        )
        assert text_of(page, '.ledger li[data-kind="settle"] .what') == (
            f"Stake settled: Imperial against {bot}. You won. "
            "Won 10 chips, and the stake of 10 chips back. Replay"
        )
    else:
        assert escrow == (
            f"Stake held: Imperial against {bot}. You lost. "
            "The whole stake went to the winner. Replay"
        )
        assert page.locator('.ledger li[data-kind="settle"]').count() == 0
    assert page.get_attribute('.ledger li[data-kind="escrow"] a', "href") == f"#/replay/{table}"
    shots(page, "54-wallet-stake", ".ledger")
    clean(page)
    page.context.close()
