"""Load generator: many people, spectators and reconnects against one ``kozyr serve``.

For each step of ``--steps`` (people), starts a fresh server (SQLite in a temporary folder,
or PostgreSQL: ``--database postgres`` uses ``$KOZYR_TEST_POSTGRES_URL`` or a throw-away
cluster it starts itself), signs the people in as guests, seats them two by two at
Imperial tables, adds ``--spectators`` per table, and then, for ``--seconds``, every person
plays a random legal move as soon as his turn comes and his previous move is
acknowledged, or (``--think S``) after thinking for a random time of mean S seconds, a
human pace (a finished game is followed by a new table); one person in
``--reconnect-every`` actions drops his WebSocket and comes back with his last ``seq``.
The clients run in ``--procs`` separate processes (each with many asyncio WebSocket
clients), so that the load generator is not what limits the server.

With ``--nodes N`` (PostgreSQL only) each step starts N server processes in cluster mode
instead (one database, and a throw-away ``redis-server`` the bench starts itself), and the
people are spread over them: ``--spread seat`` (the default) puts the two people of a table
on different processes where it can (their actions are forwarded to the table's owner and
its frames relayed back, as behind a balancer without sticky sessions), ``--spread table``
puts both on the process that owns their table. The figures are then summed over the
processes.

Each step prints and saves (``--out``: ``load.json`` and ``load.png``) actions per second,
the people's acknowledgement latency p50/p99, errors, people whose actions were never
acknowledged, and the server's CPU seconds per 1,000 actions (from ``/proc/PID/stat``).

    .venv/bin/python bench/load.py --steps 100,500,1000 --seconds 20 --out bench-out
    .venv/bin/python bench/load.py --database postgres --nodes 2 --steps 500 --out bench-out
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from kozyr.server.runtime.gctune import DEFAULT as GC_DEFAULT
from serverproc import (
    cpu_seconds,
    fresh_postgres,
    rss_mb,
    start_profile,
    start_server,
    stop_profile,
)

SERVER_ENV = {
    "KOZYR_BOT_DELAY": "0",
    "KOZYR_TURN_TIMEOUT": "60",
    "KOZYR_GRACE": "600",
    "KOZYR_FLOOD_FRAMES": "100000",
    # every simulated person signs in, opens tables and connects from 127.0.0.1
    "KOZYR_ACCOUNT_LIMIT": "1000000",
    "KOZYR_GUEST_LIMIT": "1000000",
    "KOZYR_MAX_OPEN_TABLES": "0",
    "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "0",
    "KOZYR_MAX_SOCKETS_PER_ADDRESS": "1000000",
    "KOZYR_ACCOUNT_FRAMES": "100000",
    # uvicorn's cap on connections (1000 by default) counts every WebSocket
    "KOZYR_MAX_CONNECTIONS": "100000",
    # let the server write its bytecode once instead of compiling at every start
    "PYTHONDONTWRITEBYTECODE": "",
}

SETUP_CONCURRENCY = 40
"""Sign-ups and table openings one client process has under way at once."""


# -- one client process -------------------------------------------------------------------


@dataclass
class Stats:
    """What one client process measured in the window."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    games: int = 0
    people: int = 0
    acked_people: int = 0
    spectator_frames: int = 0
    lobby_frames: int = 0


class Guest:
    """One signed-in guest: its session cookie (one shared HTTP client serves them all: a
    client each would cost a TLS context each, which is most of the old bench's time)."""

    def __init__(self, http: httpx.AsyncClient, cookie: str) -> None:
        self.http = http
        self.cookie = cookie

    @classmethod
    async def sign_in(cls, http: httpx.AsyncClient) -> Guest:
        r = await http.post("/api/guest")
        r.raise_for_status()
        cookie = "; ".join(f"{c.name}={c.value}" for c in r.cookies.jar)
        http.cookies.clear()  # the shared client must not carry anyone's session
        return cls(http, cookie)

    async def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.http.post(path, json=body, headers={"Cookie": self.cookie})
        self.http.cookies.clear()
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data


async def open_table(a: Guest, b: Guest) -> str:
    # a turn timer armed at every turn (as people's tables have), but longer than the
    # setup of a big step takes: a person waiting for the window must not time out
    made = await a.post("/api/tables", {"game": "imperial", "turn_timeout": 3600})
    table: str = made["table"]["id"]
    await b.post(f"/api/tables/{table}/join", {})
    return table


class Person:
    def __init__(
        self,
        guest: Guest,
        ws_url: str,
        stats: Stats,
        rng: random.Random,
        reconnect: int,
        think: float = 0.0,
    ) -> None:
        self.guest = guest
        self.think = think
        """Mean seconds a person thinks before each move (exponential; 0: none)."""
        self.ws_url = ws_url
        self.stats = stats
        self.rng = rng
        self.reconnect = reconnect
        self.acked = 0
        self.n = 0
        self.ws: Any = None
        """A WebSocket opened before the window (so that it measures play, not a crowd
        of handshakes at once)."""

    async def open(self, table: str, last_seq: int | None = None) -> Any:
        """Connects and, as the web page does, looks at the lobby first (it shows the
        lobby when it connects), then says hello to the table."""
        ws = await websockets.connect(
            self.ws_url,
            additional_headers={"Cookie": self.guest.cookie},
            max_size=None,
            open_timeout=120,
        )
        await ws.send(json.dumps({"type": "lobby", "limit": 20}))
        hello: dict[str, Any] = {"type": "hello", "table": table}
        if last_seq is not None:
            hello["last_seq"] = last_seq
        await ws.send(json.dumps(hello))
        return ws

    async def play(self, table: str, seat: int, stop: float) -> bool:
        """Plays ``table`` until the game ends (True) or the window closes (False)."""
        last_seq: int | None = None
        while True:
            over, last_seq, dropped = await self._session(table, seat, stop, last_seq)
            if not dropped:
                return over
            self.stats.reconnects += 1

    async def _session(
        self, table: str, seat: int, stop: float, last_seq: int | None
    ) -> tuple[bool, int | None, bool]:
        """One WebSocket: (game over, last seq seen, dropped on purpose to reconnect)."""
        stats = self.stats
        ws, self.ws = self.ws, None
        if ws is None:
            ws = await self.open(table, last_seq)
        async with ws:
            pending: dict[str, float] = {}
            view: dict[str, Any] = {}
            seq = last_seq
            try:
                # One deadline for the session, not a wait_for (a task and a timer) per
                # frame, and orjson: the clients are not to be the bottleneck.
                async with asyncio.timeout_at(_loop_time(stop)):
                    while True:
                        raw = await ws.recv()
                        frame = orjson.loads(raw)
                        kind = frame.get("type")
                        if kind == "ack":
                            sent = pending.pop(frame.get("id"), None)
                            if sent is not None:
                                stats.latencies.append(time.perf_counter() - sent)
                                stats.actions += 1
                                self.acked += 1
                            if self.reconnect and self.rng.randrange(self.reconnect) == 0:
                                return False, seq, True
                        elif kind == "lobby":
                            stats.lobby_frames += 1
                        elif kind == "error":
                            pending.pop(frame.get("id"), None)
                            stats.errors[str(frame.get("code"))] += 1
                        elif kind in ("update", "sync"):
                            seq = frame.get("seq", seq)
                            if "view" in frame:
                                view = frame["view"]
                        if view.get("over"):
                            return True, seq, False
                        if view.get("to_act") == seat and view.get("legal_actions") and not pending:
                            if self.think > 0:  # a human pace: the ack latency excludes the pause
                                pause = self.rng.expovariate(1 / self.think)
                                if time.monotonic() + pause >= stop:
                                    return False, seq, False
                                await asyncio.sleep(pause)
                            self.n += 1
                            cid = f"a{self.n}"
                            pending[cid] = time.perf_counter()
                            move = self.rng.choice(view["legal_actions"])
                            body = {"type": "action", "table": table, "id": cid, "action": move}
                            if seq is not None:
                                body["seq"] = seq
                            await ws.send(json.dumps(body))
                            view = {}  # the next move waits for the next view
            except TimeoutError:
                return False, seq, False


async def spectate(guest: Guest, ws_url: str, table: str, stats: Stats, stop: float) -> None:
    headers = {"Cookie": guest.cookie}
    async with websockets.connect(ws_url, additional_headers=headers, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "table": table}))
        try:
            async with asyncio.timeout_at(_loop_time(stop)):
                while True:
                    raw = await ws.recv()
                    stats.spectator_frames += 1
                    if '"type":"error"' in raw:
                        stats.errors[str(json.loads(raw).get("code"))] += 1
        except TimeoutError:
            return


def _loop_time(monotonic_at: float) -> float:
    """The running loop's clock reading at ``time.monotonic()`` = ``monotonic_at``."""
    return asyncio.get_running_loop().time() + (monotonic_at - time.monotonic())


def node_of(person: int, nodes: int, spread: str) -> int:
    """Which server process person ``person`` uses (people ``2k`` and ``2k+1`` share table
    ``k``, opened by the first): its own by seat, or its table's."""
    return (person if spread == "seat" else person // 2) % nodes


async def client_main(
    bases: list[str],
    spread: str,
    people: int,
    spectators: int,
    seconds: float,
    reconnect: int,
    seed: int,
    pipe: Any,
    think: float = 0.0,
) -> Stats:
    stats = Stats(people=people)
    shared_tls = ssl.create_default_context()
    # No kept-alive connections: the server closes idle ones after 5 s, and a request
    # sent on one just as it closes fails with ReadError (on a loaded machine, often).
    limits = httpx.Limits(max_connections=SETUP_CONCURRENCY, max_keepalive_connections=0)
    https = [
        httpx.AsyncClient(base_url=base, timeout=120, verify=shared_tls, limits=limits)
        for base in bases
    ]
    ws_urls = [base.replace("http", "ws", 1) + "/ws" for base in bases]
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    rng = random.Random(seed)

    async def guest(node: int) -> Guest:
        async with gate:
            return await Guest.sign_in(https[node])

    pairs = people // 2
    nodes = len(bases)
    where = [node_of(j, nodes, spread) for j in range(2 * pairs)]
    guests = await asyncio.gather(*(guest(where[j]) for j in range(2 * pairs)))
    watchers = await asyncio.gather(*(guest(i % nodes) for i in range(spectators)))
    persons = [
        Person(g, ws_urls[where[j]], stats, random.Random(rng.random()), reconnect, think)
        for j, g in enumerate(guests)
    ]

    async def first_table(k: int) -> str:
        async with gate:
            return await open_table(guests[2 * k], guests[2 * k + 1])

    tables = list(await asyncio.gather(*(first_table(k) for k in range(pairs))))

    async def connect(i: int) -> None:
        async with gate:
            persons[i].ws = await persons[i].open(tables[i // 2])

    await asyncio.gather(*(connect(i) for i in range(len(persons))))
    # ready: tell the conductor, then wait for its go (the window opens for all at once)
    pipe.send("ready")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    stop = time.monotonic() + seconds

    async def pair(k: int) -> None:
        a, b = persons[2 * k], persons[2 * k + 1]
        table = tables[k]
        while time.monotonic() < stop:
            try:
                done = await asyncio.gather(a.play(table, 0, stop), b.play(table, 1, stop))
            except Exception as e:  # a refused or lost connection is an error to count
                stats.errors[type(e).__name__] += 1
                await asyncio.sleep(0.5)
                continue
            if not all(done):
                return
            stats.games += 1
            try:
                async with gate:
                    table = await open_table(a.guest, b.guest)
            except Exception as e:
                stats.errors[type(e).__name__] += 1
                return

    async def watch(i: int) -> None:
        try:
            await spectate(watchers[i], ws_urls[i % nodes], tables[i % len(tables)], stats, stop)
        except Exception as e:
            stats.errors[type(e).__name__] += 1

    await asyncio.gather(
        *(pair(k) for k in range(pairs)), *(watch(i) for i in range(len(watchers)))
    )
    for http in https:
        await http.aclose()
    stats.acked_people = sum(1 for p in persons if p.acked > 0)
    return stats


def client_process(
    bases: list[str],
    spread: str,
    people: int,
    spectators: int,
    seconds: float,
    reconnect: int,
    seed: int,
    pipe: Any,
    think: float = 0.0,
) -> None:
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    # the clients are not to be the bottleneck: the same collector tuning as the server's
    gc.set_threshold(*GC_DEFAULT)
    try:
        stats = asyncio.run(
            client_main(bases, spread, people, spectators, seconds, reconnect, seed, pipe, think)
        )
        pipe.send(stats)
    except Exception as e:
        pipe.send(f"failed: {type(e).__name__}: {e}")


# -- the conductor ------------------------------------------------------------------------


def committed(base: str) -> float:
    text = httpx.get(base + "/metrics", timeout=60).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("kozyr_actions_total{")
    )


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))
    return sorted_values[k]


def start_servers(
    tmp: Path, database_url: str | None, nodes: int, redis_url: str | None
) -> list[tuple[subprocess.Popen[bytes], str]]:
    """One server (as always), or ``nodes`` in cluster mode: the first alone (it migrates
    the fresh database), then the others."""
    if nodes == 1:
        return [start_server(tmp, SERVER_ENV, database_url)]
    servers = []
    try:
        for i in range(nodes):
            folder = tmp / f"node-{i}"
            folder.mkdir()
            env = {**SERVER_ENV, "KOZYR_REDIS_URL": str(redis_url), "KOZYR_NODE_ID": f"load-{i}"}
            servers.append(start_server(folder, env, database_url))
    except BaseException:
        for proc, _ in servers:
            proc.kill()
        raise
    return servers


def server_logs(tmp: Path) -> list[str]:
    return [p.read_text(errors="replace") for p in sorted(tmp.glob("**/server.log"))]


def run_step(
    args: argparse.Namespace,
    people: int,
    database_url: str | None,
    profile: Path | None,
    redis_url: str | None = None,
) -> dict[str, Any]:
    people -= people % 2
    procs = max(1, min(args.procs, people // 2))
    spectators = round(people / 2 * args.spectators)
    with tempfile.TemporaryDirectory(prefix="kozyr-load-") as tmp:
        servers = start_servers(Path(tmp), database_url, args.nodes, redis_url)
        proc = servers[0][0]  # profiled (the first, with --nodes)
        bases = [b for _, b in servers]
        pids = [p.pid for p, _ in servers]
        ctx = mp.get_context("spawn")
        workers = []
        try:
            setup_started = time.monotonic()
            for i in range(procs):
                share = (people // 2) // procs + (1 if i < (people // 2) % procs else 0)
                watchers = spectators // procs + (1 if i < spectators % procs else 0)
                mine, theirs = ctx.Pipe()
                w = ctx.Process(
                    target=client_process,
                    args=(
                        bases,
                        args.spread,
                        2 * share,
                        watchers,
                        args.seconds,
                        args.reconnect_every,
                        i,
                        theirs,
                        args.think,
                    ),
                    daemon=True,
                )
                w.start()
                workers.append((w, mine))
            for _w, pipe in workers:
                msg = pipe.recv()
                if msg != "ready":
                    raise SystemExit(f"a client process failed to set up: {msg}")
            setup = time.monotonic() - setup_started
            actions0 = sum(committed(b) for b in bases)
            cpu0 = sum(cpu_seconds(pid) for pid in pids)
            spy = start_profile(proc.pid, profile, f"{args.database}-{people}", args.seconds)
            started = time.monotonic()
            for _, pipe in workers:
                pipe.send("go")
            results: list[Stats] = []
            for w, pipe in workers:
                msg = pipe.recv()
                if not isinstance(msg, Stats):
                    raise SystemExit(f"a client process failed: {msg}")
                results.append(msg)
                w.join(30)
            elapsed = time.monotonic() - started
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
            total = sum(committed(b) for b in bases) - actions0
            rss = sum(rss_mb(pid) for pid in pids)
            stop_profile(spy)
        finally:
            for w, _ in workers:
                if w.is_alive():
                    w.kill()
            for proc, _ in servers:
                proc.terminate()
            for proc, _ in servers:
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    proc.kill()
            for log in server_logs(Path(tmp)):
                if "Traceback" in log:
                    print(log[-3000:], file=sys.stderr)
    latencies = sorted(x for r in results for x in r.latencies)
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r.errors)
    acked = sum(r.acked_people for r in results)
    spread = {"nodes": args.nodes, "spread": args.spread} if args.nodes > 1 else {}
    return {
        **spread,
        "people": people,
        "tables": people // 2,
        "spectators": spectators,
        "database": args.database,
        "think_s": args.think,
        "setup_s": round(setup, 1),
        "seconds": round(elapsed, 1),
        "actions": int(total),
        "actions_per_s": round(total / elapsed, 1),
        "people_actions": len(latencies),
        "ack_p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
        "ack_p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
        "errors": sum(errors.values()),
        "error_kinds": dict(errors),
        "people_never_acked": people - acked,
        "reconnects": sum(r.reconnects for r in results),
        "games_finished": sum(r.games for r in results),
        "spectator_frames": sum(r.spectator_frames for r in results),
        "lobby_frames": sum(r.lobby_frames for r in results),
        "server_cpu_s": round(cpu, 2),
        "server_cpu_s_per_1000_actions": round(1000 * cpu / total, 3) if total else None,
        "server_rss_mb": round(rss, 1),
        "load_average": os.getloadavg()[0],
    }


# -- PostgreSQL -----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def postgres_cluster() -> Any:
    """``$KOZYR_TEST_POSTGRES_URL``, else a throw-away cluster of Debian's PostgreSQL."""
    url = os.environ.get("KOZYR_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not bins:
        raise SystemExit("no PostgreSQL: set KOZYR_TEST_POSTGRES_URL or install postgresql")
    bin_dir = bins[-1]
    folder = Path(tempfile.mkdtemp(prefix="kozyr-load-pg-"))
    port = _free_port()
    user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if user:
        shutil.chown(folder, "postgres")
    subprocess.run(
        [
            *user,
            str(bin_dir / "initdb"),
            "-D",
            str(folder / "data"),
            "-U",
            "postgres",
            "--auth",
            "trust",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    subprocess.run(
        [
            *user,
            str(bin_dir / "pg_ctl"),
            "-D",
            str(folder / "data"),
            "-o",
            options,
            "-l",
            str(folder / "log"),
            "-w",
            "start",
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*user, str(bin_dir / "pg_ctl"), "-D", str(folder / "data"), "-m", "fast", "stop"],
            stdout=subprocess.DEVNULL,
        )
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def redis_server() -> Any:
    """A throw-away ``redis-server`` on a free localhost port (nothing saved)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--nodes needs redis-server (Debian's redis-server package)")
    folder = Path(tempfile.mkdtemp(prefix="kozyr-load-redis-"))
    port = _free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
    command += ["--appendonly", "no", "--dir", str(folder)]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


# -- output ---------------------------------------------------------------------------------


def chart(results: list[dict[str, Any]], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    people = [r["people"] for r in results]
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(13, 4))
    ax1.plot(people, [r["actions_per_s"] for r in results], "o-")
    ax1.set_title("actions/s (all tables)")
    ax2.plot(people, [r["ack_p50_ms"] for r in results], "o-", label="p50")
    ax2.plot(people, [r["ack_p99_ms"] for r in results], "s-", label="p99")
    ax2.axhline(150, color="grey", linestyle=":", label="target p99")
    ax2.set_title("ack latency (ms)")
    ax2.legend()
    ax3.plot(people, [r["server_cpu_s_per_1000_actions"] or 0 for r in results], "o-")
    ax3.axhline(0.5, color="grey", linestyle=":", label="target")
    ax3.set_title("server CPU s per 1,000 actions")
    ax3.legend()
    for ax in (ax1, ax2, ax3):
        ax.set_xlabel("people")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def show(r: dict[str, Any]) -> str:
    return (
        f"{r['people']:5d} people {r['tables']:5d} tables: {r['actions_per_s']:7.1f} actions/s, "
        f"ack p50 {r['ack_p50_ms']:6.1f} ms p99 {r['ack_p99_ms']:7.1f} ms, "
        f"errors {r['errors']}, never acked {r['people_never_acked']}, "
        f"server CPU {r['server_cpu_s_per_1000_actions']} s/1000 actions, "
        f"reconnects {r['reconnects']}, lobby frames {r['lobby_frames']}, "
        f"RSS {r['server_rss_mb']} MB, "
        f"setup {r['setup_s']} s, load {r['load_average']:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", default="100,250,500,1000,2000", help="people per step")
    parser.add_argument("--seconds", type=float, default=20, help="measured window per step")
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--spectators", type=float, default=0.1, help="spectators per table")
    parser.add_argument(
        "--reconnect-every", type=int, default=500, help="one reconnect in N acks (0: none)"
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="server processes in cluster mode over PostgreSQL + Redis (needs --database "
        "postgres; 1: one process, no Redis)",
    )
    parser.add_argument(
        "--spread",
        choices=["seat", "table"],
        default="seat",
        help="with --nodes: the two people of a table on different processes (seat) or both "
        "on the table's owner (table)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds each person thinks before a move (exponential; 0: moves at once)",
    )
    parser.add_argument("--out", type=Path, default=Path("bench-out"))
    parser.add_argument(
        "--profile", action="store_true", help="py-spy the server in each step (into --out)"
    )
    parser.add_argument(
        "--redraw",
        type=Path,
        help="only draw the chart of a saved load.json (several runs' steps joined) into --out",
    )
    args = parser.parse_args()
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    if args.nodes > 1 and args.database != "postgres":
        parser.error("--nodes needs --database postgres (processes share one database)")
    args.out.mkdir(parents=True, exist_ok=True)
    if args.redraw:
        saved = sorted(json.loads(args.redraw.read_text()), key=lambda r: r["people"])
        for r in saved:
            print(show(r))
        chart(saved, args.out / "load.png", f"kozyr load ({saved[0]['database']}, one process)")
        return
    steps = [int(s) for s in args.steps.split(",") if s.strip()]
    where = (
        "one process"
        if args.nodes == 1
        else f"{args.nodes} processes over one Redis, people spread by {args.spread}"
    )
    print(
        f"kozyr load: {args.database}, {where}, steps {steps} people, {args.seconds:g} s each, "
        f"{args.procs} client processes, {args.spectators:g} spectators per table, "
        f"a reconnect in {args.reconnect_every} acks, think {args.think:g} s; "
        f"{os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    results: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        cluster = stack.enter_context(postgres_cluster()) if args.database == "postgres" else None
        redis_url = stack.enter_context(redis_server()) if args.nodes > 1 else None
        for people in steps:
            url = asyncio.run(fresh_postgres(cluster, "kozyr_load")) if cluster else None
            profile = args.out if args.profile else None
            result = run_step(args, people, url, profile, redis_url)
            results.append(result)
            print(show(result), flush=True)
            (args.out / "load.json").write_text(json.dumps(results, indent=2) + "\n")
            chart(results, args.out / "load.png", f"kozyr load ({args.database}, {where})")
    print(f"saved {args.out / 'load.json'} and {args.out / 'load.png'}")


if __name__ == "__main__":
    main()
