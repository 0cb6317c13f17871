"""Tables of bots alone (no person seated): their bots play only while a connection
watches, so such a table left alone costs no CPU, after a restart too; and an account and
the server may have only so many of them (``too_many_bot_tables``, docs/deploy.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from tests.server.cluster_support import postgres_base_url
from tests.server.support import fresh_postgres

from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings, sqlite_url
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.lobby import Lobby
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import Client, ProtocolError

pytestmark = pytest.mark.asyncio

BOTS: dict[str, Any] = {"game": "imperial", "players": 2, "bots": [1, 1], "sit": False}


class Fan(Client):
    """A spectator's connection whose frames are read at once; counts the updates."""

    def __init__(self, user: User) -> None:
        super().__init__(user)
        self.updates = 0
        self._wanted = 0
        self._enough = asyncio.Event()
        self.attach(self._read)

    def _read(self) -> None:
        for text in self.take():
            self.written(text)
            if json.loads(text)["type"] == "update":
                self.updates += 1
        if self.updates >= self._wanted:
            self._enough.set()

    async def until(self, updates: int) -> None:
        """Returns once ``updates`` update frames have come (60 s at most: the quick lane's
        four workers on two cores once starved a table's bots of its first six moves for
        20 s; a table whose bots never start still fails, and says how far it got)."""
        self._wanted = updates
        self._enough.clear()
        self._read()
        try:
            await asyncio.wait_for(self._enough.wait(), 60)
        except TimeoutError:
            raise AssertionError(f"{self.updates} of {updates} updates in 60 s") from None


def settings_of(tmp_path: Path, **extra: Any) -> Settings:
    fields: dict[str, Any] = {
        "data": tmp_path,
        "database_url": sqlite_url(tmp_path),
        "redis_url": None,
        "bot_delay": 0.0,
        "bot_kind": "random",
        "max_open_tables": 0,
        "max_open_tables_per_address": 0,
    }
    return Settings(**{**fields, **extra})


async def new_store(settings: Settings) -> Store:
    store = Store(settings.url)
    await store.migrate()
    return store


async def bots_table(lobby: Lobby, user: User, **extra: Any) -> Table:
    return await lobby.create(user, **{**BOTS, **extra})


async def test_bots_alone_play_only_while_watched_and_stay_idle_after_a_restart(
    tmp_path: Path,
) -> None:
    settings = settings_of(tmp_path, max_bot_tables=0)  # three of one account's below
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        user = await store.create_user("Olga", None, guest=True)
        idle = await bots_table(lobby, user)
        watched = await bots_table(lobby, user)
        assert idle.playing and watched.playing
        fan = Fan(User(1000, "fan", True))
        await watched.watch(fan, None)
        await fan.until(6)
        # six moves at the watched table, none at the other: its bots never even started
        assert watched.seq >= 6
        assert idle.seq == 0 and not idle.turns.bot_pending
        # the last watcher goes: that table's bots wait too (nothing half-way goes on)
        await watched.unwatch(fan)
        assert not watched.turns.bot_pending
        paused_at = watched.seq
        other = Fan(User(1001, "other", True))
        await idle.watch(other, None)  # now the other one plays
        await other.until(6)
        assert watched.seq == paused_at and not watched.turns.bot_pending
        await idle.unwatch(other)
        counts = {t.id: t.seq for t in (idle, watched)}
        assert await store.action_count(idle.id) == counts[idle.id]
    finally:
        await lobby.close()
        await store.close()

    # a restart: both come back as they were, and neither plays by itself
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        assert await lobby.restore() == 2
        again = {t: lobby.get(t) for t in counts}
        for table_id, table in again.items():
            assert table.playing and table.seq == counts[table_id]
            assert not table.turns.bot_pending
        third = await bots_table(lobby, user)
        fan = Fan(User(1002, "fan", True))
        await third.watch(fan, None)
        await fan.until(6)
        for table_id, table in again.items():
            assert table.seq == counts[table_id] and not table.turns.bot_pending
            assert await store.action_count(table_id) == counts[table_id]
        # a watcher wakes a restored one
        back, late = again[watched.id], Fan(User(1003, "late", True))
        await back.watch(late, None)
        await late.until(2)
        assert back.seq >= counts[watched.id] + 2
        await back.unwatch(late)
        await third.unwatch(fan)
    finally:
        await lobby.close()
        await store.close()


def refused(e: pytest.ExceptionInfo[ProtocolError]) -> bool:
    body = e.value.to_json()
    return (
        e.value.status == 429
        and body["code"] == "too_many_bot_tables"
        and "bots alone" in body["message"]
        and "одни боты" in body["message_ru"]
    )


async def test_tables_of_bots_alone_are_limited_per_account_and_in_all(tmp_path: Path) -> None:
    settings = settings_of(tmp_path, max_bot_tables=2, max_bot_tables_total=3)
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        a, b, c = [await store.create_user(n, None, guest=True) for n in ("Ann", "Bob", "Cid")]
        await bots_table(lobby, a)
        await bots_table(lobby, a)
        with pytest.raises(ProtocolError) as e:
            await bots_table(lobby, a)
        assert refused(e)
        # a table with a person seated is not one of them
        await lobby.create(a, "imperial", 2, bots=[1], turn_timeout=None)
        await bots_table(lobby, b)  # the server's third
        with pytest.raises(ProtocolError) as e:
            await bots_table(lobby, c)
        assert refused(e)
        # nor may the last seat be given a bot when that makes one more
        half = await bots_table(lobby, c, bots=[1])
        assert half.row.status == "open"
        with pytest.raises(ProtocolError) as e:
            await half.set_bot(c.id, 1, 1)
        assert refused(e)
        assert half.row.status == "open" and half.row.seats[1].empty
        assert (await store.table(half.id)) is not None
        assert (await store.table(half.id)).status == "open"  # type: ignore[union-attr]
    finally:
        await lobby.close()
        await store.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_the_limits_count_every_process_tables_from_the_database(
    tmp_path: Path, database: str
) -> None:
    """Two lobbies (two processes' worth, cluster mode) over one database: each counts the
    other's tables of bots alone, which only the database holds."""
    url = sqlite_url(tmp_path)
    if database == "postgres":  # (this case alone is in the slow lane: tests/conftest.py)
        new_database = fresh_postgres
        url = await new_database(postgres_base_url())
    settings = settings_of(
        tmp_path,
        database_url=url,
        max_bot_tables=1,
        max_bot_tables_total=2,
        redis_url="redis://127.0.0.1:1/0",  # cluster mode; these lobbies never reach it
    )
    stores = [await new_store(settings), await new_store(settings)]
    one, two = [Lobby(store, settings, Metrics(), LocalBus()) for store in stores]
    try:
        a, b, c = [await stores[0].create_user(n, None, guest=True) for n in ("Ann", "Bob", "Cid")]
        await bots_table(one, a)
        with pytest.raises(ProtocolError) as e:
            await bots_table(two, a)  # the first is on the other process
        assert refused(e)
        await bots_table(two, b)
        with pytest.raises(ProtocolError) as e:
            await bots_table(one, c)  # the server's two: one on each process
        assert refused(e)
        half = await bots_table(one, c, bots=[1])
        with pytest.raises(ProtocolError) as e:
            await half.set_bot(c.id, 1, 1)
        assert refused(e)
        assert len(await stores[0].unfinished_tables()) == 3  # the refused were rolled back
    finally:
        for lobby in (one, two):
            await lobby.close()
        for store in stores:
            await store.close()
