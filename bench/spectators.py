"""What spectators cost the server: CPU per frame per spectator.

Starts ``kozyr serve`` on localhost (SQLite in a temporary folder) and plays two bot-only
Emperor games (every seat a bot, no delay): one "alone", and one watched by
``--spectators`` WebSocket clients that run in a separate process (each its own guest
account, each reading every frame). A table of bots alone plays only while someone
watches it (docs/deploy.md, "Tables of bots alone"), so the bench itself watches both
games with one socket of the tables' creator (reading every frame): the difference
between the two is the spectators'. Prints the server's CPU seconds (``/proc/PID/stat``)
per game, per action, and the extra per action per spectator.

    .venv/bin/python bench/spectators.py --spectators 500 --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from serverproc import cpu_seconds, start_server

LIMITS = {
    # The bench opens hundreds of sockets from one address on purpose.
    "KOZYR_MAX_SOCKETS_PER_ADDRESS": "100000",
    "KOZYR_FLOOD_FRAMES": "100000",
    "KOZYR_ACCOUNT_FRAMES": "100000",
    # Two tables of bots alone from one account (the limits are for people's accounts).
    "KOZYR_MAX_BOT_TABLES": "0",
    "KOZYR_MAX_BOT_TABLES_TOTAL": "0",
}


async def spectate(url: str, cookie: str, table: str, ready: asyncio.Event, n: list[int]) -> int:
    for attempt in range(10):
        try:
            ws = await websockets.connect(
                url, additional_headers={"Cookie": cookie}, max_size=None, open_timeout=120
            )
            break
        except websockets.InvalidStatus:
            await asyncio.sleep(0.5 * (attempt + 1))
    else:
        raise SystemExit("a spectator could not connect")
    async with ws:
        await ws.send(json.dumps({"type": "hello", "table": table}))
        frames = 0
        counted = False
        async for raw in ws:
            frame = json.loads(raw)
            frames += 1
            if frame["type"] == "table" and not counted:
                counted = True
                n[0] += 1
                if n[0] == n[1]:
                    ready.set()
            if frame["type"] == "table" and frame["table"]["status"] == "finished":
                return frames
    return frames


async def child(url: str, table: str, cookies: list[str]) -> None:
    ready = asyncio.Event()
    counter = [0, len(cookies)]
    tasks = []
    for cookie in cookies:
        tasks.append(asyncio.create_task(spectate(url, cookie, table, ready, counter)))
        await asyncio.sleep(0.002)  # do not trip the accept backlog
    await ready.wait()
    print("ready", flush=True)
    frames = await asyncio.gather(*tasks)
    print(f"done {sum(frames)}", flush=True)


# -- the measuring process --------------------------------------------------------------


async def open_table(http: httpx.AsyncClient, rounds: int) -> str:
    body: dict[str, Any] = {
        "game": "emperor",
        "players": 4,
        "options": {"rounds": rounds},
        "bots": {"1": 3, "2": 3, "3": 3},
        "sit": False,
    }
    r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    return str(r.json()["table"]["id"])


async def watch(http: httpx.AsyncClient, url: str, table: str) -> asyncio.Task[int]:
    """The bench's own watcher of ``table`` (its bots play only while it is watched), on a
    socket of the tables' creator, reading every frame to the game's end; returns once its
    ``hello`` has been answered."""
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ready = asyncio.Event()
    task = asyncio.create_task(spectate(url, cookie, table, ready, [0, 1]))
    answered = asyncio.create_task(ready.wait())
    done, _ = await asyncio.wait([task, answered], return_when=asyncio.FIRST_COMPLETED)
    answered.cancel()
    if task in done:
        raise SystemExit("the watcher's socket closed before its hello was answered")
    return task


async def play(
    http: httpx.AsyncClient, pid: int, table: str, watcher: asyncio.Task[int]
) -> tuple[float, float, int]:
    """Seats the last bot (the game starts) and waits for the end: CPU s, wall s, actions."""
    cpu, wall = cpu_seconds(pid), time.perf_counter()
    (await http.post(f"/api/tables/{table}/bots", json={"seat": 0, "level": 3})).raise_for_status()
    while True:
        info = (await http.get(f"/api/tables/{table}")).json()["table"]
        if info["status"] == "finished":
            used = cpu_seconds(pid) - cpu, time.perf_counter() - wall, int(info["seq"])
            await asyncio.wait_for(watcher, 60)  # its socket closes at the end
            return used
        if watcher.done():
            raise SystemExit(f"the watcher's socket closed mid-game: {watcher.result()} frames")
        await asyncio.sleep(0.05)


async def idle(pid: int) -> None:
    """Waits until the server uses almost no CPU for a second."""
    while True:
        before = cpu_seconds(pid)
        await asyncio.sleep(1)
        if cpu_seconds(pid) - before < 0.05:
            return


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {"KOZYR_BOT_DELAY": "0", "KOZYR_TABLE_SEED": "spectators-bench", **LIMITS}
        proc, base = start_server(Path(tmp), env)
        try:
            http = httpx.AsyncClient(base_url=base, timeout=600)
            (await http.post("/api/guest")).raise_for_status()
            url = base.replace("http", "ws") + "/ws"
            # Alone: only the bench's watcher.
            alone = await open_table(http, args.rounds)
            c0, w0, n0 = await play(http, proc.pid, alone, await watch(http, url, alone))
            # Watched: the spectators (other accounts) hello first, then the game starts.
            cookies = []
            for _ in range(args.spectators):
                guest = httpx.AsyncClient(base_url=base, timeout=60)
                (await guest.post("/api/guest")).raise_for_status()
                cookies.append("; ".join(f"{k}={v}" for k, v in guest.cookies.items()))
                await guest.aclose()
            watched = await open_table(http, args.rounds)
            spec = subprocess.Popen(
                [sys.executable, __file__, "--child", url, watched],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert spec.stdin is not None and spec.stdout is not None
            spec.stdin.write("\n".join(cookies) + "\n")
            spec.stdin.close()
            line = await asyncio.to_thread(spec.stdout.readline)
            if line.strip() != "ready":
                raise SystemExit(f"spectators failed: {line!r}")
            watcher = await watch(http, url, watched)  # as at the game alone
            await idle(proc.pid)  # the spectators' hellos have all been answered
            c1, w1, n1 = await play(http, proc.pid, watched, watcher)
            done = await asyncio.to_thread(spec.stdout.readline)
            spec.wait(60)
            s = args.spectators
            print(f"game alone:   {n0} actions, server CPU {c0:.2f} s, wall {w0:.2f} s")
            print(f"with {s} spectators: {n1} actions, server CPU {c1:.2f} s, wall {w1:.2f} s")
            print(f"spectators received: {done.split()[-1]} frames")
            per = (c1 / n1 - c0 / n0) / s if s else 0.0
            print(f"server CPU per frame per spectator: {per * 1e6:.1f} µs")
            await http.aclose()
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        url, table = sys.argv[2], sys.argv[3]
        cookies = [line.strip() for line in sys.stdin if line.strip()]
        asyncio.run(child(url, table, cookies))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3, help="Emperor rounds per game")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
