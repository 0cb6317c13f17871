"""Tables of bots alone take a bounded share (issue 43, item 5): their bots think in a
pool of their own, they end once nobody has watched them for a while (their open bets
refunded through the ledger, their place freed), and one address (an IPv6 /64) may have
only so many of them, whatever its number of accounts."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from tests.server.betting_support import escrows, grant, problems, settlements
from tests.server.cluster_support import postgres_base_url
from tests.server.support import fresh_postgres
from tests.server.test_bots_alone import Fan, bots_table, new_store, settings_of

from kozyr.server.money import escrow
from kozyr.server.money.betting import chips_in_bets
from kozyr.server.money.ledger import Account
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings, sqlite_url
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.bot_pools import ALONE_PREFIX, PacedPool
from kozyr.server.tables.lobby import Lobby
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import ProtocolError

pytestmark = pytest.mark.asyncio


class Thinker:
    """A bot that notes the thread it thinks in and how many think at once; with a
    ``gate`` it thinks until the gate opens (30 s at most)."""

    lock = threading.Lock()

    def __init__(self, seen: dict[str, Any], gate: threading.Event | None = None) -> None:
        self.seen = seen
        self.gate = gate

    def choose(self, _observation: Any, legal: list[int], _budget: float) -> int:
        with self.lock:
            self.seen["now"] += 1
            self.seen["peak"] = max(self.seen["peak"], self.seen["now"])
            self.seen["threads"].add(threading.current_thread().name)
        try:
            if self.gate is not None:
                self.seen["held"].set()
                self.gate.wait(30)
            else:
                time.sleep(0.002)  # (widens the overlap two threads would have)
        finally:
            with self.lock:
                self.seen["now"] -= 1
        return legal[0]


def thinkers(
    table: Table, gate: threading.Event | None = None, seen: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``table``'s bots made :class:`Thinker` s, noting into ``seen`` (a new one if None)."""
    if seen is None:
        seen = {"now": 0, "peak": 0, "threads": set(), "held": threading.Event()}
    table.turns.bots = {seat: Thinker(seen, gate) for seat in table.turns.bots}  # type: ignore[misc]
    return seen


async def test_bots_alone_think_apart_and_leave_people_s_tables_their_threads(
    tmp_path: Path,
) -> None:
    settings = settings_of(tmp_path, max_bot_tables=0, bot_alone_threads=1)
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    gate = threading.Event()
    try:
        olga = await store.create_user("Olga", None, guest=True)
        alone = [await bots_table(lobby, olga) for _ in range(3)]
        seen = thinkers(alone[0])
        for table in alone[1:]:
            thinkers(table, seen=seen)  # (one tally for the three)
        fans = [Fan(User(1000 + i, f"fan{i}", True)) for i in range(3)]
        for table, fan in zip(alone, fans, strict=True):
            await table.watch(fan, None)
        for fan in fans:
            await fan.until(4)
        for table, fan in zip(alone, fans, strict=True):
            await table.unwatch(fan)
        # every decision at the three tables ran in the one thread of their own pool
        threads = seen["threads"]
        assert threads and all(n.startswith(ALONE_PREFIX) for n in threads), threads
        assert len(threads) == 1
        assert seen["peak"] == 1  # one decision at a time over the three tables

        # That thread held for good by a table of bots alone: a table where a person
        # sits (here away, a bot playing for him) still gets its moves, in the other pool.
        stuck = await bots_table(lobby, olga)
        held = thinkers(stuck, gate)
        late = Fan(User(1010, "late", True))
        await stuck.watch(late, None)
        assert await _wait_for(held["held"])
        ivan = await store.create_user("Ivan", None, guest=True)
        people = await lobby.create(ivan, "imperial", 2, bots=[1], turn_timeout=None)
        mine = thinkers(people)
        await people.leave(ivan.id)  # away: a bot plays his seat as well
        watcher = Fan(User(1011, "watcher", True))
        await people.watch(watcher, None)
        await watcher.until(4)
        assert mine["threads"] and not any(n.startswith(ALONE_PREFIX) for n in mine["threads"])
        assert stuck.seq == 0
    finally:
        gate.set()
        await lobby.close()
        await store.close()


async def _wait_for(event: threading.Event) -> bool:
    """The event set in a worker thread (waited for in that thread's own time, 30 s at
    most, without blocking the loop)."""
    import asyncio

    return await asyncio.get_running_loop().run_in_executor(None, event.wait, 30)


# -- unwatched tables end ----------------------------------------------------------------


async def _store_for(tmp_path: Path, database: str, **extra: Any) -> tuple[Settings, Store]:
    url = sqlite_url(tmp_path)
    if database == "postgres":  # (this case alone is in the slow lane: tests/conftest.py)
        new_database = fresh_postgres
        url = await new_database(postgres_base_url())
    settings = settings_of(tmp_path, database_url=url, **extra)
    store = await new_store(settings)
    # the stakes' escrow, as the server hooks it (services.py)
    store.on_start.append(escrow.escrow_at_start)
    store.on_finish.append(escrow.settle_at_finish)
    return settings, store


async def _stored_status(store: Store, table_id: str) -> tuple[str, Any, Any]:
    t = m.game_tables.c
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(select(t.status, t.result, t.finished_ms).where(t.id == table_id))
        ).one()
    return row.status, row.result, row.finished_ms


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_an_unwatched_table_of_bots_alone_ends_and_refunds_its_bets(
    tmp_path: Path, database: str
) -> None:
    settings, store = await _store_for(
        tmp_path, database, max_bot_tables=2, max_bot_tables_total=0, bot_table_idle=300.0
    )
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    gate = threading.Event()
    try:
        olga = await store.create_user("Olga", None, guest=True)
        ann, bob = [await store.create_user(n, None, guest=False) for n in ("Ann", "Bob")]
        for person in (ann, bob):
            await grant(store, person.id, 1000)
        # a stake table: the house backs both bots' holds (escrow at the start)
        idle = await bots_table(lobby, olga, stake={"kind": "per_imperial", "chips": 5})
        watched = await bots_table(lobby, olga)
        assert (await escrows(store, idle.id)) == 0
        held = await _balance(store, Account.escrow(idle.id))
        assert held > 0
        # bets on deal 2's markets, open from the start
        tricks, capot = idle.bets.book.open["deal.2.tricks.0"], idle.bets.book.open["deal.2.capot"]
        await idle.bet(ann, tricks.id, tricks.outcomes[0], 30, "a1")
        await idle.bet(bob, tricks.id, tricks.outcomes[1], 20, "b1")
        await idle.bet(ann, capot.id, capot.outcomes[0], 7, "a2")
        assert await _balance(store, Account.wallet(ann.id)) == 1000 - 30 - 7
        assert await _balance(store, Account.wallet(bob.id)) == 1000 - 20
        # watched all along (its bots held: the game must not end meanwhile)
        thinkers(watched, gate)
        fan = Fan(User(1000, "fan", True))
        await watched.watch(fan, None)

        sweep = lobby.idle_bots.sweep
        assert await sweep(now=1000.0) == 0  # first seen unwatched at 1000
        assert await sweep(now=1299.0) == 0  # 299 s: not yet
        assert idle.row.status == "playing"
        # her limit of two is full: a third is refused until one ends
        with pytest.raises(ProtocolError) as e:
            await bots_table(lobby, olga)
        assert e.value.code == "too_many_bot_tables"

        assert await sweep(now=1300.0) == 1  # 300 s without a watcher: it ends
        assert idle.row.status == "finished" and idle.row.result is None
        assert watched.row.status == "playing"  # watched: it plays on
        status, result, finished_ms = await _stored_status(store, idle.id)
        assert (status, result) == ("finished", None) and finished_ms is not None
        # every bet back in its wallet, the stake's escrow back with the house
        assert await _balance(store, Account.wallet(ann.id)) == 1000
        assert await _balance(store, Account.wallet(bob.id)) == 1000
        assert await escrows(store, idle.id) == 0
        assert await _balance(store, Account.escrow(idle.id)) == 0
        assert await settlements(store, idle.id) == {tricks.id: 1, capot.id: 1}
        tx = m.ledger_transactions.c
        async with store.engine.connect() as conn:
            assert await chips_in_bets(conn, ann.id) == 0
            kinds = (await conn.execute(select(tx.kind).where(tx.key == f"refund:{idle.id}"))).all()
        assert [k for (k,) in kinds] == ["refund"]
        assert await problems(store) == []
        # her place is free again
        again = await bots_table(lobby, olga)
        assert await sweep(now=1301.0) == 0  # (just seen: a watcher may still come)
        # A second sweep moves nothing twice.
        assert await sweep(now=5000.0) == 1  # (the new one, never watched)
        assert again.row.status == "finished"
        assert await _balance(store, Account.wallet(ann.id)) == 1000
        await watched.unwatch(fan)
    finally:
        gate.set()
        await lobby.close()
        await store.close()

    # A restart: the ended table stays ended, its bets refunded once, its markets
    # settled (no bet can be taken on one that was open when it ended).
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        assert await lobby.restore() == 1  # the watched one alone
        await lobby.idle_bots.stop()  # this test drives the sweep itself, with its clock
        assert await settlements(store, idle.id) == {tricks.id: 1, capot.id: 1}
        row = await store.table(idle.id)
        assert row is not None
        book = await lobby.finished_bets(row)
        states = {mid: book.state_of(mid) for mid in book.book.markets}
        assert set(states.values()) == {"settled"}, states
        for market in (capot, book.book.markets["deal.2.first_mark"]):  # (that one: no bet)
            with pytest.raises(ProtocolError) as e:
                await book.place(ann, False, -1, market.id, market.outcomes[0], 5, "a3")
            assert e.value.code == "market_settled"
        # the restored one, unwatched, ends in its turn
        restored = lobby.get(watched.id)
        assert await lobby.idle_bots.sweep(now=10.0) == 0
        assert await lobby.idle_bots.sweep(now=310.0) == 1
        assert restored.row.status == "finished"
        assert await _balance(store, Account.wallet(ann.id)) == 1000
        assert await problems(store) == []
    finally:
        await lobby.close()
        await store.close()


async def test_a_table_that_moved_since_the_last_look_was_watched(tmp_path: Path) -> None:
    """A watcher who came and went between two looks counts: the table's bots moved."""
    settings = settings_of(tmp_path, max_bot_tables=0, bot_table_idle=300.0)
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        olga = await store.create_user("Olga", None, guest=True)
        table = await bots_table(lobby, olga)
        person = await lobby.create(olga, "imperial", 2, bots=[1], turn_timeout=None)
        sweep = lobby.idle_bots.sweep
        assert await sweep(now=0.0) == 0
        fan = Fan(User(1000, "fan", True))
        await table.watch(fan, None)
        await fan.until(2)
        await table.unwatch(fan)
        assert await sweep(now=300.0) == 0  # it moved: the time starts again
        assert table.row.status == "playing"
        assert await sweep(now=599.0) == 0
        assert await sweep(now=600.0) == 1
        assert table.row.status == "finished"
        # a table where a person sits never ends this way
        assert person.row.status == "playing"
        assert await sweep(now=10_000.0) == 0
    finally:
        await lobby.close()
        await store.close()


async def _balance(store: Store, acct: Account) -> int:
    from kozyr.server.money import ledger

    async with store.engine.connect() as conn:
        return await ledger.balance(conn, acct)


# -- one address, many guests --------------------------------------------------------


def address_refusal(e: pytest.ExceptionInfo[ProtocolError]) -> bool:
    body = e.value.to_json()
    return (
        e.value.status == 429
        and body["code"] == "too_many_bot_tables_address"
        and "your network" in body["message"]
        and "вашей сети" in body["message_ru"]
    )


async def test_tables_of_bots_alone_are_limited_per_address_an_ipv6_by_its_64(
    tmp_path: Path,
) -> None:
    settings = settings_of(
        tmp_path, max_bot_tables=2, max_bot_tables_per_address=3, max_bot_tables_total=50
    )
    store = await new_store(settings)
    lobby = Lobby(store, settings, Metrics(), LocalBus())
    try:
        guests = [await store.create_user(f"g{i}", None, guest=True) for i in range(6)]
        a, b, c, d, e4, f = guests
        home = "2001:db8:1:2::10"
        await bots_table(lobby, a, address=home)
        await bots_table(lobby, a, address=home)
        await bots_table(lobby, b, address="2001:db8:1:2:ffff::20")  # the same /64: 3
        with pytest.raises(ProtocolError) as e:
            await bots_table(lobby, c, address="2001:DB8:1:2:abcd:1:2:3")
        assert address_refusal(e)
        # a table with a person seated is not one of them
        await lobby.create(c, "imperial", 2, bots=[1], turn_timeout=None, address=home)
        # nor may the last seat be given a bot when that makes one more from there
        half = await bots_table(lobby, c, bots=[1], address=home)
        with pytest.raises(ProtocolError) as e:
            await half.set_bot(c.id, 1, 1)
        assert address_refusal(e)
        assert half.row.status == "open" and half.row.seats[1].empty
        # the next /64, and an IPv4 address, are other addresses
        await bots_table(lobby, d, address="2001:db8:1:3::10")
        await bots_table(lobby, e4, address="203.0.113.7")
        await bots_table(lobby, f, address="::ffff:203.0.113.8")
        assert len(lobby.tables) == 8
    finally:
        await lobby.close()
        await store.close()


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_the_address_limit_counts_every_process_tables(tmp_path: Path, database: str) -> None:
    """Two lobbies (cluster mode) over one database: each counts the other's tables of
    bots alone from the same /64."""
    url = sqlite_url(tmp_path)
    if database == "postgres":
        new_database = fresh_postgres
        url = await new_database(postgres_base_url())
    settings = settings_of(
        tmp_path,
        database_url=url,
        max_bot_tables=0,
        max_bot_tables_per_address=2,
        max_bot_tables_total=0,
        redis_url="redis://127.0.0.1:1/0",  # cluster mode; these lobbies never reach it
    )
    stores = [await new_store(settings), await new_store(settings)]
    one, two = [Lobby(store, settings, Metrics(), LocalBus()) for store in stores]
    try:
        a, b, c = [await stores[0].create_user(n, None, guest=True) for n in ("Ann", "Bob", "Cid")]
        await bots_table(one, a, address="2001:db8:7:7::1")
        await bots_table(two, b, address="2001:db8:7:7::2")
        with pytest.raises(ProtocolError) as e:
            await bots_table(one, c, address="2001:db8:7:7::3")
        assert address_refusal(e)
        half = await bots_table(two, c, bots=[1], address="2001:db8:7:7::3")
        with pytest.raises(ProtocolError) as e:
            await half.set_bot(c.id, 1, 1)
        assert address_refusal(e)
        await bots_table(one, c, address="2001:db8:7:8::3")  # another /64
        assert len(await stores[0].unfinished_tables()) == 4  # the refused were rolled back
    finally:
        for lobby in (one, two):
            await lobby.close()
        for store in stores:
            await store.close()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("KOZYR_BOT_TABLE_IDLE", "9"),
        ("KOZYR_BOT_TABLE_IDLE", "86401"),
        ("KOZYR_BOT_ALONE_THREADS", "0"),
        ("KOZYR_BOT_ALONE_THREADS", "9"),
        ("KOZYR_MAX_BOT_TABLES_PER_ADDRESS", "-1"),
        ("KOZYR_MAX_BOT_TABLES_PER_ADDRESS", "1001"),
    ],
)
async def test_the_settings_have_ranges(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        Settings()


async def test_the_settings_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KOZYR_BOT_TABLE_IDLE", "KOZYR_BOT_ALONE_THREADS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("KOZYR_MAX_BOT_TABLES_PER_ADDRESS", raising=False)
    settings = Settings()
    assert settings.bot_table_idle == 300.0
    assert settings.bot_alone_threads == 1
    assert settings.max_bot_tables_per_address == 6


async def test_the_bots_alone_think_for_a_bounded_share_of_the_time() -> None:
    """A quarter share: after a decision of 1 s the pool rests 3 s before the next one, so
    that three decisions of 1 s, submitted at once, take 1 + 3 + 1 + 3 + 1 = 9 s, of which
    3 of thinking; sleeping is how it rests (the event loop then has the lock)."""
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    def decide() -> str:
        now[0] += 1.0  # a decision of one second
        return "card"

    pool = PacedPool(1, 0.25, "test-paced", clock=lambda: now[0], sleep=sleep)
    try:
        futures = [pool.submit(decide) for _ in range(3)]
        assert [f.result() for f in futures] == ["card"] * 3
    finally:
        pool.shutdown()
    assert slept == [3.0, 3.0]
    assert now[0] == 9.0


async def test_the_share_setting_has_a_range(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOZYR_BOT_ALONE_SHARE", "0.5")
    assert Settings().bot_alone_share == 0.5
    for bad in ("0", "0.04", "1.5", "-1", "all"):
        monkeypatch.setenv("KOZYR_BOT_ALONE_SHARE", bad)
        with pytest.raises(ValueError):
            Settings()
