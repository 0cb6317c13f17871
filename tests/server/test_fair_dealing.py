"""Fair dealing on the server: 256-bit secret seeds, the commitment shown from the start,
the seed revealed only in the finished record, fixed seeds for tests, old rows."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import sqlite3
import time
from pathlib import Path

import httpx
import pytest
from tests.server.support import Player, ServerProc

from kozyr.games.dealing import LEGACY
from kozyr.games.imperial import ImperialOptions, ImperialState, draw_first_dealer
from kozyr.records import replay

pytestmark = pytest.mark.asyncio


async def test_seed_is_secret_until_the_end_then_checks(server: ServerProc) -> None:
    me, spectator, lobby = [await Player(server).sign_in() for _ in range(3)]
    bodies: list[str] = []  # every HTTP body anyone got before the end

    async def get(who: Player, path: str) -> httpx.Response:
        r = await who.http.get(path)
        ended = r.status_code == 200 and path.endswith(("/replay", "/verify"))
        if (
            r.status_code == 200
            and path.endswith("/record")
            and r.json().get("complete") is not False
        ):
            assert replay(r.json()).over  # the game ended before our view said so
            ended = True
        if not ended:
            bodies.append(r.text)
        return r

    try:
        for p in (me, spectator, lobby):
            await p.connect()
        await lobby.send({"type": "lobby"})
        body = {"game": "imperial", "options": {"target": 3}, "bots": [1], "turn_timeout": None}
        for _ in range(10):  # a small target may be reached in the first declarations
            r = await me.http.post("/api/tables", json=body)
            bodies.append(r.text)
            info = r.json()["table"]
            if info["status"] == "playing":
                break
        table = info["id"]
        assert info["dealing"] == "hmac-sha256" and info["seed_secret"] is True
        assert len(info["commitment"]) == 64 and "seed" not in info
        await me.hello(table, last_seq=0)
        await spectator.hello(table)
        rng = random.Random(3)
        while not me.over(table):
            for path in ("/api/tables", f"/api/tables/{table}", "/api/games"):
                await get(me, path)
            for path in ("record", "replay", "verify"):
                await get(spectator, f"/api/games/{table}/{path}")
                await get(me, f"/api/games/{table}/{path}")
            if me.my_turn(table, 0) and me.legal(table):
                await me.act(table, rng.choice(me.legal(table)))
            else:
                await asyncio.sleep(0.02)
        record = (await me.http.get(f"/api/games/{table}/record")).json()
        seed = record["seed"]
        assert record["dealing"] == "hmac-sha256" and len(seed) == 64
        assert record["commitment"] == info["commitment"]
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == info["commitment"]
        await asyncio.sleep(0.3)
        decimal = str(int(seed, 16))
        frames = [json.dumps(f) for p in (me, spectator, lobby) for f in p.frames]
        assert len(frames) > 10 and any('"complete":false' in b for b in bodies)
        log = server.log.read_text()
        for text in [*frames, *bodies, log]:
            assert seed not in text.lower() and decimal not in text
        verdict = (await spectator.http.get(f"/api/games/{table}/verify")).json()
        assert verdict["ok"] is True and verdict["commitment_ok"] is True, verdict
        assert verdict["deals"] == verdict["deals_ok"] == len(record["deals"])
        # the same check for an upload, and a forged deal fails it
        uploaded = (await me.http.post("/api/verify", json=record)).json()
        assert uploaded["ok"] is True
        forged = json.loads(json.dumps(record))
        hands = forged["deals"][0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
        verdict = (await me.http.post("/api/verify", json=forged)).json()
        assert verdict["ok"] is False and verdict["problems"]
        bad = await me.http.post(
            "/api/verify", content=b"{nope", headers={"Content-Type": "application/json"}
        )
        assert bad.status_code == 400 and bad.json()["code"] == "bad_record"
    finally:
        for p in (me, spectator, lobby):
            await p.close()


async def test_fixed_table_seed_is_a_full_digest_and_says_so(tmp_path: Path) -> None:
    proc = ServerProc(tmp_path / "data", env={"KOZYR_TABLE_SEED": "demo"}).start()
    me = await Player(proc).sign_in()
    try:
        body = {"game": "imperial", "options": {"target": 1}, "bots": [1, 1], "sit": False}
        info = (await me.post("/api/tables", body))["table"]
        await me.spectate(info["id"])  # bots alone play while someone watches
        assert info["seed_secret"] is False
        key = json.dumps(["demo", "imperial", 2, info["options"]], sort_keys=True)
        expected = hashlib.sha256(f"{key}:0".encode()).hexdigest()  # 256 bits, all of them
        assert info["commitment"] == hashlib.sha256(bytes.fromhex(expected)).hexdigest()
        deadline = time.monotonic() + 60
        while (record := (await me.http.get(f"/api/games/{info['id']}/record")).json()).get(
            "complete"
        ) is False:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert record["seed"] == expected
    finally:
        await me.close()
        proc.stop()


async def test_old_rows_restore_and_replay_with_the_legacy_deals(tmp_path: Path) -> None:
    proc = ServerProc(tmp_path / "data").start()
    proc.stop()  # the schema is there now; an old row goes in as 0001 wrote them
    dealer = draw_first_dealer(2, 12345, LEGACY)
    seats = [{"user_id": None, "name": "bot 1", "bot": 1}] * 2
    with sqlite3.connect(tmp_path / "data" / "kozyr.db") as db:
        db.execute(
            "INSERT INTO game_tables (id, game, players, options, seed, first_dealer, "
            "join_order, seats, private, status, created_ms, started_ms) "
            "VALUES ('old1', 'imperial', 2, ?, 12345, ?, '[0, 1]', ?, 0, 'playing', 1, 1)",
            (json.dumps({"players": 2, "target": 1}), dealer, json.dumps(seats)),
        )
    proc.start()
    http = httpx.AsyncClient(base_url=proc.base, timeout=30)
    # a table of bots alone plays only while someone watches it (docs/deploy.md)
    watcher = await Player(proc).sign_in()
    try:
        await watcher.spectate("old1")
        deadline = time.monotonic() + 60
        while (record := (await http.get("/api/games/old1/record")).json()).get(
            "complete"
        ) is False:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        assert record["seed"] == 12345 and "dealing" not in record
        old = ImperialState.new(
            ImperialOptions(players=2, target=1), seed=12345, first_dealer=dealer, dealing=LEGACY
        )
        first = replay({**record, "deals": [], "actions": []})
        assert first.dealt[0] == old.dealt[0]
        assert replay(record).over
        info = (await http.get("/api/tables/old1")).json()["table"]
        assert info["dealing"] == "mt19937" and info["commitment"] is None
        assert (await http.get("/api/games/old1/replay")).status_code == 200
    finally:
        await watcher.close()
        await http.aclose()
        proc.stop()
