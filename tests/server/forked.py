"""Servers forked from a process that has imported the server once.

A test's ``kozyr serve`` used to start as a new Python process, which spent about
1.3 CPU-seconds importing the server (SQLAlchemy, FastAPI, the engines) before it served
anything; a full run started some 250 of them, on a machine whose two cores the run keeps
busy. Each test worker now keeps one launcher (``python -m tests.server.forked``) that
imports all that once and forks a server whenever a test asks: the child sets the test's
environment, sends its output to the test's log, and runs ``python -m MODULE ARGS`` as a
fresh process would (``runpy``). It is still a process of its own, killed with a real
SIGKILL by the crash tests.

``KOZYR_TEST_FORK=0`` starts every server as a new process again (``subprocess.Popen``).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

PRELOAD = (
    "kozyr.cli",
    "kozyr.server.app",
    "kozyr.server.serve",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.websockets.auto",
)


def _child(request: dict[str, Any]) -> None:
    """In the forked child: become ``python -m MODULE ARGS`` with the given environment."""
    code = 1
    try:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.environ.clear()
        os.environ.update(request["env"])
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - the process's own, for its life
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.argv = [request["module"], *request["args"]]
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # exiting whatever happens
                stream.flush()
        os._exit(code)


def _serve_requests() -> None:
    """The launcher: a request a line on stdin, the answer a line on stdout."""
    for name in PRELOAD:
        __import__(name)
    out = sys.stdout
    statuses: dict[int, int] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "start":
            pid = os.fork()
            if pid == 0:
                _child(request)
            answer: dict[str, Any] = {"pid": pid}
        else:  # "status": None while it runs, else its exit code (as Popen.returncode)
            pid = request["pid"]
            if pid not in statuses:
                try:
                    done, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    done, status = pid, 0
                if done:
                    statuses[pid] = os.waitstatus_to_exitcode(status)
            answer = {"returncode": statuses.get(pid)}
        out.write(json.dumps(answer) + "\n")
        out.flush()


class Launcher:
    """The test worker's side: one launcher process, started on first use."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                root = Path(__file__).resolve().parents[2]
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "tests.server.forked"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=root,
                )
                atexit.register(self._proc.kill)
            assert self._proc.stdin is not None and self._proc.stdout is not None
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
            answer: dict[str, Any] = json.loads(self._proc.stdout.readline())
            return answer


LAUNCHER = Launcher()


class ForkedServer:
    """What the tests use of ``subprocess.Popen``, for a server the launcher forked."""

    def __init__(self, module: str, args: list[str], env: dict[str, str], log: Path) -> None:
        request = {"op": "start", "module": module, "args": args, "env": env, "log": str(log)}
        self.pid: int = LAUNCHER.ask(request)["pid"]
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = LAUNCHER.ask({"op": "status", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.02)
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # a dead child is not reaped before this says so
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def launch(
    module: str, args: list[str], env: dict[str, str], log: Path
) -> subprocess.Popen[bytes] | ForkedServer:
    """``python -m MODULE ARGS`` with ``env``, its output appended to ``log``: forked by
    the worker's launcher, or a new process where ``KOZYR_TEST_FORK=0``."""
    if os.environ.get("KOZYR_TEST_FORK", "1") != "0":
        return ForkedServer(module, args, env, log)
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", module, *args], stdout=out, stderr=subprocess.STDOUT, env=env
        )


if __name__ == "__main__":
    _serve_requests()
