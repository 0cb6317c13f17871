"""Challenges of one named person to another, as rows of ``challenges``.

A challenge is ``open`` until its person accepts or declines it, its sender cancels it,
or it expires (``KOZYR_CHALLENGE_TTL``, five minutes). Expiry is checked when a challenge
is read or answered: a row past its time is marked ``expired`` then, so nothing has to
sweep. Each state change is one conditional update (``WHERE state = 'open'``), so two
answers at once cannot both win. Each person has at most :data:`MAX_OPEN` open
challenges of his own.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Row, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.transport.protocol import ProtocolError

MAX_OPEN = 10
"""Open challenges one person may have sent (the next: 409 ``too_many_challenges``)."""

State = Literal["open", "accepted", "declined", "expired", "cancelled"]
Answer = Literal["accepted", "declined", "cancelled"]


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    from_id: int
    from_name: str
    to_id: int
    to_name: str
    game: str
    options: dict[str, Any]
    stake: dict[str, Any] | None
    bots: list[int] | None
    """Levels of the bots in the seats after the two people's; None: those seats stay open."""
    private: bool
    created_ms: int
    expires_ms: int
    state: State
    table_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.from_name,
            "to": self.to_name,
            "game": self.game,
            "options": self.options,
            "stake": self.stake,
            "bots": self.bots,
            "private": self.private,
            "created_ms": self.created_ms,
            "expires_ms": self.expires_ms,
            "state": self.state,
            "table": self.table_id,
        }


def _query() -> Any:
    c = m.challenges.c
    sender = m.users.alias("sender")
    target = m.users.alias("target")
    return (
        select(m.challenges, sender.c.name.label("from_name"), target.c.name.label("to_name"))
        .join(sender, sender.c.id == c.from_id)
        .join(target, target.c.id == c.to_id)
    )


def _of(row: Row[Any]) -> Challenge:
    return Challenge(
        id=row.id,
        from_id=int(row.from_id),
        from_name=str(row.from_name),
        to_id=int(row.to_id),
        to_name=str(row.to_name),
        game=row.game,
        options=json.loads(row.options),
        stake=json.loads(row.stake) if row.stake is not None else None,
        bots=json.loads(row.bots),
        private=bool(row.private),
        created_ms=int(row.created_ms),
        expires_ms=int(row.expires_ms),
        state=row.state,
        table_id=row.table_id,
    )


async def _expire(conn: AsyncConnection, user_id: int, now: int) -> None:
    """Marks ``expired`` every open challenge of ``user_id`` (sent or received) past its time."""
    c = m.challenges.c
    await conn.execute(
        update(m.challenges)
        .where(
            c.state == "open",
            c.expires_ms <= now,
            or_(c.from_id == user_id, c.to_id == user_id),
        )
        .values(state="expired")
    )


async def insert(
    store: Store,
    sender: User,
    target: User,
    game: str,
    options: dict[str, Any],
    stake: dict[str, Any] | None,
    bots: list[int] | None,
    private: bool,
    ttl: float,
) -> Challenge:
    """A new open challenge; 409 ``too_many_challenges`` when ``sender`` has
    :data:`MAX_OPEN` open ones already (nothing is stored then)."""
    now = now_ms()
    c = m.challenges.c
    challenge_id = secrets.token_hex(6)
    async with store.transaction() as conn:
        if not store.is_sqlite:
            # one new challenge per sender at a time, so that two cannot both be the 10th
            await conn.execute(
                select(m.users.c.id).where(m.users.c.id == sender.id).with_for_update()
            )
        await _expire(conn, sender.id, now)
        count = await conn.scalar(
            select(func.count()).where(c.from_id == sender.id, c.state == "open")
        )
        if int(count or 0) >= MAX_OPEN:
            raise ProtocolError("too_many_challenges", status=409)
        await conn.execute(
            m.challenges.insert().values(
                id=challenge_id,
                from_id=sender.id,
                to_id=target.id,
                game=game,
                options=json.dumps(options, sort_keys=True),
                stake=json.dumps(stake, sort_keys=True) if stake is not None else None,
                bots=json.dumps(bots),
                private=private,
                created_ms=now,
                expires_ms=now + int(ttl * 1000),
                state="open",
                table_id=None,
            )
        )
        row = (await conn.execute(_query().where(c.id == challenge_id))).one()
    return _of(row)


async def open_of(store: Store, user: User) -> list[Challenge]:
    """``user``'s open challenges, sent and received, oldest first."""
    now = now_ms()
    c = m.challenges.c
    async with store.transaction() as conn:
        await _expire(conn, user.id, now)
        rows = await conn.execute(
            _query()
            .where(c.state == "open", or_(c.from_id == user.id, c.to_id == user.id))
            .order_by(c.created_ms, c.id)
        )
        return [_of(r) for r in rows]


async def get(store: Store, challenge_id: str, user: User) -> Challenge:
    """A challenge ``user`` sent or received (404 ``no_challenge`` for anyone else)."""
    if not 0 < len(challenge_id) <= 16:
        raise ProtocolError("no_challenge", status=404)
    c = m.challenges.c
    async with store.transaction() as conn:
        await _expire(conn, user.id, now_ms())
        row = (await conn.execute(_query().where(c.id == challenge_id))).first()
    if row is None or user.id not in (row.from_id, row.to_id):
        raise ProtocolError("no_challenge", status=404)
    return _of(row)


async def answer(store: Store, challenge_id: str, user: User, to: Answer) -> Challenge:
    """The open challenge accepted or declined by its person, or cancelled by its sender.
    404 ``no_challenge``: not his to answer; 409 ``challenge_gone``: answered, cancelled
    or expired already (nothing changes)."""
    found = await get(store, challenge_id, user)
    answering = found.from_id if to == "cancelled" else found.to_id
    if answering != user.id:
        raise ProtocolError("no_challenge", status=404)
    c = m.challenges.c
    async with store.transaction() as conn:
        done = await conn.execute(
            update(m.challenges)
            .where(c.id == found.id, c.state == "open", c.expires_ms > now_ms())
            .values(state=to)
        )
        if done.rowcount != 1:
            raise ProtocolError("challenge_gone", status=409)
        row = (await conn.execute(_query().where(c.id == found.id))).one()
    return _of(row)


async def set_table(store: Store, challenge_id: str, table_id: str) -> None:
    """The table an accepted challenge opened."""
    async with store.transaction() as conn:
        await conn.execute(
            update(m.challenges).where(m.challenges.c.id == challenge_id).values(table_id=table_id)
        )


async def reopen(store: Store, challenge_id: str) -> None:
    """An accepted challenge whose table could not be opened is open again (until its time)."""
    c = m.challenges.c
    async with store.transaction() as conn:
        await conn.execute(
            update(m.challenges)
            .where(c.id == challenge_id, c.state == "accepted", c.table_id.is_(None))
            .values(state="open")
        )
