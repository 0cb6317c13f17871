"""Tables of bots alone that nobody watches end.

Such a table plays only while a connection watches it (``Presence.attended``), so left
alone it costs no CPU, but it keeps its place among the tables of bots alone its creator,
his address and the server may have (``too_many_bot_tables``). Once it has gone
``KOZYR_BOT_TABLE_IDLE`` seconds (300 by default) without a watcher, it ends: its row is
``finished`` with no ``result`` (it ended before its game did), the chips of every
market not decided go back to their bettors, the stake escrow (bots' holds, the house's)
goes back to whoever put it up, and its place is free. The row, the refunds and the
escrow's return are one database transaction: a crash leaves the table either playing
(it is restored, unwatched, and ends again later) or ended with everything returned.
Each refund is its market's one settlement (``betting.settlement_key``), so no retry
moves a chip twice.

The lobby's sweep (:meth:`IdleBotTables.run`) looks at this process's tables every
quarter of that time (at most every 30 s): a table counts as watched when a connection
watches it then, or when it has moved since the last look (its bots play only while it
is watched). It ends once it has been seen unwatched and unmoved for the whole time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable

from sqlalchemy import update

from kozyr.server.money.escrow import return_at_end
from kozyr.server.play.presence import bots_alone
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, now_ms
from kozyr.server.tables.table import Table

__all__ = ["IdleBotTables", "end_unwatched"]

log = logging.getLogger("kozyr.server.tables.idle_bots")

MAX_PERIOD = 30.0
"""Seconds between two looks at most, whatever the idle time."""


def _idle(table: Table) -> bool:
    """A table of bots alone, not over, that no connection watches."""
    row = table.row
    return row.status != "finished" and bots_alone(row) and not table.watchers


async def end_unwatched(table: Table, store: Store) -> bool:
    """Ends ``table`` if it is still an unwatched table of bots alone (checked again
    under its lock: a watcher may have come meanwhile); returns whether it did."""
    async with table.lock:
        if not _idle(table):
            return False
        row = table.row
        finished_ms = now_ms()
        t = m.game_tables.c
        async with store.transaction() as conn:
            await store.check_lease(conn, row.id)
            await conn.execute(
                update(m.game_tables)
                .where(t.id == row.id, t.status != "finished")
                .values(status="finished", finished_ms=finished_ms, creator_address=None)
            )
            if row.status == "playing":  # the escrow of a stake is taken at the start
                await return_at_end(conn, row)
            tell = await table.bets.end_early(conn)
        row.status = "finished"
        row.finished_ms = finished_ms
        row.result = None
        table.turns.close()
        table.presence.game_over()
        tell()
        table.send_table()  # the lobby drops it (and says so to its watchers)
    log.info("table %s of bots alone ended: nobody watched it", row.id)
    return True


class IdleBotTables:
    """The sweep of one lobby's tables: which have gone unwatched for ``idle`` seconds."""

    def __init__(
        self,
        tables: Callable[[], Iterable[Table]],
        store: Store,
        idle: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tables = tables
        self.store = store
        self.idle = idle
        self.clock = clock
        self.period = min(MAX_PERIOD, idle / 4)
        self._since: dict[str, tuple[float, int]] = {}
        """Table id -> (when it was first seen unwatched, its seq then)."""
        self._task: asyncio.Task[None] | None = None

    def due(self, now: float) -> list[Table]:
        """The tables unwatched and unmoved for ``idle`` seconds by ``now``; starts the
        time of those newly seen unwatched, and forgets those watched since."""
        seen: dict[str, tuple[float, int]] = {}
        out = []
        for table in list(self.tables()):
            if not _idle(table):
                continue
            since, seq = self._since.get(table.id, (now, table.seq))
            if seq != table.seq:  # it moved: someone watched it in between
                since, seq = now, table.seq
            seen[table.id] = (since, seq)
            if now - since >= self.idle:
                out.append(table)
        self._since = seen
        return out

    async def sweep(self, now: float | None = None) -> int:
        """Ends the tables :meth:`due` by ``now`` (the clock's time if None); how many.
        One that fails is logged and tried again at the next sweep."""
        ended = 0
        for table in self.due(self.clock() if now is None else now):
            try:
                ended += await end_unwatched(table, self.store)
            except Exception:
                log.exception("table %s of bots alone could not be ended", table.id)
        return ended

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            await self.sweep()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
