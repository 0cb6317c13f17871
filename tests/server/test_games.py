"""Whole games against a real server: people against bots, people against people,
spectators, and the leak scan of every frame sent."""

from __future__ import annotations

import asyncio
import random

import pytest
from tests.server.support import Player, ServerProc, leak_scan

pytestmark = pytest.mark.asyncio


async def _record(player: Player, table: str) -> dict:
    r = await player.http.get(f"/api/games/{table}/record")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def _person_vs_bots(server: ServerProc, game: str, players: int, options: dict) -> None:
    me = await Player(server).sign_in()
    watcher = await Player(server).sign_in()
    try:
        await me.connect()
        await watcher.connect()
        body = {"game": game, "players": players, "options": options, "bots": [1] * (players - 1)}
        created = await me.post("/api/tables", body)
        table = created["table"]["id"]
        assert created["table"]["status"] in ("playing", "finished")  # target 1: may end at once
        await watcher.hello(table)
        frame = await me.hello(table, last_seq=0)
        assert frame["you"] == 0
        await me.play_until_over(table, 0, random.Random(1))
        record = await _record(me, table)
        assert record["format"] == "kozyr-record/1" and record["deals"]
        await asyncio.sleep(0.2)
        assert leak_scan(record, me.frames, 0) > 0
        assert leak_scan(record, watcher.frames, None) > 0
        mine = (await me.http.get("/api/games")).json()["games"]
        assert [g["id"] for g in mine if g["status"] == "finished"] == [table]
    finally:
        await me.close()
        await watcher.close()


async def test_imperial_person_against_bots_full_game(server: ServerProc) -> None:
    await _person_vs_bots(server, "imperial", 2, {})


async def test_emperor_person_against_bots_full_game(server: ServerProc) -> None:
    await _person_vs_bots(server, "emperor", 4, {})


async def test_small_games_against_bots(server: ServerProc) -> None:
    await _person_vs_bots(server, "imperial", 3, {"target": 1})
    await _person_vs_bots(server, "emperor", 3, {"rounds": 2})


async def _people(server: ServerProc, n: int) -> list[Player]:
    players = [await Player(server).sign_in() for _ in range(n)]
    for p in players:
        await p.connect()
    return players


async def test_b3_imperial_people_against_people_with_spectator(server: ServerProc) -> None:
    a, b, spectator = await _people(server, 3)
    try:
        created = await a.post(
            "/api/tables",
            {"game": "imperial", "players": 2, "options": {"target": 2}, "turn_timeout": None},
        )
        table = created["table"]["id"]
        assert created["table"]["status"] == "open"
        await a.hello(table)
        await spectator.hello(table)
        joined = await b.post(f"/api/tables/{table}/join", {})
        # (a game may end in its first declarations: then it is finished at once)
        assert joined["seat"] == 1 and joined["table"]["status"] in ("playing", "finished")
        await b.hello(table)
        await asyncio.gather(
            a.play_until_over(table, 0, random.Random(2)),
            b.play_until_over(table, 1, random.Random(3)),
        )
        record = await _record(spectator, table)
        assert record["first_dealer"] in (0, 1)
        await asyncio.sleep(0.2)
        for p, seat in ((a, 0), (b, 1), (spectator, None)):
            assert leak_scan(record, p.frames, seat) >= 1
        # the spectator never held a hand and never could act
        spectator.drain()
        refused = await spectator.act(table, "QS")
        assert refused["type"] == "error" and refused["code"] in ("not_seated", "game_over")
    finally:
        for p in (a, b, spectator):
            await p.close()


async def test_b1_e5_emperor_people_join_order_decides_first_leader(server: ServerProc) -> None:
    """B1/E5: seats filled 0, 2, 1: seat 1 joined last and leads the first trick."""
    a, b, c, spectator = await _people(server, 4)
    try:
        created = await a.post(
            "/api/tables",
            {"game": "emperor", "players": 3, "options": {"rounds": 2}, "turn_timeout": None},
        )
        table = created["table"]["id"]
        await c.post(f"/api/tables/{table}/join", {"seat": 2})
        await b.post(f"/api/tables/{table}/join", {"seat": 1})
        for p in (a, b, c, spectator):
            await p.hello(table)
        record_now = (await spectator.http.get(f"/api/games/{table}/record")).json()
        assert record_now["join_order"] == [0, 2, 1]
        assert "deals" not in record_now and "seed" not in record_now
        await asyncio.gather(
            *(p.play_until_over(table, s, random.Random(s)) for s, p in enumerate((a, b, c)))
        )
        record = await _record(a, table)
        assert record["join_order"] == [0, 2, 1]
        start = next(e for e in record_start_events(record) if e["type"] == "deal")
        assert start["leader"] == 1
        await asyncio.sleep(0.2)
        for p, seat in ((a, 0), (b, 1), (c, 2), (spectator, None)):
            assert leak_scan(record, p.frames, seat) > 10
    finally:
        for p in (a, b, c, spectator):
            await p.close()


def record_start_events(record: dict) -> list[dict]:
    from kozyr.records import replay

    return list(replay(record).events)
