"""Table leases with fencing tokens (#14): one owner at a time, a new token at every change
of owner, and a write under an old token refused inside its own transaction, on SQLite and
(with ``KOZYR_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import func, insert, select
from tests.server.test_ledger import BACKENDS, run

from kozyr.server.storage import leases
from kozyr.server.storage import models as m
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import Seat, Store, TableRow

TTL = 5_000


async def acquire(store: Store, owner: str, now: int) -> leases.Lease | None:
    async with store.engine.begin() as conn:
        return await leases.acquire(conn, "t1", owner, TTL, now)


async def write_action(store: Store, lease: leases.Lease, seq: int) -> None:
    """An action written the way an owner writes: fenced in its own transaction."""
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(m.actions).values(
                table_id="t1",
                seq=seq,
                seat=0,
                actor="bot",
                action_text="AS",
                client_action_id=None,
                created_ms=0,
            )
        )
        await leases.check(conn, lease)


async def actions(store: Store) -> int:
    async with store.engine.connect() as conn:
        return int(await conn.scalar(select(func.count()).select_from(m.actions)) or 0)


async def with_table(store: Store) -> None:
    await store.insert_table(
        TableRow("t1", "imperial", 2, {"players": 2}, 1, [Seat(bot=1), Seat(bot=1)])
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_owner_at_a_time_and_a_new_token_at_each_change(backend: str) -> None:
    async def body(store: Store) -> None:
        await with_table(store)
        a = await acquire(store, "A", now=1_000)
        assert a is not None and a.token == 1 and a.expires_ms == 6_000
        assert await acquire(store, "B", now=5_999) is None  # A's lease still runs
        renewed = await acquire(store, "A", now=5_000)
        assert renewed is not None and renewed.token == 1 and renewed.expires_ms == 10_000
        assert await acquire(store, "B", now=9_999) is None
        b = await acquire(store, "B", now=10_000)  # expired: B takes it with a new token
        assert b is not None and (b.owner, b.token) == ("B", 2)
        again = await acquire(store, "A", now=10_001)
        assert again is None

    run(backend, body)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_write_under_a_lost_lease_is_refused_with_its_whole_transaction(backend: str) -> None:
    async def body(store: Store) -> None:
        await with_table(store)
        a = await acquire(store, "A", now=0)
        assert a is not None
        await write_action(store, a, 1)
        # A pauses past its lease; B takes the table over and writes seq 2.
        b = await acquire(store, "B", now=TTL)
        assert b is not None and b.token == 2
        await write_action(store, b, 2)
        # A wakes up and tries to write its seq 2: fenced, and its row is not kept.
        with pytest.raises(Fenced):
            await write_action(store, a, 3)
        assert await actions(store) == 2

    run(backend, body)


@pytest.mark.parametrize("backend", BACKENDS)
def test_release_lets_another_process_take_the_table_at_once(backend: str) -> None:
    async def body(store: Store) -> None:
        await with_table(store)
        a = await acquire(store, "A", now=0)
        assert a is not None
        async with store.engine.begin() as conn:
            await leases.release(conn, a, now_ms=100)
        b = await acquire(store, "B", now=100)
        assert b is not None and b.token == 2
        with pytest.raises(Fenced):
            await write_action(store, a, 1)

    run(backend, body)


@pytest.mark.skipif(
    not os.environ.get("KOZYR_TEST_POSTGRES_URL"), reason="needs KOZYR_TEST_POSTGRES_URL"
)
def test_postgres_a_takeover_waits_for_the_owner_s_commit_and_one_racer_wins() -> None:
    async def body(store: Store) -> None:
        await with_table(store)
        a = await acquire(store, "A", now=0)
        assert a is not None
        async with store.engine.connect() as conn:
            trans = await conn.begin()
            await leases.check(conn, a)  # A is writing an action: the row is locked
            takeover = asyncio.create_task(acquire(store, "B", now=TTL))
            await asyncio.sleep(0.3)
            assert not takeover.done()  # B waits for A's commit
            await trans.commit()
        b = await takeover
        assert b is not None and b.token == 2
        # Ten processes race for an expired lease: exactly one gets it.
        won = await asyncio.gather(*(acquire(store, f"P{i}", now=3 * TTL) for i in range(10)))
        winners = [w for w in won if w is not None]
        assert len(winners) == 1 and winners[0].token == 3

    run("postgres", body)
