"""Durable storage: accounts, sessions, tables and each table's action log.

One :class:`Store` wraps an async SQLAlchemy engine (SQLite through aiosqlite by default,
PostgreSQL through asyncpg). Every write is its own transaction and is committed before
the call returns, so whatever the server acknowledges is on disk (SQLite: WAL with
``synchronous=FULL``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import delete, event, func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from kozyr.games.dealing import LEGACY, SECURE, parse_seed_hex, seed_hex
from kozyr.server.storage import leases
from kozyr.server.storage import models as m
from kozyr.server.storage.leases import Fenced, Lease

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = int.from_bytes(b"kozyrmig", "big")
"""The PostgreSQL advisory lock key of :meth:`Store.migrate` ("kozyrmig" as a number: any
fixed signed 64-bit key that nothing else on the database uses)."""


def now_ms() -> int:
    return int(time.time() * 1000)


def insert_new(conn: AsyncConnection, table: Any) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING in the connection's dialect: a row whose key is
    already there is skipped (a concurrent insert of the same key waits for the other
    transaction, then inserts nothing; no savepoints, which SQLite's driver does not nest
    reliably)."""
    if conn.dialect.name == "postgresql":
        return pg_insert(table).on_conflict_do_nothing()
    return sqlite_insert(table).on_conflict_do_nothing()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class NameTaken(ValueError):
    """A user name that someone already has."""


class Duplicate(ValueError):
    """An action whose client action id this seat already used at this table."""


@dataclass
class User:
    id: int
    name: str
    guest: bool
    password_hash: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "guest": self.guest}


@dataclass
class Seat:
    """Who holds a seat: a person (``user_id``/``name``), a bot (``bot`` level), or nobody."""

    user_id: int | None = None
    name: str | None = None
    bot: int | None = None
    addr: str | None = None
    """A person's seat at a rated table: a hash of the client address he sat down from
    (``kozyr.server.accounts.ratings.address_mark``), until the game ends; never sent to clients."""

    @property
    def empty(self) -> bool:
        return self.user_id is None and self.bot is None

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "bot": self.bot}

    def stored(self) -> dict[str, Any]:
        """The seat as the table's row keeps it: :meth:`to_json` and the address mark."""
        return self.to_json() if self.addr is None else {**self.to_json(), "addr": self.addr}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            user_id=data.get("user_id"),
            name=data.get("name"),
            bot=data.get("bot"),
            addr=data.get("addr"),
        )


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    """The table's seed: 256 secret bits (``SECURE``), or an old row's small integer."""
    seats: list[Seat]
    status: str = "open"
    """``open`` (waiting for players), ``playing``, ``finished``."""
    first_dealer: int | None = None
    join_order: list[int] = field(default_factory=list)
    private: bool = False
    invite_code: str | None = None
    creator_id: int | None = None
    turn_timeout: float | None = None
    result: dict[str, Any] | None = None
    created_ms: int = field(default_factory=now_ms)
    started_ms: int | None = None
    finished_ms: int | None = None
    dealing: str = SECURE
    """The dealing scheme (``kozyr.games.dealing``); rows from before 0002 are LEGACY."""
    seed_secret: bool = True
    """False for seeds anyone could know: old small seeds, ``KOZYR_TABLE_SEED`` tables."""
    rated: bool = False
    """A rated game moves its players' ratings when it ends (``kozyr.server.accounts.ratings``)."""
    stake: dict[str, Any] | None = None
    """Stake terms ``{"kind", "chips"}`` agreed by sitting down (B5); None: no stakes."""
    hints: bool = False
    """A casual table whose players may ask for hints (``kozyr.server.tables.hints``)."""
    unrated: str | None = None
    """A rated game that moved no rating, and why (``kozyr.server.accounts.ratings``); written by
    the ratings' finish hook alone, never by a save of the row."""
    rating_changes: list[dict[str, Any] | None] | None = None
    """A finished rated game's rating change of each seat (``{"before", "after",
    "provisional"}``), as shown in its game-over dialog: set by the ratings' finish hook,
    or read back from ``rating_changes`` for a finished table loaded from the database
    (``kozyr.server.accounts.ratings.changes_of``); never written with the row."""


@dataclass
class ActionRow:
    seq: int
    seat: int
    actor: str
    text: str
    client_action_id: str | None


_Pending = tuple[dict[str, Any], "TableRow | None", "asyncio.Future[None]"]

TableHook = Callable[[AsyncConnection, "TableRow"], Awaitable[None]]
"""Work that must commit or fail together with a table's change of status: run inside
that transaction (stakes escrow when a game starts; settlement and ratings when it ends).
A hook must be idempotent per table: a batch that fails is retried row by row."""

UserHook = Callable[[AsyncConnection, "User"], Awaitable[None]]
"""Work that commits with a new account (its welcome grant of chips)."""


def _done(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _fail(future: asyncio.Future[None], error: Exception, cause: Exception) -> None:
    if not future.done():
        if error is not cause:
            error.__cause__ = cause
        future.set_exception(error)


_INSERT_ACTION = "INSERT INTO actions ({}) VALUES ({})".format(
    ", ".join(c.name for c in m.actions.columns),
    ", ".join(f":{c.name}" for c in m.actions.columns),
)
"""The moves' log writer's statement (SQLite), its columns those of ``models.actions``."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            path = url.split("///", 1)[1]
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.engine: AsyncEngine = create_async_engine(url, pool_size=4, max_overflow=4)
            # SQLite has one writer at a time anyway: one connection of its own for every
            # write, so that a commit never queues for a pooled connection behind a crowd
            # of reads (hundreds of sign-ins at once held every pooled one, and the
            # moves waited until the pool's timeout).
            self.writer: AsyncEngine = create_async_engine(url, pool_size=1, max_overflow=0)
            for engine in (self.engine, self.writer):
                event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
            # The moves' log is appended through a plain (synchronous) connection in a
            # thread of its own, a whole batch in one hop: through aiosqlite every
            # statement of a transaction (begin, insert, commit, the pool's reset) is a
            # round trip between the loop and aiosqlite's thread, and at a human pace,
            # where each move is its own transaction, those hops were most of a move's
            # CPU (bench/commit_cost.py).
            # The connection is the standard library's own, without SQLAlchemy: a lone
            # move's commit cost 0.52 ms of CPU through SQLAlchemy's Core and 0.12 ms
            # this way (a batch of 20: 37 against 16 us a move).
            self._log_writer: sqlite3.Connection | None = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False
            )
            _sqlite_pragmas(self._log_writer, None)
            self._log_thread: ThreadPoolExecutor | None = ThreadPoolExecutor(
                1, thread_name_prefix="kozyr-log-writer"
            )
        else:
            self.engine = create_async_engine(url, pool_size=10, max_overflow=10)
            # the same for PostgreSQL: commits have connections that reads cannot take
            self.writer = create_async_engine(url, pool_size=4, max_overflow=4)
            self._log_writer = None
            self._log_thread = None
        # SQLite has one writer at a time; queueing here beats "database is locked".
        self._write_lock = asyncio.Lock()
        self._pending: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None
        self.on_start: list[TableHook] = []
        """Run in the transaction that saves a table going from open to playing."""
        self.on_finish: list[TableHook] = []
        """Run in the transaction that commits a game's last action (or saves a game
        that ended before its first action)."""
        self.on_new_user: list[UserHook] = []
        """Run in the transaction that creates an account."""
        self.on_insert: list[TableHook] = []
        """Run in the transaction that creates a table (cluster mode: its lease)."""
        self.fences: dict[str, Lease] = {}
        """Cluster mode: the lease this process holds on each table it owns. Every write
        of such a table's log or row checks it in its own transaction (empty, and free,
        with one process)."""
        self.on_fenced: Callable[[str], None] | None = None
        """Called with a table's id when a write of it was refused by its lease."""

    async def close(self) -> None:
        await self.engine.dispose()
        await self.writer.dispose()
        if self._log_thread is not None and self._log_writer is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._log_thread, self._log_writer.close
            )
            self._log_thread.shutdown()

    # -- schema ---------------------------------------------------------------------

    async def migrate(self) -> None:
        """Applies every Alembic migration not yet applied (at server start).

        On PostgreSQL the upgrade runs under a transaction-level advisory lock: processes
        started at once on one database (several machines, a supervisor's workers) take
        turns, and each one after the first finds the schema at head and does nothing,
        where together they raced to create the same tables. The lock goes with the
        upgrade's transaction (committed or rolled back), so a process that dies while
        migrating holds it no longer. SQLite has one writer at a time already."""

        def upgrade(connection: Connection) -> None:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")

        async with self.engine.begin() as conn:
            if not self.is_sqlite:
                await conn.execute(
                    sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            await conn.run_sync(upgrade)

    def transaction(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """A write transaction for code outside the store (the wallets): on SQLite it
        waits its turn like every other write."""
        return self._write()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self.is_sqlite:
            async with self._write_lock, self.writer.begin() as conn:
                yield conn
        else:
            async with self.writer.begin() as conn:
                yield conn

    # -- accounts -------------------------------------------------------------------

    async def create_user(self, name: str, password_hash: str | None, guest: bool) -> User:
        try:
            async with self._write() as conn:
                result = await conn.execute(
                    insert(m.users).values(
                        name=name,
                        name_key=name.casefold(),
                        password_hash=password_hash,
                        guest=guest,
                        created_ms=now_ms(),
                    )
                )
                pk = result.inserted_primary_key
                assert pk is not None
                user = User(int(pk[0]), name, guest, password_hash)
                for hook in self.on_new_user:
                    await hook(conn, user)
                return user
        except IntegrityError as e:
            raise NameTaken(name) from e

    async def user_by_name(self, name: str) -> User | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(m.users).where(m.users.c.name_key == name.casefold()))
            ).first()
        if row is None:
            return None
        return User(row.id, row.name, row.guest, row.password_hash)

    async def create_session(self, user_id: int, days: int) -> str:
        token = secrets.token_urlsafe(32)
        now = now_ms()
        async with self._write() as conn:
            await conn.execute(
                insert(m.sessions).values(
                    token_hash=token_hash(token),
                    user_id=user_id,
                    created_ms=now,
                    expires_ms=now + days * 86_400_000,
                )
            )
        return token

    async def user_for_token(self, token: str) -> User | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(m.users)
                    .join(m.sessions, m.sessions.c.user_id == m.users.c.id)
                    .where(m.sessions.c.token_hash == token_hash(token))
                    .where(m.sessions.c.expires_ms > now_ms())
                )
            ).first()
        if row is None:
            return None
        return User(row.id, row.name, row.guest)

    async def delete_session(self, token: str) -> None:
        async with self._write() as conn:
            await conn.execute(
                delete(m.sessions).where(m.sessions.c.token_hash == token_hash(token))
            )

    # -- tables ---------------------------------------------------------------------

    @staticmethod
    def _table_values(t: TableRow) -> dict[str, Any]:
        return {
            "game": t.game,
            "players": t.players,
            "options": json.dumps(t.options),
            # old rows keep their small integer seed; new ones write 0 there and the
            # 256-bit seed as hex (no portable 256-bit integer column)
            "seed": t.seed if t.dealing == LEGACY else 0,
            "seed_hex": None if t.dealing == LEGACY else seed_hex(t.seed),
            "dealing": None if t.dealing == LEGACY else t.dealing,
            "first_dealer": t.first_dealer,
            "join_order": json.dumps(t.join_order),
            "seats": json.dumps([s.stored() for s in t.seats]),
            "private": t.private,
            "invite_code": t.invite_code,
            "creator_id": t.creator_id,
            "status": t.status,
            "turn_timeout": t.turn_timeout,
            "result": None if t.result is None else json.dumps(t.result),
            "created_ms": t.created_ms,
            "started_ms": t.started_ms,
            "finished_ms": t.finished_ms,
            "rated": t.rated,
            "stake": None if t.stake is None else json.dumps(t.stake),
            "hints": t.hints,
        }

    @staticmethod
    async def _set_players(conn: AsyncConnection, t: TableRow) -> None:
        await conn.execute(delete(m.table_players).where(m.table_players.c.table_id == t.id))
        rows = [
            {"table_id": t.id, "user_id": s.user_id, "seat": i}
            for i, s in enumerate(t.seats)
            if s.user_id is not None
        ]
        # a person holds at most one seat of a table (checked by the lobby)
        if rows:
            await conn.execute(insert(m.table_players), rows)

    async def insert_table(self, t: TableRow) -> None:
        async with self._write() as conn:
            await conn.execute(insert(m.game_tables).values(id=t.id, **self._table_values(t)))
            await self._set_players(conn, t)
            for hook in self.on_insert:
                await hook(conn, t)

    async def _fence(self, conn: AsyncConnection, table_ids: list[str]) -> None:
        """Raises :class:`Fenced` (rolling the transaction back) when this process no
        longer holds the lease of one of ``table_ids``."""
        for table_id in dict.fromkeys(table_ids):
            lease = self.fences.get(table_id)
            if lease is None:
                continue
            try:
                await leases.check(conn, lease)
            except Fenced:
                # the fence stays until the table is dropped: a retry is refused too
                if self.on_fenced is not None:
                    self.on_fenced(table_id)
                raise

    async def check_lease(self, conn: AsyncConnection, table_id: str) -> None:
        """In a write transaction of code outside the store that acts for a live table
        (a spectator's bet): raises :class:`Fenced`, rolling it back, when this process
        no longer holds the table's lease, as every write of its log or row does."""
        if self.fences:
            await self._fence(conn, [table_id])

    async def save_table(self, t: TableRow, *, started: bool = False) -> None:
        """Writes the table's seats, join order, status and result. ``started``: this
        save is the game's start; the :attr:`on_start` hooks (and, for a game already
        over, the :attr:`on_finish` hooks) commit or fail with it."""
        async with self._write() as conn:
            if self.fences:
                await self._fence(conn, [t.id])
            await conn.execute(
                update(m.game_tables)
                .where(m.game_tables.c.id == t.id)
                .values(**self._table_values(t))
            )
            await self._set_players(conn, t)
            if started:
                for hook in self.on_start:
                    await hook(conn, t)
                if t.status == "finished":
                    for hook in self.on_finish:
                        await hook(conn, t)

    @staticmethod
    def _row_to_table(row: Any) -> TableRow:
        legacy = row.dealing is None
        return TableRow(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.loads(row.options),
            seed=int(row.seed) if legacy else parse_seed_hex(row.seed_hex),
            dealing=LEGACY if legacy else row.dealing,
            seed_secret=not legacy,
            seats=[Seat.from_json(s) for s in json.loads(row.seats)],
            status=row.status,
            first_dealer=row.first_dealer,
            join_order=json.loads(row.join_order) if row.join_order else [],
            private=bool(row.private),
            invite_code=row.invite_code,
            creator_id=row.creator_id,
            turn_timeout=row.turn_timeout,
            result=json.loads(row.result) if row.result else None,
            created_ms=int(row.created_ms),
            started_ms=row.started_ms,
            finished_ms=row.finished_ms,
            rated=bool(row.rated),
            stake=json.loads(row.stake) if row.stake else None,
            hints=bool(row.hints),
            unrated=row.unrated,
        )

    async def unfinished_tables(self) -> list[TableRow]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.game_tables)
                    .where(m.game_tables.c.status.in_(("open", "playing")))
                    .order_by(m.game_tables.c.created_ms)
                )
            ).all()
        return [self._row_to_table(r) for r in rows]

    async def table(self, table_id: str) -> TableRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(m.game_tables).where(m.game_tables.c.id == table_id))
            ).first()
        return None if row is None else self._row_to_table(row)

    async def tables_of(self, user_id: int) -> list[TableRow]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.game_tables)
                    .join(m.table_players, m.table_players.c.table_id == m.game_tables.c.id)
                    .where(m.table_players.c.user_id == user_id)
                    .order_by(m.game_tables.c.created_ms.desc())
                )
            ).all()
        return [self._row_to_table(r) for r in rows]

    # -- the action log -------------------------------------------------------------

    async def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        actor: str,
        text: str,
        client_action_id: str | None,
        finished: TableRow | None = None,
    ) -> None:
        """Commits one action; with ``finished`` the table's final state in the same
        transaction. Raises :class:`Duplicate` for a client action id already used.

        Group commit: actions of different tables that arrive while a commit is under way
        are written together in the next transaction (one fsync for all of them); each
        caller returns only once its own row is committed.
        """
        row = {
            "table_id": table_id,
            "seq": seq,
            "seat": seat,
            "actor": actor,
            "action_text": text,
            "client_action_id": client_action_id,
            "created_ms": now_ms(),
        }
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, finished, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        # (no shield: a caller cancelled cancels its own future alone, and the flusher
        # skips a future that is done; its row is written all the same)
        await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self._commit(batch)
            except (IntegrityError, Fenced):
                # Someone in the batch broke a constraint (or lost his table's lease):
                # commit them one by one.
                for item in batch:
                    try:
                        await self._commit([item])
                    except Fenced as e:
                        _fail(item[2], e, e)
                    except IntegrityError as e:
                        _fail(item[2], Duplicate(str(item[0]["client_action_id"])), e)
                    except Exception as e:
                        _fail(item[2], e, e)
                    else:
                        _done(item[2])
                continue
            except Exception as e:
                for item in batch:
                    _fail(item[2], e, e)
                continue
            for item in batch:
                _done(item[2])

    async def _commit(self, batch: list[_Pending]) -> None:
        plain = all(final is None for _, final, _ in batch)
        if self._log_thread is not None and not self.fences and plain:
            # moves only (no game ends with hooks to run): one hop for the batch
            rows = [row for row, _, _ in batch]
            async with self._write_lock:
                await asyncio.get_running_loop().run_in_executor(
                    self._log_thread, self._append_sync, rows
                )
            return
        async with self._write() as conn:
            if self.fences:
                await self._fence(conn, [row["table_id"] for row, _, _ in batch])
            await conn.execute(insert(m.actions), [row for row, _, _ in batch])
            for _, final, _ in batch:
                if final is not None:
                    await conn.execute(
                        update(m.game_tables)
                        .where(m.game_tables.c.id == final.id)
                        .values(**self._table_values(final))
                    )
                    for hook in self.on_finish:
                        await hook(conn, final)

    def _append_sync(self, rows: list[dict[str, Any]]) -> None:
        conn = self._log_writer
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(_INSERT_ACTION, rows)
            conn.execute("COMMIT")
        except sqlite3.IntegrityError as e:
            conn.rollback()
            # as SQLAlchemy raises it, for _flush to tell the offending move apart
            raise IntegrityError(_INSERT_ACTION, None, e) from e
        except BaseException:
            if conn.in_transaction:
                conn.rollback()
            raise

    async def action_count(self, table_id: str) -> int:
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(func.count()).select_from(m.actions).where(m.actions.c.table_id == table_id)
            )
        return int(n or 0)

    async def actions(self, table_id: str) -> list[ActionRow]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.actions)
                    .where(m.actions.c.table_id == table_id)
                    .order_by(m.actions.c.seq)
                )
            ).all()
        return [ActionRow(r.seq, r.seat, r.actor, r.action_text, r.client_action_id) for r in rows]
