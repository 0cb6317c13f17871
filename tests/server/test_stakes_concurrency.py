"""Many stake tables finishing at once (B5), and a kill -9 at a random moment among them:
every balance exact (worked out by hand from each result), every escrow back to 0, one
settlement per table, the ledger's sums zero; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest
from tests.server.stakes_support import database_of, ledger_facts, net_by_hand, store_of
from tests.server.support import Player, ServerProc, http_client, unique_name

pytestmark = pytest.mark.asyncio

SLOW_START = 240
"""Seconds a restart may take on a loaded machine (importing alone can take 15)."""

TABLES = 6
# every kind, in turn: (game, players, options, stake)
KINDS: list[tuple[str, int, dict[str, Any], dict[str, Any]]] = [
    ("imperial", 2, {"target": 2}, {"kind": "per_game", "chips": 10}),
    ("imperial", 3, {"target": 2}, {"kind": "per_imperial", "chips": 7}),
    ("emperor", 3, {"rounds": 1}, {"kind": "per_place", "chips": 5}),
    ("emperor", 4, {"rounds": 1}, {"kind": "per_trick", "chips": 3}),
]


async def start_games(server: ServerProc) -> list[tuple[Player, dict[str, Any]]]:
    """A person per table, each with bots, who leaves at once: the bots play every seat
    and the games end at about the same time."""
    people = [await Player(server, unique_name(f"c{i}")).sign_in() for i in range(TABLES)]

    async def one(i: int, p: Player) -> tuple[Player, dict[str, Any]]:
        game, n, options, stake = KINDS[i % len(KINDS)]
        body = {
            "game": game,
            "players": n,
            "options": options,
            "bots": [1] * (n - 1),
            "stake": stake,
        }
        table = (await p.post("/api/tables", body))["table"]
        if table["status"] == "playing":
            await p.post(f"/api/tables/{table['id']}/leave")
        return p, table

    return list(await asyncio.gather(*(one(i, p) for i, p in enumerate(people))))


async def until_finished(p: Player, table: str, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        info = (await p.http.get(f"/api/tables/{table}")).json()["table"]
        if info["status"] == "finished":
            return dict(info)
        assert time.monotonic() < deadline, f"table {table} did not finish"
        await asyncio.sleep(0.2)


async def check_exact(server: ServerProc, games: list[tuple[Player, dict[str, Any]]]) -> None:
    finals = await asyncio.gather(*(until_finished(p, t["id"]) for p, t in games))
    store = store_of(server)
    try:
        tables = [t["id"] for _, t in games]
        users = [p.user["id"] for p, _ in games]
        facts = await ledger_facts(store, tables, users)
    finally:
        await store.close()
    assert facts["problems"] == []
    for (p, table), info in zip(games, finals, strict=True):
        net = net_by_hand(table["game"], table["stake"], info["options"], info["result"])
        assert sum(net) == 0
        assert [s["net"] for s in info["settlement"]] == net
        assert facts["settles"][table["id"]] == 1 and facts["escrows"][table["id"]] == 1
        assert facts["escrow_left"][table["id"]] == 0
        assert facts["wallets"][p.user["id"]] == 1000 + net[0], table["id"]


async def test_many_stake_tables_finishing_at_once(backend: str, tmp_path: Path) -> None:
    server = ServerProc(
        tmp_path / "data", await database_of(backend), start_timeout=SLOW_START
    ).start()
    games: list[tuple[Player, dict[str, Any]]] = []
    try:
        games = await start_games(server)
        await check_exact(server, games)
    finally:
        for p, _ in games:
            await p.close()
        server.stop()


async def test_kill_9_at_a_random_moment_among_them(backend: str, tmp_path: Path) -> None:
    server = ServerProc(
        tmp_path / "data", await database_of(backend), start_timeout=SLOW_START
    ).start()
    games: list[tuple[Player, dict[str, Any]]] = []
    try:
        games = await start_games(server)
        await asyncio.sleep(random.uniform(0.2, 1.5))
        server.kill()
        server.start()
        for p, _ in games:
            cookies = p.http.cookies
            await p.http.aclose()
            p.http = http_client(server.base, cookies)
        await check_exact(server, games)
    finally:
        for p, _ in games:
            await p.close()
        server.stop()
