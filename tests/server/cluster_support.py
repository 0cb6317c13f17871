"""Several real ``kozyr serve`` processes over one PostgreSQL and one Redis (cluster mode).

Usage in a test module of ``tests/server`` (its ``conftest.py`` provides the fixtures)::

    from tests.server.cluster_support import ClusterFactory, RedisServer
    from tests.server.support import Player

    async def test_two_nodes(cluster: ClusterFactory, redis_server: RedisServer) -> None:
        a, b = cluster(2)                    # two nodes started, both answering /healthz
        alice = await Player(a).sign_in()    # a Node has .base and .ws_url like ServerProc
        ...
        a.kill9()                            # SIGKILL: no shutdown code runs
        a.stop(); a.cont()                   # SIGSTOP / SIGCONT (a paused owner)
        await asyncio.to_thread(a.restart)   # again on the same port and node id (the
                                             # harness's calls block: keep the loop free)
        redis_server.stop(); redis_server.start()   # Redis lost, and back on the same port

- ``redis_server``: a throw-away ``redis-server`` on a free localhost port (no persistence),
  killed at the end of the test. ``.url``, ``.stop()`` (Redis lost), ``.start()`` (back,
  empty), ``.kill9()``.
- ``cluster(n, lease_ttl_ms=3000, env={...}, start=True)``: ``n`` nodes sharing a fresh
  PostgreSQL database (one per call) and the test's ``redis_server``. Each node has its own
  port, data folder under ``tmp_path``, log file (``node.log_text()``) and environment:
  ``KOZYR_NODE_ID`` (``node-0``, ``node-1``, ...), ``KOZYR_REDIS_URL``,
  ``KOZYR_LEASE_TTL_MS``, ``KOZYR_DATABASE_URL``, plus the test defaults of
  ``support.ServerProc`` (random bots, no bot delay, short grace) and ``env``. The first
  node is started alone (it migrates the fresh database), the others together after it.
  More nodes can be added to a running cluster with ``cluster.add()``.
- A ``Node``: ``.url``/``.base`` (``http://127.0.0.1:PORT``), ``.ws_url``, ``.pid``,
  ``.node_id``, ``.env``, ``.launch()`` (start, no wait), ``.wait_ready()``, ``.start()``
  (both), ``.kill9()``, ``.stop()`` (SIGSTOP), ``.cont()`` (SIGCONT), ``.terminate()``
  (SIGTERM, graceful), ``.restart()``, ``.alive()``.

Both fixtures skip the test, naming what is missing, when ``redis-server`` is not installed
or ``KOZYR_TEST_POSTGRES_URL`` is not set (``.ci/run`` provides both).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

import httpx
import pytest
from tests.server.support import TEST_ENV, free_port, fresh_postgres

DEFAULT_LEASE_TTL_MS = 3000

T = TypeVar("T")


def postgres_base_url() -> str:
    url = os.environ.get("KOZYR_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("cluster tests need PostgreSQL: KOZYR_TEST_POSTGRES_URL is not set")
    return url


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip("cluster tests need Redis: redis-server is not installed")
    return found


def redis_ping(port: int, timeout: float = 0.5) -> bool:
    """A raw ``PING`` (no client library, so that the harness checks the server alone)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def run_outside_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Runs a coroutine to its end from sync code, also when called inside an async test
    (whose loop is busy running it): on a thread of its own."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@dataclass
class RedisServer:
    """``redis-server`` on a free localhost port, without persistence."""

    folder: Path
    binary: str = "redis-server"
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10) -> RedisServer:
        """Starts it (again, on the same port and empty: Redis keeps nothing)."""
        if self.alive():
            return self
        self.folder.mkdir(parents=True, exist_ok=True)
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self.log_text()[-2000:]}")
            if redis_ping(self.port):
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """Redis lost: the process ends (SIGTERM) and its port closes."""
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def kill9(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.kill()
            self.proc.wait(10)

    def log_text(self) -> str:
        path = self.folder / "redis.log"
        return path.read_text(errors="replace") if path.exists() else ""


@dataclass
class Node:
    """One ``python -m kozyr serve`` process of a cluster."""

    node_id: str
    data: Path
    env: dict[str, str]
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    start_timeout: float = 60

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        """The same as ``url``: the name ``support.Player`` uses."""
        return self.url

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.proc is not None, f"{self.node_id} was never started"
        return self.proc.pid

    @property
    def log(self) -> Path:
        return self.data / f"{self.node_id}.log"

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def launch(self) -> Node:
        """Starts the process without waiting for it to answer."""
        assert not self.alive(), f"{self.node_id} is already running"
        env = dict(os.environ)
        env.pop("KOZYR_DATABASE_URL", None)
        env.update(TEST_ENV)
        env.update(self.env)
        self.data.mkdir(parents=True, exist_ok=True)
        out = self.log.open("ab")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kozyr",
                "serve",
                "--port",
                str(self.port),
                "--data",
                str(self.data),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
        return self

    def wait_ready(self, timeout: float | None = None) -> Node:
        """Waits until ``/healthz`` answers 200; raises with the log's tail if the process
        ends first or does not answer in time."""
        deadline = time.monotonic() + (timeout or self.start_timeout)
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"{self.node_id} exited: {self.log_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.node_id} did not answer: {self.log_text()[-3000:]}")

    async def ready(self, timeout: float | None = None) -> Node:
        """``wait_ready`` for async tests (the event loop keeps running meanwhile)."""
        return await asyncio.to_thread(self.wait_ready, timeout)

    def start(self) -> Node:
        return self.launch().wait_ready()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        """SIGKILL: no shutdown code runs, its leases simply stop being renewed."""
        if self.alive():
            assert self.proc is not None
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGSTOP: the process is frozen (sockets open, nothing runs) until ``cont()``."""
        if self.alive():
            os.kill(self.pid, signal.SIGSTOP)

    def cont(self) -> None:
        """SIGCONT after ``stop()``."""
        if self.alive():
            os.kill(self.pid, signal.SIGCONT)

    def terminate(self) -> None:
        """SIGTERM: a graceful shutdown (a frozen process is woken first)."""
        if self.alive():
            assert self.proc is not None
            os.kill(self.pid, signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def restart(self) -> Node:
        """Ends the process if it still runs (SIGKILL: as after a crash) and starts it again
        on the same port, data folder and ``KOZYR_NODE_ID`` (as a supervisor would)."""
        self.kill9()
        return self.start()


class Cluster(list[Node]):
    """The nodes of one test; ``add()`` starts one more."""

    def __init__(self, folder: Path, shared_env: dict[str, str]) -> None:
        super().__init__()
        self.folder = folder
        self.shared_env = shared_env

    def new_node(self, env: dict[str, str] | None = None) -> Node:
        node_id = f"node-{len(self)}"
        node = Node(
            node_id=node_id,
            data=self.folder / node_id,
            env={**self.shared_env, "KOZYR_NODE_ID": node_id, **(env or {})},
        )
        self.append(node)
        return node

    def add(self, env: dict[str, str] | None = None) -> Node:
        return self.new_node(env).start()

    def shut_down(self) -> None:
        for node in self:
            node.terminate()


class ClusterFactory(Protocol):
    def __call__(
        self,
        n: int = 2,
        *,
        lease_ttl_ms: int = DEFAULT_LEASE_TTL_MS,
        env: dict[str, str] | None = None,
        start: bool = True,
    ) -> Cluster: ...


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A throw-away Redis for one test."""
    server = RedisServer(tmp_path / "redis", binary=redis_binary()).start()
    yield server
    server.kill9()


@pytest.fixture
def cluster(redis_server: RedisServer, tmp_path: Path) -> Iterator[ClusterFactory]:
    """Makes clusters of ``n`` nodes over a fresh PostgreSQL database and ``redis_server``;
    every node is ended at the test's end."""
    made: list[Cluster] = []

    def make(
        n: int = 2,
        *,
        lease_ttl_ms: int = DEFAULT_LEASE_TTL_MS,
        env: dict[str, str] | None = None,
        start: bool = True,
    ) -> Cluster:
        database = run_outside_loop(fresh_postgres(postgres_base_url()))
        shared = {
            "KOZYR_DATABASE_URL": database,
            "KOZYR_REDIS_URL": redis_server.url,
            "KOZYR_LEASE_TTL_MS": str(lease_ttl_ms),
            **(env or {}),
        }
        nodes = Cluster(tmp_path / f"cluster-{len(made)}", shared)
        made.append(nodes)
        for _ in range(n):
            nodes.new_node()
        if start and nodes:
            # the first node migrates the fresh database alone; the rest then start together
            nodes[0].start()
            for node in nodes[1:]:
                node.launch()
            for node in nodes[1:]:
                node.wait_ready()
        return nodes

    yield make
    for nodes in made:
        nodes.shut_down()
