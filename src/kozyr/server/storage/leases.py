"""Who owns a live table when several server processes share one database.

A table's game is run by one process at a time, its *owner*, under a lease that the owner
renews and that anyone may take once it has expired. Every change of owner increases the
table's *fencing token*. The owner writes each action with :func:`check` inside the
action's own transaction: if the token has moved on (a process paused past its lease, then
woke up), the check raises :class:`Fenced` and the whole transaction, action included, is
rolled back. So two processes can never both extend one game's log, whatever the clocks
and pauses (Kleppmann's fencing tokens; the token is the database's, not a clock's).

On PostgreSQL the check is an UPDATE of the lease row, which holds the row's lock until the
action commits: a process taking the lease over waits for that commit, then reads a log
that already holds the action. On SQLite one writer at a time gives the same order.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.storage import models as m

__all__ = ["Fenced", "Lease", "acquire", "check", "holder", "release"]


class Fenced(RuntimeError):
    """This process no longer owns the table: its write is refused."""

    def __init__(self, table_id: str, token: int) -> None:
        super().__init__(f"table {table_id}: lease token {token} is no longer current")
        self.table_id = table_id
        self.token = token


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    owner: str
    token: int
    expires_ms: int


async def holder(conn: AsyncConnection, table_id: str) -> Lease | None:
    row = (
        await conn.execute(select(m.table_leases).where(m.table_leases.c.table_id == table_id))
    ).first()
    if row is None:
        return None
    return Lease(row.table_id, row.owner, int(row.token), int(row.expires_ms))


async def acquire(
    conn: AsyncConnection, table_id: str, owner: str, ttl_ms: int, now_ms: int
) -> Lease | None:
    """Takes or renews the lease on ``table_id`` for ``owner``; None while another owner's
    lease is still running. Taking it from someone else (or for the first time) gives a new
    token; renewing one's own keeps it. Run in its own transaction and commit it."""
    t = m.table_leases.c
    expires = now_ms + ttl_ms
    mine = await conn.execute(
        update(m.table_leases)
        .where(t.table_id == table_id, t.owner == owner)
        .values(expires_ms=expires)
    )
    if mine.rowcount == 1:
        lease = await holder(conn, table_id)
        assert lease is not None
        return lease
    taken = await conn.execute(
        update(m.table_leases)
        .where(t.table_id == table_id, t.expires_ms <= now_ms)
        .values(owner=owner, token=t.token + 1, expires_ms=expires)
    )
    if taken.rowcount == 1:
        lease = await holder(conn, table_id)
        assert lease is not None
        return lease
    if await holder(conn, table_id) is not None:
        return None  # someone else's, still running
    try:
        async with conn.begin_nested():
            await conn.execute(
                insert(m.table_leases).values(
                    table_id=table_id, owner=owner, token=1, expires_ms=expires
                )
            )
    except IntegrityError:
        return None  # another process created it first
    return Lease(table_id, owner, 1, expires)


async def check(conn: AsyncConnection, lease: Lease) -> None:
    """Raises :class:`Fenced` unless ``lease`` is still the table's current one. Call it in
    the transaction that writes for the table (it locks the lease row until commit)."""
    t = m.table_leases.c
    result = await conn.execute(
        update(m.table_leases)
        .where(t.table_id == lease.table_id, t.owner == lease.owner, t.token == lease.token)
        .values(owner=lease.owner)
    )
    if result.rowcount != 1:
        raise Fenced(lease.table_id, lease.token)


async def release(conn: AsyncConnection, lease: Lease, now_ms: int) -> None:
    """Lets the lease lapse at once (a process shutting down cleanly), so another process
    may take the table without waiting for it to expire."""
    t = m.table_leases.c
    await conn.execute(
        update(m.table_leases)
        .where(t.table_id == lease.table_id, t.owner == lease.owner, t.token == lease.token)
        .values(expires_ms=now_ms)
    )
