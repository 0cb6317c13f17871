"""Accounts, lobby, private tables, quick play, bots, and every kind of rejected frame."""

from __future__ import annotations

import json

import httpx
import pytest
import websockets
from tests.server.support import Player, ServerProc

pytestmark = pytest.mark.asyncio


async def _seq(p: Player, table: str) -> int:
    r = await p.http.get(f"/api/tables/{table}")
    return int(r.json()["table"]["seq"])


async def test_health_metrics_and_page(server: ServerProc) -> None:
    async with httpx.AsyncClient(base_url=server.base) as http:
        assert (await http.get("/healthz")).json()["ok"] is True
        page = await http.get("/")
        assert page.status_code == 200 and "kozyr" in page.text
        metrics = (await http.get("/metrics")).text
        for name in ("kozyr_tables", "kozyr_connections", "kozyr_actions_total", "latency"):
            assert name in metrics


async def test_accounts_cookie_and_no_secrets_in_log(server: ServerProc) -> None:
    password = "s3cret-Password-xyz"
    async with httpx.AsyncClient(base_url=server.base) as http:
        r = await http.post("/api/register", json={"name": "Olga", "password": password})
        assert r.status_code == 201
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        token = http.cookies["kozyr_session"]
        assert token not in r.text
        assert (await http.get("/api/me")).json()["user"]["name"] == "Olga"
        dup = await http.post("/api/register", json={"name": "olga", "password": password})
        assert dup.status_code == 409 and dup.json()["code"] == "name_taken"
        assert (await http.post("/api/logout")).status_code == 200
        assert (await http.get("/api/me")).status_code == 401
    async with httpx.AsyncClient(base_url=server.base) as http:
        bad = await http.post("/api/login", json={"name": "Olga", "password": "wrong one!"})
        assert bad.status_code == 401
        ok = await http.post("/api/login", json={"name": "Olga", "password": password})
        assert ok.status_code == 200 and ok.json()["user"]["guest"] is False
        assert (await http.get("/api/me")).status_code == 200
        new_token = http.cookies["kozyr_session"]
        guest = (await httpx.AsyncClient(base_url=server.base).post("/api/guest")).json()
        assert guest["user"]["name"].startswith("guest-")
    log = server.log.read_text()
    for secret in (password, token, new_token):
        assert secret not in log


async def test_websocket_needs_session_and_own_origin(server: ServerProc) -> None:
    with pytest.raises(websockets.InvalidStatus):
        await websockets.connect(server.ws_url)
    p = await Player(server).sign_in()
    try:
        with pytest.raises(websockets.InvalidStatus):
            await p.connect(origin="http://evil.example")
        await p.connect(origin=server.base)
        await p.send({"type": "ping", "t": 1})
        assert (await p.expect("pong"))["t"] == 1
    finally:
        await p.close()


async def test_private_table_needs_the_invite(server: ServerProc) -> None:
    a = await Player(server).sign_in()
    b = await Player(server).sign_in()
    c = await Player(server).sign_in()
    try:
        created = await a.post("/api/tables", {"game": "imperial", "private": True})
        table, invite = created["table"]["id"], created["table"]["invite_code"]
        listed = (await b.http.get("/api/tables")).json()["tables"]
        assert table not in [t["id"] for t in listed]
        assert (await b.http.get(f"/api/tables/{table}")).status_code == 404
        assert (await b.http.post(f"/api/tables/{table}/join", json={})).status_code == 404
        seen = await b.http.get(f"/api/tables/{table}", params={"invite": invite})
        assert seen.status_code == 200 and "invite_code" not in seen.json()["table"]
        joined = await b.post(f"/api/tables/{table}/join", {"invite": invite})
        assert joined["table"]["status"] == "playing"
        await c.connect()
        await c.send({"type": "hello", "table": table})
        assert (await c.expect("error"))["code"] == "no_table"
        frame = await c.hello(table, invite=invite)
        assert frame["you"] is None
        sync = await c.expect("sync")
        assert sync["view"]["hand"] is None
    finally:
        for p in (a, b, c):
            await p.close()


async def test_quick_play_sits_at_an_open_table_or_opens_one(server: ServerProc) -> None:
    a, b, c, d = [await Player(server).sign_in() for _ in range(4)]
    try:
        made = await a.post("/api/tables", {"game": "imperial", "players": 3})
        table = made["table"]["id"]
        got_b = await b.post("/api/quickplay", {"game": "imperial", "players": 3})
        assert got_b["table"]["id"] == table and got_b["seat"] == 1
        got_c = await c.post("/api/quickplay", {"game": "imperial", "players": 3})
        assert got_c["table"]["id"] == table and got_c["table"]["status"] == "playing"
        assert got_c["table"]["join_order"] == [0, 1, 2]
        got_d = await d.post("/api/quickplay", {"game": "emperor", "level": 2})
        info = got_d["table"]
        assert info["status"] == "playing" and got_d["seat"] == 0
        assert [s["kind"] for s in info["seats"]] == ["person", "bot", "bot", "bot"]
        assert [s["level"] for s in info["seats"][1:]] == [2, 2, 2]
        mine = (await d.http.get("/api/games")).json()["games"]
        assert [g["id"] for g in mine] == [info["id"]]
    finally:
        for p in (a, b, c, d):
            await p.close()


async def test_creator_adds_and_removes_bots(server: ServerProc) -> None:
    a, b = await Player(server).sign_in(), await Player(server).sign_in()
    try:
        table = (await a.post("/api/tables", {"game": "emperor", "players": 4}))["table"]["id"]
        r = await b.http.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": 2})
        assert r.status_code == 403
        info = (await a.post(f"/api/tables/{table}/bots", {"seat": 2, "level": 5}))["table"]
        assert info["seats"][2]["kind"] == "bot" and info["seats"][2]["level"] == 5
        r = await a.http.delete(f"/api/tables/{table}/bots/2")
        assert r.json()["table"]["seats"][2]["kind"] == "empty"
        bad = await a.http.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": 9})
        assert bad.status_code == 400
        for seat in (3, 1, 2):
            info = (await a.post(f"/api/tables/{table}/bots", {"seat": seat, "level": 1}))["table"]
        assert info["status"] == "playing" and info["join_order"] == [0, 3, 1, 2]
        # leaving before the start frees the seat; a table in play keeps it
        other = (await b.post("/api/tables", {"game": "imperial"}))["table"]["id"]
        left = await b.post(f"/api/tables/{other}/leave")
        assert left["table"]["seats"][0]["kind"] == "empty"
    finally:
        await a.close()
        await b.close()


async def test_rejected_frames_change_nothing(server: ServerProc) -> None:
    a, b, spectator = [await Player(server).sign_in() for _ in range(3)]
    try:
        table = (await a.post("/api/tables", {"game": "imperial", "turn_timeout": None}))["table"][
            "id"
        ]
        await b.post(f"/api/tables/{table}/join", {})
        for p in (a, b, spectator):
            await p.connect()
            await p.hello(table)
            await p.expect("sync")
        view = a.views[table]
        mover, other = (a, b) if view["to_act"] == 0 else (b, a)
        seq = await _seq(a, table)

        async def rejected(p: Player, frame: str | dict, code: str) -> None:
            p.errors.clear()
            await p.send(frame if isinstance(frame, str) else json.dumps(frame))
            error = await p.expect("error")
            assert error["code"] == code, error
            assert error["message"] and error["message_ru"]
            assert await _seq(a, table) == seq

        await rejected(a, "{not json", "bad_json")
        await rejected(a, "[1, 2]", "bad_frame")
        await rejected(a, {"type": "dance"}, "unknown_type")
        await rejected(a, {"v": 99, "type": "ping"}, "bad_version")
        await rejected(a, json.dumps({"type": "ping", "pad": "x" * 70_000}), "too_large")
        await rejected(a, {"type": "hello", "table": "nope"}, "no_table")
        await rejected(a, {"type": "action", "table": table, "action": "QS"}, "bad_frame")
        act = {"type": "action", "table": table, "id": "x1"}
        await rejected(spectator, {**act, "action": mover.legal(table)[0]}, "not_seated")
        hand = other.views[table]["hand"]
        await rejected(other, {**act, "action": hand[0]}, "not_your_turn")
        await rejected(mover, {**act, "action": "ZZ"}, "illegal_action")
        not_legal = [c for c in mover.views[table]["hand"] if c not in mover.legal(table)]
        mine = set(mover.views[table]["hand"])
        theirs = next(c for c in other.views[table]["hand"] if c not in mine)
        await rejected(mover, {**act, "action": theirs}, "illegal_action")
        if not_legal:
            await rejected(mover, {**act, "action": not_legal[0]}, "illegal_action")
        # the same action id twice is applied once
        card = mover.legal(table)[0]
        first = await mover.act(table, card, cid="same-id")
        assert first["type"] == "ack" and first["seq"] == seq + 1
        mover.acks.clear()
        again = await mover.act(table, card, cid="same-id")
        assert again["type"] == "ack" and again["seq"] == seq + 1 and again["duplicate"]
        assert await _seq(a, table) == seq + 1
    finally:
        for p in (a, b, spectator):
            await p.close()


async def test_flood_closes_the_connection_not_the_table(server: ServerProc) -> None:
    a, b = await Player(server).sign_in(), await Player(server).sign_in()
    try:
        table = (await a.post("/api/tables", {"game": "imperial", "turn_timeout": None}))["table"][
            "id"
        ]
        await b.post(f"/api/tables/{table}/join", {})
        for p in (a, b):
            await p.connect()
            await p.hello(table)
            await p.expect("sync")
        assert a.ws is not None
        for i in range(120):
            try:
                await a.ws.send(json.dumps({"type": "ping", "t": i}))
            except websockets.ConnectionClosed:
                break
        closed = await a.expect("_closed", timeout=10)
        assert closed["code"] == 1008
        # the table goes on: the other player (or the flooder, reconnected) can move
        await a.connect()
        await a.hello(table, last_seq=0)
        await a.expect("sync")
        mover, seat = (a, 0) if a.views[table]["to_act"] == 0 else (b, 1)
        ack = await mover.act(table, mover.legal(table)[0])
        assert ack["type"] == "ack" and seat in (0, 1)
    finally:
        await a.close()
        await b.close()
