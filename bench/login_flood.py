"""/healthz while clients flood the login route: does password hashing stall the server?

Starts ``kozyr serve`` on localhost with the login throttle lifted (so every attempt
really runs argon2), registers one account, then measures ``/healthz`` latency for
``--seconds`` while ``--clients`` clients send wrong passwords as fast as they are answered,
and once with no flood, side by side in one run.

    .venv/bin/python bench/login_flood.py --clients 4 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from serverproc import start_server


async def health_latencies(base: str, seconds: float) -> list[float]:
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.perf_counter()
            (await http.get("/healthz")).raise_for_status()
            out.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.05)
    return out


async def flood(base: str, stop: asyncio.Event, counts: list[int]) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            r = await http.post("/api/login", json={"name": "flooded", "password": "wrong-pass"})
            assert r.status_code == 401, r.text
            counts[0] += 1


async def run(base: str, clients: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post("/api/register", json={"name": "flooded", "password": "right-pass"})
        r.raise_for_status()
    quiet = await health_latencies(base, seconds)
    stop, counts = asyncio.Event(), [0]
    tasks = [asyncio.create_task(flood(base, stop, counts)) for _ in range(clients)]
    loud = await health_latencies(base, seconds)
    stop.set()
    await asyncio.gather(*tasks)
    for label, xs in (("no flood", quiet), (f"{clients} clients flooding login", loud)):
        xs.sort()
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        print(
            f"/healthz, {label}: p50 {statistics.median(xs):.1f} ms, p99 {p99:.1f} ms "
            f"({len(xs)} requests)"
        )
    print(f"login attempts answered during the flood: {counts[0]} in {seconds:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "KOZYR_LOGIN_LIMIT": "1000000",
            "KOZYR_ACCOUNT_LIMIT": "1000000",
            "KOZYR_GUEST_LIMIT": "1000000",
        }
        proc, base = start_server(Path(tmp), env)
        try:
            asyncio.run(run(base, args.clients, args.seconds))
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
