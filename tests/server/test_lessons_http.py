"""The lessons over HTTP (#29): anyone may play a lesson; a registered account's passed
lessons are kept once, a guest's are not (they stay in the browser); bad bodies are coded."""

from __future__ import annotations

import httpx
import pytest
from tests.server.support import ServerProc, unique_name

pytestmark = pytest.mark.asyncio

FIRST = "/api/lessons/imperial/follow-suit-and-trumps/play"
# Lesson 1 of Imperial, as a learner who finds the right cards: trump the king of spades
# with the eight of hearts, lead a diamond, then follow the king of clubs with a small club.
RIGHT = ["8H", "AD"]
CHECK = "9C"


async def _pass_first(http: httpx.AsyncClient) -> dict[str, object]:
    r = await http.post(FIRST, json={"moves": RIGHT, "move": CHECK})
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    assert body["done"] is True and body["accepted"] is True
    return body


async def test_a_registered_players_passed_lesson_is_kept_once(server: ServerProc) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        r = await http.post(
            "/api/register", json={"name": unique_name("learn"), "password": "long enough pw"}
        )
        assert r.status_code in (200, 201), r.text
        listed = (await http.get("/api/lessons/imperial")).json()
        assert listed["done"] == [] and len(listed["lessons"]) == 8
        # playing part of it stores nothing
        part = await http.post(FIRST, json={"moves": [], "move": "8H"})
        assert part.json()["stored"] is False
        assert (await http.get("/api/lessons/imperial")).json()["done"] == []
        assert (await _pass_first(http))["stored"] is True
        assert (await _pass_first(http))["stored"] is True  # again: still one row
        listed = (await http.get("/api/lessons/imperial")).json()
        assert listed["done"] == ["follow-suit-and-trumps"]
        assert (await http.get("/api/lessons/emperor")).json()["done"] == []


async def test_guests_and_nobody_keep_their_lessons_in_the_browser(server: ServerProc) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        # nobody signed in: the lessons are there, and nothing is kept
        listed = await http.get("/api/lessons/emperor")
        assert listed.status_code == 200 and listed.json()["done"] is None
        assert [x["order"] for x in listed.json()["lessons"]] == list(range(1, 9))
        assert (await _pass_first(http))["stored"] is False
        assert (await http.post("/api/guest")).status_code in (200, 201)
        assert (await _pass_first(http))["stored"] is False
        assert (await http.get("/api/lessons/imperial")).json()["done"] is None


@pytest.mark.parametrize(
    ("path", "body", "status", "code"),
    [
        ("/api/lessons/preferans/x/play", {}, 404, "bad_game"),
        ("/api/lessons/imperial/nope/play", {}, 404, "no_lesson"),
        (FIRST, {"moves": ["AH"]}, 400, "lesson_moves"),
        (FIRST, {"moves": ["8H"] * 33}, 400, "bad_request"),
        (FIRST, {"move": "8H" * 9}, 400, "bad_request"),
        (FIRST, {"move": 8}, 400, "bad_request"),
        (FIRST, {"answer": -1}, 400, "bad_request"),
        (FIRST, {"answer": 0}, 400, "lesson_turn"),
        (FIRST, {"move": "8H", "answer": 0}, 400, "lesson_turn"),
    ],
)
async def test_bad_requests_are_coded_in_both_languages(
    server: ServerProc, path: str, body: dict[str, object], status: int, code: str
) -> None:
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        r = await http.post(path, json=body)
        assert (r.status_code, r.json()["code"]) == (status, code)
        assert r.json()["message"] and r.json()["message_ru"] != r.json()["message"]
        if path == FIRST:
            # nothing was played: the lesson starts where it started
            assert (await http.post(FIRST, json={})).json()["moves"] == []
    async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
        r = await http.get("/api/lessons/preferans")
        assert (r.status_code, r.json()["code"]) == (404, "bad_game")
