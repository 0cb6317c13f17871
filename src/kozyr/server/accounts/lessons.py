"""The lessons a registered player has finished (#29): one ``lesson_progress`` row per
lesson whose check he passed, written once however often he passes it again. Guests keep
theirs in the browser: nothing of theirs is stored here."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms

__all__ = ["done_lessons", "keeps_progress", "record_done"]


def keeps_progress(user: User | None) -> bool:
    """Whether the server keeps this person's lessons: a registered account's, not a
    guest's (nor nobody's)."""
    return user is not None and not user.guest


async def record_done(store: Store, user: User, game: str, lesson: str) -> None:
    """Marks ``lesson`` of ``game`` finished for ``user`` (idempotent: the first time
    stays); nothing for a guest."""
    if not keeps_progress(user):
        return
    maker = sqlite.insert if store.is_sqlite else postgresql.insert
    async with store.transaction() as conn:
        await conn.execute(
            maker(m.lesson_progress)
            .values(user_id=user.id, game=game, lesson=lesson, done_ms=now_ms())
            .on_conflict_do_nothing()
        )


async def done_lessons(store: Store, user: User, game: str) -> list[str]:
    """The ids of the lessons of ``game`` that ``user`` has finished, first finished first."""
    table = m.lesson_progress
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            select(table.c.lesson)
            .where(table.c.user_id == user.id, table.c.game == game)
            .order_by(table.c.done_ms, table.c.lesson)
        )
        return [row.lesson for row in rows]
