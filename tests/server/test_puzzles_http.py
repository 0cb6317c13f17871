"""Puzzles over a real server's HTTP (#29): ``kozyr puzzles build`` run against the live
server's database (SQLite, and PostgreSQL where it is tested), then the routes: the daily
puzzle, one puzzle, an answer judged, the history, and a coded error for each bad input,
which changes nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest
from tests.server.support import Player, ServerProc, unique_name

pytestmark = pytest.mark.asyncio


def _build(server: ServerProc) -> None:
    url = server.database_url or f"sqlite:///{server.data / 'kozyr.db'}"
    done = subprocess.run(
        [
            *(sys.executable, "-m", "kozyr", "puzzles", "build", "--database", url),
            *("--bot-games", "1", "--worlds", "4", "--per-game", "2", "--jobs", "0"),
            *("--lang", "en"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "games read" in done.stdout and "new puzzles" in done.stdout, done.stdout


async def test_puzzles_over_http(server: ServerProc) -> None:
    _build(server)  # a second run of the module's server adds nothing: read before
    me = await Player(server, unique_name("Puzzler")).sign_in()
    try:
        r = await me.http.get("/api/puzzles/daily")
        assert r.status_code == 200
        daily = r.json()
        puzzle = daily["puzzle"]
        assert puzzle["daily"] and len(puzzle["legal"]) >= 2
        assert set(puzzle["legal"]) <= set(puzzle["position"]["hand"])
        assert puzzle["position"]["seat"] == puzzle["seat"]
        assert "best" not in puzzle and "card_values" not in puzzle
        again = (await me.http.get("/api/puzzles/daily")).json()
        assert again["puzzle"]["id"] == puzzle["id"] and again["day"] == daily["day"]
        one = (await me.http.get(f"/api/puzzles/{puzzle['id']}")).json()["puzzle"]
        assert one["position"] == puzzle["position"]

        # bad input: coded, and nothing kept
        pid = puzzle["id"]
        outside = next(c for c in ("AS", "AH", "AD", "AC", "7S") if c not in puzzle["legal"])
        for body in ({"card": outside}, {"card": 10}, {}, {"card": "x" * 40}, {"card": None}):
            r = await me.http.post(f"/api/puzzles/{pid}/answer", json=body)
            assert (r.status_code, r.json()["code"]) == (400, "bad_puzzle_card"), body
            assert r.json()["message_ru"]
        r = await me.http.post(
            f"/api/puzzles/{pid}/answer",
            content=b"{not json",
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 400 and r.json()["code"] == "bad_json"
        for bad in ("0", "abc", "99999999999", "2147483648", "-1"):
            r = await me.http.get(f"/api/puzzles/{bad}")
            assert (r.status_code, r.json()["code"]) == (404, "no_puzzle"), bad
        r = await me.http.post("/api/puzzles/2147483647/answer", json={"card": "AS"})
        assert (r.status_code, r.json()["code"]) == (404, "no_puzzle")
        r = await me.http.get("/api/puzzles/next?game=chess")
        assert (r.status_code, r.json()["code"]) == (400, "bad_game")
        for query in ("limit=0", "limit=101", "limit=x", "offset=-1"):
            r = await me.http.get(f"/api/puzzles/history?{query}")
            assert (r.status_code, r.json()["code"]) == (400, "bad_request"), query
        history = (await me.http.get("/api/puzzles/history")).json()
        assert history == {"me": {"rating": 1500, "attempts": 0, "solved": 0}, "attempts": []}

        # a first answer is rated, a second one is not
        card = puzzle["legal"][0]
        first = (await me.http.post(f"/api/puzzles/{pid}/answer", json={"card": card})).json()
        assert first["first"] and first["card"] == card
        assert first["correct"] == (card == first["best"])
        assert {v["card"] for v in first["values"]} == set(puzzle["legal"])
        assert (first["rating"]["after"] > 1500) == first["correct"]
        assert first["why"]["en"] and first["why"]["ru"] and first["line"]["ru"]
        second = (await me.http.post(f"/api/puzzles/{pid}/answer", json={"card": card})).json()
        assert not second["first"] and second["rating"] is None
        history = (await me.http.get("/api/puzzles/history")).json()
        assert [a["first"] for a in history["attempts"]] == [False, True]
        assert history["me"]["rating"] == first["rating"]["after"]
        # signed out: a puzzle may be looked at, but the history is a person's
        nobody = Player(server)
        r = await nobody.http.get("/api/puzzles/history")
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"
        assert (await nobody.http.get(f"/api/puzzles/{pid}")).status_code == 200
        # ...but not answered: the values are for those who answer, after their answer
        r = await nobody.http.post(f"/api/puzzles/{pid}/answer", json={"card": card})
        assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
        assert "values" not in r.json() and "best" not in r.json()
        await nobody.close()
        nxt = (await me.http.get("/api/puzzles/next")).json()["puzzle"]
        assert nxt is None or nxt["id"] != pid
    finally:
        await me.close()
