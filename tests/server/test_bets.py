"""Spectators' bets over HTTP (B4): the markets of a table, a bet and its retry, every
refusal (with no chip moved), closing at the deal, settling at the deal's end."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import httpx
import pytest
from tests.server.betting_support import (
    bet,
    escrows,
    grant,
    ledger_of,
    markets,
    module_server,
    problems,
    settlements,
    wallet,
)
from tests.server.support import Player, ServerProc, unique_name

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    yield from module_server(backend, tmp_path_factory)


async def test_every_refusal_names_its_problem_and_moves_no_chip(server: ServerProc) -> None:
    owner = await Player(server).sign_in()
    fan = await Player(server, unique_name("fan")).sign_in()
    broke = await Player(server, unique_name("broke")).sign_in()
    guest = await Player(server).sign_in()
    table = (await owner.post("/api/tables", {"game": "imperial", "players": 2}))["table"]["id"]
    async with ledger_of(server) as store:
        await grant(store, fan.user["id"], 100)
        await grant(store, owner.user["id"], 50)
        # an account and a guest who have spent their welcome grants
        await grant(store, broke.user["id"], 0)
        await grant(store, guest.user["id"], 0)

        # an open table: the game's markets and the first deal's, nothing bet yet
        shown = await markets(fan, table)
        assert list(shown) == [
            "game.winner",
            "game.first_mark",
            "deal.1.first_mark",
            "deal.1.tricks.0",
            "deal.1.tricks.1",
            "deal.1.capot",
        ]
        winner = shown["game.winner"]
        assert winner["state"] == "open" and winner["outcome"] is None
        assert winner["pools"] == {"seat:0": 0, "seat:1": 0} and winner["pool"] == 0
        assert winner["my_bets"] == [] and winner["title_ru"] == "Кто выиграет партию"

        r = await bet(fan, table, "game.winner", "seat:0", 30, key="first")
        assert r.status_code == 201, r.text
        first = r.json()
        assert first["bet"]["chips"] == 30 and first["bet"]["seq"] == 0
        assert first["market"]["pools"] == {"seat:0": 30, "seat:1": 0}
        assert first["market"]["my_bets"] == [
            {
                "id": first["bet"]["id"],
                "outcome": "seat:0",
                "chips": 30,
                "payout": None,
                "result": None,
            }
        ]
        # the wallet after the bet, for the page's header (issue 30)
        assert first["balance"] == 70 and isinstance(first["balance_tx"], int)
        # a retry with the same key and content: the same bet, no second movement
        again = await bet(fan, table, "game.winner", "seat:0", 30, key="first")
        assert again.status_code == 200 and again.json()["bet"]["id"] == first["bet"]["id"]
        assert (again.json()["balance"], again.json()["balance_tx"]) == (70, None)
        assert await wallet(store, fan) == 70

        anon = httpx.AsyncClient(base_url=server.base, timeout=30)
        refusals = [
            (fan, "game.winner", "seat:0", 31, "first", 409, "key_reused"),
            (fan, "game.winner", "seat:1", 30, "first", 409, "key_reused"),
            (owner, "game.winner", "seat:1", 5, None, 403, "seated_cannot_bet"),
            (guest, "game.winner", "seat:1", 5, None, 409, "no_chips"),
            (broke, "game.winner", "seat:1", 5, None, 409, "no_chips"),
            (fan, "deal.9.capot", "yes", 5, None, 404, "no_market"),
            (fan, "game.winner", "seat:2", 5, None, 400, "bad_outcome"),
            (fan, "deal.1.capot", "maybe", 5, None, 400, "bad_outcome"),
            (fan, "game.winner", "seat:1", 0, None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", -4, None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", 2.5, None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", "5", None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", True, None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", None, None, 400, "bad_bet_chips"),
            (fan, "game.winner", "seat:1", 71, None, 409, "insufficient_chips"),
            (anon, "game.winner", "seat:1", 5, None, 401, "unauthorized"),
        ]
        for who, market, outcome, chips, key, status, code in refusals:
            r = await bet(who, table, market, outcome, chips, key)
            assert (r.status_code, r.json()["code"]) == (status, code), (code, r.text)
            assert r.json()["message"] and r.json()["message_ru"], r.text
            assert await wallet(store, fan) == 70 and await wallet(store, owner) == 50
            assert await escrows(store, table) == 30
        r = await bet(fan, table, "game.winner", "seat:1", 71)
        assert "You hold 70 chips" in r.json()["message"]
        assert r.json()["message_ru"] == "Ваш баланс: 70; ставка: 71."
        r = await fan.http.post(f"/api/tables/{table}/bets", json={"market": "game.winner"})
        assert r.status_code == 400 and r.json()["code"] == "bad_request"
        await anon.aclose()

        # ten bets a person on one market, not eleven
        for _ in range(10):
            assert (await bet(fan, table, "deal.1.capot", "yes", 1)).status_code == 201
        r = await bet(fan, table, "deal.1.capot", "yes", 1)
        assert (r.status_code, r.json()["code"]) == (409, "too_many_bets")
        assert await wallet(store, fan) == 60
        assert await problems(store) == []
    for p in (owner, fan, broke, guest):
        await p.close()


async def test_deal_markets_close_when_dealt_and_settle_at_the_deal_end(
    server: ServerProc,
) -> None:
    a, b = await Player(server).sign_in(), await Player(server).sign_in()
    fan, rival = await Player(server).sign_in(), await Player(server).sign_in()
    for p in (a, b, fan):
        await p.connect()
    table = (await a.post("/api/tables", {"game": "imperial", "players": 2}))["table"]["id"]
    async with ledger_of(server) as store:
        await grant(store, fan.user["id"], 100)
        await grant(store, rival.user["id"], 20)
        await fan.hello(table)
        for _ in range(10):
            assert (await bet(fan, table, "deal.1.capot", "yes", 1)).status_code == 201
        assert (await bet(rival, table, "deal.1.capot", "no", 5)).status_code == 201
        frame = await fan.expect("market", table=table)
        assert frame["market"]["id"] == "deal.1.capot" and "my_bets" not in frame["market"]

        # the second player sits down: the game starts and deal 1 is dealt
        await b.post(f"/api/tables/{table}/join", {})
        shown = await markets(fan, table)
        assert shown["game.winner"]["state"] == "closed"
        assert shown["deal.1.capot"]["state"] == "closed"
        assert shown["deal.2.capot"]["state"] == "open"
        r = await bet(fan, table, "game.winner", "seat:0", 5)
        assert (r.status_code, r.json()["code"]) == (409, "market_closed")
        assert await wallet(store, fan) == 90

        # the players play deal 1 to its end; its markets settle from its last trick
        for p in (a, b):
            await p.hello(table)
        rng = random.Random(3)
        seats = {0: a, 1: b}
        while (await markets(fan, table))["deal.1.capot"]["state"] != "settled":
            for seat, p in seats.items():
                if p.my_turn(table, seat) and p.legal(table):
                    await p.act(table, rng.choice(p.legal(table)))
                    break
            else:
                await asyncio.sleep(0.01)
        settled = await fan.expect("bet_settled", market="deal.1.capot")
        capot = (await markets(fan, table))["deal.1.capot"]
        assert capot["outcome"] in ("yes", "no") and capot["pool"] == 15
        # worked out by hand: a pool of 15; "yes" (ten 1-chip bets) shares it 1 each plus
        # the 5 left over to the five earliest; "no" (one 5-chip bet) takes all 15
        if capot["outcome"] == "yes":
            assert [b["payout"] for b in capot["my_bets"]] == [2] * 5 + [1] * 5
            assert settled["payout"] == 15
            assert (await wallet(store, fan), await wallet(store, rival)) == (105, 15)
            # won, and the header's balance with it (issue 30)
            assert {b["result"] for b in capot["my_bets"]} == {"won"}
            assert (settled["result"], settled["refund"], settled["balance"]) == ("won", None, 105)
        else:
            assert [b["payout"] for b in capot["my_bets"]] == [0] * 10
            assert settled["payout"] == 0
            assert (await wallet(store, fan), await wallet(store, rival)) == (90, 30)
            # lost: told as lost (not "you get 0 chips"), and no balance moved
            assert {b["result"] for b in capot["my_bets"]} == {"lost"}
            assert (settled["result"], settled["staked"], "balance" in settled) == (
                "lost",
                10,
                False,
            )
        r = await bet(fan, table, "deal.1.capot", "no", 5)
        assert (r.status_code, r.json()["code"]) == (409, "market_settled")
        assert await settlements(store, table) == {"deal.1.capot": 1}
        assert await escrows(store, table) == 0
        assert await problems(store) == []
        # the owner's account holds a seat: he may not bet even after the deal
        await grant(store, a.user["id"], 10)
        r = await bet(a, table, "deal.2.capot", "no", 5)
        assert (r.status_code, r.json()["code"]) == (403, "seated_cannot_bet")
    for p in (a, b, fan, rival):
        await p.close()


def _names_anyone(value: object, user_id: int, name: str) -> bool:
    """Whether a JSON value names a person: a ``user_id`` / ``user`` field, or his name."""
    if isinstance(value, dict):
        if value.get("user_id") == user_id or "user" in value:
            return True
        return any(_names_anyone(v, user_id, name) for v in value.values())
    if isinstance(value, list):
        return any(_names_anyone(v, user_id, name) for v in value)
    return value == name


async def test_b4_a_person_with_open_bets_on_a_table_cannot_sit_at_it(server: ServerProc) -> None:
    """B4 (players never bet on their table) holds for bets placed before sitting down: a
    table opened without sitting, or a seat left and then asked for again, is refused
    (409 ``holds_bets``) while the bets are open, and nothing changes."""
    maker = await Player(server, unique_name("maker")).sign_in()
    leaver = await Player(server, unique_name("leaver")).sign_in()
    other = await Player(server, unique_name("other")).sign_in()
    body = {"game": "imperial", "players": 2}
    async with ledger_of(server) as store:
        await grant(store, maker.user["id"], 100)
        await grant(store, leaver.user["id"], 100)

        # the creator opens a table without sitting, bets, then asks for seat 0
        first = (await maker.post("/api/tables", {**body, "sit": False}))["table"]["id"]
        r = await bet(maker, first, "game.winner", "seat:0", 10)
        assert r.status_code == 201, r.text
        r = await maker.http.post(f"/api/tables/{first}/join", json={"seat": 0})
        assert (r.status_code, r.json()["code"]) == (409, "holds_bets"), r.text
        refusal = r.json()
        assert refusal["params"] == {"chips": 10}
        assert "10 chips in open bets" in refusal["message"]
        assert refusal["message_ru"].startswith("У вас 10 фишек в открытых ставках")
        info = (await maker.http.get(f"/api/tables/{first}")).json()["table"]
        assert [s["kind"] for s in info["seats"]] == ["empty", "empty"]
        assert info["status"] == "open" and info["join_order"] == []
        # any free seat is refused the same way, and the bet stands
        r = await maker.http.post(f"/api/tables/{first}/join", json={})
        assert (r.status_code, r.json()["code"]) == (409, "holds_bets"), r.text
        winner = (await markets(maker, first))["game.winner"]
        assert winner["pools"] == {"seat:0": 10, "seat:1": 0}
        assert [b["chips"] for b in winner["my_bets"]] == [10]
        assert await wallet(store, maker) == 90 and await escrows(store, first) == 10

        # a seated player leaves, bets, and asks for his seat again
        second = (await leaver.post("/api/tables", body))["table"]["id"]
        r = await bet(leaver, second, "deal.1.capot", "no", 25)
        assert (r.status_code, r.json()["code"]) == (403, "seated_cannot_bet")
        await leaver.post(f"/api/tables/{second}/leave")
        r = await bet(leaver, second, "deal.1.capot", "no", 25)
        assert r.status_code == 201, r.text
        r = await leaver.http.post(f"/api/tables/{second}/join", json={"seat": 0})
        assert (r.status_code, r.json()["code"]) == (409, "holds_bets"), r.text
        assert r.json()["params"] == {"chips": 25} and r.json()["message_ru"]
        info = (await leaver.http.get(f"/api/tables/{second}")).json()["table"]
        assert [s["kind"] for s in info["seats"]] == ["empty", "empty"]
        assert info["status"] == "open"
        capot = (await markets(leaver, second))["deal.1.capot"]
        assert capot["pools"] == {"yes": 0, "no": 25} and len(capot["my_bets"]) == 1
        assert await wallet(store, leaver) == 75 and await escrows(store, second) == 25

        # someone else sits there: what he (a player) sees of the markets names no bettor
        await other.connect()
        await other.post(f"/api/tables/{second}/join", {"seat": 1})
        await other.hello(second)
        r = await bet(maker, second, "deal.1.capot", "yes", 5)
        assert r.status_code == 201, r.text
        frame = await other.expect("market", table=second)
        assert frame["market"]["pools"] == {"yes": 5, "no": 25}
        shown = (await other.http.get(f"/api/tables/{second}/markets")).json()["markets"]
        assert all(mk["my_bets"] == [] for mk in shown)
        info = (await other.http.get(f"/api/tables/{second}")).json()
        for bettor in (maker, leaver):
            for seen in (frame, shown, info):
                assert not _names_anyone(seen, bettor.user["id"], str(bettor.name)), seen
        assert await problems(store) == []
    for p in (maker, leaver, other):
        await p.close()
