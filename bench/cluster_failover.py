"""How long a table is without an owner after its process is killed (cluster mode).

Starts a throw-away ``redis-server`` and two ``kozyr serve`` processes over a fresh
PostgreSQL database (``--postgres`` or ``$KOZYR_TEST_POSTGRES_URL``). Each round: a
bot-only Emperor game is opened on the owner, a spectator watches it through the other
process (relayed), the owner is killed (SIGKILL) mid-game, and the bench prints the
seconds from the kill until another process holds the table's lease (polled in the
database) and until the spectator's next update after that (the game moving again), then
starts the killed process again.
The design's bound is the lease's ttl (``--ttl-ms``) plus one sweep (1 s).
A table of bots alone plays only while someone watches it (docs/deploy.md, "Tables of
bots alone"): the spectator is that watcher (the new owner hears its ``hello`` again);
the limits on such tables are off, every round leaving one unfinished.

    .venv/bin/python bench/cluster_failover.py --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from serverproc import free_port, fresh_postgres


def start_node(
    folder: Path, node_id: str, env_extra: dict[str, str], port: int
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        {
            "KOZYR_NODE_ID": node_id,
            "KOZYR_BOT_KIND": "random",
            "KOZYR_BOT_DELAY": "0.2",
            "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "0",
            "KOZYR_MAX_BOT_TABLES": "0",
            "KOZYR_MAX_BOT_TABLES_TOTAL": "0",
            **env_extra,
        }
    )
    folder.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kozyr", "serve", "--port", str(port), "--data", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=(folder / f"{node_id}.log").open("ab"),
        env=env,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{node_id} exited; see {folder}/{node_id}.log")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"{node_id} did not start")


async def one_round(
    owner_port: int, watcher_port: int, owner: subprocess.Popen[bytes], database: str
) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{owner_port}") as http:
        assert (await http.post("/api/guest")).status_code == 201
        body = {"game": "emperor", "players": 3, "sit": False, "bots": [1, 1, 1]}
        r = await http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table = r.json()["table"]["id"]
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{watcher_port}") as http:
        assert (await http.post("/api/guest")).status_code == 201
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    async with websockets.connect(
        f"ws://127.0.0.1:{watcher_port}/ws", additional_headers={"Cookie": cookie}
    ) as ws:
        await ws.send(json.dumps({"v": 1, "type": "hello", "table": table}))
        seq = 0
        while seq < 5:  # the game is under way, watched through the other process
            frame = json.loads(await ws.recv())
            seq = frame.get("seq", seq) if frame["type"] in ("update", "sync") else seq
        owner.send_signal(signal.SIGKILL)
        owner.wait()
        killed = time.monotonic()
        taken = await taken_over(database, table, killed)
        update = None
        while update is None:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if frame["type"] == "update" and time.monotonic() - killed >= taken:
                update = time.monotonic() - killed
        print(
            f"table {table}: owner killed at seq {seq}; lease taken over after "
            f"{taken:.2f} s; the spectator's next update after {update:.2f} s",
            flush=True,
        )


async def taken_over(database: str, table: str, since: float) -> float:
    """Seconds from ``since`` until the table's lease has a new owner (polled)."""
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        first = await conn.fetchval("SELECT owner FROM table_leases WHERE table_id = $1", table)
        while True:
            owner = await conn.fetchval("SELECT owner FROM table_leases WHERE table_id = $1", table)
            if owner != first:
                return time.monotonic() - since
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ttl-ms", type=int, default=3000)
    parser.add_argument("--postgres", default=os.environ.get("KOZYR_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    if not args.postgres:
        raise SystemExit("needs PostgreSQL: --postgres URL or $KOZYR_TEST_POSTGRES_URL")
    redis_bin = shutil.which("redis-server")
    if redis_bin is None:
        raise SystemExit("needs redis-server")
    folder = Path(tempfile.mkdtemp(prefix="kozyr-failover-"))
    redis_port = free_port()
    redis = subprocess.Popen(
        [redis_bin, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    database = asyncio.run(fresh_postgres(args.postgres, "kozyr_failover"))
    env = {
        "KOZYR_DATABASE_URL": database,
        "KOZYR_REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "KOZYR_LEASE_TTL_MS": str(args.ttl_ms),
    }
    ports = [free_port(), free_port()]
    procs = [start_node(folder / f"n{i}", f"node-{i}", env, ports[i]) for i in range(2)]
    try:
        for k in range(args.rounds):
            o = k % 2  # the owner this round; the other watches
            asyncio.run(one_round(ports[o], ports[1 - o], procs[o], database))
            procs[o] = start_node(folder / f"n{o}", f"node-{o}", env, ports[o])
    finally:
        for proc in procs:
            proc.kill()
        redis.kill()
    print(f"lease ttl {args.ttl_ms} ms, sweep 1 s: the bound is {args.ttl_ms / 1000 + 1:.1f} s")


if __name__ == "__main__":
    main()
