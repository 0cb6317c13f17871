"""kill -9 at a stake game's end (B5): in the transaction that commits the last action,
before its settlement is written and while it is being written. After the restart no chip
is lost or doubled and the settlement is there exactly once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.stakes_support import database_of, ledger_facts, net_by_hand, store_of
from tests.server.support import Player, ServerProc, http_client

pytestmark = pytest.mark.asyncio

SLOW_START = 240
"""Seconds a restart may take on a loaded machine (importing alone can take 15)."""

STAKE = {"kind": "per_game", "chips": 10}
OPTIONS = {"target": 3}


async def _stake_game_started(
    backend: str, tmp_path: Path, at: str
) -> tuple[ServerProc, Player, dict[str, Any]]:
    """A crashing server and a stake game being played on it. The first deal's
    declarations alone can reach the target (3 imperials): then the game ends, and its
    settlement kills the server, inside the request that creates the table. That is not
    the case under test, so it is dealt again on a fresh server and database."""
    for attempt in range(3):
        server = ServerProc(
            tmp_path / f"data{attempt}",
            await database_of(backend),
            env={"KOZYR_CRASH_AT": at},
            module="tests.server.crashing_server",
            start_timeout=SLOW_START,
        ).start()
        p = await Player(server, "crashy").sign_in()
        body = {"game": "imperial", "players": 2, "options": OPTIONS, "bots": [1], "stake": STAKE}
        try:
            return server, p, (await p.post("/api/tables", body))["table"]
        except httpx.RemoteProtocolError:
            assert server.proc is not None
            assert server.proc.wait(60) == -9  # the settlement's kill, nothing else
            await p.http.aclose()
    raise AssertionError("three deals in a row ended in their declarations")


@pytest.mark.parametrize("at", ["before_settle", "in_settle"])
async def test_kill_9_at_the_settlement_loses_and_doubles_nothing(
    backend: str, tmp_path: Path, at: str
) -> None:
    server, p, table = await _stake_game_started(backend, tmp_path, at)
    try:
        tid = table["id"]
        assert table["status"] == "playing"
        assert server.proc is not None
        try:
            r = await p.http.post(f"/api/tables/{tid}/leave", json={})
            assert r.status_code == 200
        except (httpx.ReadError, httpx.RemoteProtocolError):
            # The bots took the seat at once and played to the settlement, whose kill
            # came before the leave's answer was written: a kill, and nothing else.
            assert server.proc.wait(60) == -9
        deadline = time.monotonic() + 120
        while server.proc.poll() is None:  # the bots play on until the settlement kills it
            assert time.monotonic() < deadline, "the server never reached the settlement"
            await asyncio.sleep(0.1)
        assert server.proc.returncode == -9
        await p.http.aclose()

        store = store_of(server)
        try:
            # while it is down: the last action never committed, nor its settlement
            facts = await ledger_facts(store, [tid], [p.user["id"]])
            assert facts["problems"] == []
            assert facts["settles"][tid] == 0 and facts["escrows"][tid] == 1
            assert facts["escrow_left"][tid] == 20 and facts["wallets"][p.user["id"]] == 990
            saved = await store.table(tid)
            assert saved is not None and saved.status == "playing"
            server.env.pop("KOZYR_CRASH_AT")
            server.start()  # the same database
            p.http = http_client(server.base, p.http.cookies)
            deadline = time.monotonic() + 120
            while True:  # after the grace the bot plays his seat to the end again
                info = (await p.http.get(f"/api/tables/{tid}")).json()["table"]
                if info["status"] == "finished":
                    break
                assert time.monotonic() < deadline, "the game did not finish after the restart"
                await asyncio.sleep(0.1)
            net = net_by_hand("imperial", STAKE, OPTIONS, info["result"])
            assert [s["net"] for s in info["settlement"]] == net
            facts = await ledger_facts(store, [tid], [p.user["id"]])
            assert facts["problems"] == []
            assert facts["settles"][tid] == 1 and facts["escrows"][tid] == 1
            assert facts["escrow_left"][tid] == 0
            assert facts["wallets"][p.user["id"]] == 1000 + net[0]
        finally:
            await store.close()
        await p.close()
    finally:
        server.stop()
