"""The moves' log on SQLite: appended a batch at a time through the log writer's own
connection and thread, committed (and so durable) before ``append_action`` returns."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Duplicate, Seat, Store, TableRow

pytestmark = pytest.mark.asyncio


async def _store_with_table(data: Path) -> Store:
    store = Store(sqlite_url(data))
    await store.migrate()
    user = await store.create_user("ann", None, True)
    row = TableRow(
        id="t1",
        game="imperial",
        players=2,
        options={},
        seed=1,
        seats=[Seat(), Seat()],
        creator_id=user.id,
    )
    await store.insert_table(row)
    return store


async def test_moves_are_committed_by_the_log_thread_before_the_call_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await _store_with_table(tmp_path)
    threads: list[str] = []
    original = store._append_sync

    def spy(rows: list[dict[str, Any]]) -> None:
        threads.append(threading.current_thread().name)
        original(rows)

    monkeypatch.setattr(store, "_append_sync", spy)
    try:
        await store.append_action("t1", 1, 0, "user:1", "H7", "a")
        # another connection (another process would do the same) sees it at once
        other = Store(sqlite_url(tmp_path))
        try:
            assert [a.text for a in await other.actions("t1")] == ["H7"]
        finally:
            await other.close()
        # three moves of one table arriving together: one batch, one hop
        await asyncio.gather(
            *(store.append_action("t1", seq, seq % 2, "bot", f"m{seq}", None) for seq in (2, 3, 4))
        )
        assert [a.seq for a in await store.actions("t1")] == [1, 2, 3, 4]
        assert threads[0].startswith("kozyr-log-writer")
        assert len(threads) == 2  # the first move alone, then the three together
    finally:
        await store.close()


async def test_a_used_action_id_fails_alone_and_its_batch_is_kept(tmp_path: Path) -> None:
    store = await _store_with_table(tmp_path)
    try:
        await store.append_action("t1", 1, 0, "user:1", "H7", "same")
        results = await asyncio.gather(
            store.append_action("t1", 2, 0, "user:1", "H8", "same"),
            store.append_action("t1", 3, 1, "bot", "H9", None),
            return_exceptions=True,
        )
        assert isinstance(results[0], Duplicate)
        assert results[1] is None
        assert [(a.seq, a.text) for a in await store.actions("t1")] == [(1, "H7"), (3, "H9")]
    finally:
        await store.close()
