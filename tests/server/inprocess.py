"""A real server on a free localhost port, run in a thread of the test process, for the
tests that must reach inside it (a fake clock for the throttles, a spy on the password
hasher). Everything else uses the subprocess server of ``support.py``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from tests.server.support import free_port

from kozyr.server.app import Server, create_app
from kozyr.server.runtime.config import Settings


@dataclass
class InProcess:
    app: FastAPI
    base: str
    thread: threading.Thread

    @property
    def server(self) -> Server:
        server: Server = self.app.state.server
        return server


@contextmanager
def inprocess_server(data: Path, **settings: Any) -> Iterator[InProcess]:
    app = create_app(Settings(data=data, bot_delay=0.0, bot_kind="random", **settings))
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="kozyr-inprocess", daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process server did not start")
        time.sleep(0.05)
    assert httpx.get(base + "/healthz").status_code == 200
    try:
        yield InProcess(app, base, thread)
    finally:
        server.should_exit = True
        thread.join(30)
