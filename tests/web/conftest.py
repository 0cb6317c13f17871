"""Browser tests (``pytest -m browser``): a real server and Debian's Chromium."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.forked import launch
from tests.server.support import free_port
from tests.web.browsing import (
    ARGS,
    CHROMIUM,
    SHOTS,
    _page,
    clean,
    create_table,
    guest,
    play_to_end,
    playwright_api,
)


# One server per module, not per worker: with KOZYR_TABLE_SEED the deals of a table come
# from how many tables of its kind the server opened before, and the page tests count on
# the deals their own module's tables get (an Emperor King, a game that lasts).
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The server commits every move with fsync; on a busy machine that dominates the
    # run time, so the database lives in memory (/dev/shm) where there is one.
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        data = Path(tempfile.mkdtemp(prefix="kozyr-web-", dir=shm))
    else:
        data = tmp_path_factory.mktemp("kozyr-web")
    port = free_port()
    env = dict(os.environ)
    env.update(
        KOZYR_BOT_DELAY="0.05",
        KOZYR_BOT_BUDGET="0.05",
        KOZYR_TURN_TIMEOUT="300",
        KOZYR_GRACE="60",
        # Fixed deals (and so fixed bot play): the Emperor test needs a person to become
        # King, which this seed gives; without it the test would pass only by chance.
        KOZYR_TABLE_SEED=os.environ.get("KOZYR_TEST_TABLE_SEED", "1"),
        # Every test account is brand new and comes from 127.0.0.1: the pages' tests play
        # rated games, which the anti-farming rules (docs/ratings.md, tested on their own
        # in tests/server/test_rating_eligibility.py) would leave unrated.
        KOZYR_RATING_NEW_GAMES="0",
        KOZYR_RATING_SHARED_ADDRESS="1",
        # One server serves every page test of a worker, all from 127.0.0.1: no limit
        # per address on new accounts or open tables (their own tests set them).
        KOZYR_ACCOUNT_LIMIT="100000",
        KOZYR_MAX_OPEN_TABLES_PER_ADDRESS="0",
        KOZYR_MAX_BOT_TABLES_TOTAL="0",
        KOZYR_MAX_BOT_TABLES_PER_ADDRESS="0",
        KOZYR_UPLOAD_LIMIT="1000",
        KOZYR_UPLOAD_ADDRESS_LIMIT="100000",
        KOZYR_HINT_LIMIT="600",
        KOZYR_PUZZLE_ANSWER_LIMIT="10000",
        KOZYR_INVITE_GUESS_LIMIT="100000",
    )
    # forked by the worker's launcher (tests/server/forked.py); its log in the data folder
    proc = launch(
        "kozyr", ["serve", "--port", str(port), "--data", str(data)], env, data / "server.log"
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        # Generous: on a machine shared with other test runs the start (migrations
        # included) can take many seconds; a server that exits is reported at once.
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(base + "healthz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def finished(server: str, browser: Any) -> Iterator[str]:
    """A one-round Emperor game against three computers played to its end; its id."""
    page = _page(browser, 1280, 720)
    guest(page, server)
    table = create_table(page, "emperor", 4, {"rounds": 1}, bots=True)
    play_to_end([page], limit=180)
    clean(page)
    page.context.close()
    yield table
