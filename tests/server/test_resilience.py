"""Dropping out and coming back, turn timers, grace periods, and kill -9 in mid-game."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from tests.server.support import Player, ServerProc, http_client, leak_scan, two_at_a_table

pytestmark = pytest.mark.asyncio


async def test_reconnect_in_the_middle_of_a_trick(server: ServerProc) -> None:
    a, b, table = await two_at_a_table(server, {"target": 1})
    try:
        players = {0: a, 1: b}
        leader = players[a.views[table]["to_act"]]
        follower = b if leader is a else a
        lead = leader.legal(table)[0]
        await leader.act(table, lead)
        seen = leader.seqs[table]
        await leader.disconnect()
        # the trick is half played; the other one completes it and the game goes on
        await follower.act(table, follower.legal(table)[0])
        while follower.views[table]["to_act"] == (1 if follower is b else 0):
            await follower.act(table, follower.legal(table)[0])
        missed = follower.seqs[table] - seen
        assert missed >= 1
        # back with the last sequence seen: exactly the missed updates, in order
        leader.drain()
        await leader.connect()
        await leader.hello(table, last_seq=seen)
        updates = [await leader.expect("update") for _ in range(missed)]
        assert [u["seq"] for u in updates] == list(range(seen + 1, seen + missed + 1))
        assert "view" in updates[-1]
        assert leader.views[table]["hand"] and lead not in leader.views[table]["hand"]
        # back with nothing: a full resync
        await leader.disconnect()
        leader.drain()
        await leader.connect()
        await leader.hello(table)
        sync = await leader.expect("sync")
        assert sync["seq"] == follower.seqs[table] and sync["view"]["events"]
        await asyncio.gather(
            a.play_until_over(table, 0, random.Random(5)),
            b.play_until_over(table, 1, random.Random(6)),
        )
        record = (await a.http.get(f"/api/games/{table}/record")).json()
        await asyncio.sleep(0.2)
        assert leak_scan(record, a.frames, 0) and leak_scan(record, b.frames, 1)
    finally:
        await a.close()
        await b.close()


async def test_turn_timeout_lets_a_bot_play_until_the_person_is_back(server: ServerProc) -> None:
    a, b, table = await two_at_a_table(server, {"target": 1}, timeout=1.0)
    try:
        seat = a.views[table]["to_act"]
        idle, active = (a, b) if seat == 0 else (b, a)
        start = idle.seqs[table]
        # nobody moves for seat `seat`: after a second a bot moves for it
        update = await idle.expect("update", timeout=15)
        assert update["action"]["seat"] == seat and update["action"]["by"] == "bot"
        assert update["seq"] == start + 1
        frame = idle.tables[table]["table"]
        assert frame["seats"][seat]["away"] is True
        # The frame that says he is away says too that his seat has no clock any more
        # (it carried the deadline that had just run out, a frozen timer on the page).
        assert frame["to_act"] == seat and frame["deadline_ms"] is None
        await idle.send({"type": "back", "table": table})
        await idle.expect("table")
        assert idle.tables[table]["table"]["seats"][seat]["away"] is False
        await asyncio.gather(
            a.play_until_over(table, 0, random.Random(1)),
            b.play_until_over(table, 1, random.Random(2)),
        )
        assert active.views[table]["over"]
    finally:
        await a.close()
        await b.close()


async def test_disconnected_person_is_played_by_a_bot_after_the_grace(server: ServerProc) -> None:
    a, b, table = await two_at_a_table(server, {"target": 1})
    try:
        seat_b = 1
        # b leaves the connection; after the grace period (1 s here) a bot plays seat 1
        await b.disconnect()
        deadline = asyncio.get_running_loop().time() + 30
        while True:  # the grace runs out (1 s), then the seat is away
            info = (await a.http.get(f"/api/tables/{table}")).json()["table"]
            if info["seats"][seat_b]["away"] or asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.05)
        assert info["seats"][seat_b]["away"] is True and not info["seats"][seat_b]["connected"]
        before = info["seq"]
        if a.my_turn(table, 0):
            await a.act(table, a.legal(table)[0])
        while True:  # the bot answers for b
            update = await a.expect("update", timeout=10)
            if update["action"]["seat"] == seat_b:
                assert update["action"]["by"] == "bot"
                break
            if a.my_turn(table, 0):
                await a.act(table, a.legal(table)[0])
        b.drain()
        await b.connect()
        await b.hello(table, last_seq=before)
        info = (await a.http.get(f"/api/tables/{table}")).json()["table"]
        assert info["seats"][seat_b]["away"] is False and info["seats"][seat_b]["connected"]
        await asyncio.gather(
            a.play_until_over(table, 0, random.Random(3)),
            b.play_until_over(table, 1, random.Random(4)),
        )
    finally:
        await a.close()
        await b.close()


async def test_kill_9_in_mid_game_loses_nothing_acknowledged(fresh_server: ServerProc) -> None:
    server = fresh_server.start()
    me = await Player(server).sign_in()
    acked: dict[int, str] = {}
    rng = random.Random(9)
    created = await me.post(
        "/api/tables",
        {"game": "emperor", "players": 4, "options": {"rounds": 2}, "bots": [1, 1, 1]},
    )
    table = created["table"]["id"]
    await me.connect()
    await me.hello(table)
    # play until a dozen of my actions are acknowledged, then kill with one in flight
    while len(acked) < 12:
        if me.my_turn(table, 0) and me.legal(table):
            text = rng.choice(me.legal(table))
            ack = await me.act(table, text)
            assert ack["type"] == "ack"
            acked[ack["seq"]] = text
        else:
            await asyncio.wait_for(me.inbox.get(), 10)
    while not me.my_turn(table, 0):
        await asyncio.wait_for(me.inbox.get(), 10)
    await me.send(
        {"type": "action", "table": table, "id": "in-flight", "action": me.legal(table)[0]}
    )
    server.kill()
    assert me.ws is not None
    await me.disconnect()
    last_seen = me.seqs[table]

    server.start()  # the same database
    me.http = http_client(server.base, me.http.cookies)
    record = (await me.http.get(f"/api/games/{table}/record")).json()
    assert record["complete"] is False
    for seq, text in acked.items():
        assert record["actions"][seq - 1] == text
    assert len(record["actions"]) >= last_seen - 1
    me.drain()
    await me.connect()
    await me.hello(table, last_seq=last_seen)
    await me.play_until_over(table, 0, rng)
    final = (await me.http.get(f"/api/games/{table}/record")).json()
    for seq, text in acked.items():
        assert final["actions"][seq - 1] == text
    assert final["result"]["standing"] is not None
    await me.close()


async def test_update_carries_the_next_persons_deadline(server: ServerProc) -> None:
    # The default target: with 1, about one deal in 600 ends at the first card.
    a, b, table = await two_at_a_table(server, {}, timeout=30.0)
    try:
        players = {0: a, 1: b}
        leader = players[a.views[table]["to_act"]]
        follower = b if leader is a else a
        before = time.time() * 1000
        await leader.act(table, leader.legal(table)[0])
        update = await follower.expect("update", seq=leader.seqs[table])
        # The follower (a person) must answer within the table's 30 s from now.
        assert update["view"]["to_act"] == (1 if follower is b else 0)
        assert before + 29_000 <= update["deadline_ms"] <= time.time() * 1000 + 30_000
    finally:
        await a.close()
        await b.close()
