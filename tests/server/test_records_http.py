"""Records and replays over HTTP: private tables need a seat, the creator or the invite;
nothing complete before the database says the game is over; finished tables are served
from the database once they have left memory."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import httpx
import pytest
from tests.server.support import Player, ServerProc

from kozyr.games import GAMES
from kozyr.records import replay

pytestmark = pytest.mark.asyncio

BOTS_ONLY = {"game": "imperial", "players": 2, "options": {"target": 1}, "sit": False}


async def _wait_finished(http: httpx.AsyncClient, table: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await http.get(f"/api/games/{table}/record")
        if r.status_code == 200 and r.json().get("complete") is not False:
            return
        await asyncio.sleep(0.05)
    raise TimeoutError(f"table {table} did not finish")


async def test_private_record_and_replay_need_seat_creator_or_invite(server: ServerProc) -> None:
    owner, other = await Player(server).sign_in(), await Player(server).sign_in()
    anonymous = httpx.AsyncClient(base_url=server.base, timeout=30)
    try:
        body = {"game": "imperial", "private": True, "bots": [1], "turn_timeout": None}
        created = await owner.post("/api/tables", body)
        table, invite = created["table"]["id"], created["table"]["invite_code"]
        # in progress (the owner holds seat 0 and does not move)
        for client in (other.http, anonymous):
            for path in ("record", "replay"):
                r = await client.get(f"/api/games/{table}/{path}")
                assert r.status_code == 404 and r.json()["code"] == "no_table", r.text
                assert r.json()["message_ru"]
        mine = await owner.http.get(f"/api/games/{table}/record")
        assert mine.status_code == 200 and mine.json()["complete"] is False
        assert mine.json()["view"]["hand"], "the owner sees his own hand"
        invited = await anonymous.get(f"/api/games/{table}/record", params={"invite": invite})
        assert invited.status_code == 200 and invited.json()["view"]["hand"] is None
        wrong = await anonymous.get(f"/api/games/{table}/record", params={"invite": "x" + invite})
        assert wrong.status_code == 404
        # the owner leaves: a bot plays his seat to the end
        await owner.post(f"/api/tables/{table}/leave")
        await _wait_finished(owner.http, table)
        for client in (other.http, anonymous):
            for path in ("record", "replay"):
                r = await client.get(f"/api/games/{table}/{path}")
                assert r.status_code == 404 and r.json()["code"] == "no_table", r.text
        for path in ("record", "replay"):
            r = await anonymous.get(f"/api/games/{table}/{path}", params={"invite": invite})
            assert r.status_code == 200, r.text
            r = await owner.http.get(f"/api/games/{table}/{path}")
            assert r.status_code == 200, r.text
        assert (await owner.http.get(f"/api/games/{table}/record")).json()["deals"]
    finally:
        await owner.close()
        await other.close()
        await anonymous.aclose()


async def _hammer(http: httpx.AsyncClient, table: str, seen: dict[str, int]) -> None:
    """Reads the record and the replay as fast as it can until the record is complete;
    every complete record or replay must be of a game that is over."""
    while True:
        record_r, replay_r = await asyncio.gather(
            http.get(f"/api/games/{table}/record"), http.get(f"/api/games/{table}/replay")
        )
        assert record_r.status_code in (200, 409), record_r.text
        assert replay_r.status_code in (200, 409), replay_r.text
        if replay_r.status_code == 200:
            steps = replay_r.json()["steps"]
            assert steps[-1]["summary"]["over"], "a replay of a game not over"
            seen["replays"] += 1
        if record_r.status_code == 200:
            record = record_r.json()
            if record.get("complete") is False:
                assert "deals" not in record and "seed" not in record
                seen["partial"] += 1
                continue
            assert replay(record).over, f"a complete record of a game in progress: {table}"
            seen["complete"] += 1
            return


async def test_no_complete_record_before_the_last_commit(tmp_path: Path) -> None:
    """Bot games at full speed, their record and replay read concurrently all along."""
    env = {"KOZYR_MAX_OPEN_TABLES": "0", "KOZYR_MAX_BOT_TABLES": "0"}
    proc = ServerProc(tmp_path / "data", env=env).start()
    host = await Player(proc).sign_in()
    try:
        seen = {"partial": 0, "complete": 0, "replays": 0}
        for _wave in range(6):
            tables = [
                (await host.post("/api/tables", {**BOTS_ONLY, "bots": [1, 1]}))["table"]["id"]
                for _ in range(8)
            ]
            for t in tables:
                await host.spectate(t)  # bots alone play while someone watches
            await asyncio.wait_for(
                asyncio.gather(*(_hammer(host.http, t, seen) for t in tables)), 300
            )
        assert seen["complete"] == 48
        assert seen["partial"] > 0, seen  # the readers did see games in progress
    finally:
        await host.close()
        proc.stop()


async def test_finished_table_is_served_from_the_database(tmp_path: Path) -> None:
    proc = ServerProc(tmp_path / "data", env={"KOZYR_FINISHED_LINGER": "0"}).start()
    me = await Player(proc).sign_in()
    other = await Player(proc).sign_in()
    try:
        await me.connect()
        created = await me.post(
            "/api/tables", {"game": "imperial", "options": {"target": 1}, "bots": [1]}
        )
        table = created["table"]["id"]
        await me.hello(table, last_seq=0)
        await me.play_until_over(table, 0, random.Random(7))
        deadline = time.monotonic() + 30
        while (await me.http.get("/healthz")).json()["tables"] != 0:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            await asyncio.sleep(0.05)
        record = (await me.http.get(f"/api/games/{table}/record")).json()
        final = replay(record)
        assert final.over
        info = (await other.http.get(f"/api/tables/{table}")).json()["table"]
        assert info["status"] == "finished" and info["seq"] == len(record["actions"])
        places = list(GAMES[final.game].result(final).places)
        assert info["result"] == {**final.summary(), "places": places}
        assert info["seats"][1]["kind"] == "bot"
        assert (await other.http.get(f"/api/games/{table}/replay")).status_code == 200
        # coming back after the end: the table frame and the final view, from the database
        await me.disconnect()
        me.drain()
        await me.connect()
        frame = await me.hello(table, last_seq=3)
        assert frame["you"] == 0 and frame["table"]["status"] == "finished"
        sync = await me.expect("sync")
        assert sync["seq"] == len(record["actions"])
        assert sync["view"] == final.observation(0).to_json()
        await other.connect()
        await other.hello(table)
        assert (await other.expect("sync"))["view"] == final.observation(None).to_json()
    finally:
        await me.close()
        await other.close()
        proc.stop()
