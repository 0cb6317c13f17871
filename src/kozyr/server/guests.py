"""The periodic clean-up of guest accounts nobody uses: a guest with no game in
``KOZYR_GUEST_TTL_DAYS`` (30) days is removed. One who never sat at a table goes with his
sessions; one whose old games are stored is retired like a deleted account (his games
stay, showing "deleted"), as those games point to his row."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from sqlalchemy import delete, func, select

from kozyr.server.account_changes import retire
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, now_ms

log = logging.getLogger("kozyr.server.guests")


@dataclass
class Swept:
    removed: int = 0
    retired: int = 0


async def sweep(store: Store, ttl_days: float, now: int | None = None) -> Swept:
    """Removes (or retires) every guest made more than ``ttl_days`` ago with no table of
    his created or finished since then."""
    cutoff = (now_ms() if now is None else now) - int(ttl_days * 86_400_000)
    u, tp, t = m.users, m.table_players, m.game_tables
    when = func.max(func.coalesce(t.c.finished_ms, t.c.created_ms))
    async with store.engine.connect() as conn:
        idle = (
            select(u.c.id)
            .where(u.c.guest.is_(True), u.c.deleted_ms.is_(None), u.c.created_ms < cutoff)
            .scalar_subquery()
        )
        guests = (await conn.execute(select(u.c.id).where(u.c.id.in_(idle)))).scalars().all()
        # his last table: one he sat at, or one he opened
        seated = await conn.execute(
            select(tp.c.user_id, when)
            .join(t, t.c.id == tp.c.table_id)
            .where(tp.c.user_id.in_(idle))
            .group_by(tp.c.user_id)
        )
        opened = await conn.execute(
            select(t.c.creator_id, when).where(t.c.creator_id.in_(idle)).group_by(t.c.creator_id)
        )
        last: dict[int, int] = {}
        for uid, at in [*seated.all(), *opened.all()]:
            last[uid] = max(last.get(uid, at), at)
    done = Swept()
    for uid in guests:
        if last.get(uid, cutoff - 1) >= cutoff:
            continue
        async with store._write() as conn:
            if uid not in last:
                await conn.execute(delete(m.sessions).where(m.sessions.c.user_id == uid))
                await conn.execute(delete(u).where(u.c.id == uid))
                done.removed += 1
            else:
                await retire(conn, uid)
                done.retired += 1
    return done


async def run_periodically(store: Store, ttl_days: float, every: float) -> None:
    """The clean-up job: at start, then every ``every`` seconds, until cancelled."""
    while True:
        try:
            done = await sweep(store, ttl_days)
            if done.removed or done.retired:
                log.info("idle guests: %d removed, %d retired", done.removed, done.retired)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the guest clean-up failed; it runs again later")
        await asyncio.sleep(every)
