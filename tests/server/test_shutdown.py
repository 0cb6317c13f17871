"""SIGTERM (issue 27 item 8b): a stopping server plays no move for anybody, neither a
bot's nor a timed-out person's, finishes the commits under way and exits 0; on the next
start every table carries on from what was committed."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from tests.server.support import Player, ServerProc

from kozyr.server.runtime.config import Settings
from kozyr.server.tables.turns import Turns

TABLES = 6


async def _bot_tables(server: ServerProc) -> tuple[list[Player], list[str]]:
    """Tables in play: a person and three bots each; the person's clock runs out at once,
    so that bots play his seat too (the clock-driven path), and two of the people watch
    over a WebSocket that the stop closes (the grace path)."""
    players: list[Player] = []
    tables: list[str] = []
    for i in range(TABLES):
        p = await Player(server).sign_in()
        body = {"game": "emperor", "players": 4, "bots": [2, 2, 2], "turn_timeout": 0.5}
        made = await p.post("/api/tables", body)
        tables.append(made["table"]["id"])
        players.append(p)
        if i < 2:
            await p.connect()
            await p.hello(tables[-1])
    # every table has moved on well past its first deal
    deadline = time.monotonic() + 60
    for table in tables:
        while True:
            got = (await players[0].http.get(f"/api/tables/{table}")).json()["table"]
            if got["seq"] >= 12:
                break
            assert time.monotonic() < deadline, f"table {table} does not play: {got}"
            await asyncio.sleep(0.1)
    return players, tables


async def _postgres_rows(url: str, query: str) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return [tuple(r) for r in await conn.fetch(query)]
    finally:
        await conn.close()


def _stored(server: ServerProc) -> dict[str, list[tuple[int, str, int]]]:
    """Each table's committed actions: (seq, actor, created_ms), from either backend."""
    query = "SELECT table_id, seq, actor, created_ms FROM actions ORDER BY table_id, seq"
    rows: list[Any]
    if server.database_url:
        rows = asyncio.run(_postgres_rows(server.database_url, query))
    else:
        db = sqlite3.connect(server.data / "kozyr.db")
        try:
            rows = db.execute(query).fetchall()
        finally:
            db.close()
    out: dict[str, list[tuple[int, str, int]]] = {}
    for table_id, seq, actor, created in rows:
        out.setdefault(table_id, []).append((int(seq), str(actor), int(created)))
    return out


def test_sigterm_plays_no_move_finishes_its_commits_and_exits_0(
    fresh_server: ServerProc,
) -> None:
    # real bots, thinking in the executor when the stop comes (the random bot never fails)
    fresh_server.env = {"KOZYR_BOT_DELAY": "0.02", "KOZYR_GRACE": "0.2", "KOZYR_BOT_KIND": ""}
    fresh_server.start()
    proc = fresh_server.proc
    assert proc is not None

    async def stop_in_play() -> tuple[list[str], int, int]:
        players, tables = await _bot_tables(fresh_server)
        began = int(time.time() * 1000)
        proc.send_signal(signal.SIGTERM)
        code = await asyncio.to_thread(proc.wait, 30)
        for p in players:
            await p.close()
        return tables, began, code

    tables, stop_began_ms, code = asyncio.run(stop_in_play())
    log = fresh_server.log.read_text()
    assert code == 0, log[-3000:]
    assert "playing at random" not in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    assert "stopping: no more moves" in log

    # Nothing was played once the stop began: moves stopped at once, not when the tables
    # were closed (the signal is handled well within a second even on a busy machine).
    stored = _stored(fresh_server)
    late = [
        (t, seq, actor, created - stop_began_ms)
        for t in tables
        for seq, actor, created in stored[t]
        if created > stop_began_ms + 1000
    ]
    assert late == []
    for t in tables:
        assert [seq for seq, _, _ in stored[t]] == list(range(1, len(stored[t]) + 1))

    # The next start restores every table at its last committed move and plays on.
    fresh_server.start()

    async def after() -> None:
        async with httpx.AsyncClient(base_url=fresh_server.base, timeout=30) as http:
            for t in tables:
                got = (await http.get(f"/api/tables/{t}")).json()["table"]
                assert got["seq"] >= len(stored[t])
                assert got["status"] in ("playing", "finished")
            # bots carry on where the stop left them
            deadline = time.monotonic() + 30
            while True:
                got = (await http.get(f"/api/tables/{tables[0]}")).json()["table"]
                if got["seq"] > len(stored[tables[0]]) or got["status"] == "finished":
                    break
                assert time.monotonic() < deadline
                await asyncio.sleep(0.1)

    asyncio.run(after())


class _Bot:
    def choose(self, _observation: Any, legal: list[int], _budget: float) -> int:
        return legal[0]


def _turns(tmp_path: Path, executor: ThreadPoolExecutor, played: list[int]) -> Turns:
    state = SimpleNamespace(over=False, to_act=0)
    row = SimpleNamespace(id="t1", seats=[SimpleNamespace(bot=3)], turn_timeout=5.0)
    match = SimpleNamespace(row=row, state=state, playing=True, seq=4, to_act=0)
    presence = SimpleNamespace(bot_plays=lambda _s: True, attended=True, leave=lambda _s: None)

    async def play(seat: int, action: int, seq: int) -> None:
        played.append(action)

    settings = Settings(data=tmp_path, bot_delay=0.0)
    turns = Turns(match, presence, settings, executor, asyncio.Lock(), play, lambda _s: None)  # type: ignore[arg-type]
    turns.bots = {0: _Bot()}  # type: ignore[dict-item]
    return turns


def test_a_bot_cut_off_by_the_stop_plays_nothing_not_at_random(tmp_path: Path) -> None:
    async def go() -> None:
        executor = ThreadPoolExecutor(1)
        executor.shutdown()  # as the stop leaves it
        played: list[int] = []
        turns = _turns(tmp_path, executor, played)
        # a bot that fails while the server runs still plays at random (so a game never
        # hangs on a broken bot) ...
        assert await turns._choose(0, None, [7]) == 7
        # ... but one cut off by the stop plays nothing at all
        turns.stop()
        with pytest.raises(asyncio.CancelledError):
            await turns._choose(0, None, [7])
        # and nothing is armed any more: no bot task, no clock
        turns.schedule()
        assert not turns.bot_pending and turns.deadline_ms is None
        await asyncio.sleep(0.05)
        assert played == []

    asyncio.run(go())


def test_a_clock_that_runs_out_during_the_stop_makes_nobody_away(tmp_path: Path) -> None:
    async def go() -> None:
        executor = ThreadPoolExecutor(1)
        try:
            turns = _turns(tmp_path, executor, [])
            away: list[int] = []
            turns.on_timeout = away.append
            turns.stop()
            await turns._turn_timed_out(0, 4)
            assert away == []
        finally:
            executor.shutdown()

    asyncio.run(go())
