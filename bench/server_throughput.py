"""End-to-end server benchmark: scripted people and bots on a real ``kozyr serve``.

Starts the server in a subprocess on localhost (SQLite in a temporary folder, or the
PostgreSQL database of ``--postgres URL`` / ``$KOZYR_TEST_POSTGRES_URL``), opens
``--tables`` Imperial tables of two scripted people each (real WebSocket clients playing
random legal moves as fast as they are acknowledged) and ``--bot-tables`` tables of bots
only, runs for ``--seconds``, and prints actions per second (every action committed,
people's and bots') with the people's p50/p99 acknowledgement latency. A table of bots
alone plays only while someone watches it (docs/deploy.md, "Tables of bots alone"), so
each bot-only table has one watcher socket that reads (and drops) every frame, and the
server runs with the limits on such tables off.

    .venv/bin/python bench/server_throughput.py --tables 20 --seconds 15
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import ssl
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from serverproc import cpu_seconds, fresh_postgres, start_profile, start_server, stop_profile

SHARED_TLS = ssl.create_default_context()

SERVER_ENV = {
    "KOZYR_BOT_DELAY": "0",
    "KOZYR_FLOOD_FRAMES": "100000",
    # every simulated player signs in, opens tables and connects from 127.0.0.1
    "KOZYR_ACCOUNT_LIMIT": "1000000",
    "KOZYR_GUEST_LIMIT": "1000000",
    "KOZYR_MAX_OPEN_TABLES": "0",
    "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "0",
    "KOZYR_MAX_SOCKETS_PER_ADDRESS": "100000",
    "KOZYR_ACCOUNT_FRAMES": "100000",
    # the bot-only tables: all of one account, each with a watcher socket of that account
    "KOZYR_MAX_BOT_TABLES": "0",
    "KOZYR_MAX_BOT_TABLES_TOTAL": "0",
    "KOZYR_MAX_SOCKETS_PER_ACCOUNT": "100000",
}


class Scripted:
    """One person: plays a random legal move whenever its view says it is its turn."""

    def __init__(self, base: str, latencies: list[float]) -> None:
        self.base = base
        # One TLS context for all: httpx builds (and loads the CA bundle into) one per
        # client otherwise, which made this bench its own bottleneck at 1,000 people.
        self.http = httpx.AsyncClient(base_url=base, timeout=30, verify=SHARED_TLS)
        self.latencies = latencies
        self.actions = 0

    async def sign_in(self) -> None:
        (await self.http.post("/api/guest")).raise_for_status()

    async def play(self, table: str, seat: int, stop: float, rng: random.Random) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http", "ws") + "/ws"
        async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello", "table": table}))
            view: dict[str, Any] = {}
            pending: dict[str, float] = {}
            n = 0
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    break
                frame = json.loads(raw)
                kind = frame["type"]
                if kind == "ack":
                    sent = pending.pop(frame["id"], None)
                    if sent is not None:
                        self.latencies.append(time.perf_counter() - sent)
                        self.actions += 1
                elif kind in ("update", "sync") and "view" in frame:
                    view = frame["view"]
                    if view.get("over"):
                        return
                    if view.get("to_act") == seat and view.get("legal_actions") and not pending:
                        n += 1
                        cid = f"a{n}"
                        pending[cid] = time.perf_counter()
                        move = rng.choice(view["legal_actions"])
                        await ws.send(
                            json.dumps(
                                {"type": "action", "table": table, "id": cid, "action": move}
                            )
                        )

    async def close(self) -> None:
        await self.http.aclose()


async def table_of_two(base: str, stop: float, latencies: list[float], k: int) -> None:
    while time.monotonic() < stop:
        a, b = Scripted(base, latencies), Scripted(base, latencies)
        await a.sign_in()
        await b.sign_in()
        made = await a.http.post("/api/tables", json={"game": "imperial", "turn_timeout": None})
        table = made.json()["table"]["id"]
        (await b.http.post(f"/api/tables/{table}/join", json={})).raise_for_status()
        await asyncio.gather(
            a.play(table, 0, stop, random.Random(k)), b.play(table, 1, stop, random.Random(-k))
        )
        await a.close()
        await b.close()


async def bot_tables(base: str, count: int, game: str) -> tuple[list[str], str]:
    """Opens ``count`` tables of bots only; returns their ids and the host's cookie."""
    host = httpx.AsyncClient(base_url=base, timeout=30)
    await host.post("/api/guest")
    n = 2 if game == "imperial" else 4
    tables = []
    for _ in range(count):
        body = {"game": game, "players": n, "sit": False, "bots": [1] * n}
        made = await host.post("/api/tables", json=body)
        made.raise_for_status()
        tables.append(made.json()["table"]["id"])
    cookie = "; ".join(f"{k}={v}" for k, v in host.cookies.items())
    await host.aclose()
    return tables, cookie


async def watch(base: str, cookie: str, table: str, stop: float) -> None:
    """A watcher of a bot-only table (its bots play only while it is watched): says
    ``hello`` and reads every frame until ``stop``, dropping them (never a slow reader)."""
    url = base.replace("http", "ws") + "/ws"
    async with websockets.connect(url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table}))
        while (left := stop - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(ws.recv(), left)
            except (TimeoutError, websockets.ConnectionClosed):
                return


def committed(base: str) -> float:
    text = httpx.get(base + "/metrics").text
    total = 0.0
    for line in text.splitlines():
        if line.startswith("kozyr_actions_total{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


async def run(args: argparse.Namespace, base: str) -> dict[str, Any]:
    latencies: list[float] = []
    start_actions = committed(base)
    started = time.monotonic()
    stop = started + args.seconds
    tables, cookie = await bot_tables(base, args.bot_tables, args.bot_game)
    await asyncio.gather(
        *(watch(base, cookie, table, stop) for table in tables),
        *(table_of_two(base, stop, latencies, k) for k in range(args.tables)),
    )
    elapsed = time.monotonic() - started
    total = committed(base) - start_actions
    latencies.sort()
    out = {
        "actions": int(total),
        "seconds": round(elapsed, 1),
        "actions_per_s": round(total / elapsed, 1),
        "people_actions": len(latencies),
    }
    if latencies:
        out["ack_p50_ms"] = round(statistics.median(latencies) * 1000, 2)
        out["ack_p99_ms"] = round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 2)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables of two scripted people")
    parser.add_argument("--bot-tables", type=int, default=10, help="tables of bots only")
    parser.add_argument("--bot-game", default="imperial", choices=["imperial", "emperor"])
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--postgres", default=os.environ.get("KOZYR_TEST_POSTGRES_URL"))
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument(
        "--profile",
        type=Path,
        help="record the server with py-spy meanwhile: collapsed stacks into this folder",
    )
    args = parser.parse_args()
    backends: list[tuple[str, str | None]] = [("sqlite", None)]
    if args.postgres and not args.sqlite_only:
        backends.append(("postgresql", asyncio.run(fresh_postgres(args.postgres, "kozyr_bench"))))
    print(
        f"kozyr server bench: {args.tables} tables of 2 scripted people (Imperial), "
        f"{args.bot_tables} bot-only {args.bot_game} tables, {args.seconds:g} s each backend"
    )
    for name, url in backends:
        with tempfile.TemporaryDirectory(prefix="kozyr-bench-") as tmp:
            proc, base = start_server(Path(tmp), SERVER_ENV, url)
            spy = start_profile(proc.pid, args.profile, name, args.seconds)
            cpu0 = cpu_seconds(proc.pid)
            try:
                result = asyncio.run(run(args, base))
                result["server_cpu_s"] = round(cpu_seconds(proc.pid) - cpu0, 1)
            finally:
                stop_profile(spy)
                proc.terminate()
                proc.wait(10)
            log = (Path(tmp) / "server.log").read_text()
            if "Traceback" in log:
                print(log[-4000:], file=sys.stderr)
        figures = ", ".join(f"{k} {v}" for k, v in result.items())
        print(f"{name:10s} {figures}")


if __name__ == "__main__":
    main()
