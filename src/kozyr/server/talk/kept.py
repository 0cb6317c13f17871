"""Talk kept with its table (``table_talk``) and the reports of a line (``talk_reports``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, now_ms
from kozyr.server.talk.said import PLAYERS, SPECTATORS, Channel, Said
from kozyr.server.transport.protocol import ProtocolError

HISTORY = 100
"""The most lines a ``hello`` gives back (the last ones)."""
CONTEXT = 10
"""Lines before the reported one on its channel kept with a report."""


async def keep(
    store: Store,
    table_id: str,
    seq_at: int,
    user_id: int,
    name: str,
    channel: Channel,
    text: str | None,
    phrase: str | None,
) -> Said:
    at = now_ms()
    row = {
        "table_id": table_id,
        "seq_at": seq_at,
        "user_id": user_id,
        "channel": channel,
        "text": text,
        "phrase": phrase,
        "at_ms": at,
    }
    async with store.transaction() as conn:
        result = await conn.execute(insert(m.table_talk).values(**row))
        line_id = result.inserted_primary_key
        assert line_id is not None
    return Said(table_id, channel, int(line_id[0]), user_id, name, at, text, phrase)


def _lines(table_id: str) -> Any:
    t, u = m.table_talk, m.users
    return (
        select(t, u.c.name)
        .join(u, u.c.id == t.c.user_id)
        .where(t.c.table_id == table_id)
        .order_by(t.c.id.desc())
    )


def _said(row: Any) -> Said:
    channel: Channel = PLAYERS if row.channel == PLAYERS else SPECTATORS
    return Said(
        row.table_id, channel, row.id, row.user_id, row.name, row.at_ms, row.text, row.phrase
    )


async def lines(
    store: Store, table_id: str, players_only: bool, limit: int = HISTORY
) -> list[Said]:
    """The table's last ``limit`` lines, oldest first (``players_only``: the players'
    channel alone, for a player while the game is on)."""
    query = _lines(table_id)
    if players_only:
        query = query.where(m.table_talk.c.channel == PLAYERS)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query.limit(limit))).all()
    return [_said(r) for r in reversed(rows)]


async def spectators_lines(store: Store, table_id: str, limit: int = HISTORY) -> list[Said]:
    """The spectators' channel, for the players once the game is over."""
    query = _lines(table_id).where(m.table_talk.c.channel == SPECTATORS)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query.limit(limit))).all()
    return [_said(r) for r in reversed(rows)]


async def report(store: Store, line_id: int, reporter_id: int, reason: str | None) -> int:
    """Stores a person's report of line ``line_id`` with the line and the :data:`CONTEXT`
    lines before it on its channel; returns the report's id. ``no_message`` (404) for no
    such line, ``already_reported`` (409) for a second report by the same person."""
    t = m.table_talk
    async with store.engine.connect() as conn:
        line = (await conn.execute(_lines_by_id().where(t.c.id == line_id))).first()
        if line is None:
            raise ProtocolError("no_message", status=404)
        before = (
            await conn.execute(
                _lines(line.table_id)
                .where(t.c.channel == line.channel, t.c.id < line_id)
                .limit(CONTEXT)
            )
        ).all()
    context = {
        "table": line.table_id,
        "seq_at": line.seq_at,
        "line": _said(line).line(),
        "before": [_said(r).line() for r in reversed(before)],
    }
    try:
        async with store.transaction() as conn:
            result = await conn.execute(
                insert(m.talk_reports).values(
                    message_id=line_id,
                    reporter_id=reporter_id,
                    reason=reason,
                    context=json.dumps(context, ensure_ascii=False),
                    at_ms=now_ms(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])
    except IntegrityError as e:
        raise ProtocolError("already_reported", status=409) from e


def _lines_by_id() -> Any:
    t, u = m.table_talk, m.users
    return select(t, u.c.name).join(u, u.c.id == t.c.user_id)


@dataclass(frozen=True)
class Report:
    id: int
    message_id: int
    reporter: str
    reason: str | None
    context: dict[str, Any]
    at_ms: int


async def reports(store: Store, limit: int) -> list[Report]:
    """The last ``limit`` reports, newest first (``kozyr talk reports``)."""
    r, u = m.talk_reports, m.users
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(r, u.c.name)
                .join(u, u.c.id == r.c.reporter_id)
                .order_by(r.c.id.desc())
                .limit(limit)
            )
        ).all()
    return [
        Report(row.id, row.message_id, row.name, row.reason, json.loads(row.context), row.at_ms)
        for row in rows
    ]
