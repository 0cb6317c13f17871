"""What spectators' bets cost: bets per second and their latency, and the server's CPU
per bet.

Starts ``kozyr serve`` on localhost (SQLite in a temporary folder, or ``--database-url``)
with one open Imperial table, gives ``--spectators`` guests chips on the ledger, and has
them all bet at once, one bet after another each, on the table's six open markets (10 bets
a person a market: up to 60 each). Prints bets per second, latency percentiles and the
server's CPU seconds per bet.

    .venv/bin/python bench/bets.py --spectators 50
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account
from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage.store import Store
from serverproc import cpu_seconds, start_server

MARKETS = {
    "game.winner": "seat:0",
    "game.first_mark": "seat:1",
    "deal.1.first_mark": "nobody",
    "deal.1.tricks.0": "4-6",
    "deal.1.tricks.1": "0-3",
    "deal.1.capot": "no",
}


async def main(spectators: int, per_market: int, database_url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        proc, base = start_server(
            data, {"KOZYR_ACCOUNT_LIMIT": "100000", "KOZYR_GUEST_LIMIT": "100000"}, database_url
        )
        try:
            async with httpx.AsyncClient(base_url=base, timeout=60) as owner:
                await owner.post("/api/guest")
                r = await owner.post("/api/tables", json={"game": "imperial", "players": 2})
                table = r.json()["table"]["id"]
            clients = [httpx.AsyncClient(base_url=base, timeout=60) for _ in range(spectators)]
            users = [(await c.post("/api/guest")).json()["user"]["id"] for c in clients]
            url = normalise_database_url(database_url) if database_url else sqlite_url(data)
            store = Store(url)
            for uid in users:
                async with store._write() as conn:
                    moves = [(Account.house(), -10_000), (Account.wallet(uid), 10_000)]
                    await ledger.post(conn, f"bench-grant:{uid}", "grant", moves)
            await store.close()
            latencies: list[float] = []

            async def bettor(i: int, client: httpx.AsyncClient) -> None:
                for market, outcome in MARKETS.items():
                    for k in range(per_market):
                        body = {"market": market, "outcome": outcome, "chips": 1 + k}
                        body["key"] = f"{i}-{market}-{k}"
                        started = time.perf_counter()
                        r = await client.post(f"/api/tables/{table}/bets", json=body)
                        latencies.append(time.perf_counter() - started)
                        assert r.status_code == 201, r.text

            cpu0, t0 = cpu_seconds(proc.pid), time.perf_counter()
            await asyncio.gather(*(bettor(i, c) for i, c in enumerate(clients)))
            wall, cpu = time.perf_counter() - t0, cpu_seconds(proc.pid) - cpu0
            for c in clients:
                await c.aclose()
            n = len(latencies)
            q = statistics.quantiles(latencies, n=100)
            print(f"{spectators} spectators, {n} bets in {wall:.1f} s: {n / wall:.0f} bets/s")
            worst = max(latencies) * 1000
            print(f"latency ms: p50 {q[49] * 1000:.1f}  p95 {q[94] * 1000:.1f}  max {worst:.1f}")
            print(f"server CPU: {cpu:.2f} s, {cpu / n * 1000:.2f} ms per bet")
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=50)
    parser.add_argument("--per-market", type=int, default=10)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    asyncio.run(main(args.spectators, args.per_market, args.database_url))
