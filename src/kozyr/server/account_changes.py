"""Changing an account: rename, new password, delete, a guest becoming an account, and
retiring a guest nobody uses (``kozyr.server.guests``). An account that is gone keeps its row
(renamed "deleted") and gives its chips back to the house.

A name lives on in the tables' stored seats (records, replays and table info show it), so
every change of name rewrites those too: a deleted account shows as "deleted" everywhere,
and a name given up can be taken by someone else without his name appearing in the
previous owner's games.
"""

from __future__ import annotations

import json

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.accounts import auth, names
from kozyr.server.money import wallets
from kozyr.server.profiles import DELETED
from kozyr.server.services import Server
from kozyr.server.storage import models as m
from kozyr.server.storage.store import User, now_ms
from kozyr.server.transport.close_codes import SIGNED_OUT
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both


def _wrong_password() -> ProtocolError:
    english, russian = both("accounts.wrong_password")
    return ProtocolError("bad_password", english, 403, message_ru=russian)


def _no_guests(user: User) -> None:
    if user.guest:
        raise ProtocolError("not_for_guests", status=403)


async def _check_password(server: Server, user: User, password: str) -> None:
    stored = await server.store.user_by_name(user.name)
    if stored is None or stored.id != user.id or stored.password_hash is None:
        raise _wrong_password()
    if not await auth.verify_in_thread(stored.password_hash, password):
        raise _wrong_password()


async def rewrite_seats(conn: AsyncConnection, user_id: int, name: str) -> int:
    """Puts ``name`` in every stored seat the user holds; returns how many tables."""
    rows = (
        await conn.execute(
            select(m.game_tables.c.id, m.game_tables.c.seats)
            .join(m.table_players, m.table_players.c.table_id == m.game_tables.c.id)
            .where(m.table_players.c.user_id == user_id)
        )
    ).all()
    for row in rows:
        seats = json.loads(row.seats)
        for s in seats:
            if s.get("user_id") == user_id:
                s["name"] = name
        await conn.execute(
            update(m.game_tables)
            .where(m.game_tables.c.id == row.id)
            .values(seats=json.dumps(seats))
        )
    return len(rows)


def _rename_live(server: Server, user_id: int, name: str) -> None:
    # Live rows first: a table saving its row meanwhile then writes the new name too.
    for table in server.lobby.tables.values():
        for seat in table.row.seats:
            if seat.user_id == user_id:
                seat.name = name


async def _take_name(server: Server, user: User, name: object) -> tuple[str, str]:
    """The clean name and skeleton ``user`` may take (under ``names_lock``): registration's
    rules, and neither someone else's name nor a look-alike of it."""
    clean = auth.check_name(name)
    skel = names.skeleton(clean)
    existing = await server.store.user_by_name(clean)
    if existing is not None and existing.id != user.id:
        raise ProtocolError("name_taken", "That name is taken.", 409)
    if existing is None:
        async with server.store.engine.connect() as conn:
            other = await conn.scalar(
                select(m.users.c.id)
                .where(m.users.c.name_skeleton == skel, m.users.c.id != user.id)
                .limit(1)
            )
        if other is not None:
            raise ProtocolError(
                "name_confusable", "That name looks like a name that is taken.", 409
            )
    return clean, skel


async def _set_name(server: Server, user: User, clean: str, skel: str, **more: object) -> None:
    _rename_live(server, user.id, clean)
    try:
        async with server.store._write() as conn:
            await conn.execute(
                update(m.users)
                .where(m.users.c.id == user.id)
                .values(name=clean, name_key=clean.casefold(), name_skeleton=skel, **more)
            )
            await rewrite_seats(conn, user.id, clean)
    except IntegrityError as e:
        _rename_live(server, user.id, user.name)
        raise ProtocolError("name_taken", "That name is taken.", 409) from e


async def rename(server: Server, user: User, name: object) -> User:
    _no_guests(user)
    async with server.names_lock:
        clean, skel = await _take_name(server, user, name)
        await _set_name(server, user, clean, skel)
    return User(user.id, clean, False)


async def upgrade(server: Server, user: User, name: object, password: object) -> User:
    """A guest becomes an account with a name and a password, keeping his id (and with it
    his games and chips); he stays signed in."""
    if not user.guest:
        raise ProtocolError("not_guest", status=409)
    auth.check_name(name)
    secret = auth.check_password(password)
    password_hash = await auth.hash_in_thread(secret)
    async with server.names_lock:
        clean, skel = await _take_name(server, user, name)
        await _set_name(server, user, clean, skel, password_hash=password_hash, guest=False)
    return User(user.id, clean, False)


async def change_password(
    server: Server, user: User, session: str, old: object, new: object
) -> None:
    """A new password; every other session of the account is signed out (and its
    sockets closed), the one that asked stays."""
    _no_guests(user)
    secret = auth.check_password(new)
    await _check_password(server, user, old if isinstance(old, str) else "")
    password_hash = await auth.hash_in_thread(secret)
    async with server.store._write() as conn:
        others = (
            await conn.execute(
                select(m.sessions.c.token_hash).where(
                    m.sessions.c.user_id == user.id, m.sessions.c.token_hash != session
                )
            )
        ).all()
        await conn.execute(
            update(m.users).where(m.users.c.id == user.id).values(password_hash=password_hash)
        )
        await conn.execute(
            delete(m.sessions).where(
                m.sessions.c.user_id == user.id, m.sessions.c.token_hash != session
            )
        )
    for row in others:
        await server.close_user(user.id, SIGNED_OUT, row.token_hash)


FORGOTTEN = (
    m.sessions,
    m.lesson_progress,
    m.puzzle_served,
    m.puzzle_attempts,
    m.puzzle_ratings,
    m.wallet_top_ups,
)
"""What an account that is gone leaves nobody else needing: deleted with it. Its seats in
stored games, its bets (they made the other bettors' pools), the tables it opened, its
lines of table talk and its ratings stay, under the name "deleted"."""

SOCIAL = (
    (m.follows, ("follower_id", "followee_id")),
    (m.blocks, ("blocker_id", "blocked_id")),
)
"""Lists that name the account on either side: it no longer follows, blocks or is followed
or blocked by anyone (its row stays, so no foreign key would remove them)."""


async def retire(conn: AsyncConnection, user_id: int) -> None:
    """The account's name is freed and shows as "deleted"; its sessions end, its own
    history (:data:`FORGOTTEN`) goes, and the chips in its wallet go back to the house
    (docs/chips.md). The row stays, as the account's games, bets and ratings point to it,
    and as the ledger names its id for ever (``user:{id}``): no other account may get it."""
    await conn.execute(
        update(m.users)
        .where(m.users.c.id == user_id)
        .values(
            name=DELETED,
            # no name has a colon: these keys never clash with a real name's
            name_key=f"deleted:{user_id}",
            name_skeleton=f"deleted:{user_id}",
            password_hash=None,
            deleted_ms=now_ms(),
        )
    )
    for table in FORGOTTEN:
        await conn.execute(delete(table).where(table.c.user_id == user_id))
    for table, sides in SOCIAL:
        await conn.execute(delete(table).where(or_(*(table.c[c] == user_id for c in sides))))
    # his open challenges, sent or received, can no longer be answered
    ch = m.challenges
    await conn.execute(
        update(ch)
        .where(ch.c.state == "open", or_(ch.c.from_id == user_id, ch.c.to_id == user_id))
        .values(state="cancelled")
    )
    await rewrite_seats(conn, user_id, DELETED)
    await wallets.give_back(conn, user_id)


async def delete_account(server: Server, user: User, password: object) -> None:
    _no_guests(user)
    await _check_password(server, user, password if isinstance(password, str) else "")
    # Seats at tables not yet started are given up; in a game already under way the seat
    # stays his (a bot plays it) and the game is rated on its result.
    for table in list(server.lobby.tables.values()):
        if table.row.status == "open" and table.seat_of(user.id) is not None:
            await table.leave(user.id)
    _rename_live(server, user.id, DELETED)
    async with server.names_lock, server.store._write() as conn:
        await retire(conn, user.id)
    await server.close_user(user.id, SIGNED_OUT)
