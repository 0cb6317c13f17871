"""The lobby in pages (HTTP and WebSocket) and the limits on unfinished tables per
account and per address."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.server.support import Player, ServerProc

pytestmark = pytest.mark.asyncio


async def test_lobby_pages_newest_first(tmp_path: Path) -> None:
    proc = ServerProc(tmp_path / "data").start()
    a, b = await Player(proc).sign_in(), await Player(proc).sign_in()
    try:
        made = []  # in creation order: 4 Imperial by a, 3 Emperor by b, 1 private by a
        for _ in range(4):
            made.append((await a.post("/api/tables", {"game": "imperial"}))["table"]["id"])
        for _ in range(3):
            made.append((await b.post("/api/tables", {"game": "emperor"}))["table"]["id"])
        await a.post("/api/tables", {"game": "imperial", "private": True})
        newest_first = made[::-1]
        page = (await a.http.get("/api/tables", params={"limit": 3})).json()
        assert [t["id"] for t in page["tables"]] == newest_first[:3]
        assert (page["total"], page["offset"], page["limit"]) == (7, 0, 3)
        page = (await a.http.get("/api/tables", params={"offset": 3, "limit": 3})).json()
        assert [t["id"] for t in page["tables"]] == newest_first[3:6]
        page = (await a.http.get("/api/tables", params={"offset": 6})).json()
        assert [t["id"] for t in page["tables"]] == newest_first[6:] and page["limit"] == 50
        page = (await a.http.get("/api/tables", params={"game": "imperial"})).json()
        assert [t["id"] for t in page["tables"]] == made[3::-1] and page["total"] == 4
        page = (await a.http.get("/api/tables", params={"offset": 100})).json()
        assert page["tables"] == [] and page["total"] == 7
        for params in (
            {"offset": -1},
            {"offset": "x"},
            {"offset": "1.5"},
            {"limit": 0},
            {"limit": 101},
            {"limit": "٣"},  # an Arabic-Indic three is a digit, but not a number here
        ):
            r = await a.http.get("/api/tables", params=params)
            assert r.status_code == 400 and r.json()["code"] == "bad_request", (params, r.text)
            assert r.json()["message_ru"]
        assert (await a.http.get("/api/tables", params={"game": "chess"})).status_code == 400
        # the WebSocket lobby frame: the first page and the total, or the page asked for
        await a.connect()
        await a.send({"type": "lobby"})
        frame = await a.expect("lobby")
        assert [t["id"] for t in frame["tables"]] == newest_first and frame["total"] == 7
        await a.send({"type": "lobby", "offset": 5, "limit": 1})
        frame = await a.expect("lobby")
        assert [t["id"] for t in frame["tables"]] == [newest_first[5]] and frame["offset"] == 5
        await a.send({"type": "lobby", "limit": 1000})
        assert (await a.expect("error"))["code"] == "bad_request"
    finally:
        await a.close()
        await b.close()
        proc.stop()


async def test_unfinished_tables_per_account_and_per_address(tmp_path: Path) -> None:
    env = {"KOZYR_MAX_OPEN_TABLES": "2", "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "3"}
    proc = ServerProc(tmp_path / "data", env=env).start()
    a, b, c = [await Player(proc).sign_in() for _ in range(3)]
    try:
        for _ in range(2):
            await a.post("/api/tables", {"game": "imperial"})
        for path, body in (
            ("/api/tables", {"game": "emperor"}),
            ("/api/quickplay", {"game": "emperor", "players": 3}),
        ):
            r = await a.http.post(path, json=body)
            assert r.status_code == 429 and r.json()["code"] == "too_many_tables", r.text
            assert "слишком много" in r.json()["message_ru"]
        await b.post("/api/tables", {"game": "imperial"})  # the address's third
        r = await c.http.post("/api/tables", json={"game": "imperial"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
        listed = (await c.http.get("/api/tables")).json()
        assert listed["total"] == 3
    finally:
        for p in (a, b, c):
            await p.close()
        proc.stop()
