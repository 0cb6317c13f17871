"""kill -9 while a game's markets are being settled: after the restart every market is
settled exactly once and every balance is exact.

On PostgreSQL the kill lands inside the settlement for certain: the test holds a lock on
the winner market's escrow row, so the server commits the game's last action and then
waits in the settlement until it is killed. On SQLite (one writer, no row locks) the test
kills the server the moment the database says the game is over."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from sqlalchemy import select, text
from tests.server.betting_support import (
    bet,
    escrows,
    grant,
    ledger_of,
    markets,
    patient_start,
    problems,
    settlements,
    wallet,
)
from tests.server.support import Player, ServerProc

from kozyr.server.money.ledger import Account
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store

pytestmark = pytest.mark.asyncio


async def status(store: Store, table: str) -> str:
    async with store.engine.connect() as conn:
        found = await conn.scalar(select(m.game_tables.c.status).where(m.game_tables.c.id == table))
    return str(found)


async def test_kill_9_during_settlement_settles_each_market_once(
    fresh_server: ServerProc,
) -> None:
    server = patient_start(fresh_server)
    owner = await Player(server).sign_in()
    fans = [await Player(server).sign_in() for _ in range(3)]
    body = {"game": "imperial", "players": 2, "options": {"target": 2}}
    table = (await owner.post("/api/tables", {**body, "sit": False, "bots": {"1": 1}}))["table"]
    table_id = table["id"]
    async with ledger_of(server) as store:
        for fan in fans:
            await grant(store, fan.user["id"], 100)
        stakes = [("seat:0", 30), ("seat:1", 10), ("seat:0", 20)]
        for fan, (outcome, chips) in zip(fans, stakes, strict=True):
            assert (await bet(fan, table_id, "game.winner", outcome, chips)).status_code == 201
        assert (await bet(fans[2], table_id, "deal.1.capot", "no", 5)).status_code == 201
        postgres = server.database_url is not None
        holder = None
        if postgres:
            holder = await store.engine.connect()
            await holder.begin()
            escrow = Account.market(table_id, "game.winner").key
            await holder.execute(
                text("SELECT balance FROM ledger_accounts WHERE key = :k FOR UPDATE"),
                {"k": escrow},
            )
        await fans[0].spectate(table_id)  # bots alone play while someone watches
        # The last seat filled starts a game of bots that can end, and its settlement
        # block on the held row, before the response is sent: so the request is not
        # awaited here (a loaded machine once timed it out); it ends with the kill.
        seat_bot = asyncio.create_task(
            owner.post(f"/api/tables/{table_id}/bots", {"seat": 0, "level": 1})
        )
        for _ in range(30_000):
            if await status(store, table_id) == "finished":
                break
            await asyncio.sleep(0.002)
        if postgres:
            await asyncio.sleep(0.5)  # the server is now waiting inside the settlement
        server.kill()
        with contextlib.suppress(Exception):  # answered before the kill, or cut by it
            await seat_bot
        if holder is not None:
            await holder.rollback()
            await holder.close()
        before = await settlements(store, table_id)
        if postgres:
            assert "game.winner" not in before
        print(f"settled before the restart: {before}")

        patient_start(server)  # the same database: the restart settles what is left
        shown = await markets(fans[0], table_id)
        outcome = shown["game.winner"]["outcome"]
        # by hand, as in test_bets_games: a pool of 60 on the winner; the capot bet of 5
        # is its market's whole pool, so it comes back whatever the outcome
        expected = {"seat:0": [106, 90, 104], "seat:1": [70, 150, 80]}[outcome]
        assert [await wallet(store, fan) for fan in fans] == expected
        assert await settlements(store, table_id) == {"game.winner": 1, "deal.1.capot": 1}
        assert all(mk["state"] == "settled" for mk in shown.values())
        assert await escrows(store, table_id) == 0
        assert await problems(store) == []
        # and a second restart moves nothing more
        server.kill()
        patient_start(server)
        await markets(fans[0], table_id)
        assert [await wallet(store, fan) for fan in fans] == expected
        assert await settlements(store, table_id) == {"game.winner": 1, "deal.1.capot": 1}
    for p in (owner, *fans):
        await p.close()
