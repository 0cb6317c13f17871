"""The store's table hooks run inside the transaction that changes a table's status: a
hook that fails takes the start or the last action down with it, and one that succeeds
commits with it (what stakes settlement and rating updates stand on)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.money import ledger
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Seat, Store, TableRow


def table() -> TableRow:
    return TableRow(
        id="t1",
        game="imperial",
        players=2,
        options={"players": 2},
        seed=7,
        seats=[Seat(user_id=None, name=None, bot=1), Seat(user_id=None, name=None, bot=1)],
    )


async def with_store(body: object) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        await store.migrate()
        try:
            await body(store)  # type: ignore[operator]
        finally:
            await store.close()


async def mark(conn: AsyncConnection, row: TableRow) -> None:
    # any write the hook makes must share the fate of the status change
    house, escrow = ledger.Account.house(), ledger.Account.escrow(row.id)
    await ledger.post(conn, f"hook-{row.id}-{row.status}", "test", [(house, -1), (escrow, 1)], {})


async def marks(store: Store) -> int:
    async with store.engine.connect() as conn:
        return await ledger.balance(conn, ledger.Account.escrow("t1"))


def test_a_finish_hook_commits_with_the_last_action_or_not_at_all() -> None:
    async def body(store: Store) -> None:
        row = table()
        await store.insert_table(row)
        row.status = "playing"
        await store.save_table(row, started=True)
        finished = TableRow(**{**row.__dict__, "status": "finished", "result": {"x": 1}})

        async def refuse(conn: AsyncConnection, r: TableRow) -> None:
            await mark(conn, r)
            raise RuntimeError("settlement refused")

        store.on_finish.append(refuse)
        with pytest.raises(RuntimeError):
            await store.append_action("t1", 1, 0, "bot", "AS", None, finished)
        assert await store.action_count("t1") == 0
        saved = await store.table("t1")
        assert saved is not None and saved.status == "playing"
        assert await marks(store) == 0

        store.on_finish[:] = [mark]
        await store.append_action("t1", 1, 0, "bot", "AS", None, finished)
        assert await store.action_count("t1") == 1
        saved = await store.table("t1")
        assert saved is not None and saved.status == "finished"
        assert await marks(store) == 1

    asyncio.run(with_store(body))


def test_start_hooks_run_only_when_the_save_is_the_start() -> None:
    async def body(store: Store) -> None:
        row = table()
        store.on_start.append(mark)
        await store.insert_table(row)
        await store.save_table(row)  # a seat change: no hook
        assert await marks(store) == 0
        row.status = "playing"
        await store.save_table(row, started=True)
        assert await marks(store) == 1

    asyncio.run(with_store(body))
