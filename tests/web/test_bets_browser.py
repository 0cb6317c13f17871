"""A spectator bets through the page on a whole Imperial and a whole Emperor game played
by bots, and sees the settlement (``pytest -m browser``)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.betting_support import grant, ledger_of, patient_start, wallet
from tests.server.support import Player, ServerProc
from tests.web.browsing import BROWSER, _page, clean, guest, shot

pytestmark = BROWSER


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    # Playwright's sync API keeps an event loop of its own in this thread
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="module")
def bets_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """A server whose database the test can reach (to give people chips)."""
    proc = patient_start(ServerProc(Path(tmp_path_factory.mktemp("kozyr-bets-web"))))
    yield proc
    proc.stop()


def give_chips(server: ServerProc, user_id: int, chips: int) -> None:
    async def body() -> None:
        async with ledger_of(server) as store:
            await grant(store, user_id, chips)

    run(body())


def balance_of(server: ServerProc, user: dict[str, Any]) -> int:
    async def body() -> int:
        async with ledger_of(server) as store:
            who = Player(server)
            who.user = user
            held = await wallet(store, who)
            await who.http.aclose()
            return held

    return int(run(body()))


def sign_in(server: ServerProc) -> tuple[httpx.Client, dict[str, Any]]:
    http = httpx.Client(base_url=server.base, timeout=30)
    r = http.post("/api/guest")
    assert r.status_code == 201, r.text
    return http, r.json()["user"]


# (game, table body, winner market, what the panel says in the page's language)
CASES = [
    ("imperial", {"players": 2, "options": {"target": 2}}, "game.winner", "en"),
    ("emperor", {"players": 3, "options": {"rounds": 2}}, "game.emperor", "ru"),
]


@pytest.mark.parametrize(("game", "shape", "winner", "language"), CASES)
def test_a_spectator_bets_through_the_page_and_sees_the_settlement(
    bets_server: ServerProc,
    browser: Any,
    game: str,
    shape: dict[str, Any],
    winner: str,
    language: str,
) -> None:
    server = bets_server
    owner, _ = sign_in(server)
    rival, rival_user = sign_in(server)
    bots = {str(s): 1 for s in range(1, shape["players"])}
    created = owner.post("/api/tables", json={"game": game, **shape, "sit": False, "bots": bots})
    table = created.json()["table"]["id"]
    give_chips(server, rival_user["id"], 50)
    r = rival.post(
        f"/api/tables/{table}/bets",
        json={"market": winner, "outcome": "seat:1", "chips": 10, "key": "rival"},
    )
    assert r.status_code == 201, r.text

    page = _page(browser, locale="ru-RU" if language == "ru" else "en-US")
    guest(page, server.base + "/")
    me = page.evaluate("window.kozyr.user")
    give_chips(server, me["id"], 100)
    page.goto(f"{server.base}/#/table/{table}")
    form = page.locator(f'.bets-panel form.bet-form[data-market="{winner}"]')
    form.wait_for()
    market = page.locator(f'.bets-market[data-market="{winner}"]')
    pool_10 = "Pool: 10 chips" if language == "en" else "Банк: 10 фишек"
    assert pool_10 in market.inner_text()
    form.locator("select[name=outcome]").select_option("seat:0")
    form.locator("input[name=chips]").fill("20")
    form.locator("button[type=submit]").click()
    market.locator(".bets-mine li").wait_for()
    pool_30 = "Pool: 30 chips" if language == "en" else "Банк: 30 фишек"
    assert pool_30 in market.inner_text()
    assert balance_of(server, me) == 80
    shot(page, f"40-bets-{game}")

    # the last seat gets a bot: the bots play the game out while the page watches
    r = owner.post(f"/api/tables/{table}/bots", json={"seat": 0, "level": 1})
    assert r.status_code == 200, r.text
    settled = page.locator(f'.bets-market[data-market="{winner}"][data-state="settled"]')
    settled.wait_for(timeout=240_000)
    notice = page.locator(".bets-notice").inner_text()
    outcome = page.evaluate(f"window.kozyr.bets.markets.get('{winner}').outcome")
    # by hand: a pool of 30; seat 0 (my 20 alone) takes all 30, seat 1 (the rival's 10)
    # leaves me nothing, seat 2 (Emperor: backed by nobody) returns my 20: told as such,
    # not as a payout (issue 30)
    paid = {"seat:0": 30, "seat:1": 0, "seat:2": 20}[outcome]
    told = {
        "seat:0": {
            "en": ("Your bet won: you get 30 chips.", "won: 30 chips paid"),
            "ru": ("Ваша ставка сыграла, выплата: 30 фишек.", "выиграла, выплата: 30 фишек"),
        },
        "seat:1": {
            "en": ("Your bet of 20 chips lost.", "lost"),
            "ru": ("Ваша ставка не сыграла, проиграно: 20 фишек.", "проиграла"),
        },
        "seat:2": {
            "en": (
                "Nobody bet on that, so every bet is returned: you get your 20 chips back.",
                "returned: 20 chips (nobody bet on the outcome)",
            ),
            "ru": (
                "На этот исход никто не ставил, поэтому все ставки возвращены: вам — 20 фишек.",
                "возвращена: 20 фишек (на исход никто не ставил)",
            ),
        },
    }[outcome][language]
    assert notice.endswith(told[0]), notice
    assert told[1] in settled.locator(".bets-mine").inner_text()
    assert balance_of(server, me) == 80 + paid
    shot(page, f"41-bets-{game}-settled")
    clean(page)
    page.context.close()
    owner.close()
    rival.close()


def test_a_late_market_list_does_not_undo_a_settlement(
    bets_server: ServerProc, browser: Any
) -> None:
    """The list the page fetches when the game ends can arrive after the settlement frame
    it raced; a market only moves forward (open → closed → settled, its pool only grows),
    so the further copy of each market is the one kept."""
    page = _page(browser)
    guest(page, bets_server.base + "/")
    cases = page.evaluate(
        """async () => {
          const { newer } = await import('/js/bets.js');
          const settled = { state: 'settled', pool: 30, outcome: 'seat:0' };
          const closed = { state: 'closed', pool: 30, outcome: null };
          const open10 = { state: 'open', pool: 10 };
          const open30 = { state: 'open', pool: 30 };
          return [newer(settled, closed), newer(closed, settled), newer(open30, open10),
                  newer(open10, open30), newer(open30, open30), newer(closed, open30)];
        }"""
    )
    assert cases == [True, False, True, False, False, True]
    clean(page)
    page.context.close()
