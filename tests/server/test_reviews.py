"""Post-game reviews over HTTP (docs/review.md): started in the background, polled with
progress, stored with the game (they survive a restart), the record's access rule, the
limits (one running review per user, two running per server process), and a review under
way seen, joined and taken over by every process of a cluster."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.cluster_support import ClusterFactory, Node
from tests.server.support import Player, ServerProc

from kozyr.records import start

pytestmark = pytest.mark.asyncio

SHORT = {"game": "imperial", "players": 2, "options": {"target": 1}, "sit": False, "bots": [1, 1]}
"""A game of bots alone that ends after one or two deals."""
BARGAINING = {
    "game": "emperor",
    "players": 3,
    # rounds 2 and 3 have the exchange and the bargaining (E7, E8), then naming trump
    "options": {"rounds": 3, "bargain_from": 2},
    "sit": False,
    "bots": [1, 1, 1],
}


async def finished_game(
    player: Player, body: dict[str, Any], timeout: float = 120
) -> tuple[str, dict[str, Any]]:
    """A new table of bots alone, watched by ``player`` until the database says its game
    is over: (id, table)."""
    table = (await player.post("/api/tables", body))["table"]
    await player.spectate(table["id"])  # bots alone play while someone watches
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await player.http.get(f"/api/games/{table['id']}/record")
        if r.status_code == 200 and r.json().get("complete") is not False:
            return table["id"], table
        await asyncio.sleep(0.05)
    raise TimeoutError(f"table {table['id']} did not finish")


async def until_settled(
    http: httpx.AsyncClient, table: str, timeout: float = 180, **params: str
) -> list[dict[str, Any]]:
    """Every status GET returned until the review is done or failed."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = await http.get(f"/api/games/{table}/review", params=params)
        assert r.status_code == 200, r.text
        seen.append(r.json())
        if seen[-1]["status"] in ("done", "failed"):
            return seen
        await asyncio.sleep(0.03)
    raise TimeoutError(f"the review of {table} did not end: {seen[-1]}")


def choices(record: dict[str, Any]) -> dict[int, tuple[int, set[str]]]:
    """index -> (seat, legal action texts) of every action whose seat had more than one
    legal action."""
    state = start(record)
    out = {}
    for i, text in enumerate(record["actions"]):
        legal = state.legal_actions()
        if state.to_act is not None and len(legal) > 1:
            out[i] = (state.to_act, {state.action_text(a) for a in legal})
        state.play(text)
    return out


def kinds_of(record: dict[str, Any]) -> set[str]:
    """The first words of every legal action at a choice: ``swap``, ``offer``, a card..."""
    return {text.split()[0] for _, legal in choices(record).values() for text in legal}


async def bargained_game(player: Player, tries: int = 6) -> tuple[str, dict[str, Any]]:
    """A finished BARGAINING game in which someone had a bargaining choice (offer or yield).

    Random bots sometimes leave nobody able to bargain (about 7% of games, seeds 0-299 of
    the engine), and the table's deal is secret, so another table is played then."""
    for _ in range(tries):
        table, _ = await finished_game(player, BARGAINING)
        record = (await player.http.get(f"/api/games/{table}/record")).json()
        if kinds_of(record) & {"offer", "yield"}:
            return table, record
    raise AssertionError(f"no bargaining choice in {tries} games")


async def test_review_runs_with_progress_is_stored_and_survives_a_restart(
    fresh_server: ServerProc,
) -> None:
    fresh_server.start()
    owner = await Player(fresh_server).sign_in()
    try:
        table, record = await bargained_game(owner)
        before = (await owner.http.get(f"/api/games/{table}/review")).json()
        assert before == {
            "status": "none",
            "level": None,
            "done": 0,
            "total": 0,
            "review": None,
            "error": None,
            "place": None,
        }
        r = await owner.http.post(f"/api/games/{table}/review", json={"level": 1})
        assert r.status_code == 202, r.text
        assert r.json()["status"] in ("queued", "running") and r.json()["level"] == 1
        assert r.json()["review"] is None
        seen = await until_settled(owner.http, table)
        final = seen[-1]
        n = len(record["actions"])
        assert final["status"] == "done" and final["level"] == 1
        assert final["done"] == final["total"] == n
        # progress only goes up, and was seen part of the way
        done = [s["done"] for s in seen]
        assert done == sorted(done)
        assert any(0 < s["done"] < n and s["status"] == "running" for s in seen), done

        review = final["review"]
        assert review["format"] == "kozyr-review/1" and review["level"] == 1
        assert review["game"] == "emperor"
        assert (review["unit"], review["unit_ru"]) == ("tricks", "взяток")
        # every decision with a choice is there (bargaining, swaps and trump too), once
        decisions = review["decisions"]
        chances = choices(record)
        assert [(d["index"], d["seat"]) for d in decisions] == [
            (i, seat) for i, (seat, _) in sorted(chances.items())
        ]
        # the exchange, the bargaining and naming trump were choices, so reviewed above
        kinds = kinds_of(record)
        assert {"swap", "pass", "trump"} <= kinds and kinds & {"offer", "yield"}, kinds
        for d in decisions:
            assert d["played"] == record["actions"][d["index"]]
            legal = chances[d["index"]][1]
            # what the oracle (seeing every card) would have played: one of the legal moves
            assert d["best"] in legal and d["hindsight"] in legal
            loss = max(0.0, d["best_value"] - d["played_value"])
            assert d["loss"] == pytest.approx(loss, abs=0.015)
            # Emperor's thresholds: half a trick a mistake, a trick and a half a blunder
            want = "blunder" if d["loss"] >= 1.5 else "mistake" if d["loss"] >= 0.5 else ""
            if abs(d["loss"] - 1.5) > 0.01 and abs(d["loss"] - 0.5) > 0.01:  # not rounded over
                assert d["verdict"] == want, d
            if d["played"] == d["best"]:
                assert d["loss"] == 0 and d["verdict"] == ""
        assert [s["seat"] for s in review["summaries"]] == [0, 1, 2]
        for s in review["summaries"]:
            mine = [d for d in decisions if d["seat"] == s["seat"]]
            assert s["decisions"] == len(mine)
            assert s["mistakes"] == sum(d["verdict"] == "mistake" for d in mine)
            assert s["blunders"] == sum(d["verdict"] == "blunder" for d in mine)
            good = len(mine) - s["mistakes"] - s["blunders"]
            assert s["accuracy"] == pytest.approx(100 * good / len(mine), abs=0.05)

        # stored: asked again (by anyone who may read the record), it answers at once
        again = await owner.http.post(f"/api/games/{table}/review", json={"level": 1})
        assert again.status_code == 200 and again.json() == final
        other = await Player(fresh_server).sign_in()
        r = await other.http.post(f"/api/games/{table}/review", json={"level": 1})
        assert r.status_code == 200 and r.json() == final
        await other.close()

        fresh_server.stop()
        fresh_server.start()
        anonymous = httpx.AsyncClient(base_url=fresh_server.base, timeout=30)
        try:
            after = await anonymous.get(f"/api/games/{table}/review")
            assert after.status_code == 200 and after.json() == final
        finally:
            await anonymous.aclose()
    finally:
        await owner.close()


async def test_access_rules(server: ServerProc) -> None:
    owner, other = await Player(server).sign_in(), await Player(server).sign_in()
    anonymous = httpx.AsyncClient(base_url=server.base, timeout=30)
    try:
        table, info = await finished_game(owner, {**SHORT, "private": True})
        invite = info["invite_code"]
        path = f"/api/games/{table}/review"
        # a private game: not without its invite (as its record)
        for r in (await other.http.post(path, json={}), await other.http.get(path)):
            assert r.status_code == 404 and r.json()["code"] == "no_table", r.text
        r = await anonymous.get(path)
        assert r.status_code == 404 and r.json()["code"] == "no_table"
        # not signed in: may look (with the invite) but not start one
        r = await anonymous.post(path, json={"level": 1}, params={"invite": invite})
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"
        assert r.json()["message_ru"]
        r = await anonymous.get(path, params={"invite": invite})
        assert r.status_code == 200 and r.json()["status"] == "none"
        # bad levels: 400 naming the level, nothing started
        for bad in (0, 6, "3", 2.5, None, True):
            r = await other.http.post(path, json={"level": bad}, params={"invite": invite})
            assert r.status_code == 400 and r.json()["code"] == "bad_level", (bad, r.text)
            assert "level" in r.json()["message"] and r.json()["message_ru"]
        assert (await anonymous.get(path, params={"invite": invite})).json()["status"] == "none"
        # with the invite: yes; the default level is 2
        r = await other.http.post(path, params={"invite": invite})
        assert r.status_code == 202 and r.json()["level"] == 2, r.text
        seen = await until_settled(anonymous, table, invite=invite)
        assert seen[-1]["status"] == "done" and seen[-1]["level"] == 2
        # a level at or under the one stored: answered by it; the GET shows the highest
        r = await owner.http.post(path, json={"level": 1})
        assert r.status_code == 200 and r.json()["level"] == 2
        r = await owner.http.post(path, json={"level": 3})
        assert r.status_code == 202 and r.json()["level"] == 3
        seen = await until_settled(owner.http, table)
        assert seen[-1]["status"] == "done" and seen[-1]["level"] == 3
        assert (await owner.http.get(path)).json()["level"] == 3

        # a game still being played (the owner sits and does not move)
        body = {"game": "imperial", "bots": [1], "turn_timeout": None}
        playing = (await owner.post("/api/tables", body))["table"]["id"]
        r = await owner.http.post(f"/api/games/{playing}/review", json={"level": 1})
        assert r.status_code == 409 and r.json()["code"] == "game_not_finished", r.text
        assert r.json()["message_ru"]
        r = await owner.http.get(f"/api/games/{playing}/review")
        assert r.status_code == 200 and r.json()["status"] == "none"
        # no such game
        for bad in ("0123456789", "x" * 40):
            r = await owner.http.post(f"/api/games/{bad}/review", json={"level": 1})
            assert r.status_code == 404 and r.json()["code"] == "no_table"
    finally:
        await owner.close()
        await other.close()
        await anonymous.aclose()


async def test_one_running_review_per_user_and_two_per_process(server: ServerProc) -> None:
    players = [await Player(server).sign_in() for _ in range(4)]
    try:
        tables = [(await finished_game(players[0], BARGAINING))[0] for _ in range(3)]
        path = "/api/games/{}/review"
        first = await players[0].http.post(path.format(tables[0]), json={"level": 1})
        assert first.status_code == 202 and first.json()["status"] == "running", first.text
        # the same person, another game, while his first runs: refused
        busy = await players[0].http.post(path.format(tables[1]), json={"level": 1})
        assert busy.status_code == 429 and busy.json()["code"] == "review_busy", busy.text
        assert busy.json()["message_ru"]
        # two run at once; a third waits its turn
        second = await players[1].http.post(path.format(tables[1]), json={"level": 1})
        assert second.status_code == 202 and second.json()["status"] == "running"
        third = await players[2].http.post(path.format(tables[2]), json={"level": 1})
        assert third.status_code == 202 and third.json()["status"] == "queued", third.text
        # asking for a review that is already under way joins it (no second one, no 429)
        joined = await players[3].http.post(path.format(tables[0]), json={"level": 1})
        assert joined.status_code == 202 and joined.json()["status"] == "running"
        results = await asyncio.gather(*(until_settled(players[3].http, t) for t in tables))
        for seen in results:
            assert seen[-1]["status"] == "done", seen[-1]
        # his review done, the first person may ask for another
        short, _ = await finished_game(players[0], SHORT)
        r = await players[0].http.post(path.format(short), json={"level": 1})
        assert r.status_code == 202, r.text
        assert (await until_settled(players[0].http, short))[-1]["status"] == "done"
    finally:
        for p in players:
            await p.close()


async def test_a_review_under_way_when_the_server_stops_starts_again_after_it(
    fresh_server: ServerProc,
) -> None:
    fresh_server.start()
    owner = await Player(fresh_server).sign_in()
    anonymous = httpx.AsyncClient(base_url=fresh_server.base, timeout=30)
    try:
        table, _ = await finished_game(owner, BARGAINING)
        path = f"/api/games/{table}/review"
        r = await owner.http.post(path, json={"level": 3})
        assert r.status_code == 202 and r.json()["status"] == "running", r.text
        fresh_server.stop()  # SIGTERM: the review process is ended with the server
        fresh_server.start()
        # not forgotten: anyone looking at the game starts it again
        again = await anonymous.get(path)
        assert again.status_code == 200, again.text
        assert again.json()["status"] in ("queued", "running") and again.json()["level"] == 3
        seen = await until_settled(anonymous, table, timeout=300)
        assert seen[-1]["status"] == "done" and seen[-1]["level"] == 3, seen[-1]
        assert seen[-1]["review"]["level"] == 3
    finally:
        await owner.close()
        await anonymous.aclose()


def review_processes(pid: int) -> list[int]:
    """The review processes a server process has spawned (multiprocessing's ``spawn``)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid and b"spawn_main" in cmdline:
            found.append(int(proc.name))
    return found


async def until_status(
    http: httpx.AsyncClient, table: str, ok: Any, timeout: float = 120
) -> dict[str, Any]:
    """The first status GET for which ``ok(status)`` holds."""
    deadline = time.monotonic() + timeout
    last: dict[str, Any] = {}
    while time.monotonic() < deadline:
        r = await http.get(f"/api/games/{table}/review")
        assert r.status_code == 200, r.text
        last = r.json()
        if ok(last):
            return last
        await asyncio.sleep(0.05)
    raise TimeoutError(f"the review of {table} never got there: {last}")


def started(cluster: ClusterFactory, n: int, env: dict[str, str]) -> list[Node]:
    """``cluster(n)``, waiting longer for slow starts (a machine shared by many tests)."""
    nodes = cluster(n, env=env, start=False)
    for node in nodes:
        node.start_timeout = 300
    nodes[0].start()
    for node in nodes[1:]:
        node.start()
    return nodes


async def test_a_review_under_way_is_seen_joined_and_taken_over_across_processes(
    cluster: ClusterFactory,
) -> None:
    a, b = started(cluster, 2, {"KOZYR_REVIEW_STALE_MS": "3000"})
    alice, bob = await Player(a).sign_in(), await Player(b).sign_in()
    anonymous = httpx.AsyncClient(base_url=b.base, timeout=30)
    try:
        table, _ = await finished_game(alice, BARGAINING)
        short, _ = await finished_game(alice, SHORT)
        record = (await anonymous.get(f"/api/games/{table}/record")).json()
        n = len(record["actions"])
        r = await alice.http.post(f"/api/games/{table}/review", json={"level": 4})
        assert r.status_code == 202 and r.json()["status"] == "running", r.text
        # b sees it running, and its progress, as a does
        on_b = await until_status(
            anonymous, table, lambda s: s["status"] == "running" and 0 < s["done"] < n
        )
        assert on_b["level"] == 4 and on_b["total"] == n, on_b
        assert len(review_processes(a.pid)) == 1 and review_processes(b.pid) == []
        # asked on b (at that level or under), it is joined: no second review anywhere
        for level in (4, 1):
            r = await bob.http.post(f"/api/games/{table}/review", json={"level": level})
            assert r.status_code == 202, r.text
            assert r.json()["status"] == "running" and r.json()["level"] == 4, r.json()
        # alice's one review at a time holds on b too
        busy = await alice.http.post(f"/api/games/{short}/review", json={"level": 1})
        assert busy.status_code == 429 and busy.json()["code"] == "review_busy", busy.text
        assert review_processes(b.pid) == [] and len(review_processes(a.pid)) == 1

        # a's progress past its first decision: that decision is saved (a decision is
        # sent before the progress past it, and saved with the progress written after)
        first = min(choices(record))
        await until_status(anonymous, table, lambda s: s["done"] > first)
        a.kill9()  # its review's heartbeat stops; b takes it over once it is stale
        # and resumes it after the decisions a saved, not from the first move
        deadline = time.monotonic() + 120
        while f"review of {table} at level 4 resumed after" not in b.log_text():
            assert time.monotonic() < deadline, "b did not resume the review"
            r = await anonymous.get(f"/api/games/{table}/review")  # (a GET takes it over)
            assert r.status_code == 200 and r.json()["level"] == 4, r.text
            assert r.json()["status"] in ("queued", "running"), r.json()
            await asyncio.sleep(0.05)
        seen = await until_settled(anonymous, table, timeout=600)
        assert seen[-1]["status"] == "done" and seen[-1]["level"] == 4, seen[-1]
        assert seen[-1]["done"] == seen[-1]["total"] == n
        assert review_processes(b.pid) == []
        # the review over, alice may ask for another (on b: a is gone)
        alice_b = Player(b)
        alice_b.http.cookies.update(alice.http.cookies)
        r = await alice_b.http.post(f"/api/games/{short}/review", json={"level": 1})
        assert r.status_code == 202, r.text
        assert (await until_settled(anonymous, short))[-1]["status"] == "done"
        await alice_b.close()
    finally:
        await alice.close()
        await bob.close()
        await anonymous.aclose()


async def test_a_frozen_owner_loses_its_review_to_another_process_and_lets_it_be(
    cluster: ClusterFactory,
) -> None:
    a, b = started(cluster, 2, {"KOZYR_REVIEW_STALE_MS": "3000"})
    alice = await Player(a).sign_in()
    on_b = httpx.AsyncClient(base_url=b.base, timeout=30)
    on_a = httpx.AsyncClient(base_url=a.base, timeout=30)
    try:
        table, _ = await finished_game(alice, BARGAINING)
        n = len((await on_b.get(f"/api/games/{table}/record")).json()["actions"])
        r = await alice.http.post(f"/api/games/{table}/review", json={"level": 4})
        assert r.status_code == 202, r.text
        await until_status(on_b, table, lambda s: 0 < s["done"] < n)
        a.stop()  # SIGSTOP: a's review process runs on, but a renews nothing
        # once a's heartbeat is 3 s old, a status asked of b makes b take the review over
        taken = f"review of {table} at level 4 taken over from {a.node_id}"
        deadline = time.monotonic() + 60
        while taken not in b.log_text():
            assert time.monotonic() < deadline, "b did not take the review over"
            assert (await on_b.get(f"/api/games/{table}/review")).status_code == 200
            await asyncio.sleep(0.2)
        # (whether b's own review process is still running depends on the machine's
        # speed: b goes on after a's saved decisions, which may be nearly all of them)
        a.cont()
        # a finds its review taken (its token gone): it ends its review process
        deadline = time.monotonic() + 60
        while review_processes(a.pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert review_processes(a.pid) == [], "a kept reviewing a review it lost"
        # a says so once the ended process's failure reaches its event loop, a moment after
        # the process is gone (on a loaded machine, not always before the line above)
        while "was taken over" not in a.log_text():
            assert time.monotonic() < deadline, a.log_text()
            await asyncio.sleep(0.1)
        # and every process shows b's review, to its end
        seen = await until_settled(on_a, table, timeout=600)
        assert seen[-1]["status"] == "done" and seen[-1]["done"] == n, seen[-1]
        assert (await on_b.get(f"/api/games/{table}/review")).json() == seen[-1]
    finally:
        a.cont()
        await alice.close()
        await on_a.aclose()
        await on_b.aclose()
