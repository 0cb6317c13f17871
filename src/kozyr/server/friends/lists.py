"""Who follows whom and who blocked whom: two lists per account, kept in the database.

Guests keep neither (403 ``not_for_guests``). Each list is bounded (:data:`MAX_FOLLOWS`,
:data:`MAX_BLOCKS`): the one past the bound is refused (409 ``too_many_follows`` or
``too_many_blocks``) and nothing changes. A follow or a block names one person per
request, so "ten thousand names" is ten thousand requests, and the bound stops them.

A block is one-way and silent: the blocked person is never told. What a block stops is
asked through :func:`blocks`, :func:`blocked_between` and :func:`blockers_among`, which
the tables (sitting down), the challenges, the rematch and the table talk call.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from sqlalchemy import Table, delete, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.accounts import names
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.transport.protocol import ProtocolError

MAX_FOLLOWS = 500
"""The most people one account may follow."""
MAX_BLOCKS = 500
"""The most people one account may block."""

Kind = Literal["follows", "blocks"]

_TABLES: dict[Kind, tuple[Table, str, str, int, str]] = {
    "follows": (m.follows, "follower_id", "followee_id", MAX_FOLLOWS, "too_many_follows"),
    "blocks": (m.blocks, "blocker_id", "blocked_id", MAX_BLOCKS, "too_many_blocks"),
}


def need_account(user: User) -> None:
    """Guests have no lists, nor challenges: 403 ``not_for_guests``."""
    if user.guest:
        raise ProtocolError("not_for_guests", status=403)


async def person_named(store: Store, name: str) -> User:
    """The account called ``name`` (as typed: NFKC, any case), or 404 ``no_user``."""
    typed = names.normalise(name) if 0 < len(name) <= 200 else ""
    other = await store.user_by_name(typed) if typed else None
    if other is None:
        raise ProtocolError("no_user", status=404)
    return other


async def add(store: Store, kind: Kind, user: User, name: str) -> User:
    """``user`` follows (or blocks) the person called ``name``; adding him again changes
    nothing. Refused: a guest, an unknown name, oneself (400 ``self_in_list``), a full list."""
    need_account(user)
    other = await person_named(store, name)
    if other.id == user.id:
        raise ProtocolError("self_in_list", status=400)
    table, mine, theirs, bound, code = _TABLES[kind]
    async with store.transaction() as conn:
        if not store.is_sqlite:
            # one change of this account's lists at a time: two at once cannot both take
            # the last place (SQLite's writes already take turns)
            await conn.execute(
                select(m.users.c.id).where(m.users.c.id == user.id).with_for_update()
            )
        there = await conn.scalar(
            select(func.count()).where(table.c[mine] == user.id, table.c[theirs] == other.id)
        )
        if there:
            return other
        count = await conn.scalar(select(func.count()).where(table.c[mine] == user.id))
        if int(count or 0) >= bound:
            raise ProtocolError(code, status=409)
        maker = sqlite.insert if store.is_sqlite else postgresql.insert
        await conn.execute(
            maker(table)
            .values({mine: user.id, theirs: other.id, "created_ms": now_ms()})
            .on_conflict_do_nothing()
        )
    return other


async def remove(store: Store, kind: Kind, user: User, name: str) -> None:
    """``user`` no longer follows (or blocks) ``name``; nothing if he did not."""
    need_account(user)
    other = await person_named(store, name)
    table, mine, theirs, _bound, _code = _TABLES[kind]
    async with store.transaction() as conn:
        await conn.execute(
            delete(table).where(table.c[mine] == user.id, table.c[theirs] == other.id)
        )


async def listed(store: Store, kind: Kind, user: User) -> list[tuple[int, str]]:
    """(id, name) of everyone on ``user``'s list, by name."""
    need_account(user)
    table, mine, theirs, _bound, _code = _TABLES[kind]
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            select(m.users.c.id, m.users.c.name)
            .join(table, table.c[theirs] == m.users.c.id)
            .where(table.c[mine] == user.id)
            .order_by(m.users.c.name_key)
        )
        return [(int(r.id), str(r.name)) for r in rows]


async def blockers_among(conn: AsyncConnection, blocked_id: int, among: Iterable[int]) -> set[int]:
    """Who of ``among`` has blocked ``blocked_id``."""
    ids = sorted(set(among) - {blocked_id})
    if not ids:
        return set()
    b = m.blocks.c
    rows = await conn.execute(
        select(b.blocker_id).where(b.blocked_id == blocked_id, b.blocker_id.in_(ids))
    )
    return {int(r.blocker_id) for r in rows}


async def deaf_to(store: Store, speaker_id: int, listeners: Iterable[int]) -> set[int]:
    """Who of ``listeners`` has blocked ``speaker_id``: the talk of a blocked person is not
    delivered to his blocker (one query for a whole table)."""
    async with store.engine.connect() as conn:
        return await blockers_among(conn, speaker_id, listeners)


async def blocked_by(store: Store, blocker_id: int) -> set[int]:
    """Everyone ``blocker_id`` has blocked (none for a guest, who has no list)."""
    b = m.blocks.c
    async with store.engine.connect() as conn:
        rows = await conn.execute(select(b.blocked_id).where(b.blocker_id == blocker_id))
        return {int(r.blocked_id) for r in rows}


async def blocks(store: Store, blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` has blocked ``blocked_id`` (one way: the talk of the blocked
    person is not delivered to the blocker)."""
    async with store.engine.connect() as conn:
        return blocker_id in await blockers_among(conn, blocked_id, (blocker_id,))


async def blocked_between(store: Store, a: int, b: int) -> bool:
    """Whether either of ``a`` and ``b`` has blocked the other: what a challenge and a
    rematch ask before they bring the two to one table. Whoever was blocked is refused with
    the code an ordinary refusal has, never told why."""
    if a == b:
        return False
    c = m.blocks.c
    async with store.engine.connect() as conn:
        found = await conn.scalar(
            select(func.count()).where(
                ((c.blocker_id == a) & (c.blocked_id == b))
                | ((c.blocker_id == b) & (c.blocked_id == a))
            )
        )
    return bool(found)


async def seat_refused(store: Store, user_id: int, others: Iterable[int]) -> bool:
    """Whether someone of ``others`` (a table's creator and its people) has blocked
    ``user_id``, who would sit down with them."""
    async with store.engine.connect() as conn:
        return bool(await blockers_among(conn, user_id, others))


async def person(store: Store, user_id: int) -> User:
    """The account ``user_id`` (404 ``no_user`` once it is gone)."""
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(m.users).where(m.users.c.id == user_id))).first()
    if row is None or row.deleted_ms is not None:
        raise ProtocolError("no_user", status=404)
    return User(row.id, row.name, row.guest, row.password_hash)
