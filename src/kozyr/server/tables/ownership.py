"""Which process runs each live table (cluster mode): leases taken, renewed, lost and
taken over.

The process that creates a table takes its lease in the table's own insert transaction.
One task renews every lease this process holds, in one transaction, every third of the
lease's life; a lease found taken by another process (this one was paused, or cut off
from the database) drops the table from memory, and so does a write refused by its fence
(``Store.fences``). Another task sweeps every second for live tables whose lease has
expired (their owner died) and takes them over: a new token, then the table restored
from its committed log, exactly as at start, then a notice on the bus so that the
processes relaying its watchers resynchronise them with the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.runtime.config import Settings
from kozyr.server.storage import leases
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, TableRow, now_ms
from kozyr.server.tables.table import Table
from kozyr.server.transport.close_codes import SERVICE_RESTART
from kozyr.server.transport.protocol import ProtocolError
from kozyr.server.transport.relay import RemoteClient

log = logging.getLogger("kozyr.server.tables.ownership")

LIVE = ("open", "playing")


class Lobby(Protocol):
    """What the leases act upon: this process's live tables (:class:`kozyr.server.tables.lobby.
    Lobby`, which is given its :class:`Ownership` at construction in cluster mode)."""

    @property
    def tables(self) -> dict[str, Table]: ...

    async def restore_row(self, row: TableRow) -> Table | None:
        """Rebuilds a live table from its committed log (None: it could not be)."""
        ...

    def adopted(self, table: Table) -> None:
        """A table taken over has joined this process's lobby."""
        ...


class Ownership:
    def __init__(
        self,
        settings: Settings,
        store: Store,
        lobby: Lobby,
        announce: Callable[[str], None],
        dropped: Callable[[str], None],
    ) -> None:
        self.me = settings.node_id
        self.ttl = settings.lease_ttl_ms
        self.sweep_seconds = settings.sweep_seconds
        self.store = store
        self.lobby = lobby
        self.announce = announce
        """Tells every process that this one now owns the table."""
        self.dropped = dropped
        """Called with a table's id once it has left this process (lease lost)."""
        self._taking: dict[str, asyncio.Task[Table | None]] = {}
        self._dropping: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        store.on_insert.append(self._claim)
        store.on_fenced = self._fenced

    # -- life cycle -------------------------------------------------------------------

    def start(self) -> None:
        self._loops = [
            asyncio.create_task(self._every(self.ttl / 3000, self.renew)),
            asyncio.create_task(self._every(self.sweep_seconds, self.sweep)),
        ]

    async def stop(self) -> None:
        """Stops renewing and lets this process's leases lapse at once, so that another
        process takes the tables over without waiting for them to expire."""
        for task in [*self._loops, *self._taking.values(), *self._dropping]:
            task.cancel()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        ids = list(self.store.fences)
        self.store.fences.clear()
        if ids:
            with contextlib.suppress(Exception):
                async with self.store.transaction() as conn:
                    t = m.table_leases.c
                    await conn.execute(
                        update(m.table_leases)
                        .where(t.owner == self.me, t.table_id.in_(ids))
                        .values(expires_ms=now_ms())
                    )

    async def _every(self, seconds: float, job: Callable[[], object]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                result = job()
                if asyncio.iscoroutine(result):
                    await result
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease job failed")

    # -- holding ----------------------------------------------------------------------

    async def _claim(self, conn: AsyncConnection, row: TableRow) -> None:
        """A new table's lease, in the transaction that inserts it (no other process
        can see the table before it has an owner)."""
        lease = await leases.acquire(conn, row.id, self.me, self.ttl, now_ms())
        if lease is None:
            raise RuntimeError(f"table {row.id} already has an owner")
        self.store.fences[row.id] = lease

    async def renew(self) -> None:
        """Extends every lease this process holds; drops the tables whose lease another
        process has taken meanwhile."""
        ids = list(self.store.fences)
        if not ids:
            return
        t = m.table_leases.c
        async with self.store.transaction() as conn:
            await conn.execute(
                update(m.table_leases)
                .where(t.owner == self.me, t.table_id.in_(ids))
                .values(expires_ms=now_ms() + self.ttl)
            )
            rows = (
                await conn.execute(select(t.table_id, t.owner, t.token).where(t.table_id.in_(ids)))
            ).all()
        held = {r.table_id: (r.owner, int(r.token)) for r in rows}
        for table_id in ids:
            fence = self.store.fences.get(table_id)
            if fence is not None and held.get(table_id) != (self.me, fence.token):
                self._fenced(table_id)

    async def release(self, table_id: str) -> None:
        """The table left memory for good (finished): its lease lapses now."""
        self.dropped(table_id)
        fence = self.store.fences.pop(table_id, None)
        if fence is None:
            return
        async with self.store.transaction() as conn:
            await leases.release(conn, fence, now_ms())

    # -- losing -----------------------------------------------------------------------

    def _fenced(self, table_id: str) -> None:
        if table_id not in self.store.fences and table_id not in self.lobby.tables:
            return
        self.store.fences.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self.drop(table_id))
        self._dropping.add(task)
        task.add_done_callback(self._dropping.discard)

    async def drop(self, table_id: str) -> None:
        """Another process owns the table now: it leaves this one. Local watchers are
        told (``moved``) and closed (1012), so that they reconnect and resynchronise by
        ``seq`` wherever they land; relayed ones follow the new owner's notice."""
        self.store.fences.pop(table_id, None)
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        log.warning("table %s: its lease was taken by another process; dropped here", table_id)
        async with table.lock:
            if self.lobby.tables.get(table_id) is table:
                del self.lobby.tables[table_id]
        await table.close()
        for client in list(table.watchers):
            if isinstance(client, RemoteClient):
                client.closed = True
                continue
            client.send(ProtocolError("moved").frame(table=table_id))
            if client.on_end is not None:
                client.on_end(SERVICE_RESTART, "table moved")
        table.forget()
        self.dropped(table_id)

    # -- taking -----------------------------------------------------------------------

    async def take_over(self, table_id: str) -> Table | None:
        """Takes the table if its lease is free (expired or never taken) and restores it
        from its log; None if another process holds it or it is not live."""
        live = self.lobby.tables.get(table_id)
        if live is not None:
            return live
        task = self._taking.get(table_id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._take_over(table_id))
            self._taking[table_id] = task
            task.add_done_callback(lambda _t: self._taking.pop(table_id, None))
        return await asyncio.shield(task)

    async def _take_over(self, table_id: str) -> Table | None:
        row = await self.store.table(table_id)
        if row is None or row.status not in LIVE:
            return None
        async with self.store.transaction() as conn:
            lease = await leases.acquire(conn, table_id, self.me, self.ttl, now_ms())
        if lease is None:
            return None
        self.store.fences[table_id] = lease
        # Read again under the lease: the old owner's last commit is in the log now.
        row = await self.store.table(table_id)
        table = None
        if row is not None and row.status in LIVE:
            table = await self.lobby.restore_row(row)
        if table is None:
            self.store.fences.pop(table_id, None)
            return None
        log.info("table %s taken over (token %d)", table_id, lease.token)
        self.announce(table_id)
        self.lobby.adopted(table)
        return table

    async def sweep(self) -> None:
        """Takes over the live tables whose owner's lease has expired."""
        g, t = m.game_tables.c, m.table_leases.c
        async with self.store.engine.connect() as conn:
            ids = (
                (
                    await conn.execute(
                        select(g.id)
                        .select_from(m.game_tables.outerjoin(m.table_leases, t.table_id == g.id))
                        .where(g.status.in_(LIVE))
                        .where(or_(t.table_id.is_(None), t.expires_ms <= now_ms()))
                    )
                )
                .scalars()
                .all()
            )
        for table_id in ids:
            if table_id not in self.lobby.tables:
                await self.take_over(table_id)

    # -- finding ----------------------------------------------------------------------

    async def holder(self, table_id: str) -> leases.Lease | None:
        async with self.store.engine.connect() as conn:
            return await leases.holder(conn, table_id)

    async def route(self, table_id: str) -> Table | str:
        """The live table here, or the id of the process that owns it (taking it over
        if its lease has expired). 404 ``no_table`` for a table that is not live."""
        live = self.lobby.tables.get(table_id)
        if live is not None:
            return live
        if len(table_id) > 16:
            raise ProtocolError("no_table", status=404)
        lease = await self.holder(table_id)
        if lease is None or lease.owner == self.me or lease.expires_ms <= now_ms():
            table = await self.take_over(table_id)
            if table is not None:
                return table
            lease = await self.holder(table_id)
            if lease is None or lease.owner == self.me or lease.expires_ms <= now_ms():
                raise ProtocolError("no_table", status=404)
        return lease.owner

    async def after_silence(self, table_id: str, owner: str) -> None:
        """``owner`` did not answer in time: waits until its lease has either moved to
        another process or expired (then takes the table over here), at most a lease's
        life and two sweeps."""
        deadline = time.monotonic() + self.ttl / 1000 + 2 * self.sweep_seconds
        while time.monotonic() < deadline:
            if table_id in self.lobby.tables:
                return
            lease = await self.holder(table_id)
            if lease is None or lease.owner != owner:
                return
            if lease.expires_ms <= now_ms():
                await self.take_over(table_id)
                return
            await asyncio.sleep(0.2)
