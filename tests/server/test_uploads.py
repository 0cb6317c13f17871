"""Uploaded records are bounded and replayed off the event loop."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
from tests.server.support import ServerProc

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.records import to_record

JSON = {"Content-Type": "application/json"}

pytestmark = pytest.mark.asyncio


def _long_record(rounds: int) -> dict:
    state = EmperorState.new(EmperorOptions(players=4, rounds=rounds), seed=11)
    rng = random.Random(11)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return to_record(state)


async def test_uploads_are_bounded_and_health_answers_meanwhile(server: ServerProc) -> None:
    # the most rounds a table may have: about 1,800 actions, accepted, and slow to replay
    large = _long_record(30)
    assert 1500 < len(large["actions"]) <= 5000
    too_long = {**large, "actions": large["actions"] + ["pass"] * (5001 - len(large["actions"]))}
    huge = b'{"format": "kozyr-record/1", "pad": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    async with httpx.AsyncClient(base_url=server.base, timeout=300) as http:
        r = await http.post("/api/replay", content=huge, headers=JSON)
        assert r.status_code == 413 and r.json()["code"] == "upload_too_large", r.text
        r = await http.post("/api/replay", json=too_long)
        assert r.status_code == 413 and r.json()["code"] == "too_many_actions", r.text
        assert r.json()["message_ru"]
        r = await http.post("/api/verify", content=huge, headers=JSON)
        assert r.status_code == 413

        accepted = asyncio.create_task(http.post("/api/replay", json=large))
        refused = asyncio.create_task(http.post("/api/replay", content=huge, headers=JSON))
        answered_meanwhile = 0
        while not accepted.done():
            health = await http.get("/healthz")
            assert health.status_code == 200
            answered_meanwhile += not accepted.done()
            await asyncio.sleep(0.05)
        assert answered_meanwhile >= 3, "the health check waited for the replay"
        frames = (await accepted).json()
        assert len(frames["steps"]) == len(large["actions"]) + 1
        assert frames["steps"][-1]["summary"]["over"]
        assert (await refused).status_code == 413


async def test_bad_uploads_name_the_problem(server: ServerProc) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        for body, words in (
            (b"[1, 2]", "a record is a JSON object"),
            (b"{", "not JSON"),
            (b"[" * 100 + b"]" * 100, "nested"),
            (json.dumps({"format": "kozyr-record/9"}).encode(), "format"),
        ):
            r = await http.post("/api/replay", content=body, headers=JSON)
            assert r.status_code == 400 and r.json()["code"] == "bad_record", r.text
            assert words in r.json()["message"] and r.json()["message_ru"]
