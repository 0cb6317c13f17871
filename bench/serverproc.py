"""What the server benchmarks share: a ``kozyr serve`` of their own on a free localhost
port (SQLite in the given folder, or a PostgreSQL URL), and the server's CPU and memory
read from ``/proc`` (Linux)."""

from __future__ import annotations

import os
import random
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    data: Path, env_extra: dict[str, str], database_url: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """Starts the server and waits until ``/healthz`` answers; returns it and its base URL.
    Its log goes to ``data/server.log``."""
    port = free_port()
    env = dict(os.environ)
    env.pop("KOZYR_DATABASE_URL", None)
    env.update({"KOZYR_BOT_KIND": "random", "KOZYR_TURN_TIMEOUT": "0", **env_extra})
    if database_url:
        env["KOZYR_DATABASE_URL"] = database_url
    proc = subprocess.Popen(
        [sys.executable, "-m", "kozyr", "serve", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=(data / "server.log").open("wb"),
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not start")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB."""
    text = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+) kB", text, re.MULTILINE)
    return int(match.group(1)) / 1024 if match else float("nan")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def start_profile(
    pid: int, folder: Path | None, name: str, seconds: float
) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the server ``pid`` for ``seconds`` (with native and idle frames
    left out) into ``folder/name.txt`` as collapsed stacks (one line a stack, then its
    sample count: ``bench/profile_summary.py`` sums them up); None without a folder."""
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    spy = Path(sys.executable).with_name("py-spy")
    out = folder / f"{name}.txt"
    return subprocess.Popen(
        [
            str(spy),
            "record",
            "-p",
            str(pid),
            "-d",
            str(int(seconds)),
            "-r",
            "200",
            "-f",
            "raw",
            "-o",
            str(out),
            "--nonblocking",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_profile(spy: subprocess.Popen[bytes] | None) -> None:
    """Waits for py-spy to write its profile (it stops by itself after its duration)."""
    if spy is not None:
        try:
            spy.wait(60)
        except subprocess.TimeoutExpired:
            spy.kill()


async def fresh_postgres(url: str, prefix: str) -> str:
    """A new empty database beside ``url`` (named ``prefix`` + pid + a random number)."""
    import asyncpg

    plain = url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"{prefix}_{os.getpid()}_{random.randrange(1 << 30)}"
    conn = await asyncpg.connect(plain)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return plain.rpartition("/")[0] + "/" + name
