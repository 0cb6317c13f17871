"""Stakes over HTTP (B5): welcome grants, stake terms on tables, the hold check when a
person sits, escrow at the start, settlement at the end, the wallet and the top-up.

Expected chips are worked out by hand from the rules of each stake kind (docs/chips.md),
never from the server's own arithmetic."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from tests.server.betting_support import bet, grant, ledger_of
from tests.server.support import Player, ServerProc, unique_name

pytestmark = pytest.mark.asyncio

PER_GAME_10 = {"kind": "per_game", "chips": 10}


async def wallet(p: Player, **query: Any) -> dict[str, Any]:
    r = await p.http.get("/api/wallet", params=query)
    assert r.status_code == 200, r.text
    return dict(r.json())


async def balance(p: Player) -> int:
    return int((await wallet(p))["balance"])


async def registered(server: ServerProc) -> Player:
    return await Player(server, unique_name("stk")).sign_in()


async def finished(p: Player, table: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        info = (await p.http.get(f"/api/tables/{table}")).json()["table"]
        if info["status"] == "finished":
            return dict(info)
        assert time.monotonic() < deadline, f"table {table} did not finish"
        await asyncio.sleep(0.1)


def per_game_net(result: dict[str, Any], seat: int, players: int, chips: int) -> int:
    """Imperial per_game by hand: each loser pays the winner S."""
    return chips * (players - 1) if result["winner"] == seat else -chips


async def test_new_accounts_get_their_welcome_grant(server: ServerProc) -> None:
    person, guest = await registered(server), await Player(server).sign_in()
    try:
        assert (await person.http.get("/api/me")).json()["balance"] == 1000
        assert (await guest.http.get("/api/me")).json()["balance"] == 200
        mine = await wallet(person)
        assert mine["balance"] == 1000 and mine["held"] == 0 and mine["can_top_up"] is False
        assert [(e["kind"], e["amount"], e["table_id"]) for e in mine["entries"]] == [
            ("grant", 1000, None)
        ]
        assert mine["next"] is None
        assert (await person.http.get("/api/wallet")).json() == mine  # no second grant
    finally:
        await person.close()
        await guest.close()


BAD_STAKES = [
    ({"kind": "per_game", "chips": 0}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": -5}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": 2.5}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": "10"}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": True}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": 1_000_001}, "bad_stake_chips"),
    ({"kind": "per_hand", "chips": 10}, "bad_stake_kind"),
    ({"kind": "per_place", "chips": 10}, "stake_wrong_game"),
    ({"kind": "per_game"}, "bad_stake_chips"),
    ({"kind": "per_game", "chips": 10, "extra": 1}, "bad_stake"),
    (10, "bad_stake"),
    ("per_game", "bad_stake"),
]


@pytest.mark.parametrize(("stake", "code"), BAD_STAKES)
async def test_bad_stake_terms_are_refused_and_nothing_moves(
    server: ServerProc, stake: Any, code: str
) -> None:
    p = await Player(server).sign_in()
    try:
        before = await wallet(p)
        body = {"game": "imperial", "players": 2, "bots": [1], "stake": stake}
        r = await p.http.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        error = r.json()
        assert error["code"] == code
        assert error["message"] and error["message_ru"] and error["message_ru"] != error["message"]
        r = await p.http.post("/api/quickplay", json={"game": "imperial", "stake": stake})
        assert r.status_code == 400 and r.json()["code"] == code
        assert await wallet(p) == before
        assert (await p.http.get("/api/games")).json()["games"] == []
    finally:
        await p.close()


async def test_a_stake_above_the_balance_is_refused_with_both_numbers(server: ServerProc) -> None:
    guest = await Player(server).sign_in()  # 200 chips
    host = await registered(server)
    try:
        # per_imperial at target 5: a loser with no imperial pays 5 x 50 = 250 > 200
        stake = {"kind": "per_imperial", "chips": 50}
        body = {"game": "imperial", "players": 2, "options": {"target": 5}, "stake": stake}
        r = await guest.http.post("/api/tables", json=body)
        assert r.status_code == 409, r.text
        error = r.json()
        assert error["code"] == "stake_too_high"
        assert error["params"] == {"balance": 200, "hold": 250}
        assert "200" in error["message"] and "250" in error["message"]
        assert "200" in error["message_ru"] and "250" in error["message_ru"]
        # at someone else's table: the seat stays free, nothing moves
        table = (await host.post("/api/tables", body))["table"]
        assert table["stake"] == stake and table["stake_hold"] == 250
        r = await guest.http.post(f"/api/tables/{table['id']}/join", json={})
        assert r.status_code == 409 and r.json()["params"] == {"balance": 200, "hold": 250}
        info = (await host.http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert [s["kind"] for s in info["seats"]] == ["person", "empty"]
        assert info["status"] == "open"
        assert await balance(guest) == 200 and await balance(host) == 1000
        r = await guest.http.post("/api/quickplay", json={"game": "imperial", "stake": stake})
        assert r.status_code == 409 and r.json()["code"] == "stake_too_high"
        assert await balance(guest) == 200
    finally:
        await guest.close()
        await host.close()


async def test_a_table_that_never_starts_holds_nothing(server: ServerProc) -> None:
    p = await registered(server)
    try:
        body = {"game": "imperial", "players": 3, "stake": {"kind": "per_game", "chips": 100}}
        table = (await p.post("/api/tables", body))["table"]
        assert table["status"] == "open" and table["stake_hold"] == 100
        mine = await wallet(p)
        assert mine["balance"] == 1000 and mine["held"] == 0 and len(mine["entries"]) == 1
        await p.post(f"/api/tables/{table['id']}/leave")
        assert await balance(p) == 1000
    finally:
        await p.close()


async def test_a_whole_stake_game_against_a_bot_settles_by_hand(server: ServerProc) -> None:
    p = await registered(server)
    try:
        body = {
            "game": "imperial",
            "players": 2,
            "options": {"target": 2},
            "bots": [1],
            "stake": PER_GAME_10,
        }
        table = (await p.post("/api/tables", body))["table"]
        tid = table["id"]
        assert table["stake"] == PER_GAME_10 and table["stake_hold"] == 10
        await p.connect()
        await p.hello(tid)
        await p.expect("sync")
        if not p.over(tid):
            during = await wallet(p)
            assert during["balance"] == 990 and during["held"] == 10
            assert during["entries"][0]["kind"] == "escrow"
            assert during["entries"][0]["amount"] == -10
            assert during["entries"][0]["table_id"] == tid
            await p.play_until_over(tid, 0, random.Random(11))
        info = await finished(p, tid)
        net = per_game_net(info["result"], 0, 2, 10)
        assert info["settlement"] == [
            {"seat": 0, "name": p.user["name"], "net": net},
            {"seat": 1, "name": "bot 1", "net": -net},
        ]
        payer, taker = (1, 0) if net > 0 else (0, 1)
        assert info["transfers"] == [{"from": payer, "to": taker, "chips": 10}]
        after = await wallet(p)
        assert after["balance"] == 1000 + net and after["held"] == 0
        # the game_over table frame the page reads carries the settlement too
        deadline = time.monotonic() + 10
        while p.tables.get(tid, {}).get("table", {}).get("settlement") is None:
            assert time.monotonic() < deadline, "no table frame with the settlement"
            await asyncio.sleep(0.05)
        assert p.tables[tid]["table"]["settlement"] == info["settlement"]
    finally:
        await p.close()


async def test_who_leaves_mid_game_keeps_his_seats_result(server: ServerProc) -> None:
    p = await registered(server)
    try:
        # Emperor per_place, 3 players: +2S, 0, -2S; the hold is 2S = 10 from each seat
        body = {
            "game": "emperor",
            "players": 3,
            "options": {"rounds": 1},
            "bots": [1, 1],
            "stake": {"kind": "per_place", "chips": 5},
        }
        table = (await p.post("/api/tables", body))["table"]
        assert table["stake_hold"] == 10
        if table["status"] == "playing":
            await p.post(f"/api/tables/{table['id']}/leave")
        info = await finished(p, table["id"])
        totals = info["result"]["totals"]
        # by hand: places by total, first to last worth (2, 0, -2) x 5; a tie shares the
        # units of the places it covers, a remainder chip going to the lowest seat (seat 0)
        ranked = sorted(totals, reverse=True)
        first, count = ranked.index(totals[0]), ranked.count(totals[0])
        base, rest = divmod(sum([2, 0, -2][first : first + count]) * 5, count)
        expect = base + (1 if rest else 0)
        assert info["settlement"][0]["net"] == expect
        assert sum(s["net"] for s in info["settlement"]) == 0
        assert await balance(p) == 1000 + expect
    finally:
        await p.close()


async def test_a_start_the_wallet_no_longer_covers_unseats_him(server: ServerProc) -> None:
    a, c = await registered(server), await registered(server)
    try:
        await a.connect()
        stake = {"kind": "per_game", "chips": 600}
        body = {"game": "imperial", "players": 2, "stake": stake}
        waiting = (await a.post("/api/tables", body))["table"]["id"]
        await a.hello(waiting)
        # a spends 600 of his 1000 at another table meanwhile
        other = {**body, "bots": [1], "options": {"target": 20}}
        await a.post("/api/tables", other)
        assert await balance(a) == 400
        joined = await c.post(f"/api/tables/{waiting}/join", {})
        assert joined["seat"] == 1
        info = joined["table"]
        assert info["status"] == "open"
        assert [s["user_id"] for s in info["seats"]] == [None, c.user["id"]]
        error = await a.expect("error", code="stake_too_high")
        assert error["params"] == {"balance": 400, "hold": 600}
        assert error["table"] == waiting
        assert await balance(a) == 400 and await balance(c) == 1000
        assert (await wallet(c))["held"] == 0
    finally:
        await a.close()
        await c.close()


async def test_no_top_up_while_chips_are_held_in_escrow(server: ServerProc) -> None:
    """The chips a running stake game holds in escrow are still the person's: with them he
    has 100 or more, so no top-up is due (docs/chips.md)."""
    g = await Player(server).sign_in()  # 200 chips
    try:
        body = {
            "game": "imperial",
            "players": 2,
            "bots": [1],
            "stake": {"kind": "per_game", "chips": 150},
            "turn_timeout": 0,  # the game waits for g's first move as long as the test runs
        }
        await g.post("/api/tables", body)  # 150 of 200 go to escrow
        mine = await wallet(g)
        assert mine["balance"] == 50 and mine["held"] == 150 and mine["can_top_up"] is False
        assert mine["in_escrow"] == 150 and mine["in_bets"] == 0
        r = await g.http.post("/api/wallet/top-up", json={"key": "k-1"})
        assert (r.status_code, r.json()["code"]) == (409, "top_up_not_due"), r.text
        assert r.json()["params"] == {"balance": 50, "held": 150}
        assert "200 chips: 50 in your wallet and 150 held" in r.json()["message"]
        assert r.json()["message_ru"].startswith("У вас 200 фишек: 50 на счёте и 150 в залоге")
        after = await wallet(g)
        assert after["balance"] == 50 and after["held"] == 150
        assert [e["kind"] for e in after["entries"]] == ["escrow", "grant"]
    finally:
        await g.close()


async def test_no_top_up_while_chips_ride_on_open_bets(server: ServerProc) -> None:
    """Chips in bets not settled yet count with the balance: 50 in the wallet and 950 on a
    bet is 1,000, no top-up; 30 and 40 on a bet is 70, topped up by 30 (to 100 in all).
    The wallet shows them as held."""
    owner = await Player(server).sign_in()
    rich, poor = await registered(server), await Player(server).sign_in()
    try:
        table = (await owner.post("/api/tables", {"game": "imperial", "players": 2}))["table"]
        async with ledger_of(server) as store:
            await grant(store, poor.user["id"], 70)
        r = await bet(rich, table["id"], "game.winner", "seat:0", 950)
        assert r.status_code == 201, r.text
        mine = await wallet(rich)
        assert (mine["balance"], mine["held"], mine["in_escrow"], mine["in_bets"]) == (
            50,
            950,
            0,
            950,
        )
        assert mine["can_top_up"] is False
        r = await rich.http.post("/api/wallet/top-up", json={"key": "k-1"})
        assert (r.status_code, r.json()["code"]) == (409, "top_up_not_due"), r.text
        assert r.json()["params"] == {"balance": 50, "held": 950}
        assert r.json()["message"] and r.json()["message_ru"]
        assert await balance(rich) == 50

        r = await bet(poor, table["id"], "deal.1.capot", "yes", 40)
        assert r.status_code == 201, r.text
        mine = await wallet(poor)
        assert (mine["balance"], mine["held"], mine["in_bets"], mine["can_top_up"]) == (
            30,
            40,
            40,
            True,
        )
        done = await poor.post("/api/wallet/top-up", {"key": "k-1"})
        assert done == {"balance": 60, "amount": 30, "replayed": False}
        mine = await wallet(poor)
        assert mine["balance"] + mine["held"] == 100 and mine["can_top_up"] is False
    finally:
        for p in (owner, rich, poor):
            await p.close()


async def test_the_daily_top_up_and_its_idempotency_key(server: ServerProc) -> None:
    g = await Player(server).sign_in()
    rich = await registered(server)
    try:
        async with ledger_of(server) as store:
            await grant(store, g.user["id"], 50)  # a guest who has lost 150 of his 200
        mine = await wallet(g)
        assert mine["balance"] == 50 and mine["held"] == 0 and mine["can_top_up"] is True
        first = await g.post("/api/wallet/top-up", {"key": "k-1"})
        assert first == {"balance": 100, "amount": 50, "replayed": False}
        again = await g.post("/api/wallet/top-up", {"key": "k-1"})
        assert again == {"balance": 100, "amount": 50, "replayed": True}
        r = await g.http.post("/api/wallet/top-up", json={"key": "k-2"})
        assert r.status_code == 409 and r.json()["code"] == "top_up_not_due"
        assert "today" in r.json()["message"]
        after = await wallet(g)
        assert after["balance"] == 100 and after["can_top_up"] is False
        assert [e["kind"] for e in after["entries"]] == ["top_up", "grant", "grant"]
        r = await rich.http.post("/api/wallet/top-up", json={"key": "k-1"})
        assert r.status_code == 409 and r.json()["params"] == {"balance": 1000, "held": 0}
        for bad in ({}, {"key": ""}, {"key": 5}, {"key": "x" * 101}):
            r = await g.http.post("/api/wallet/top-up", json=bad)
            assert r.status_code == 400, bad
        assert await balance(g) == 100 and await balance(rich) == 1000
    finally:
        await g.close()
        await rich.close()


async def test_the_wallet_pages_newest_first(server: ServerProc) -> None:
    g = await Player(server).sign_in()
    try:
        body = {"game": "imperial", "players": 3, "options": {"target": 20}, "bots": [1, 1]}
        for chips in (10, 20):
            await g.post("/api/tables", {**body, "stake": {"kind": "per_game", "chips": chips}})
        first = await wallet(g, limit="2")
        assert [e["amount"] for e in first["entries"]] == [-20, -10]
        assert first["held"] == 30 and first["balance"] == 170
        second = await wallet(g, limit="2", before=str(first["next"]))
        assert [e["amount"] for e in second["entries"]] == [200] and second["next"] is None
        for query in ({"limit": "0"}, {"limit": "101"}, {"limit": "x"}, {"before": "-1"}):
            r = await g.http.get("/api/wallet", params=query)
            assert r.status_code == 400 and r.json()["code"] == "bad_request", query
        stranger = Player(server)
        r = await stranger.http.get("/api/wallet")
        assert r.status_code == 401
        await stranger.close()
    finally:
        await g.close()


async def test_quick_play_keeps_to_the_stake_asked_for(server: ServerProc) -> None:
    a, b = await registered(server), await registered(server)
    try:
        stake = {"kind": "per_game", "chips": 7}
        open_body = {"game": "imperial", "players": 3, "stake": stake}
        table = (await a.post("/api/tables", open_body))["table"]["id"]
        plain = await b.post("/api/quickplay", {"game": "imperial", "players": 3, "level": 1})
        assert plain["table"]["id"] != table and plain["table"]["stake"] is None
        staked = await b.post("/api/quickplay", {"game": "imperial", "players": 3, "stake": stake})
        assert staked["table"]["id"] == table and staked["table"]["stake"] == stake
    finally:
        await a.close()
        await b.close()
