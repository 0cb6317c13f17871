"""What an uploaded record may cost the server (issue 43, item 1): uploads are counted per
person and per client address, held to the option ranges of a new table, bounded in
deals and in bytes out, and replayed in a pool of their own, apart from the stored games'
replays.

In process: the app driven through httpx's ASGI transport (as in test_guest_allowance.py),
each client with the address it comes from, the throttles on a fake clock.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.test_guest_allowance import CAFE, ELSEWHERE, FakeClock, app_at, browser

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.records import to_record
from kozyr.server.play import replay_frames
from kozyr.server.routes import replays
from kozyr.server.runtime.config import Settings

pytestmark = pytest.mark.asyncio


def played(state: Any, seed: int) -> dict[str, Any]:
    """``state`` played to its end by random legal moves, as a record."""
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    record: dict[str, Any] = to_record(state)
    return record


def short_game() -> dict[str, Any]:
    """A finished game of a few deals (to two imperials), its deals listed."""
    return played(ImperialState.new(ImperialOptions(players=2, target=2), seed=1), 1)


def deals_of(record: dict[str, Any]) -> int:
    """Deals the record's game reached, counted from its replay's events."""
    events = replay_frames.replay_frames(record)["events"]
    return sum(1 for event in events if event["type"] == "deal")


def refused(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["code"] == code
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]
    return body


async def test_uploads_are_counted_per_person_and_per_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two uploads a minute per person, three per address (replays and verdicts alike):
    the person's third is refused (429 with Retry-After) and counts nowhere; anyone else
    at his address gets the address's last place; another address is untouched; a minute
    after the first uploads they are let through again."""
    record = short_game()
    monkeypatch.setenv("KOZYR_UPLOAD_LIMIT", "2")
    monkeypatch.setenv("KOZYR_UPLOAD_ADDRESS_LIMIT", "3")
    async with app_at(tmp_path) as app:
        clock = FakeClock()
        app.state.server.throttles.set_clock(clock)
        async with (
            browser(app, CAFE) as olga,
            browser(app, CAFE) as stranger,
            browser(app, CAFE) as ivan,
            browser(app, ELSEWHERE) as far,
        ):
            assert (await olga.post("/api/guest")).status_code == 201
            assert (await ivan.post("/api/guest")).status_code == 201
            assert (await olga.post("/api/replay", json=record)).status_code == 200
            assert (await olga.post("/api/verify", json=record)).status_code == 200
            r = await olga.post("/api/replay", json=record)
            refused(r, 429, "too_many_uploads")
            # both uploads at t=1000: the first leaves the minute at 1060
            assert r.headers["retry-after"] == "60"
            # the refused one did not count for the address: one place is left there
            assert (await stranger.post("/api/replay", json=record)).status_code == 200
            # ivan has uploaded nothing, but his address is at its limit
            refused(await ivan.post("/api/verify", json=record), 429, "too_many_uploads")
            refused(await stranger.post("/api/replay", json=record), 429, "too_many_uploads")
            assert (await far.post("/api/replay", json=record)).status_code == 200
            clock.now += 60
            assert (await olga.post("/api/replay", json=record)).status_code == 200
            assert (await ivan.post("/api/replay", json=record)).status_code == 200


async def test_an_upload_is_held_to_a_new_tables_option_ranges(tmp_path: Path) -> None:
    """A table may be made for at most 20 imperials and 30 rounds; a record of a game to
    21 imperials or of 31 rounds is refused as such a table would be (400 bad_options,
    naming the option), for a replay and for a verdict. The largest allowed play."""
    over_target = played(ImperialState.new(ImperialOptions(players=2, target=21), seed=1), 1)
    over_rounds = to_record(EmperorState.new(EmperorOptions(players=4, rounds=31), seed=2))
    at_target = to_record(ImperialState.new(ImperialOptions(players=3, target=20), seed=3))
    async with app_at(tmp_path) as app, browser(app, CAFE) as http:
        for path in ("/api/replay", "/api/verify"):
            body = refused(await http.post(path, json=over_target), 400, "bad_options")
            assert body["message"] == "target must be a whole number from 1 to 20, not 21"
            assert "20" in body["message_ru"] and "21" in body["message_ru"]
            body = refused(await http.post(path, json=over_rounds), 400, "bad_options")
            assert body["message"] == "rounds must be a whole number from 1 to 30, not 31"
        r = await http.post("/api/replay", json=at_target)
        assert r.status_code == 200, r.text
        assert r.json()["options"]["target"] == 20


async def test_uploads_are_bounded_in_deals_and_bytes_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record listing more than 100 deals is refused before any replay; a game whose
    deals come from its seed is refused as soon as it reaches more deals than the bound;
    a replay that would pass the bytes bound is refused too (413 each)."""
    game = short_game()
    deals = deals_of(game)
    assert deals >= 2 and len(game["deals"]) == deals, deals
    seeded = {**game, "deals": []}
    listed = {**game, "deals": game["deals"] * 101}
    async with app_at(tmp_path) as app, browser(app, CAFE) as http:
        whole = await http.post("/api/replay", json=game)
        assert whole.status_code == 200, whole.text
        for path in ("/api/replay", "/api/verify"):
            refused(await http.post(path, json=listed), 413, "too_many_deals")
        assert (await http.post("/api/replay", json=seeded)).content == whole.content
        monkeypatch.setattr(replays, "MAX_UPLOAD_DEALS", deals - 1)
        refused(await http.post("/api/replay", json=seeded), 413, "too_many_deals")
        monkeypatch.setattr(replays, "MAX_UPLOAD_DEALS", deals)
        # the answer's own size is the bound: one byte less is refused
        monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", len(whole.content) - 1)
        refused(await http.post("/api/replay", json=game), 413, "replay_too_large")
        monkeypatch.setattr(replays, "MAX_REPLAY_BYTES", len(whole.content))
        assert (await http.post("/api/replay", json=game)).content == whole.content


async def test_long_real_games_still_upload(tmp_path: Path) -> None:
    """The bounds leave room for the longest games a table may be made for: Imperial for
    three to 20 imperials, Emperor for four over 30 rounds."""
    imperial = played(ImperialState.new(ImperialOptions(players=3, target=20), seed=7), 7)
    emperor = played(EmperorState.new(EmperorOptions(players=4, rounds=30), seed=8), 8)
    async with app_at(tmp_path) as app, browser(app, CAFE) as http:
        for record in (imperial, emperor):
            r = await http.post("/api/replay", json=record)
            assert r.status_code == 200, r.text[:300]
            assert len(r.json()["steps"]) == len(record["actions"]) + 1
            assert r.json()["steps"][-1]["summary"]["over"] is True


@pytest.fixture
def held_uploads(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, list[str]]]:
    """Every replay of a record waits for the event (set at the test's end whatever
    happens); the list gets the name of each thread a replay ran in."""
    release = threading.Event()
    threads: list[str] = []
    real = replay_frames.replay_steps

    def held(record: dict[str, Any]) -> Any:
        threads.append(threading.current_thread().name)
        release.wait(30)
        return real(record)

    monkeypatch.setattr(replay_frames, "replay_steps", held)
    try:
        yield release, threads
    finally:
        release.set()


async def until(done: Any, what: str) -> None:
    deadline = time.monotonic() + 30
    while not done():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


async def test_uploads_have_a_pool_of_their_own(
    tmp_path: Path,
    held_uploads: tuple[threading.Event, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two uploads that take long hold only the uploads' pool: the pool the stored games
    are replayed in still works at once. Past its one thread and four waiting, an upload is
    refused at once (503 uploads_busy) and not counted against the address; those held all
    end well."""
    release, threads = held_uploads
    record = short_game()
    monkeypatch.setenv("KOZYR_UPLOAD_ADDRESS_LIMIT", "6")
    async with app_at(tmp_path) as app, browser(app, CAFE) as http:
        server = app.state.server
        held = [asyncio.create_task(http.post("/api/replay", json=record)) for _ in range(2)]
        await until(lambda: len(threads) >= 1, "no upload started")
        assert threads[0].startswith("kozyr-upload"), threads
        # the stored games' pool is free: work there is done while the uploads wait
        assert await asyncio.wait_for(server.lobby.offload(sum, [3, 4]), 10) == 7
        held += [asyncio.create_task(http.post("/api/verify", json=record)) for _ in range(3)]
        await until(lambda: server.uploads.full, "the pool never filled")
        for _ in range(3):  # refused at once, and counted nowhere (below)
            refused(await http.post("/api/replay", json=record), 503, "uploads_busy")
        assert not any(task.done() for task in held)
        release.set()
        answers = await asyncio.wait_for(asyncio.gather(*held), 30)
        assert [r.status_code for r in answers] == [200] * 5
        assert len(threads) == 2  # the verdicts replay without steps, not through it
        # 5 of the address's 6 uploads a minute were counted: one is left
        assert (await http.post("/api/replay", json=record)).status_code == 200
        refused(await http.post("/api/replay", json=record), 429, "too_many_uploads")


async def test_upload_limits_are_settings_with_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, low, high in (
        ("KOZYR_UPLOAD_LIMIT", 1, 1000),
        ("KOZYR_UPLOAD_ADDRESS_LIMIT", 1, 100_000),
    ):
        for bad in (low - 1, high + 1):
            monkeypatch.setenv(name, str(bad))
            with pytest.raises(ValueError, match=name):
                Settings()
        monkeypatch.setenv(name, str(high))
        settings = Settings()
        assert high in (settings.upload_limit, settings.upload_address_limit)
