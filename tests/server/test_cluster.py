"""Several ``kozyr serve`` processes over one PostgreSQL and one Redis (cluster mode): a game
whose people sit on different processes, a spectator on a third, bets through a process
that does not own the table, the owner killed or frozen mid-game, Redis lost.

These run only where PostgreSQL (``KOZYR_TEST_POSTGRES_URL``) and ``redis-server`` are
(``.ci/run`` provides both); the fixtures skip them, naming what is missing, elsewhere.
The last two (Redis down at start, the fence on one store) need neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path
from typing import Any

import pytest
from tests.server.cluster_support import Cluster, ClusterFactory, Node, RedisServer
from tests.server.support import Player, leak_scan, unique_name

from kozyr.server.runtime.bus import RedisBus, RedisUnavailable, redact
from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage import leases
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import ActionRow, Seat, Store, TableRow, now_ms

pytestmark = pytest.mark.asyncio


START_WAIT = 300
"""Seconds a node may take to start: on a machine shared by many test runs, importing and
migrating alone can take a minute or more (the harness waits 60)."""


def started(cluster: ClusterFactory, n: int) -> Cluster:
    """``cluster(n)``, waiting longer for slow starts."""
    nodes = cluster(n, start=False)
    for node in nodes:
        node.start_timeout = START_WAIT
    nodes[0].start()
    for node in nodes[1:]:
        node.launch()
    for node in nodes[1:]:
        node.wait_ready()
    return nodes


async def two_across(
    a_node: Node, b_node: Node, options: dict[str, Any], timeout: float | None = None
) -> tuple[Player, Player, str]:
    """A table made on ``a_node`` (its owner) whose second seat is taken through
    ``b_node``; each person watches through his own process. Tables whose game ended in
    the first declarations are left for another."""
    a, b = await Player(a_node).sign_in(), await Player(b_node).sign_in()
    await a.connect()
    await b.connect()
    body = {"game": "imperial", "options": options, "turn_timeout": timeout}
    for _ in range(20):
        table = (await a.post("/api/tables", body))["table"]["id"]
        joined = await b.post(f"/api/tables/{table}/join", {})  # forwarded to the owner
        assert joined["seat"] == 1 and joined["table"]["status"] in ("playing", "finished")
        for p in (a, b):
            await p.hello(table)
            await p.expect("sync")
        if a.views[table]["to_act"] is not None:
            return a, b, table
        for p in (a, b):
            await p.send({"type": "unwatch", "table": table})
    raise AssertionError("no game lasted past its declarations")


async def logged(node: Node, table: str) -> list[ActionRow]:
    """The table's committed log, straight from the shared database."""
    store = Store(normalise_database_url(node.env["KOZYR_DATABASE_URL"]))
    try:
        return await store.actions(table)
    finally:
        await store.close()


async def wait_for(check: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        await asyncio.sleep(0.1)


async def play(p: Player, table: str, seat: int, rng: random.Random) -> None:
    """Plays random legal moves until the game is over (a refused move, e.g. the game
    moved on while it was sent, is simply made again from the new view)."""
    deadline = time.monotonic() + 300
    while not p.over(table):
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {table} did not end; {p.views.get(table)}")
        if p.my_turn(table, seat) and p.legal(table):
            await p.act(table, rng.choice(p.legal(table)))
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(p.inbox.get(), 1)


async def follow(p: Player, table: str, seq: int, timeout: float = 30) -> None:
    """Waits until ``p`` has seen ``seq``."""
    deadline = time.monotonic() + timeout
    while p.seqs.get(table, -1) < seq:
        if time.monotonic() > deadline:
            raise TimeoutError(f"stuck at seq {p.seqs.get(table)}, not {seq}")
        await asyncio.sleep(0.05)


async def move_to(p: Player, node: Node, table: str) -> None:
    """``p`` reconnects through ``node`` and resynchronises from the last seq he saw."""
    with contextlib.suppress(Exception):
        await p.disconnect()
    p.ws = None
    p.server = node  # type: ignore[assignment]  # a Node has the ws_url a Player needs
    p.drain()
    await p.connect()
    await p.hello(table, last_seq=p.seqs.get(table))


def acked(p: Player, table: str) -> dict[str, int]:
    """Client action id -> the seq the server acknowledged it at."""
    return {
        cid: ack["seq"]
        for cid, ack in p.acks.items()
        if ack.get("table") == table and not ack.get("duplicate")
    }


async def test_a_game_across_three_processes(cluster: ClusterFactory) -> None:
    nodes = started(cluster, 3)
    a, b, table = await two_across(nodes[0], nodes[1], {"target": 2})
    fan = await Player(nodes[2], unique_name("fan")).sign_in()
    try:
        await fan.connect()
        await fan.hello(table)
        await fan.expect("sync")

        # the lobby of every process shows a table opened on another
        other = (await a.post("/api/tables", {"game": "imperial", "players": 2}))["table"]["id"]

        async def listed() -> bool:
            r = await fan.http.get("/api/tables")
            return other in {t["id"] for t in r.json()["tables"]}

        await wait_for(listed, 20, "the other process's table never reached this lobby")

        # a bet placed through a process that does not own the table is taken by the owner
        body = {"market": "game.winner", "outcome": "seat:0", "chips": 10, "key": "fan-1"}
        r = await fan.http.post(f"/api/tables/{other}/bets", json=body)
        assert r.status_code == 201, r.text
        assert r.json()["market"]["pools"] == {"seat:0": 10, "seat:1": 0}
        again = await fan.http.post(f"/api/tables/{other}/bets", json=body)
        assert again.status_code == 200 and again.json()["bet"]["id"] == r.json()["bet"]["id"]
        shown = (await a.http.get(f"/api/tables/{other}/markets")).json()["markets"]
        winner = next(mk for mk in shown if mk["id"] == "game.winner")
        assert winner["pools"] == {"seat:0": 10, "seat:1": 0}  # one bet, on the owner
        # the owner's rules hold through the relay: a closed market, a seated bettor
        r = await fan.http.post(f"/api/tables/{table}/bets", json={**body, "key": "fan-2"})
        assert (r.status_code, r.json()["code"]) == (409, "market_closed"), r.text
        r = await a.http.post(f"/api/tables/{other}/bets", json={**body, "key": "a-1"})
        assert (r.status_code, r.json()["code"]) == (403, "seated_cannot_bet"), r.text
        # B4 through the relay: the fan holds a bet on node-0's table, so the owner
        # refuses him its free seat
        r = await fan.http.post(f"/api/tables/{other}/join", json={"seat": 1})
        assert (r.status_code, r.json()["code"]) == (409, "holds_bets"), r.text
        assert r.json()["params"] == {"chips": 10}
        # quick play through node-2 takes the free seat of node-0's open table
        joiner = await Player(nodes[2]).sign_in()
        try:
            joined = await joiner.post("/api/quickplay", {"game": "imperial", "players": 2})
        finally:
            await joiner.close()
        assert joined["table"]["id"] == other
        assert joined["seat"] == 1 and joined["table"]["status"] == "playing"

        await asyncio.gather(
            play(a, table, 0, random.Random(1)), play(b, table, 1, random.Random(2))
        )
        log = await logged(nodes[0], table)
        end = len(log)
        for p in (a, b, fan):
            await follow(p, table, end)
        assert [row.seq for row in log] == list(range(1, end + 1))
        assert a.seqs[table] == b.seqs[table] == fan.seqs[table] == end
        # every frame is its own role's: b's (relayed) never shows a's hand, nor fan's any
        record = (await fan.http.get(f"/api/games/{table}/record")).json()
        assert leak_scan(record, a.frames, 0) > 0
        assert leak_scan(record, b.frames, 1) > 0
        assert leak_scan(record, fan.frames, None) > 0
        # b's moves went through the owner under b's account
        mine = {row.client_action_id for row in log if row.actor == f"user:{b.user['id']}"}
        assert set(acked(b, table)) <= mine and mine
    finally:
        for p in (a, b, fan):
            await p.close()


async def test_the_owner_killed_mid_game(cluster: ClusterFactory) -> None:
    nodes = started(cluster, 3)
    a, b, table = await two_across(nodes[0], nodes[1], {"target": 2})
    fan = await Player(nodes[2]).sign_in()
    try:
        await fan.connect()
        await fan.hello(table)
        await fan.expect("sync")
        rng = {0: random.Random(3), 1: random.Random(4)}
        people = {0: a, 1: b}
        deadline = time.monotonic() + 120
        while a.seqs[table] < 6 and not a.over(table):
            assert time.monotonic() < deadline, f"stuck at seq {a.seqs[table]}"
            seat = a.views[table]["to_act"]
            p = people[seat]
            await follow(p, table, a.seqs[table])
            if p.my_turn(table, seat):
                ack = await p.act(table, rng[seat].choice(p.legal(table)))
                assert ack["type"] == "ack", ack
            else:  # a's view is behind p's: let the readers catch up (never spin)
                await asyncio.sleep(0.02)
        before = {**acked(a, table), **acked(b, table)}
        assert before

        nodes[0].kill9()
        # a's socket died with its process: he comes back through another
        await move_to(a, nodes[1], table)
        await asyncio.gather(play(a, table, 0, rng[0]), play(b, table, 1, rng[1]))

        log = await logged(nodes[1], table)
        end = len(log)
        for p in (a, b, fan):
            await follow(p, table, end)
        assert a.seqs[table] == b.seqs[table] == fan.seqs[table] == end
        assert [row.seq for row in log] == list(range(1, end + 1))
        # no acknowledged action was lost: each is in the log at the seq it was acked at
        at = {row.client_action_id: row.seq for row in log}
        for cid, seq in {**before, **acked(a, table), **acked(b, table)}.items():
            assert at.get(cid) == seq, cid
        record = (await fan.http.get(f"/api/games/{table}/record")).json()
        assert record["actions"] == [row.text for row in log]
        assert leak_scan(record, fan.frames, None) > 0
        assert leak_scan(record, b.frames, 1) > 0
    finally:
        for p in (a, b, fan):
            await p.close()


async def test_a_frozen_owner_is_fenced_when_it_wakes(cluster: ClusterFactory) -> None:
    nodes = started(cluster, 2)
    a, b, table = await two_across(nodes[0], nodes[1], {"target": 2})
    try:
        rng = {0: random.Random(7), 1: random.Random(8)}
        people = {0: a, 1: b}
        # play until it is a's turn (a is on the owner)
        while a.views[table]["to_act"] != 0:
            await follow(b, table, a.seqs[table])
            ack = await b.act(table, rng[1].choice(b.legal(table)))
            assert ack["type"] == "ack", ack
            await follow(a, table, ack["seq"])
        frozen_at = a.seqs[table]
        nodes[0].stop()  # SIGSTOP: the owner holds its lease and stops renewing it
        try:
            # a's move reaches the frozen owner's socket and waits there
            late = "late-move"
            await a.send(
                {"type": "action", "table": table, "id": late, "action": a.legal(table)[0]}
            )
            # node-1 takes the table over; a's seat, without a connection there, gets
            # its grace, then a bot moves for it: the log goes on without the frozen owner
            await follow(b, table, frozen_at + 1, timeout=60)
        finally:
            nodes[0].cont()
        # the woken owner's write is refused by the fence: no ack, the table has moved
        await a.expect("_closed", timeout=30)
        assert late not in a.acks
        assert any(e["code"] == "moved" for e in a.errors), a.errors
        assert a.closed_code == 1012
        log = await logged(nodes[1], table)
        assert log[frozen_at].seq == frozen_at + 1 and log[frozen_at].actor == "bot"
        assert late not in {row.client_action_id for row in log}

        await move_to(a, nodes[1], table)
        await asyncio.gather(*(play(p, table, s, rng[s]) for s, p in people.items()))
        log = await logged(nodes[1], table)
        end = len(log)
        assert [row.seq for row in log] == list(range(1, end + 1))  # one action a seq
        for p in (a, b):
            await follow(p, table, end)
        assert a.seqs[table] == b.seqs[table] == end
        assert "lease was taken by another process" in nodes[0].log_text()
    finally:
        for p in (a, b):
            await p.close()


async def test_redis_lost_mid_game(cluster: ClusterFactory, redis_server: RedisServer) -> None:
    nodes = started(cluster, 2)
    a, b, table = await two_across(nodes[0], nodes[1], {"target": 1})
    try:
        redis_server.kill9()
        # b watched through node-1: told clearly, and closed so that he reconnects
        error = await b.expect("error", timeout=30, code="cluster_unavailable")
        assert error["message"] and error["message_ru"] and error["table"] == table
        await b.expect("_closed", timeout=30)
        assert b.closed_code == 1012
        # a lobby change through node-1 of node-0's table: a clear error, not a hang
        r = await b.http.post(f"/api/tables/{table}/leave", json={})
        assert (r.status_code, r.json()["code"]) == (503, "cluster_unavailable"), r.text
        # the owner keeps playing for a, on its own: a bot takes b's seat after the grace
        await play(a, table, 0, random.Random(9))
        assert a.over(table)
    finally:
        for p in (a, b):
            await p.close()


async def test_redis_down_at_start_is_a_clear_error() -> None:
    from tests.server.support import free_port

    url = f"redis://user:secret@127.0.0.1:{free_port()}/0"
    bus = RedisBus(url)
    with pytest.raises(RedisUnavailable) as caught:
        await bus.start()
    message = str(caught.value)
    assert message.startswith("cannot reach Redis at redis://user:***@127.0.0.1:")
    assert "secret" not in message
    assert redact("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    assert redact("redis://:pw@h:1/0") == "redis://:***@h:1/0"


async def test_a_write_under_a_lost_lease_is_refused(tmp_path: Path) -> None:
    """The fence itself, on one process's store (SQLite): once another process has taken
    the lease, this one's action and row writes roll back, alone in their batch."""
    store = Store(sqlite_url(tmp_path))
    await store.migrate()
    try:
        rows = {
            table_id: TableRow(
                id=table_id,
                game="imperial",
                players=2,
                options={"players": 2},
                seed=7,
                seats=[Seat(), Seat()],
            )
            for table_id in ("fenced", "free")
        }
        for row in rows.values():
            await store.insert_table(row)
        async with store.transaction() as conn:
            mine = await leases.acquire(conn, "fenced", "node-a", 1000, 1000)
        assert mine is not None
        store.fences["fenced"] = mine
        told: list[str] = []
        store.on_fenced = told.append
        await store.append_action("fenced", 1, 0, "bot", "a", None)  # still ours

        # node-a's lease ran out long ago; node-b takes the table: a new token
        async with store.transaction() as conn:
            theirs = await leases.acquire(conn, "fenced", "node-b", 60_000, now_ms())
        assert theirs is not None and theirs.token == mine.token + 1

        # one batch: the fenced table's action is refused, the other table's commits
        results = await asyncio.gather(
            store.append_action("fenced", 2, 0, "bot", "b", None),
            store.append_action("free", 1, 0, "bot", "c", None),
            return_exceptions=True,
        )
        assert isinstance(results[0], Fenced) and results[1] is None
        assert [(a.seq, a.text) for a in await store.actions("fenced")] == [(1, "a")]
        assert [(a.seq, a.text) for a in await store.actions("free")] == [(1, "c")]
        rows["fenced"].status = "playing"
        with pytest.raises(Fenced):
            await store.save_table(rows["fenced"])
        saved = await store.table("fenced")
        assert saved is not None and saved.status == "open"
        assert told and set(told) == {"fenced"}
    finally:
        await store.close()
