"""Helpers for the betting tests: wallets set straight on the server's ledger (over the
welcome grants), balances, and bets over HTTP."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from tests.server.support import Player, ServerProc

from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account
from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store

_keys = itertools.count(1)

START_WAIT = 300
"""Seconds a server may take to start: on a machine shared by many test runs, importing
and migrating alone can take over a minute (ServerProc.start waits 60)."""


def patient_start(proc: ServerProc) -> ServerProc:
    """``proc.start()``, waiting longer for a slow start of the same process."""
    try:
        return proc.start()
    except RuntimeError as e:
        if "did not start" not in str(e):
            raise
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if not proc.alive():
            raise RuntimeError(f"server exited: {proc.log.read_text()[-3000:]}")
        try:
            if httpx.get(proc.base + "/healthz", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server did not start")


def module_server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """The body of a module's ``server`` fixture (conftest's, with a patient start)."""
    from tests.server.conftest import database_for

    data: Path = tmp_path_factory.mktemp(f"kozyr-bets-{backend}")
    proc = patient_start(ServerProc(data, database_for(backend)))
    yield proc
    proc.stop()


@asynccontextmanager
async def ledger_of(server: ServerProc) -> AsyncIterator[Store]:
    """A store on the server's own database (the server keeps running)."""
    url = normalise_database_url(server.database_url) if server.database_url else None
    store = Store(url or sqlite_url(server.data))
    try:
        yield store
    finally:
        await store.close()


async def grant(store: Store, user_id: int, chips: int) -> None:
    """Sets the person's wallet to exactly ``chips`` (his welcome grant included), so that
    the tests' hand-worked balances start from a known figure; once per person."""
    async with store._write() as conn:
        delta = chips - await ledger.balance(conn, Account.wallet(user_id))
        if delta:
            await ledger.post(
                conn,
                f"test-grant:{user_id}",
                "grant",
                [(Account.house(), -delta), (Account.wallet(user_id), delta)],
                {"test": True},
            )


async def balance(store: Store, acct: Account) -> int:
    async with store.engine.connect() as conn:
        return await ledger.balance(conn, acct)


async def wallet(store: Store, player: Player) -> int:
    return await balance(store, Account.wallet(player.user["id"]))


async def problems(store: Store) -> list[str]:
    async with store.engine.connect() as conn:
        return await ledger.check(conn)


async def settlements(store: Store, table: str) -> dict[str, int]:
    """How many settlement transactions each market of ``table`` has."""
    tx = m.ledger_transactions
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(tx.c.key, func.count())
                .where(tx.c.key.like(f"bets:{table}:%"))
                .group_by(tx.c.key)
            )
        ).all()
    return {key.split(":", 2)[2]: int(n) for key, n in rows}


async def escrows(store: Store, table: str) -> int:
    """All chips held in ``table``'s market escrows."""
    a = m.ledger_accounts
    async with store.engine.connect() as conn:
        total = await conn.scalar(
            select(func.coalesce(func.sum(a.c.balance), 0)).where(
                a.c.key.like(f"table:{table}:market:%")
            )
        )
    return int(total or 0)


async def bet(
    who: Player | httpx.AsyncClient,
    table: str,
    market: str,
    outcome: str,
    chips: Any,
    key: str | None = None,
) -> httpx.Response:
    """A bet over HTTP. A connection the server closed under the request (an idle
    keep-alive timing out just then, on a loaded machine) is retried with the same key,
    as a client should: the server answers the bet already taken, if it was."""
    http = who.http if isinstance(who, Player) else who
    body = {"market": market, "outcome": outcome, "chips": chips, "key": key or f"k{next(_keys)}"}
    for _ in range(3):
        try:
            return await http.post(f"/api/tables/{table}/bets", json=body)
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.ConnectError):
            await asyncio.sleep(0.1)
    return await http.post(f"/api/tables/{table}/bets", json=body)


async def markets(who: Player, table: str) -> dict[str, dict[str, Any]]:
    r = await who.http.get(f"/api/tables/{table}/markets")
    assert r.status_code == 200, r.text
    return {mk["id"]: mk for mk in r.json()["markets"]}
