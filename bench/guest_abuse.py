"""What a few guests can take from everyone else: `/healthz` and a victim table's bot
replies, quiet and then under the hardening list's three CPU floods at once.

The floods (issue #43's findings, as an attacker on loopback would run them):
- 4 uploaders post a long record to ``POST /api/replay`` back to back, anonymously: two
  an Emperor game of many rounds, 4,900 legal actions, two the longest Emperor game a new
  table may have (30 rounds, 4 players);
- 2 hint flooders, each at 4 casual hint tables, ask ``POST /api/tables/{id}/hint`` again
  as soon as an answer (or a refusal) comes;
- one spectator socket watches 5 tables of level-5 bots alone (three guests open them).

The victim is a guest at an Imperial table against one level-3 bot, playing a random legal
card as soon as his turn comes; his figure is the time from his card to his next turn (the
bot's reply). A pinger asks ``/healthz`` every 0.2 s.

Each ``--tree LABEL=PATH`` is a checkout whose ``src/`` the server runs from (its compiled
core built there, or none), so that an old commit and this one are measured side by side in
one run, one after the other, on the same machine::

    git worktree add --detach /tmp/kozyr-old e660b32
    ln -s "$PWD/.venv" /tmp/kozyr-old/.venv && /tmp/kozyr-old/scripts/build-core
    .venv/bin/python bench/guest_abuse.py --tree before=/tmp/kozyr-old --tree after=.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serverproc import cpu_seconds, start_server


@dataclass
class Figures:
    health: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def long_record(actions: int, rounds: int) -> dict[str, Any]:
    """An Emperor game of ``rounds`` rounds, cut at ``actions`` legal actions."""
    from kozyr.games.emperor import EmperorOptions, EmperorState
    from kozyr.records import to_record

    state = EmperorState.new(EmperorOptions(players=4, rounds=rounds), seed=7)
    rng = random.Random(7)
    played = 0
    while not state.over and played < actions:
        state.apply(rng.choice(state.legal_actions()))
        played += 1
    return to_record(state)


async def guest(base: str) -> httpx.AsyncClient:
    http = httpx.AsyncClient(base_url=base, timeout=120)
    r = await http.post("/api/guest")
    r.raise_for_status()
    return http


def cookie_of(http: httpx.AsyncClient) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in http.cookies.jar)


async def pinger(base: str, figures: Figures, stop: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < stop:
            t = time.perf_counter()
            await http.get("/healthz")
            figures.health.append(time.perf_counter() - t)
            await asyncio.sleep(0.2)


async def victim_table(http: httpx.AsyncClient) -> str:
    body = {"game": "imperial", "players": 2, "bots": [3], "turn_timeout": None}
    r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    table: str = r.json()["table"]["id"]
    return table


async def victim(
    http: httpx.AsyncClient, first: str, ws_url: str, figures: Figures, stop: float
) -> None:
    """Plays his first table (opened before the window), then new ones."""
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": cookie_of(http)}, max_size=None
    ) as ws:
        rng = random.Random(1)
        table = first
        while time.monotonic() < stop:
            await ws.send(json.dumps({"type": "hello", "table": table}))
            sent: float | None = None
            n = 0
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    break
                frame = json.loads(raw)
                view = frame.get("view") if frame.get("table") == table else None
                if not view:
                    continue
                if view.get("over"):
                    break
                if view.get("to_act") == 0 and view.get("legal_actions"):
                    if sent is not None:
                        figures.replies.append(time.perf_counter() - sent)
                    n += 1
                    move = rng.choice(view["legal_actions"])
                    await ws.send(
                        json.dumps(
                            {"type": "action", "table": table, "id": f"v{n}", "action": move}
                        )
                    )
                    sent = time.perf_counter()
            await ws.send(json.dumps({"type": "unwatch", "table": table}))
            if time.monotonic() < stop:
                table = await victim_table(http)
    await http.aclose()


async def uploader(base: str, record: bytes, figures: Figures, stop: float) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        while time.monotonic() < stop:
            r = await http.post(
                "/api/replay", content=record, headers={"Content-Type": "application/json"}
            )
            code = "ok" if r.status_code == 200 else r.json().get("code", str(r.status_code))
            figures.outcomes[f"upload {code}"] += 1
            if r.status_code == 429:
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))


async def hint_flooder(base: str, ws_url: str, figures: Figures) -> Any:
    """Signs in and opens the tables first; returns the flood to start."""
    http = await guest(base)
    tables = []
    for _ in range(4):
        body = {"game": "imperial", "players": 2, "bots": [1], "hints": True, "turn_timeout": None}
        r = await http.post("/api/tables", json=body)
        if r.status_code != 201 and r.status_code != 200:
            figures.outcomes[f"hint table {r.json().get('code')}"] += 1
            continue
        tables.append(r.json()["table"]["id"])
    return lambda stop: hint_flood(http, ws_url, tables, figures, stop)


async def hint_flood(
    http: httpx.AsyncClient, ws_url: str, tables: list[str], figures: Figures, stop: float
) -> None:
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": cookie_of(http)}, max_size=None
    ) as ws:
        for t in tables:
            await ws.send(json.dumps({"type": "hello", "table": t}))

        async def flood(table: str) -> None:
            while time.monotonic() < stop:
                r = await http.post(f"/api/tables/{table}/hint")
                code = "ok" if r.status_code == 200 else r.json().get("code", str(r.status_code))
                figures.outcomes[f"hint {code}"] += 1
                if r.status_code != 200:
                    await asyncio.sleep(0.05)

        async def drain() -> None:
            while time.monotonic() < stop:
                try:
                    await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                except TimeoutError:
                    return

        await asyncio.gather(drain(), *(flood(t) for t in tables))
    await http.aclose()


async def bot_watcher(base: str, ws_url: str, figures: Figures) -> Any:
    """Opens the tables first; returns the watching to start."""
    owners = [await guest(base) for _ in range(3)]
    tables = []
    for i in range(5):
        body = {"game": "imperial", "players": 2, "bots": [5, 5], "sit": False}
        r = await owners[i // 2].post("/api/tables", json=body)
        if r.status_code not in (200, 201):
            figures.outcomes[f"bot table {r.json().get('code')}"] += 1
            continue
        tables.append(r.json()["table"]["id"])
    figures.outcomes["bot tables watched"] = len(tables)
    spectator = await guest(base)
    return lambda stop: watch(owners, spectator, ws_url, tables, stop)


async def watch(
    owners: list[httpx.AsyncClient],
    spectator: httpx.AsyncClient,
    ws_url: str,
    tables: list[str],
    stop: float,
) -> None:
    async with websockets.connect(
        ws_url, additional_headers={"Cookie": cookie_of(spectator)}, max_size=None
    ) as ws:
        for t in tables:
            await ws.send(json.dumps({"type": "hello", "table": t}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
            except TimeoutError:
                break
    for h in (*owners, spectator):
        await h.aclose()


async def measure(base: str, pid: int, seconds: float, attack: bool) -> dict[str, Any]:
    ws_url = base.replace("http", "ws", 1) + "/ws"
    figures = Figures()
    warm = 3.0 if attack else 0.0
    person = await guest(base)
    first = await victim_table(person)
    starts = []
    if attack:  # every attacker signed in, his tables open, before any flood starts
        starts = [await hint_flooder(base, ws_url, figures) for _ in range(2)]
        starts.append(await bot_watcher(base, ws_url, figures))
        # two upload a game of more rounds than a table may have (the finding's), two the
        # longest game a table may have: each record is the same on every tree
        records = [json.dumps(long_record(4900, r)).encode() for r in (1000, 30)]
    stop = time.monotonic() + warm + seconds
    attackers: list[Any] = [start(stop) for start in starts]
    if attack:
        attackers += [uploader(base, records[i % 2], figures, stop) for i in range(4)]
    tasks = [asyncio.ensure_future(a) for a in attackers]
    await asyncio.sleep(warm)
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.gather(pinger(base, figures, stop), victim(person, first, ws_url, figures, stop))
    cpu = (cpu_seconds(pid) - cpu0) / (time.monotonic() - t0)
    for t in tasks:
        t.cancel()
    for failure in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(failure, Exception):
            figures.outcomes[f"attacker failed: {failure!r}"[:120]] += 1
    return {
        "health_p50": pct(figures.health, 0.5) * 1000,
        "health_p95": pct(figures.health, 0.95) * 1000,
        "reply_p50": pct(figures.replies, 0.5) * 1000,
        "reply_p95": pct(figures.replies, 0.95) * 1000,
        "replies": len(figures.replies),
        "cpu": cpu,
        "outcomes": dict(sorted(figures.outcomes.items())),
    }


def run_tree(label: str, tree: Path, seconds: float) -> list[tuple[str, dict[str, Any]]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {"PYTHONPATH": str(tree / "src"), "KOZYR_BOT_KIND": "", "KOZYR_TURN_TIMEOUT": "0"}
        proc, base = start_server(Path(tmp), env)
        try:
            for phase, attack in (("quiet", False), ("flooded", True)):
                rows.append(
                    (f"{label} {phase}", asyncio.run(measure(base, proc.pid, seconds, attack)))
                )
                time.sleep(2)
        finally:
            proc.terminate()
            proc.wait(30)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", default=[], help="LABEL=PATH, repeatable")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's window")
    args = parser.parse_args()
    trees = args.tree or ["this=."]
    rows = []
    for spec in trees:
        label, _, path = spec.partition("=")
        rows += run_tree(label, Path(path).resolve(), args.seconds)
    print(
        f"{'':18} {'healthz p50':>11} {'p95':>7} {'bot reply p50':>13} {'p95':>7}"
        f" {'n':>4} {'CPU-s/s':>7}"
    )
    for name, r in rows:
        print(
            f"{name:18} {r['health_p50']:9.0f}ms {r['health_p95']:5.0f}ms "
            f"{r['reply_p50']:11.0f}ms {r['reply_p95']:5.0f}ms {r['replies']:4d} {r['cpu']:7.2f}"
        )
    for name, r in rows:
        if r["outcomes"]:
            print(f"# {name}: " + ", ".join(f"{k} {v}" for k, v in r["outcomes"].items()))
    print(f"# load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
