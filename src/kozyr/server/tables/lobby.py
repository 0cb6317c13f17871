"""The lobby: every live table, creating and finding tables, quick play, restoring the
unfinished tables from the database at start."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.games.base import GameState, OptionsError
from kozyr.games.dealing import SECURE, SEED_BITS
from kozyr.records import to_record
from kozyr.server.accounts import ratings
from kozyr.server.money import wallets
from kozyr.server.money.betting import TableBets, offline_book, unsettled_tables_query
from kozyr.server.money.escrow import parse_stake, stake_hold
from kozyr.server.play.games import game_of, new_state
from kozyr.server.play.match import LoggedAction, Replayed, replay_log
from kozyr.server.play.presence import bots_alone
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, User
from kozyr.server.tables.bot_pools import ALONE_PREFIX, PacedPool, TablePool
from kozyr.server.tables.idle_bots import IdleBotTables
from kozyr.server.tables.ownership import Ownership
from kozyr.server.tables.table import Table
from kozyr.server.tables.views import table_commitment, table_info, view_of
from kozyr.server.transport.addresses import address_key
from kozyr.server.transport.paging import PAGE
from kozyr.server.transport.protocol import VERSION, Client, ProtocolError, dumps, utf8_size

log = logging.getLogger("kozyr.server.tables.lobby")

T = TypeVar("T")

NOTICE_DELAY = 0.1
"""Seconds the lobby gathers table changes before it tells its watchers of them."""


def may_see(row: TableRow, user: User | None, invite: Any) -> bool:
    """A private table is seen only by its creator, its players, or with its invite."""
    if not row.private:
        return True
    if user is not None and (
        row.creator_id == user.id or any(s.user_id == user.id for s in row.seats)
    ):
        return True
    return isinstance(invite, str) and row.invite_code is not None and invite == row.invite_code


def replay_row(row: TableRow, texts: list[str]) -> GameState:
    """The game a table's committed log leads to (CPU work: run it in a worker)."""
    state = new_state(row)
    for text in texts:
        state.play(text)
    return state


def _replay_table(
    row: TableRow, actions: list[LoggedAction], store: Store
) -> tuple[Replayed, TableBets]:
    """A playing table's game and book rebuilt from its log (CPU work: run it in a
    worker; the table adopts both on the event loop)."""
    replayed = replay_log(row, actions)
    return replayed, offline_book(row, replayed.state.events, store)


def _book_of(row: TableRow, texts: list[str], store: Store) -> TableBets:
    return offline_book(row, replay_row(row, texts).events, store)


def check_options(game_name: str, players: int | None, options: Any) -> dict[str, Any]:
    """The full options of a new table (the rulings' defaults where not given)."""
    game = game_of(game_name)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ProtocolError("bad_options", "Options must be an object.")
    options = dict(options)
    if players is not None:
        options["players"] = players
    try:
        return game.options_from_json(options).to_json()
    except OptionsError as e:
        raise ProtocolError("bad_options", str(e), message_ru=e.message_ru) from e
    except (TypeError, ValueError, OverflowError) as e:
        # Odd input the options' own checks did not foresee: still the client's fault.
        raise ProtocolError("bad_options", "Bad game options.") from e


def _seat(row: TableRow, user: User | None) -> int | None:
    if user is None:
        return None
    return next((i for i, s in enumerate(row.seats) if s.user_id == user.id), None)


def _involved(row: TableRow, user: User | None) -> bool:
    return user is not None and (row.creator_id == user.id or _seat(row, user) is not None)


# The first keys of the PostgreSQL advisory locks of table creation (arbitrary, distinct)
_LOCK_USER = 0x6B7A0001
_LOCK_ADDRESS = 0x6B7A0002
_LOCK_BOTS = 0x6B7A0003

_BOTS_ALONE_SQL = m.game_tables.c.seats.not_like('%"bot": null%')
"""A stored row of bots alone: no seat without a bot. ``Seat.to_json`` writes ``"bot":
null`` for a person's seat and an empty one, and a name's quotes are escaped, so no name
can make it match."""


def _lock_key(address: str) -> int:
    """An address as the second (32-bit signed) key of an advisory lock; two addresses
    that share one only take turns needlessly."""
    crc = zlib.crc32(address.encode())
    return crc - (1 << 32) if crc >= 1 << 31 else crc


async def _forget_address(conn: AsyncConnection, row: TableRow) -> None:
    """A finished table counts against nobody: its creator's address is not kept."""
    t = m.game_tables.c
    await conn.execute(update(m.game_tables).where(t.id == row.id).values(creator_address=None))


class Lobby:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        metrics: Metrics,
        bus: LocalBus,
        ownership: Callable[[Lobby], Ownership] | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.bus = bus
        self.tables: dict[str, Table] = {}
        self.stopping = False
        """The server is stopping (:meth:`stop_moves`): no table takes a move any more."""
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kozyr-bot")
        # Replaying records (stored games, uploads) is CPU work: a pool of its own, small,
        # so that many at once queue here instead of starving the bots and the event loop.
        self.replayer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kozyr-replay")
        self.addresses: dict[str, str] = {}
        """table id -> the client address that created it (unfinished tables only)."""
        self._creating: dict[str, str | None] = {}
        """Tables being inserted by :meth:`_create` -> their creator's address."""
        if settings.cluster:
            # checked again over every process's tables, in the insert's own transaction
            store.on_insert.append(self._check_shared_limits)
            store.on_finish.append(_forget_address)
        self._dropping: dict[str, asyncio.Task[None]] = {}
        self.lobby_watchers: set[Client] = set()
        self._create_lock = asyncio.Lock()
        self._seeded: dict[str, int] = {}
        self._changed_tables: dict[str, Table] = {}
        """Tables changed since the lobby was last told (in the order they changed)."""
        self._notice_timer: asyncio.TimerHandle | None = None
        self._publishing: set[asyncio.Task[None]] = set()
        self.remote: dict[str, dict[str, Any]] = {}
        """Cluster mode: the latest public info of each live table other processes run,
        from their lobby notices (so that any process shows the whole lobby)."""
        bus.subscribe("lobby", self._lobby_notice)
        self.ownership = ownership(self) if ownership is not None else None
        """Cluster mode: the leases of this process's tables, made for this lobby by the
        ``ownership`` its cluster gave it (:class:`kozyr.server.cluster.Cluster`)."""
        # Tables of bots alone: their bots think apart (``bot_pools``), and they end once
        # nobody has watched them for a while (``idle_bots``, swept from ``restore`` on).
        self.alone_executor = PacedPool(
            settings.bot_alone_threads, settings.bot_alone_share, ALONE_PREFIX
        )
        self.idle_bots = IdleBotTables(lambda: self.tables.values(), store, settings.bot_table_idle)

    def _new_seed(self, game: str, players: int, options: dict[str, Any]) -> int:
        """256 secret bits; with ``KOZYR_TABLE_SEED`` a full SHA-256 digest of that setting
        and the table's kind and number instead (repeatable, and not secret)."""
        fixed = self.settings.table_seed
        if fixed is None:
            return secrets.randbits(SEED_BITS)
        key = json.dumps([fixed, game, players, options], sort_keys=True)
        k = self._seeded.get(key, 0)
        self._seeded[key] = k + 1
        digest = hashlib.sha256(f"{key}:{k}".encode()).digest()
        return int.from_bytes(digest, "big")

    # -- life cycle -----------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuilds every unfinished table from its log; returns how many. In cluster
        mode only those no other process holds (the others are shown from the database
        until their notices come)."""
        count = 0
        for row in await self.store.unfinished_tables():
            if self.ownership is not None:
                if await self.ownership.take_over(row.id) is not None:
                    count += 1
                elif not row.private:
                    seq = await self.store.action_count(row.id)
                    self.remote[row.id] = table_info(row, seq=seq)
                continue
            if await self.restore_row(row) is not None:
                count += 1
        await self._settle_finished_bets()
        self._count()
        self.idle_bots.start()
        return count

    async def restore_row(self, row: TableRow) -> Table | None:
        """Rebuilds one unfinished table from its log (at start, or taking it over). The
        replay runs in the replay pool; the table joins the lobby only once it is whole,
        so nothing ever finds it half restored."""
        row.seed_secret = row.seed_secret and self.settings.table_seed is None
        if row.status != "playing":
            table = self._table(row)
        else:
            actions = [
                (a.seat, a.text, a.actor, a.client_action_id)
                for a in await self.store.actions(row.id)
            ]
            try:
                replayed, book = await self.offload(_replay_table, row, actions, self.store)
                table = self._table(row)
                table.restore(replayed, book)
            except Exception:
                log.exception("table %s could not be restored; left out", row.id)
                self.tables.pop(row.id, None)
                return None
        await table.bets.load()
        await table.bets.settle_pending()
        self.remote.pop(row.id, None)
        self._count()
        return table

    async def _settle_finished_bets(self) -> None:
        """Settles what a crash left unsettled at tables that have finished since."""
        async with self.store.engine.connect() as conn:
            ids = [r[0] for r in (await conn.execute(unsettled_tables_query())).all()]
        for table_id in ids:
            row = await self.store.table(table_id)
            if row is not None:
                await (await self.finished_bets(row)).settle_pending()

    async def finished_bets(self, row: TableRow) -> TableBets:
        """The markets of a table no longer in memory, rebuilt from its stored log."""
        texts = [a.text for a in await self.store.actions(row.id)]
        bets = await self.offload(_book_of, row, texts, self.store)
        await bets.load()
        return bets

    def stop_moves(self) -> None:
        """The server is stopping: no table plays or takes a move from now on (docs/deploy.md,
        "Stopping"); the moves being committed finish (:meth:`finish_moves`)."""
        self.stopping = True
        for table in self.tables.values():
            table.turns.stop()

    async def finish_moves(self) -> None:
        """Returns once no table is in the middle of a move (each one's commit is done)."""
        for table in list(self.tables.values()):
            async with table.lock:
                pass

    async def close(self) -> None:
        await self.idle_bots.stop()
        self.stop_moves()
        if self._notice_timer is not None:
            self._notice_timer.cancel()
            self._notice_timer = None
        for task in [*self._dropping.values(), *self._publishing]:
            task.cancel()
        for table in self.tables.values():
            await table.close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.replayer.shutdown(wait=False, cancel_futures=True)
        self.alone_executor.shutdown(wait=False, cancel_futures=True)

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Runs CPU work (replays, verification) in the replay pool, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.replayer, fn, *args)

    def _table(self, row: TableRow) -> Table:
        pool = TablePool(row, self.executor, self.alone_executor)
        table = Table(row, self.store, self.settings, self.metrics, pool, self._changed)
        table.check_bots_alone = self._check_bot_seat
        if self.stopping:
            table.turns.stop()
        self.tables[row.id] = table
        return table

    def _changed(self, table: Table) -> None:
        if table.row.status == "finished" and table.id not in self._dropping:
            self.addresses.pop(table.id, None)
            self._dropping[table.id] = asyncio.get_running_loop().create_task(self._drop(table))
        # Noted now, told later: a table changes several times in a moment (a hello, a
        # seat, a finish), and each notice goes to every lobby watcher, so the notices
        # of one moment go out together, one per table with its latest info.
        self._changed_tables[table.id] = table
        if self._notice_timer is None:
            self._notice_timer = asyncio.get_running_loop().call_later(NOTICE_DELAY, self._notify)

    def adopted(self, table: Table) -> None:
        """This process has just taken ``table`` over: its lobby entry goes out now. The
        other processes show what the old owner last told them (people connected there,
        an older seq) and would keep it until the table's next change."""
        self._changed(table)

    def _notify(self) -> None:
        """Tells the lobby of the tables changed since the last time (and counts them)."""
        self._notice_timer = None
        changed, self._changed_tables = self._changed_tables, {}
        self._count()
        notices = [{"table": t.info()} for t in changed.values() if not t.row.private]
        if notices:
            self._publishing.add(asyncio.get_running_loop().create_task(self._publish(notices)))

    async def _publish(self, notices: list[dict[str, Any]]) -> None:
        try:
            for notice in notices:
                await self.bus.publish("lobby", notice)
        except Exception:
            log.exception("lobby notices could not be published")
        finally:
            task = asyncio.current_task()
            if task is not None:
                self._publishing.discard(task)

    async def _drop(self, table: Table) -> None:
        """A finished table leaves memory once its last frames are out (after the linger):
        from then on the database serves it (info, record, replay, hello)."""
        try:
            await asyncio.sleep(self.settings.finished_linger)
            async with table.lock:  # whatever still runs at the table ends first
                if self.tables.get(table.id) is table:
                    del self.tables[table.id]
            await table.close()
            if self.ownership is not None:
                await self.ownership.release(table.id)
            table.forget()
            self._count()
        finally:
            self._dropping.pop(table.id, None)

    def _lobby_notice(self, message: dict[str, Any]) -> None:
        info = message.get("table")
        if self.ownership is not None and isinstance(info, dict):
            table_id = info.get("id")
            # Kept for this process's own tables too (the page and quick play skip those):
            # should one be taken from it, the new owner's entry is already here.
            if isinstance(table_id, str):
                if info.get("status") in ("open", "playing"):
                    self.remote[table_id] = info
                else:
                    self.remote.pop(table_id, None)
        if not self.lobby_watchers:
            return
        # One encoding for every watcher: the same text, measured once.
        text = dumps({"v": VERSION, "type": "lobby", **message})
        size = utf8_size(text)
        for client in list(self.lobby_watchers):
            client.send(text, size)

    def watch_lobby(self, client: Client) -> None:
        """``client`` is shown the lobby: it gets a notice of every change from now on."""
        self.lobby_watchers.add(client)

    def unwatch_lobby(self, client: Client) -> None:
        """``client`` has left the lobby (it went to a table, or away): no more notices."""
        self.lobby_watchers.discard(client)

    def _count(self) -> None:
        counts = {"open": 0, "playing": 0, "finished": 0}
        for t in self.tables.values():
            counts[t.row.status] = counts.get(t.row.status, 0) + 1
        for status, n in counts.items():
            self.metrics.tables.labels(status).set(n)

    # -- queries --------------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table", status=404)
        return table

    def page(self, game: str | None = None, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
        """One page of the public unfinished tables, newest first (then by id)."""
        if game is not None:
            game_of(game)
        rows = [
            t
            for t in self.tables.values()
            if not t.row.private
            and t.row.status != "finished"
            and (game is None or t.row.game == game)
        ]
        if self.remote:
            return self._cluster_page(rows, game, offset, limit)
        rows.sort(key=lambda t: (-t.row.created_ms, t.id))
        return {
            "tables": [t.info() for t in rows[offset : offset + limit]],
            "total": len(rows),
            "offset": offset,
            "limit": limit,
        }

    def _cluster_page(
        self, local: list[Table], game: str | None, offset: int, limit: int
    ) -> dict[str, Any]:
        """The page over this process's tables and the others' (from their notices)."""
        infos = [t.info() for t in local]
        infos += [
            info
            for table_id, info in self.remote.items()
            if table_id not in self.tables and (game is None or info.get("game") == game)
        ]
        infos.sort(key=lambda i: (-int(i.get("created_ms") or 0), str(i.get("id"))))
        return {
            "tables": infos[offset : offset + limit],
            "total": len(infos),
            "offset": offset,
            "limit": limit,
        }

    def lobby_frame(self, offset: int = 0, limit: int = PAGE) -> dict[str, Any]:
        """The WebSocket ``lobby`` frame: one page of tables and how many there are (the
        bounds were checked with the frame, ``transport.frames.LobbyFrame``)."""
        return {"v": VERSION, "type": "lobby", **self.page(None, offset, limit)}

    async def stored(self, table_id: str, user: User | None, invite: Any) -> TableRow:
        """A table's committed row, if the caller may see it; else 404 ``no_table``."""
        row = await self.store.table(table_id) if len(table_id) <= 16 else None
        if row is None or not may_see(row, user, invite):
            raise ProtocolError("no_table", status=404)
        row.seed_secret = row.seed_secret and self.settings.table_seed is None
        return row

    async def replayed(self, row: TableRow) -> GameState:
        """The game after every committed action of ``row``'s table (in the replay pool)."""
        texts = [a.text for a in await self.store.actions(row.id)]
        return await self.offload(replay_row, row, texts)

    async def info(self, table_id: str, user: User | None, invite: Any) -> dict[str, Any]:
        """``{"table": info}`` of a live table, or of a finished one from the database."""
        live = self.tables.get(table_id)
        if live is not None:
            row = live.row
            if not may_see(row, user, invite):
                raise ProtocolError("no_table", status=404)
            return {"table": live.info(private=_involved(row, user))}
        row = await self.stored(table_id, user, invite)
        if row.status != "finished" and self.ownership is None:
            raise ProtocolError("no_table", status=404)  # not restored: nothing to show
        # (cluster mode: another process runs it; the database has its committed state)
        seq = await self.store.action_count(row.id)
        await self._rating_changes(row)
        return {"table": table_info(row, seq=seq, private=_involved(row, user))}

    async def _rating_changes(self, row: TableRow) -> None:
        """A finished rated table read from the database: its rating changes, for the
        game-over dialog (a live table's finish hook put them on its row)."""
        if row.status == "finished" and row.rated and row.rating_changes is None:
            async with self.store.engine.connect() as conn:
                row.rating_changes = await ratings.changes_of(conn, row)

    async def record(self, table_id: str, user: User | None, invite: Any) -> dict[str, Any]:
        """The record the caller may have: the whole ``kozyr-record/1`` once the database
        says the game is finished, else the actions and the caller's own view."""
        row = await self.stored(table_id, user, invite)
        names = [s.name or "" for s in row.seats]
        if row.status == "finished":
            # After the game the record shows every card (B3); committed, so final.
            state = await self.replayed(row)
            return to_record(state, players=names, table=row.id)
        if row.status != "playing":
            raise ProtocolError("not_started", status=409)
        live = self.tables.get(table_id)
        if live is not None and live.state is not None:
            state = live.state  # no await below: it cannot move on meanwhile
        else:
            state = await self.replayed(row)
        seat = _seat(row, user)
        partial: dict[str, Any] = {
            "format": "kozyr-record/1",
            "complete": False,
            "game": row.game,
            "options": row.options,
            "players": names,
            "table": row.id,
            "actions": list(state.actions),
            "view": view_of(state, seat, events=True),
            "dealing": row.dealing,
            "commitment": table_commitment(row),
        }
        partial.update(game_of(row.game).start_json(state))
        return partial

    async def finished_hello(self, table_id: str, user: User, invite: Any) -> list[dict[str, Any]]:
        """What a ``hello`` to a finished table no longer in memory gets: its ``table``
        frame and a ``sync`` of the final view, from the database."""
        row = await self.stored(table_id, user, invite)
        if row.status != "finished":
            raise ProtocolError("no_table")
        state = await self.replayed(row)
        seat = _seat(row, user)
        await self._rating_changes(row)
        info = table_info(row, seq=len(state.actions), private=_involved(row, user))
        return [
            {"v": VERSION, "type": "table", "table": info, "you": seat},
            {
                "v": VERSION,
                "type": "sync",
                "table": row.id,
                "seq": len(state.actions),
                "view": view_of(state, seat, events=True),
            },
        ]

    # -- changes --------------------------------------------------------------------

    async def create(
        self,
        user: User,
        game: str,
        players: int | None = None,
        options: Any = None,
        bots: Any = None,
        private: bool = False,
        sit: bool = True,
        seat: int = 0,
        turn_timeout: Any = "default",
        address: str | None = None,
        rated: bool = False,
        stake: Any = None,
        hints: bool = False,
    ) -> Table:
        """A new table (429 ``too_many_tables`` past the creator's or the address's limit
        of unfinished tables); the creator sits at ``seat`` (unless ``sit`` is false), then the
        bots sit in seat order (that is the join order, B1). ``bots``: {seat: level} or a
        list of levels for the free seats in order. ``hints``: casual tables only (409
        ``hints_on_rated``)."""
        if hints and rated:
            raise ProtocolError("hints_on_rated", status=409)
        opts = check_options(game, players, options)
        terms = parse_stake(stake, game)
        n = int(opts["players"])
        seats = [Seat() for _ in range(n)]
        join_order: list[int] = []
        if sit:
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise ProtocolError("bad_seat", "No such seat.")
            if rated and user.guest:
                raise ProtocolError("rated_needs_account", status=409)
            mark = ratings.address_mark(address) if rated else None
            seats[seat] = Seat(user_id=user.id, name=user.name, addr=mark)
            join_order.append(seat)
        for s, level in self._bot_seats(bots, seats):
            seats[s] = Seat(bot=level, name=f"bot {level}")
            join_order.append(s)
        if turn_timeout == "default":
            timeout: float | None = self.settings.turn_timeout
        elif turn_timeout is None or turn_timeout == 0:
            timeout = None
        elif isinstance(turn_timeout, int | float) and not isinstance(turn_timeout, bool):
            if not 0.5 <= float(turn_timeout) <= 86_400:
                raise ProtocolError("bad_timeout", "turn_timeout must be 0.5-86400 seconds.")
            timeout = float(turn_timeout)
        else:
            raise ProtocolError("bad_timeout", "turn_timeout must be a number of seconds.")
        # Bounded options and stake terms keep the hold small (docs/chips.md); worked out
        # here, before anything is saved, so that even a fault in it leaves no table behind.
        hold = stake_hold(game, opts, terms)
        if sit:
            await wallets.check_cover(self.store, user.id, hold)
        async with self._create_lock:
            self._check_limits(user, address)
            if all(s.bot is not None for s in seats):
                self._check_bot_tables(user.id, *self._bot_tables(user.id, address, None))
            return await self._create(
                user,
                game,
                opts,
                seats,
                join_order,
                bool(private),
                timeout,
                address,
                rated,
                terms,
                hints,
            )

    def _check_limits(self, user: User, address: str | None) -> None:
        """One account or address may not hold the lobby hostage with endless tables."""
        mine = by_address = 0
        for t in self.tables.values():
            if t.row.status == "finished":
                continue
            mine += t.row.creator_id == user.id
            by_address += address is not None and self.addresses.get(t.id) == address
        per_user = self.settings.max_open_tables
        per_address = self.settings.max_open_tables_per_address
        if (per_user and mine >= per_user) or (per_address and by_address >= per_address):
            raise ProtocolError("too_many_tables", status=429)

    def _bot_tables(
        self, creator_id: int, address: str | None, leave_out: str | None
    ) -> tuple[int, int, int]:
        """(the creator's, his address's, all) unfinished tables of bots alone in this
        process's memory (all the server's but in cluster mode), but ``leave_out``."""
        key = address_key(address) if address else None
        mine = ours = every = 0
        for t in self.tables.values():
            if t.row.status != "finished" and t.id != leave_out and bots_alone(t.row):
                every += 1
                mine += t.row.creator_id == creator_id
                theirs = self.addresses.get(t.id)
                ours += key is not None and theirs is not None and address_key(theirs) == key
        return mine, ours, every

    def _check_bot_tables(self, creator_id: int | None, mine: int, ours: int, every: int) -> None:
        """429 when one more table of bots alone would pass the creator's limit or the
        server's (``too_many_bot_tables``) or his address's (``too_many_bot_tables_address``;
        ``mine``, ``ours`` and ``every``: those there already)."""
        per_user, total = self.settings.max_bot_tables, self.settings.max_bot_tables_total
        per_address = self.settings.max_bot_tables_per_address
        if per_user and creator_id is not None and mine >= per_user:
            raise ProtocolError("too_many_bot_tables", status=429)
        if per_address and ours >= per_address:
            raise ProtocolError("too_many_bot_tables_address", status=429)
        if total and every >= total:
            raise ProtocolError("too_many_bot_tables", status=429)

    async def _stored_bot_tables(
        self,
        conn: AsyncConnection,
        creator_id: int | None,
        address: str | None,
        leave_out: str | None,
    ) -> tuple[int, int, int]:
        """:meth:`_bot_tables` over every process's tables, from the shared database (the
        addresses compared in Python: an IPv6 address counts by its /64)."""
        t = m.game_tables.c
        query = select(t.creator_id, t.creator_address).where(
            t.status != "finished", _BOTS_ALONE_SQL
        )
        if leave_out is not None:
            query = query.where(t.id != leave_out)
        rows = (await conn.execute(query)).all()
        key = address_key(address[:64]) if address else None
        mine = sum(1 for r in rows if creator_id is not None and r.creator_id == creator_id)
        ours = sum(
            1
            for r in rows
            if key is not None and r.creator_address and address_key(r.creator_address) == key
        )
        return mine, ours, len(rows)

    async def _check_bot_seat(self, row: TableRow) -> None:
        """A bot is to fill ``row``'s last seat, with nobody seated: the table would be one
        more table of bots alone (:attr:`Table.check_bots_alone`). In cluster mode counted
        from the database without a lock: two such bots at the very same moment on two
        processes may both pass (creations take turns, below)."""
        address = self.addresses.get(row.id)
        if self.settings.cluster:
            async with self.store.engine.connect() as conn:
                if address is None:  # a table taken over from another process
                    t = m.game_tables.c
                    found = select(t.creator_address).where(t.id == row.id)
                    address = await conn.scalar(found)
                counts = await self._stored_bot_tables(conn, row.creator_id, address, row.id)
        else:
            counts = self._bot_tables(row.creator_id or 0, address, row.id)
        self._check_bot_tables(row.creator_id, *counts)

    async def _check_shared_limits(self, conn: AsyncConnection, row: TableRow) -> None:
        """Cluster mode: the limits of :meth:`_check_limits` over the unfinished tables of
        every process, which the shared database holds. Runs in the transaction that
        inserts the table, after the insert: the count includes the new table, and a
        refusal rolls it back. On PostgreSQL, transaction locks on the creator and the
        address make the creations of one creator (or address) take turns over all
        processes, each counting the ones committed before it; SQLite has one writer."""
        if row.id not in self._creating or row.creator_id is None:
            return  # not a table the lobby makes (tests, imports)
        address = self._creating[row.id]
        per_user = self.settings.max_open_tables
        per_address = self.settings.max_open_tables_per_address if address else 0
        postgres = conn.dialect.name == "postgresql"
        t = m.game_tables.c
        if address is not None:
            await conn.execute(
                update(m.game_tables).where(t.id == row.id).values(creator_address=address[:64])
            )
        unfinished = select(func.count()).select_from(m.game_tables).where(t.status != "finished")
        if per_user:
            if postgres:
                await conn.execute(select(func.pg_advisory_xact_lock(_LOCK_USER, row.creator_id)))
            mine = await conn.scalar(unfinished.where(t.creator_id == row.creator_id))
            if (mine or 0) > per_user:
                raise ProtocolError("too_many_tables", status=429)
        if per_address and address:
            if postgres:
                key = _lock_key(address[:64])
                await conn.execute(select(func.pg_advisory_xact_lock(_LOCK_ADDRESS, key)))
            theirs = await conn.scalar(unfinished.where(t.creator_address == address[:64]))
            if (theirs or 0) > per_address:
                raise ProtocolError("too_many_tables", status=429)
        limits = self.settings
        if bots_alone(row) and (
            limits.max_bot_tables
            or limits.max_bot_tables_total
            or limits.max_bot_tables_per_address
        ):
            if postgres:  # one server-wide count: every such creation takes its turn
                await conn.execute(select(func.pg_advisory_xact_lock(_LOCK_BOTS, 0)))
            counts = await self._stored_bot_tables(conn, row.creator_id, address, row.id)
            self._check_bot_tables(row.creator_id, *counts)

    async def _create(
        self,
        user: User,
        game: str,
        opts: dict[str, Any],
        seats: list[Seat],
        join_order: list[int],
        private: bool,
        timeout: float | None,
        address: str | None,
        rated: bool = False,
        stake: dict[str, Any] | None = None,
        hints: bool = False,
    ) -> Table:
        n = len(seats)
        row = TableRow(
            id=secrets.token_hex(5),
            game=game,
            players=n,
            options=opts,
            seed=self._new_seed(game, n, opts),
            dealing=SECURE,
            seed_secret=self.settings.table_seed is None,
            seats=seats,
            join_order=join_order,
            private=private,
            invite_code=secrets.token_urlsafe(9) if private else None,
            creator_id=user.id,
            turn_timeout=timeout,
            rated=rated,
            stake=stake,
            hints=hints,
        )
        self._creating[row.id] = address
        try:
            await self.store.insert_table(row)
        finally:
            del self._creating[row.id]
        table = self._table(row)
        if address is not None:
            self.addresses[row.id] = address
        async with table.lock:
            refused = await table.after_seats()
        if user.id in refused:
            raise refused[user.id]
        return table

    @staticmethod
    def _bot_seats(bots: Any, seats: list[Seat]) -> list[tuple[int, int]]:
        if bots is None:
            return []
        pairs: list[tuple[int, Any]] = []
        if isinstance(bots, dict):
            for k, v in bots.items():
                try:
                    pairs.append((int(k), v))
                except (TypeError, ValueError) as e:
                    raise ProtocolError("bad_bots", "Bot seats must be seat numbers.") from e
        elif isinstance(bots, list):
            free = [i for i, s in enumerate(seats) if s.empty]
            if len(bots) > len(free):
                raise ProtocolError("bad_bots", "More bots than free seats.")
            pairs = list(zip(free, bots, strict=False))
        else:
            raise ProtocolError("bad_bots", "bots must be a list of levels or {seat: level}.")
        out = []
        for s, level in sorted(pairs):
            if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
                raise ProtocolError("bad_bots", "Bot levels are 1-5.")
            if not 0 <= s < len(seats) or not seats[s].empty:
                raise ProtocolError("bad_bots", f"Seat {s} is not free.")
            out.append((s, level))
        return out

    async def quick_play(
        self,
        user: User,
        game: str,
        players: int | None,
        level: int,
        address: str | None = None,
        rated: bool | None = None,
        stake: Any = None,
    ) -> Table:
        """The first open public table of ``game`` with a free seat and the same stake
        terms, else a new table with bots in every other seat (which starts at once).
        ``rated`` None: a rated table of people if there is one (a casual one else), a
        casual table against bots; guests play casual games only."""
        spec = game_of(game)
        terms = parse_stake(stake, game)
        if user.guest:
            rated = False
        async with self._create_lock:  # one quick play at a time: no two half-full tables
            found = [
                t
                for t in self.tables.values()
                if t.row.game == game
                and not t.row.private
                and t.row.status == "open"
                and (players is None or t.row.players == players)
                and (rated is None or t.row.rated == rated)
                and t.row.stake == terms
            ]
            found.sort(key=lambda t: not t.row.rated)  # stable: rated first, else as before
            for t in found:
                if t.seat_of(user.id) is not None:
                    return t
                if any(s.empty for s in t.row.seats):
                    try:
                        mark = ratings.address_mark(address)
                        await t.sit(user.id, user.name, None, user.guest, mark)
                        return t
                    except ProtocolError:
                        continue
        n = players or spec.default_players
        return await self.create(
            user,
            game,
            n,
            bots=[level] * (n - 1),
            address=address,
            rated=bool(rated),
            stake=terms,
        )

    async def games_of(self, user: User) -> list[dict[str, Any]]:
        out = []
        for row in await self.store.tables_of(user.id):
            live = self.tables.get(row.id)
            info = live.info() if live is not None else None
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "players": row.players,
                    "status": row.status,
                    "seat": next(
                        (i for i, s in enumerate(row.seats) if s.user_id == user.id), None
                    ),
                    "seats": info["seats"] if info else [s.to_json() for s in row.seats],
                    "result": row.result,
                    "created_ms": row.created_ms,
                    "finished_ms": row.finished_ms,
                }
            )
        return out
