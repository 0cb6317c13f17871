"""``kozyr serve --workers N`` (several processes on one port) and the checks ``kozyr serve``
makes before it starts: Redis must answer, and more than one process needs PostgreSQL and
Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.cluster_support import RedisServer, postgres_base_url, run_outside_loop
from tests.server.support import free_port, fresh_postgres
from typer.testing import CliRunner

from kozyr.cli import app
from kozyr.server import serve

ENV_KEYS = ("KOZYR_REDIS_URL", "KOZYR_DATABASE_URL", "KOZYR_DATA", "KOZYR_NODE_ID")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command reads these from the environment; each test sets its own."""
    for key in ENV_KEYS:
        monkeypatch.delenv(key, raising=False)


def invoke(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, args, env=env)
    return result.exit_code, result.output


def closed_redis_url() -> str:
    return f"redis://127.0.0.1:{free_port()}/0"


def test_workers_without_postgres_and_redis_are_refused_naming_both(tmp_path: Path) -> None:
    port = str(free_port())
    code, out = invoke(["serve", "--workers", "2", "--port", port, "--data", str(tmp_path)], {})
    assert code == 2
    assert "--workers 2 needs a PostgreSQL database" in out
    assert "and Redis (KOZYR_REDIS_URL)" in out
    assert "Traceback" not in out


def test_workers_on_sqlite_are_refused_naming_postgres(tmp_path: Path) -> None:
    # the refusal comes before Redis is even asked (this one is not listening)
    port = str(free_port())
    code, out = invoke(
        ["serve", "--workers", "3", "--port", port, "--data", str(tmp_path)],
        {"KOZYR_REDIS_URL": closed_redis_url()},
    )
    assert code == 2
    assert "--workers 3 needs a PostgreSQL database (--database-url or KOZYR_DATABASE_URL)" in out
    assert "KOZYR_REDIS_URL" not in out.split("needs", 1)[1].split(";", 1)[0]


def test_workers_without_redis_are_refused_naming_redis(tmp_path: Path) -> None:
    port = str(free_port())
    code, out = invoke(
        [
            "serve",
            "--workers",
            "2",
            "--port",
            port,
            "--data",
            str(tmp_path),
            "--database-url",
            "postgresql://nobody@127.0.0.1:1/none",
        ],
        {},
    )
    assert code == 2
    assert "--workers 2 needs Redis (KOZYR_REDIS_URL)" in out
    assert "PostgreSQL" not in out


def test_zero_workers_are_refused(tmp_path: Path) -> None:
    code, out = invoke(["serve", "--workers", "0", "--data", str(tmp_path)], {})
    assert code == 2
    assert "--workers" in out


def test_redis_down_at_start_exits_2_naming_the_url_without_a_traceback(tmp_path: Path) -> None:
    """The real command in its own process: exit code, stderr, nothing else started."""
    url = closed_redis_url()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    env["KOZYR_REDIS_URL"] = url
    done = subprocess.run(
        [sys.executable, "-m", "kozyr", "serve", "--port", str(port), "--data", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert f"cannot reach Redis at {url} (KOZYR_REDIS_URL)" in done.stderr
    assert "refused" in done.stderr.lower()
    assert "Traceback" not in done.stderr
    assert "ready" not in done.stdout
    # nothing was set up: the database was never created
    assert not (tmp_path / "kozyr.db").exists()


def test_redis_password_is_not_shown(tmp_path: Path) -> None:
    port = free_port()
    url = f"redis://:hunter2secret@127.0.0.1:{free_port()}/0"
    code, out = invoke(
        ["serve", "--port", str(port), "--data", str(tmp_path)], {"KOZYR_REDIS_URL": url}
    )
    assert code == 2
    assert "cannot reach Redis at redis://:***@127.0.0.1:" in out
    assert "hunter2secret" not in out


def test_a_bad_redis_url_is_a_clear_error(tmp_path: Path) -> None:
    code, out = invoke(
        ["serve", "--port", str(free_port()), "--data", str(tmp_path)],
        {"KOZYR_REDIS_URL": "http://127.0.0.1:6379"},
    )
    assert code == 2
    assert "cannot reach Redis at http://127.0.0.1:6379 (KOZYR_REDIS_URL)" in out
    assert "Traceback" not in out


def test_each_worker_gets_its_own_node_id(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KOZYR_DATA", str(tmp_path))
    monkeypatch.setenv("KOZYR_NODE_ID", "machine-a")
    serve.worker_app()
    assert os.environ["KOZYR_NODE_ID"] == f"machine-a-{os.getpid()}"


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        # the field after the parenthesised name: state, then the parent's pid
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"multiprocessing.spawn" in cmdline:
            found.append(int(entry.name))
    return sorted(found)


def healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    from tests.server.cluster_support import redis_binary

    server = RedisServer(tmp_path / "redis", binary=redis_binary()).start()
    yield server
    server.kill9()


def test_two_workers_answer_on_one_port(redis: RedisServer, tmp_path: Path) -> None:
    database = run_outside_loop(fresh_postgres(postgres_base_url()))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    env.update({"KOZYR_REDIS_URL": redis.url, "KOZYR_NODE_ID": "m1"})
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kozyr",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            "--data",
            str(tmp_path / "data"),
            "--database-url",
            database,
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 180
        workers: list[int] = []
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            workers = children_of(proc.pid)
            text = (tmp_path / "serve.log").read_text()
            if len(workers) == 2 and text.count("kozyr server process ") == 2 and healthy(url):
                break
            time.sleep(0.5)
        else:
            raise AssertionError("two workers never answered: " + text)
        text = (tmp_path / "serve.log").read_text()
        assert f"kozyr server: 2 processes on http://localhost:{port}/" in text
        for pid in workers:
            assert f"kozyr server process {pid} ready" in text
        # each worker alone serves the port: with the other frozen, every request is its
        for frozen, serving in (workers, workers[::-1]):
            os.kill(frozen, signal.SIGSTOP)
            try:
                assert all(healthy(url) for _ in range(5)), f"worker {serving} did not answer"
            finally:
                os.kill(frozen, signal.SIGCONT)
        assert children_of(proc.pid) == workers  # none was replaced meanwhile

        # a worker killed outright is replaced by a new process, and the port keeps answering
        os.kill(workers[0], signal.SIGKILL)
        deadline = time.monotonic() + 180
        while True:
            now = children_of(proc.pid)
            new = [pid for pid in now if pid not in workers]
            text = (tmp_path / "serve.log").read_text()
            if len(now) == 2 and new and f"kozyr server process {new[0]} ready" in text:
                break
            assert time.monotonic() < deadline, "the killed worker was not replaced: " + text
            time.sleep(0.5)
        assert workers[1] in now
        assert healthy(url)
        workers = now
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its supervisor"
        time.sleep(0.2)
