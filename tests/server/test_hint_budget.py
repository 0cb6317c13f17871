"""What hints may cost the server (issue 43, item 2): one search per decision (asking
again gets the first answer), at most ``KOZYR_HINT_LIMIT`` searches a minute per person
(429 ``too_many_hints``), and a pool of their own, so that hints cannot take the bots'
threads from other tables (503 ``hints_busy`` when it is full).

In process: the app driven through httpx's ASGI transport, the tables read from the
lobby, the throttles on a fake clock, the search replaced by a spy that counts it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from tests.server.test_guest_allowance import CAFE, FakeClock, app_at, browser

from kozyr.server.runtime.config import Settings
from kozyr.server.tables import hints

pytestmark = pytest.mark.asyncio


class Spy:
    """Counts the searches and names their threads; a search may be held until
    ``release`` is set (set at the test's end whatever happens)."""

    def __init__(self) -> None:
        self.threads: list[str] = []
        self.hold = False
        self.release = threading.Event()
        self.real = hints.rank_moves

    def __call__(self, game: str, observation: Any, seconds: float) -> Any:
        self.threads.append(threading.current_thread().name)
        if self.hold:
            self.release.wait(30)
        return self.real(game, observation, 0.01)  # a short search: only its count matters


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spy]:
    spy = Spy()
    monkeypatch.setattr(hints, "rank_moves", spy)
    try:
        yield spy
    finally:
        spy.release.set()


async def until(done: Any, what: str) -> None:
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


async def my_table(app: FastAPI, http: httpx.AsyncClient) -> str:
    """A new Imperial table with hints, the caller in seat 0 against a bot, once it is
    seat 0's turn (the bot moves at once)."""
    body = {"game": "imperial", "bots": [1], "hints": True, "turn_timeout": None}
    r = await http.post("/api/tables", json=body)
    assert r.status_code in (200, 201), r.text
    table_id: str = r.json()["table"]["id"]
    table = app.state.server.lobby.tables[table_id]
    await until(lambda: table.state is not None and table.state.to_act == 0, "not my turn")
    return table_id


def hint_path(table: str) -> str:
    return f"/api/tables/{table}/hint"


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert body["code"] == code
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]


async def test_a_second_hint_for_the_same_decision_costs_no_search(
    tmp_path: Path, spy: Spy
) -> None:
    async with app_at(tmp_path) as app, browser(app, CAFE) as http:
        assert (await http.post("/api/guest")).status_code == 201
        table = await my_table(app, http)
        first = await http.post(hint_path(table))
        assert first.status_code == 200, first.text
        for _ in range(3):
            again = await http.post(hint_path(table))
            assert again.status_code == 200 and again.json() == first.json()
        assert len(spy.threads) == 1


async def test_hints_a_minute_per_person(
    tmp_path: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two searches a minute, a person's third decision is refused (429 with
    Retry-After, in both languages) and costs no search; his first decisions still get
    their answers; another person is not held back by him; a minute later he gets his."""
    monkeypatch.setenv("KOZYR_HINT_LIMIT", "2")
    async with (
        app_at(tmp_path) as app,
        browser(app, CAFE) as olga,
        browser(app, CAFE) as ivan,
    ):
        clock = FakeClock()
        app.state.server.throttles.set_clock(clock)
        for person in (olga, ivan):
            assert (await person.post("/api/guest")).status_code == 201
        tables = [await my_table(app, olga) for _ in range(3)]
        for table in tables[:2]:
            assert (await olga.post(hint_path(table))).status_code == 200
        r = await olga.post(hint_path(tables[2]))
        refused(r, 429, "too_many_hints")
        assert r.headers["retry-after"] == "60"  # both searches at t=1000
        assert len(spy.threads) == 2
        assert (await olga.post(hint_path(tables[0]))).status_code == 200  # kept
        theirs = await my_table(app, ivan)
        assert (await ivan.post(hint_path(theirs))).status_code == 200
        clock.now += 60
        assert (await olga.post(hint_path(tables[2]))).status_code == 200
        assert len(spy.threads) == 4


async def test_hints_have_a_pool_of_their_own(
    tmp_path: Path, spy: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint is searched in the hints' threads, not the bots': while hints hold every
    thread of their pool and its queue, the bots' pool still works at once, and one more
    hint is refused at once (503 hints_busy) without spending the person's budget."""
    spy.hold = True
    monkeypatch.setenv("KOZYR_HINT_LIMIT", "4")
    async with app_at(tmp_path) as app:
        server = app.state.server
        people = [browser(app, CAFE) for _ in range(3)]
        try:
            tables = []
            for person in people:
                assert (await person.post("/api/guest")).status_code == 201
                for _ in range(4):
                    tables.append((person, await my_table(app, person)))
            person, table = tables[0]
            held = [asyncio.create_task(person.post(hint_path(table)))]
            await until(lambda: len(spy.threads) >= 1, "no hint started")
            assert spy.threads[0].startswith("kozyr-hint"), spy.threads
            limit = server.hints.pool.limit  # 2 searching, 8 waiting: 4 + 4 + 2 people's
            assert limit == 10
            held += [
                asyncio.create_task(person.post(hint_path(table)))
                for person, table in tables[1:limit]
            ]
            loop = asyncio.get_running_loop()
            assert await asyncio.wait_for(loop.run_in_executor(server.lobby.executor, int), 10) == 0
            await until(lambda: server.hints.pool.full, "the hints' pool never filled")
            person, table = tables[limit]
            refused(await person.post(hint_path(table)), 503, "hints_busy")
            assert not any(task.done() for task in held)
            spy.release.set()
            answers = await asyncio.wait_for(asyncio.gather(*held), 30)
            assert [r.status_code for r in answers] == [200] * limit
            # the last person has had 2 of his 4: the refused hint was not counted
            for _, table in tables[limit:]:
                assert (await person.post(hint_path(table))).status_code == 200
        finally:
            for person in people:
                await person.aclose()


async def test_the_hint_budget_is_a_setting_with_a_range(monkeypatch: pytest.MonkeyPatch) -> None:
    for bad in ("0", "601", "-3"):
        monkeypatch.setenv("KOZYR_HINT_LIMIT", bad)
        with pytest.raises(ValueError, match="KOZYR_HINT_LIMIT"):
            Settings()
    monkeypatch.setenv("KOZYR_HINT_LIMIT", "600")
    assert Settings().hint_limit == 600
    monkeypatch.delenv("KOZYR_HINT_LIMIT")
    assert Settings().hint_limit == 12
