"""Recovery in cluster mode: tables restored off the event loop, processes migrating one
database at once, a frozen owner's bet refused by its lease, and the lobby of every
process up to date as soon as a table is taken over.

The first and third run on SQLite (the third on PostgreSQL too when
``KOZYR_TEST_POSTGRES_URL`` is set); the migration test needs PostgreSQL and the takeover
test PostgreSQL and ``redis-server`` (their fixtures skip them, naming what is missing).
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import func, select
from sqlalchemy import text as sql_text
from tests.server.cluster_support import ClusterFactory, postgres_base_url
from tests.server.support import Player, fresh_postgres

from kozyr.server.money import ledger
from kozyr.server.money.betting import TableBets
from kozyr.server.money.ledger import Account
from kozyr.server.play.games import new_state
from kozyr.server.runtime.config import Settings, normalise_database_url, sqlite_url
from kozyr.server.services import Server
from kozyr.server.storage import leases
from kozyr.server.storage import models as m
from kozyr.server.storage.store import MIGRATIONS, Seat, Store, TableRow, now_ms
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import ProtocolError

pytestmark = pytest.mark.asyncio

BACKENDS = ["sqlite"] + (["postgres"] if os.environ.get("KOZYR_TEST_POSTGRES_URL") else [])

START_WAIT = 300
"""Seconds a node may take to start on a machine shared by many test runs."""


# -- 1. replays off the event loop ------------------------------------------------------


async def boot(folder: Path) -> Server:
    """The server's parts in this process (no HTTP), on SQLite in ``folder``. The grace
    is long and there is no turn timer: nothing moves at a table but the test."""
    server = Server(
        Settings(
            data=folder,
            database_url=None,
            bot_delay=0.0,
            bot_kind="random",
            grace=600,
            turn_timeout=None,
            max_open_tables=0,
            max_open_tables_per_address=0,
        )
    )
    await server.store.migrate()
    await server.bus.start()
    await server.lobby.restore()
    return server


async def shut(server: Server) -> None:
    await server.lobby.close()
    await server.bus.stop()
    await server.store.close()


async def a_game_under_way(server: Server, moves: int) -> Table:
    """A table of two people (no bots) after ``moves`` actions, each with a client id."""
    ann = await server.store.create_user("ann", None, guest=False)
    bob = await server.store.create_user("bob", None, guest=False)
    for _ in range(20):
        table = await server.lobby.create(ann, "imperial", 2, {"target": 2}, turn_timeout=0)
        await table.sit(bob.id, bob.name, None)
        for k in range(moves):
            state = table.state
            if state is None or state.over or state.to_act is None:
                break
            seq, duplicate = await table.act(
                state.to_act, state.legal_actions()[0], f"move-{k}", "person"
            )
            assert (seq, duplicate) == (k + 1, False)
        if table.seq == moves and table.state is not None and not table.state.over:
            return table
    raise AssertionError("no game lasted long enough")


async def test_restored_tables_are_replayed_in_the_replay_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await boot(tmp_path)
    try:
        table = await a_game_under_way(server, 6)
        assert table.state is not None
        before = table.state
        seats_of = [seat for seat, _text, _by in table.match.log]
        expected = {
            "seq": 6,
            "actions": list(before.actions),
            "log": list(table.match.log),
            "event_index": list(table.match.event_index),
            "seen_ids": {(seats_of[k], f"move-{k}"): k + 1 for k in range(6)},
            "open": sorted(table.bets.book.open),
            "settled": dict(table.bets.book.settled),
            "to_act": before.to_act,
        }
        table_id = table.id
    finally:
        await shut(server)

    # Every action the replay plays is noted with the thread it ran on. (``play``, which
    # the replay calls, and not ``apply``: in the compiled core ``play`` calls ``apply``
    # directly, past any patch of the class.)
    engine = type(new_state(table.row))
    applied: list[str] = []
    play = engine.play

    def noted(self: Any, text: str) -> None:
        applied.append(threading.current_thread().name)
        play(self, text)

    monkeypatch.setattr(engine, "play", noted)
    loop_thread = threading.current_thread().name

    server = await boot(tmp_path)  # restores the table from its log
    try:
        assert len(applied) >= 6  # the six moves
        assert loop_thread not in applied
        assert all(name.startswith("kozyr-replay") for name in applied), applied
        applied.clear()

        again = server.lobby.tables[table_id]
        assert again.state is not None
        got = {
            "seq": again.seq,
            "actions": list(again.state.actions),
            "log": list(again.match.log),
            "event_index": list(again.match.event_index),
            "seen_ids": dict(again.match.seen_ids),
            "open": sorted(again.bets.book.open),
            "settled": dict(again.bets.book.settled),
            "to_act": again.state.to_act,
        }
        assert got == expected
        assert again.bets.fed == len(again.state.events)

        # a client action id used before the restart is still a duplicate of its seq
        assert await again.act(seats_of[2], "nonsense", "move-2", "person") == (3, True)
        # and the game plays on from where it was
        seat = again.state.to_act
        assert seat is not None
        assert await again.act(seat, again.state.legal_actions()[0], "after", "person") == (
            7,
            False,
        )
        logged = await server.store.actions(table_id)
        assert [a.seq for a in logged] == [1, 2, 3, 4, 5, 6, 7]
        assert logged[-1].client_action_id == "after"
    finally:
        await shut(server)


# -- 2. processes migrating one database at once ----------------------------------------


MIGRATE_ALONE = """
import asyncio, pathlib, sys, time
from kozyr.server.storage.store import Store

url, folder, me, n = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
(folder / me).touch()
while len(list(folder.iterdir())) < n:  # every process imported: they all go at once
    time.sleep(0.01)

async def go() -> None:
    store = Store(url)
    try:
        await store.migrate()
    finally:
        await store.close()

asyncio.run(go())
"""


async def test_processes_started_at_once_migrate_one_database_in_turn(tmp_path: Path) -> None:
    url = normalise_database_url(await fresh_postgres(postgres_base_url()))
    ready = tmp_path / "ready"
    ready.mkdir()
    n = 3
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            MIGRATE_ALONE,
            url,
            str(ready),
            f"p{i}",
            str(n),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        for i in range(n)
    ]
    outs = await asyncio.wait_for(asyncio.gather(*(p.communicate() for p in procs)), 300)
    for p, (out, _) in zip(procs, outs, strict=True):
        assert p.returncode == 0, out.decode(errors="replace")[-3000:]

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    newest = max(f.name[:4] for f in (MIGRATIONS / "versions").glob("0*.py"))
    assert head == newest  # one chain, ending at the newest file of migrations/versions
    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            versions = await conn.execute(sql_text("SELECT version_num FROM alembic_version"))
            assert [r[0] for r in versions.all()] == [newest]
            # the schema is whole: the newest tables are there, and empty
            for table in (m.table_leases, m.bets, m.users):
                assert await conn.scalar(select(func.count()).select_from(table)) == 0
    finally:
        await store.close()


# -- 3. a bet on a frozen owner ---------------------------------------------------------


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    return normalise_database_url(asyncio.run(fresh_postgres(postgres_base_url())))


async def test_a_fenced_owner_refuses_a_bet_and_moves_no_chip(database_url: str) -> None:
    store = Store(database_url)
    await store.migrate()
    try:
        fan = await store.create_user("fan", None, guest=False)
        async with store.transaction() as conn:
            start = await ledger.balance(conn, Account.wallet(fan.id))
            await ledger.post(
                conn,
                f"test-grant:{fan.id}",
                "grant",
                [(Account.house(), start - 100), (Account.wallet(fan.id), 100 - start)],
            )
        row = TableRow(
            id="betfence",
            game="imperial",
            players=2,
            options={"players": 2, "target": 2},
            seed=11,
            seats=[Seat(bot=1, name="bot 1"), Seat(bot=1, name="bot 1")],
        )
        await store.insert_table(row)
        async with store.transaction() as conn:
            mine = await leases.acquire(conn, row.id, "node-a", 1000, 1000)
        assert mine is not None
        store.fences[row.id] = mine
        told: list[str] = []
        store.on_fenced = told.append
        bets = TableBets(row, store)
        market = Account.market(row.id, "game.winner")

        # still this process's table: the bet is taken
        bet, again = await bets.place(fan, False, 0, "game.winner", "seat:0", 10, "k1")
        assert not again and bet.chips == 10

        # node-a's lease ran out long ago; node-b takes the table (a new token) while
        # node-a, frozen, has not noticed yet
        async with store.transaction() as conn:
            theirs = await leases.acquire(conn, row.id, "node-b", 60_000, now_ms())
        assert theirs is not None and theirs.token == mine.token + 1

        with pytest.raises(ProtocolError) as refused:
            await bets.place(fan, False, 0, "game.winner", "seat:1", 25, "k2")
        assert (refused.value.code, refused.value.status) == ("moved", 503)
        assert told == [row.id]
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, Account.wallet(fan.id)) == 90  # 100 - 10
            assert await ledger.balance(conn, market) == 10  # the first bet's alone
            keys = (await conn.execute(select(m.bets.c.key))).scalars().all()
            assert keys == ["k1"]
            assert await ledger.check(conn) == []
        assert [b.key for b in bets.bets["game.winner"]] == ["k1"]
    finally:
        await store.close()


# -- 4. the lobby after a takeover ------------------------------------------------------


async def test_a_process_that_loses_a_table_lists_it_as_the_new_owner_told(
    tmp_path: Path,
) -> None:
    """The new owner's entry reaches a frozen old owner while the table is still in its
    memory: kept, so that its lobby lists the table rightly once it has dropped it."""
    server = await boot(tmp_path)
    try:
        table = await a_game_under_way(server, 1)
        await asyncio.sleep(0.3)  # the table's own notices are out (NOTICE_DELAY 0.1 s)
        server.lobby.ownership = cast(Any, object())  # cluster mode's bookkeeping
        theirs = {**table.info(), "seq": 5, "spectators": 2}
        await server.bus.publish("lobby", {"table": theirs})
        # still here: the page shows this process's own entry
        shown = [t for t in server.lobby.page()["tables"] if t["id"] == table.id]
        assert [(t["seq"], t["spectators"]) for t in shown] == [(1, 0)]
        # its lease was taken (Ownership.drop): the page shows the new owner's entry
        del server.lobby.tables[table.id]
        await table.close()
        shown = [t for t in server.lobby.page()["tables"] if t["id"] == table.id]
        assert shown == [theirs]
        server.lobby.ownership = None
    finally:
        await shut(server)


async def lobby_entry(node_url: str, table: str) -> dict[str, Any] | None:
    async with httpx.AsyncClient(base_url=node_url, timeout=10) as http:
        r = await http.get("/api/tables")
        assert r.status_code == 200, r.text
        return next((t for t in r.json()["tables"] if t["id"] == table), None)


async def entry_when(
    node_url: str, table: str, ok: Callable[[dict[str, Any]], bool], timeout: float, what: str
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        entry = await lobby_entry(node_url, table)
        if entry is not None and ok(entry):
            return entry
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}; the lobby shows {entry}")
        await asyncio.sleep(0.2)


async def test_the_lobby_shows_a_table_taken_over_at_once(cluster: ClusterFactory) -> None:
    # node-0 owns the table and dies; node-1 takes it over; node-2 never sweeps (so it
    # cannot take the table itself) and only shows it in its lobby. A long grace: no bot
    # plays the person's seat meanwhile, nothing at the table changes after the takeover.
    nodes = cluster(2, env={"KOZYR_GRACE": "600"}, start=False)
    nodes.new_node({"KOZYR_SWEEP_SECONDS": "3600"})
    for node in nodes:
        node.start_timeout = START_WAIT
    nodes[0].start()
    for node in nodes[1:]:
        node.launch()
    for node in nodes[1:]:
        node.wait_ready()
    owner, heir, onlooker = nodes
    a = await Player(owner).sign_in()
    try:
        await a.connect()
        body = {"game": "imperial", "options": {"target": 2}, "bots": [1], "turn_timeout": 0}
        for _ in range(20):
            table = (await a.post("/api/tables", body))["table"]["id"]
            await a.hello(table)
            await a.expect("sync")
            if not a.over(table):
                break
        else:
            raise AssertionError("no game lasted past its declarations")

        # node-2 has node-0's notice of a, connected
        told = await entry_when(
            onlooker.url,
            table,
            lambda e: e["seats"][0]["connected"],
            30,
            "node-0's notice never reached node-2",
        )
        # a moves on (moves send no lobby notice) until it is his turn again
        while a.seqs[table] <= told["seq"] or not a.my_turn(table, 0):
            assert not a.over(table), "the game ended before the takeover"
            if a.my_turn(table, 0):
                ack = await a.act(table, a.legal(table)[0])
                assert ack["type"] == "ack", ack
            else:
                await a.expect("update", timeout=30)
        seq = a.seqs[table]
        assert seq > told["seq"]

        owner.kill9()
        shown = await entry_when(
            onlooker.url,
            table,
            lambda e: e["seq"] == seq and not e["seats"][0]["connected"],
            60,
            "node-2 still shows the old owner's entry after the takeover",
        )
        assert shown["status"] == "playing" and shown["to_act"] == 0
        assert [s["kind"] for s in shown["seats"]] == ["person", "bot"]
        assert shown["seats"][0]["user_id"] == a.user["id"]
        store = Store(normalise_database_url(owner.env["KOZYR_DATABASE_URL"]))
        try:
            async with store.engine.connect() as conn:
                lease = await leases.holder(conn, table)
        finally:
            await store.close()
        assert lease is not None and lease.owner == heir.node_id and lease.token == 2
    finally:
        await a.close()
