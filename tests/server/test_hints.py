"""Hints at casual tables (docs/review.md): asked for when creating the table, never at
a rated one; the seat to act gets its own legal moves, best first, and nothing else;
everyone else is refused."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx
import pytest
from tests.server.support import CARD, Player, ServerProc, cards_in, unique_name

pytestmark = pytest.mark.asyncio


async def my_turn(
    player: Player, table: str, seat: int, timeout: float = 30
) -> dict[str, Any] | None:
    """The seat's view once it is its turn (the bots move at once); None once over."""
    deadline = time.monotonic() + timeout
    while not player.my_turn(table, seat):
        if player.over(table):
            return None
        if time.monotonic() > deadline:
            raise TimeoutError(f"seat {seat} never had the turn at {table}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(player.inbox.get(), 1)
    return player.views[table]


async def two_with_hints(server: ServerProc) -> tuple[Player, Player, str]:
    """Two people at a fresh Imperial table with hints, its first card to be played."""
    a, b = await Player(server).sign_in(), await Player(server).sign_in()
    await a.connect()
    await b.connect()
    body = {"game": "imperial", "options": {"target": 5}, "hints": True, "turn_timeout": None}
    for _ in range(20):
        table = (await a.post("/api/tables", body))["table"]["id"]
        await b.post(f"/api/tables/{table}/join", {})
        for p in (a, b):
            await p.hello(table)
            await p.expect("sync")
        if a.views[table]["to_act"] is not None:
            return a, b, table
    raise AssertionError("no game lasted past its declarations")


def check_moves(hint: dict[str, Any], view: dict[str, Any], seq: int) -> None:
    """The hint is of this seq and ranks exactly the seat's legal actions, best first."""
    assert hint["seq"] == seq
    actions = [m["action"] for m in hint["moves"]]
    assert sorted(actions) == sorted(view["legal_actions"])
    values = [m["value"] for m in hint["moves"]]
    assert values == sorted(values, reverse=True)
    # nothing the seat may not see: every card named is one it holds
    assert cards_in(hint) <= set(view["hand"])


async def test_hints_for_the_seat_to_act_only(server: ServerProc) -> None:
    a, b, table = await two_with_hints(server)
    spectator = await Player(server).sign_in()
    anonymous = httpx.AsyncClient(base_url=server.base, timeout=30)
    try:
        info = (await a.http.get(f"/api/tables/{table}")).json()["table"]
        assert info["hints"] is True and info["rated"] is False
        listed = (await a.http.get("/api/tables")).json()["tables"]
        assert [t["hints"] for t in listed if t["id"] == table] == [True]
        assert a.tables[table]["table"]["hints"] is True  # the table frame's info

        to_act = a.views[table]["to_act"]
        mover, waiter = (a, b) if to_act == 0 else (b, a)
        view = await my_turn(mover, table, to_act)
        assert view is not None
        r = await mover.http.post(f"/api/tables/{table}/hint")
        assert r.status_code == 200, r.text
        hint = r.json()
        assert (hint["unit"], hint["unit_ru"]) == ("points", "очков")
        check_moves(hint, view, mover.seqs[table])

        path = f"/api/tables/{table}/hint"
        r = await waiter.http.post(path)
        assert r.status_code == 409 and r.json()["code"] == "not_your_turn", r.text
        assert r.json()["message_ru"]
        r = await spectator.http.post(path)
        assert r.status_code == 403 and r.json()["code"] == "not_seated", r.text
        r = await anonymous.post(path)
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"
        r = await a.http.post("/api/tables/0123456789/hint")
        assert r.status_code == 404 and r.json()["code"] == "no_table"

        # the same decision again: its first answer, searched once (issue 43, item 2)
        again = await asyncio.gather(mover.http.post(path), mover.http.post(path))
        assert [r.status_code for r in again] == [200, 200], [r.text for r in again]
        assert all(r.json() == hint for r in again)

        # after his move, the hint is the other seat's; one search at a time per seat
        ack = await mover.act(table, hint["moves"][0]["action"])
        assert ack["type"] == "ack", ack
        other = 1 - to_act
        view = await my_turn(waiter, table, other)
        assert view is not None
        both = await asyncio.gather(waiter.http.post(path), waiter.http.post(path))
        assert sorted(r.status_code for r in both) == [200, 429], [r.text for r in both]
        busy = next(r for r in both if r.status_code == 429).json()
        assert busy["code"] == "hint_busy" and busy["message_ru"]
        answered = next(r for r in both if r.status_code == 200)
        check_moves(answered.json(), view, waiter.seqs[table])
        r = await mover.http.post(path)
        assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    finally:
        for p in (a, b, spectator):
            await p.close()
        await anonymous.aclose()


async def test_emperor_hints_rank_every_kind_of_decision(server: ServerProc) -> None:
    """Emperor: hints rank swaps, offers, answers and trumps as well as cards; each is
    exactly the seat's legal actions. The person plays the hint's best move until he has
    had a decision other than a card (a new game in the rare one where he has none)."""
    me = await Player(server).sign_in()
    body = {
        "game": "emperor",
        "players": 3,
        # rounds 2 and 3 have the exchange and its bargaining (E7, E8)
        "options": {"rounds": 3, "bargain_from": 2},
        "bots": [1, 1],
        "hints": True,
        "turn_timeout": None,
    }
    kinds: set[str] = set()
    try:
        await me.connect()
        for _ in range(4):
            table = (await me.post("/api/tables", body))["table"]["id"]
            await me.hello(table)
            while len(kinds) < 2:
                view = await my_turn(me, table, 0)
                if view is None:
                    break  # over
                r = await me.http.post(f"/api/tables/{table}/hint")
                assert r.status_code == 200, r.text
                hint = r.json()
                assert (hint["unit"], hint["unit_ru"]) == ("tricks", "взяток")
                check_moves(hint, view, me.seqs[table])
                best = hint["moves"][0]["action"]
                kinds.add("card" if CARD.match(best) else best.split()[0])
                ack = await me.act(table, best)
                assert ack["type"] == "ack", ack
            await me.send({"type": "unwatch", "table": table})
            if len(kinds) >= 2:
                break
        assert "card" in kinds and len(kinds) >= 2, kinds
    finally:
        await me.close()


async def test_refusals_at_create_and_at_tables_without_hints(server: ServerProc) -> None:
    named = await Player(server, unique_name("hinter")).sign_in()
    guest = await Player(server).sign_in()
    try:
        r = await named.http.post(
            "/api/tables", json={"game": "imperial", "rated": True, "hints": True}
        )
        assert r.status_code == 409 and r.json()["code"] == "hints_on_rated", r.text
        assert r.json()["message"] == "Hints are not allowed at rated tables."
        assert r.json()["message_ru"] == "На рейтинговых столах подсказки запрещены."
        r = await named.http.post("/api/tables", json={"game": "imperial", "hints": "yes"})
        assert r.status_code == 400 and "hints" in r.json()["message"], r.text

        # no hints unless asked for
        body = {"game": "imperial", "bots": [1], "turn_timeout": None}
        plain = (await guest.post("/api/tables", body))["table"]
        assert plain["hints"] is False
        await guest.connect()
        await guest.hello(plain["id"])
        await my_turn(guest, plain["id"], 0)
        r = await guest.http.post(f"/api/tables/{plain['id']}/hint")
        assert r.status_code == 409 and r.json()["code"] == "hints_off", r.text
        assert r.json()["message_ru"]
        quick = await guest.post("/api/quickplay", {"game": "imperial"})
        assert quick["table"]["hints"] is False

        # a table with hints whose game has not started
        waiting = (await named.post("/api/tables", {"game": "imperial", "hints": True}))["table"]
        r = await named.http.post(f"/api/tables/{waiting['id']}/hint")
        assert r.status_code == 409 and r.json()["code"] == "not_started", r.text
    finally:
        await named.close()
        await guest.close()
