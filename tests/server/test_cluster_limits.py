"""The abuse limits over several processes (cluster mode): login attempts and new accounts
counted in Redis, unfinished tables per account and per address counted in the shared
database; and the Redis sliding window itself against a real ``redis-server``.

The window tests need only ``redis-server``; the cluster tests PostgreSQL too
(``KOZYR_TEST_POSTGRES_URL``). The fixtures skip them, naming what is missing, elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as redis
from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from tests.server.cluster_support import ClusterFactory, Node, RedisServer, postgres_base_url
from tests.server.support import Player, fresh_postgres

from kozyr.server.accounts.redis_throttle import RedisThrottles, RedisWindow, run
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings, normalise_database_url
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, TableRow
from kozyr.server.tables.lobby import Lobby
from kozyr.server.transport.protocol import ProtocolError

pytestmark = pytest.mark.asyncio

PASSWORD = "correct horse 1"
START_WAIT = 300
"""Seconds a node may take to start on a machine shared by many test runs."""


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def started(cluster: ClusterFactory, env: dict[str, str]) -> tuple[Node, Node]:
    nodes = cluster(2, env=env, start=False)
    for node in nodes:
        node.start_timeout = START_WAIT
    nodes[0].start()
    nodes[1].start()
    return nodes[0], nodes[1]


# -- the Redis window ---------------------------------------------------------------


async def test_redis_window_counts_the_last_window_only(redis_server: RedisServer) -> None:
    client = redis.from_url(redis_server.url)
    clock = FakeClock()
    w = RedisWindow(client, "t", 3, 60, clock)
    try:
        for t in (0, 10, 20):
            clock.now = 1000 + t
            assert await w.hit("k") is None
        clock.now = 1030
        # the oldest counted hit (t=0) leaves the window at t=60: 30 s from t=30
        assert await w.hit("k") == pytest.approx(30.0)
        assert await w.retry_after("k") == pytest.approx(30.0)
        assert await w.hit("other") is None
        clock.now = 1059.5
        assert await w.hit("k") == pytest.approx(0.5)
        clock.now = 1060
        assert await w.hit("k") is None  # t=0 is out; t=10, 20, 60 are in
        clock.now = 1065
        assert await w.hit("k") == pytest.approx(5.0)  # t=10 leaves at 70
        # the key expires one window after its last hit (t=60): no idle key stays
        ttl = await client.pttl(w.key("k"))
        assert 0 < ttl <= 60_000
    finally:
        await client.aclose()


async def test_refused_hits_are_not_counted(redis_server: RedisServer) -> None:
    client = redis.from_url(redis_server.url)
    clock = FakeClock()
    w = RedisWindow(client, "t", 1, 60, clock)
    try:
        assert await w.retry_after("k") is None
        assert await client.exists(w.key("k")) == 0  # asking records nothing
        assert await w.hit("k") is None
        for t in range(1, 60):
            clock.now = 1000 + t
            assert await w.hit("k") == pytest.approx(60 - t)
        assert await client.zcard(w.key("k")) == 1
        clock.now = 1060
        assert await w.hit("k") is None
    finally:
        await client.aclose()


async def test_two_processes_share_one_window(redis_server: RedisServer) -> None:
    # two clients and two window objects: what two server processes have
    one, two = redis.from_url(redis_server.url), redis.from_url(redis_server.url)
    clock = FakeClock()
    a, b = (
        RedisWindow(one, "accounts", 3, 3600, clock),
        RedisWindow(two, "accounts", 3, 3600, clock),
    )
    try:
        await a.record("1.1.1.1")
        clock.now = 1010
        await b.record("1.1.1.1")
        clock.now = 1020
        assert await a.retry_after("1.1.1.1") is None  # 2 of 3
        await a.record("1.1.1.1")  # the same instant twice still counts twice
        # the first (t=1000) leaves at t=4600: 3580 s from t=1020
        assert await b.retry_after("1.1.1.1") == pytest.approx(3580.0)
        assert await a.hit("2.2.2.2") is None
    finally:
        await one.aclose()
        await two.aclose()


async def test_login_counts_the_name_and_the_address_or_neither(
    redis_server: RedisServer,
) -> None:
    client = redis.from_url(redis_server.url)
    clock = FakeClock()
    name = RedisWindow(client, "login-name", 2, 60, clock)
    address = RedisWindow(client, "login-address", 2, 60, clock)

    async def login(n: str, a: str) -> float | None:
        return await run(name, "hit", [(name, n), (address, a)])

    try:
        assert await login("olga", "1.1.1.1") is None
        assert await login("olga", "2.2.2.2") is None
        assert await login("olga", "3.3.3.3") == 60  # the name is at its limit
        assert await login("ivan", "1.1.1.1") is None
        assert await login("boris", "1.1.1.1") == 60  # the address is at its limit
        # the refused attempts counted against neither key
        assert await client.zcard(address.key("3.3.3.3")) == 0
        assert await login("boris", "4.4.4.4") is None
    finally:
        await client.aclose()


async def test_two_processes_at_once_cannot_both_take_the_last_account(
    redis_server: RedisServer,
) -> None:
    """Two processes reserve accounts for one address at the same moment: with one place
    left exactly one gets it; a place given back (the name was taken) is free again."""
    one = RedisThrottles(redis_server.url, 5, 60, 3, 3600)
    two = RedisThrottles(redis_server.url, 5, 60, 3, 3600)
    try:
        for _ in range(2):  # 2 of 3 made
            assert (await one.reserve_account("2.2.2.2"))[0] is None
        got = await asyncio.gather(*(t.reserve_account("2.2.2.2") for t in (one, two) * 3))
        holds = [hold for wait, hold in got if hold is not None]
        assert len(holds) == 1
        assert all(wait is not None and 0 < wait <= 3600 for wait, hold in got if hold is None)
        # the one account was not made after all: its place is free again, once
        await two.release_account(holds[0])
        again = await asyncio.gather(*(t.reserve_account("2.2.2.2") for t in (two, one)))
        assert sorted(hold is None for _, hold in again) == [False, True]
    finally:
        await one.close()
        await two.close()


async def test_guests_and_accounts_are_counted_apart_over_processes(
    redis_server: RedisServer,
) -> None:
    """The guests' allowance is a window of its own in Redis: two processes share it, it
    is bounded, and neither window spends the other's places; a guest's place given back
    goes back to the guests' window."""
    one = RedisThrottles(redis_server.url, 5, 60, 1, 3600, guest_limit=3)
    two = RedisThrottles(redis_server.url, 5, 60, 1, 3600, guest_limit=3)
    try:
        got = await asyncio.gather(*(t.reserve_account("3.3.3.3", "guest") for t in (one, two) * 3))
        holds = [hold for _, hold in got if hold is not None]
        assert len(holds) == 3 and all(h.kind == "guest" and h.member for h in holds)
        # the one account the address may make is still free, on either process
        wait, account = await two.reserve_account("3.3.3.3")
        assert wait is None and account is not None and account.kind == "account"
        assert (await one.reserve_account("3.3.3.3"))[1] is None
        await one.release_account(holds[0])
        assert (await two.reserve_account("3.3.3.3", "guest"))[1] is not None
        assert (await one.reserve_account("3.3.3.3", "guest"))[1] is None
    finally:
        await one.close()
        await two.close()


async def test_puzzle_answers_are_counted_over_processes(redis_server: RedisServer) -> None:
    """A person's puzzle answers are counted in Redis: two processes share his limit (3),
    and the address's (30); a refused answer counts nowhere."""
    one = RedisThrottles(redis_server.url, 5, 60, 1, 3600, answer_limit=3)
    two = RedisThrottles(redis_server.url, 5, 60, 1, 3600, answer_limit=3)
    try:
        got = await asyncio.gather(*(t.attempt_answer("user:1", "6.6.6.6") for t in (one, two) * 3))
        assert sorted(w is None for w in got) == [False] * 3 + [True] * 3
        assert all(w is not None and 0 < w <= 60 for w in got if w is not None)
        # 3 of the address's 30 taken: 27 more by nine others, then none
        for i in range(2, 11):
            for t in (one, two, one):
                assert await t.attempt_answer(f"user:{i}", "6.6.6.6") is None
        assert await two.attempt_answer("user:11", "6.6.6.6") is not None
        assert await one.attempt_answer("user:11", "7.7.7.7") is None
    finally:
        await one.close()
        await two.close()


async def test_uploads_and_hints_are_counted_over_processes(redis_server: RedisServer) -> None:
    """The routes' own windows (uploads per person and per address, hints per person) are
    shared by every process: a person's third upload is refused on either, counted for
    neither key, and a hint window is another window."""
    one = RedisThrottles(redis_server.url, 5, 60, 3, 3600)
    two = RedisThrottles(redis_server.url, 5, 60, 3, 3600)
    for t in (one, two):
        t.add("upload-person", 2, 60)
        t.add("upload-address", 3, 60)
        t.add("hint-person", 1, 60)
    both = [("upload-address", "4.4.4.4"), ("upload-person", "7")]
    try:
        assert await one.spend(both) is None
        assert await two.spend(both) is None
        wait = await one.spend(both)
        assert wait is not None and 0 < wait <= 60
        # the refused upload took no place of the address's: one is left, on either process
        assert await two.spend([("upload-address", "4.4.4.4")]) is None
        assert await one.spend([("upload-address", "4.4.4.4")]) is not None
        assert await one.spend([("hint-person", "7")]) is None
        assert await two.spend([("hint-person", "7")]) is not None
        assert one.named["upload-person"].retry_after("7") is None  # nothing in memory
    finally:
        await one.close()
        await two.close()


async def test_a_names_owner_is_not_locked_out_by_anothers_guesses_over_processes(
    redis_server: RedisServer,
) -> None:
    # Issue 43, item 6: the name's own window over every process is 10 times the address's
    # (Redis's own clock: a wait is at most the window, a moment less)
    def held(wait: float | None) -> bool:
        return wait is not None and 0 < wait <= 60

    one = RedisThrottles(redis_server.url, 2, 60, 5, 3600)
    two = RedisThrottles(redis_server.url, 2, 60, 5, 3600)
    try:
        assert await one.attempt_login("olga", "203.0.113.66") is None
        assert await two.attempt_login("olga", "203.0.113.66") is None
        assert held(await one.attempt_login("olga", "203.0.113.66"))  # that address is held
        assert await two.attempt_login("olga", "198.51.100.1") is None  # Olga is not
        # 2 x 10 = 20 for the name over all addresses: 3 counted, 17 more from others
        for i in range(17):
            assert await (one, two)[i % 2].attempt_login("olga", f"10.0.0.{i}") is None
        assert held(await one.attempt_login("olga", "10.0.1.1"))
    finally:
        await one.close()
        await two.close()


async def test_redis_lost_counts_in_memory_and_logs_once(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    throttles = RedisThrottles(redis_server.url, 2, 60, 5, 3600, clock)
    throttles.RETRY = 0  # try Redis at every call
    try:
        assert await throttles.attempt_login("olga", "1.1.1.1") is None  # in Redis
        redis_server.kill9()
        with caplog.at_level(logging.INFO, logger="kozyr.server.accounts.throttle"):
            # in memory: its window is empty, so two more go through, then 60 s to wait
            assert await throttles.attempt_login("olga", "1.1.1.1") is None
            assert await throttles.attempt_login("olga", "1.1.1.1") is None
            assert await throttles.attempt_login("olga", "1.1.1.1") == 60
            wait, hold = await throttles.reserve_account("1.1.1.1")
            assert wait is None and hold is not None and hold.member is None  # in memory
            assert throttles.accounts.retry_after("1.1.1.1") is None  # 1 of 5, in memory
            lost = [r for r in caplog.records if r.levelno == logging.ERROR]
            assert len(lost) == 1 and "counting in this process" in lost[0].getMessage()
            await asyncio.to_thread(redis_server.start)  # back, and empty
            assert await throttles.attempt_login("olga", "1.1.1.1") is None
            assert await throttles.attempt_login("olga", "1.1.1.1") is None
            # Redis's own clock now: the first of the two leaves within the window
            wait = await throttles.attempt_login("olga", "1.1.1.1")
            assert wait is not None and 0 < wait <= 60
        assert any("is back" in r.getMessage() for r in caplog.records)
    finally:
        await throttles.close()


# -- over two processes --------------------------------------------------------------


async def test_login_attempts_are_counted_over_both_processes(cluster: ClusterFactory) -> None:
    a, b = await asyncio.to_thread(started, cluster, {"KOZYR_LOGIN_LIMIT": "3"})
    to_a = httpx.AsyncClient(base_url=a.base, timeout=30)
    to_b = httpx.AsyncClient(base_url=b.base, timeout=30)
    try:
        r = await to_a.post("/api/register", json={"name": "Olga", "password": PASSWORD})
        assert r.status_code == 201, r.text
        for i, http in enumerate((to_a, to_b, to_a)):
            wrong = {"name": "olga", "password": f"wrong {i}"}
            assert (await http.post("/api/login", json=wrong)).status_code == 401
        # per process, b would have counted one attempt of three: the cluster counts three
        for http in (to_b, to_a):
            r = await http.post("/api/login", json={"name": "Olga", "password": PASSWORD})
            assert r.status_code == 429, r.text
            assert r.json()["code"] == "too_many_attempts" and r.json()["message_ru"]
            # the first attempt leaves the 60 s window within 60 s
            assert 1 <= int(r.headers["retry-after"]) <= 60
    finally:
        await to_a.aclose()
        await to_b.aclose()


async def _create(http: httpx.AsyncClient, body: dict[str, Any] | None = None) -> httpx.Response:
    return await http.post("/api/tables", json=body or {"game": "imperial"})


def _refused(r: httpx.Response) -> bool:
    return r.status_code == 429 and r.json()["code"] == "too_many_tables"


async def test_open_tables_are_counted_over_both_processes(cluster: ClusterFactory) -> None:
    env = {"KOZYR_MAX_OPEN_TABLES": "2", "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "6"}
    a, b = await asyncio.to_thread(started, cluster, env)
    people = [await Player(node).sign_in() for node in (a, b, a, b, a)]
    # each person's own session, through the other process as well
    other: list[httpx.AsyncClient] = [
        httpx.AsyncClient(
            base_url=(b if p.server is a else a).base,
            headers={"Cookie": p.cookie},
            timeout=30,
        )
        for p in people
    ]
    u1, u2, u3, u4, u5 = people
    try:
        # per account (2): one table on each process, the third refused on both
        assert (await _create(u1.http)).status_code == 201
        assert (await _create(other[0])).status_code == 201
        assert _refused(await _create(u1.http)), "per process, a had only one of u1's"
        assert _refused(await _create(other[0]))
        assert (await _create(u2.http)).status_code == 201  # another account may: 3 tables
        # four at once, two through each process: the limit holds, exactly 2 are made
        rs = await asyncio.gather(*(_create(h) for h in (u3.http, other[2]) * 2))
        assert sorted(r.status_code for r in rs) == [201, 201, 429, 429], [r.text for r in rs]
        assert all(_refused(r) for r in rs if r.status_code != 201)
        # per address (6): all of these come from 127.0.0.1; u4's table of bots alone makes
        # the sixth (it plays to its end by itself)
        bots = {"game": "imperial", "players": 2, "sit": False, "bots": [1, 1]}
        r = await _create(u4.http, bots)
        assert r.status_code == 201, r.text
        bots_table = r.json()["table"]["id"]
        await u4.spectate(bots_table)  # bots alone play while someone watches
        r = await _create(u5.http)
        assert _refused(r), "u5 has no table: the address's six refuse it"
        # once the bots' game is over, the address has five: u5 may, through the other
        deadline = time.monotonic() + 180
        while (await u4.http.get(f"/api/tables/{bots_table}")).json()["table"][
            "status"
        ] != "finished":
            assert time.monotonic() < deadline, "the bots' game did not end"
            await asyncio.sleep(0.5)
        r = await _create(other[4])
        assert r.status_code == 201, r.text
        # the database keeps the address of unfinished tables only
        engine = create_async_engine(normalise_database_url(a.env["KOZYR_DATABASE_URL"]))
        try:
            async with engine.connect() as conn:
                t = m.game_tables.c
                rows = (await conn.execute(select(t.status, t.creator_address))).all()
        finally:
            await engine.dispose()
        assert sorted(rows, key=lambda row: (row[0], row[1] or "")) == [
            ("finished", None),
            *[("open", "127.0.0.1")] * 6,
        ]
    finally:
        for p in people:
            await p.close()
        for http in other:
            await http.aclose()


async def test_creations_on_two_processes_take_turns(tmp_path: Path) -> None:
    """Two lobbies (two processes' worth) over one PostgreSQL database, one account with a
    limit of one table: while the first creation's transaction is open (its table counted,
    not yet committed), the second must wait for it and then count it, and be refused.
    Without the lock the second would count only its own table and be let through."""
    url = await fresh_postgres(postgres_base_url())
    settings = Settings(
        data=tmp_path,
        database_url=url,
        redis_url="redis://127.0.0.1:1/0",  # cluster mode; these lobbies never reach it
        max_open_tables=1,
        max_open_tables_per_address=0,
    )
    one, two = Store(settings.url), Store(settings.url)
    await one.migrate()
    lobbies = [Lobby(store, settings, Metrics(), LocalBus()) for store in (one, two)]
    held, release = asyncio.Event(), asyncio.Event()

    async def hold(_conn: AsyncConnection, _row: TableRow) -> None:
        held.set()
        await release.wait()  # the first creation's transaction stays open here

    one.on_insert.append(hold)  # after the lobby's own check
    try:
        user = await one.create_user("Olga", None, guest=True)
        first = asyncio.create_task(lobbies[0].create(user, "imperial", 2, sit=False))
        await held.wait()
        second = asyncio.create_task(lobbies[1].create(user, "imperial", 2, sit=False))
        # wait until the second is blocked on the creator's lock (or, wrongly, done)
        async with one.engine.connect() as conn:
            waiting = text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            )
            while not second.done() and not await conn.scalar(waiting):
                await asyncio.sleep(0.05)
        assert not second.done(), "the second creation did not wait for the first"
        release.set()
        made = await first
        with pytest.raises(ProtocolError) as refused:
            await second
        assert refused.value.code == "too_many_tables" and refused.value.status == 429
        async with one.engine.connect() as conn:
            count = select(func.count()).select_from(m.game_tables)
            assert await conn.scalar(count) == 1  # the refused table was rolled back
            assert await conn.scalar(select(m.game_tables.c.id)) == made.id
    finally:
        release.set()
        for lobby in lobbies:
            await lobby.close()
        await one.close()
        await two.close()
