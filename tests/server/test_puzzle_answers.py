"""Who may answer a puzzle, and how answers rate (#43, docs/puzzles.md "Who may answer"):
an answer needs a session and a puzzle served to that person first, answers are
rate-limited, a new account's first answer moves no puzzle, and answers at once are all
rated, none lost (SQLite, and PostgreSQL where it is tested).

The puzzles here are rows written by the test (a position is never replayed: serving is
marked directly), so nothing is valued and every test is quick."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select
from tests.server.inprocess import inprocess_server
from tests.server.stores import BACKENDS, run_on_store

from kozyr.server.accounts.ratings import DEFAULT, Skill, rate
from kozyr.server.reviews.puzzle_book import PuzzleBook, shown
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.transport.protocol import ProtocolError

# an Imperial position's answer: three legal cards, the ace best by 6 points
VALUES = [["AS", 10.0], ["KS", 4.0], ["7S", 1.0]]
KNOWN = Skill(25.0, DEFAULT.sigma / 2)
"""An established solver: half a new account's sigma, so his answers weigh 1 - 1/4."""


def puzzle_row(key: str) -> dict[str, Any]:
    return {
        "key": key,
        "game": "imperial",
        "players": 2,
        "source": "bot",
        "table_id": None,
        "bot_seed": 1,
        "position": "{}",
        "action_index": 5,
        "seat": 0,
        "best": "AS",
        "played": "KS",
        "card_values": json.dumps(VALUES),
        "margin": 6.0,
        "worlds": 12,
        "mu": 25.0,
        "sigma": DEFAULT.sigma,
        "attempts": 0,
        "solved": 0,
        "created_ms": now_ms(),
    }


run = run_on_store


async def puzzles(store: Store, n: int) -> list[int]:
    async with store.transaction() as conn:
        for i in range(n):
            await conn.execute(insert(m.puzzles).values(**puzzle_row(f"bot:test:{i}")))
    async with store.engine.connect() as conn:
        return [i for (i,) in (await conn.execute(select(m.puzzles.c.id).order_by("id"))).all()]


async def person(store: Store, name: str, skill: Skill | None = None) -> User:
    """A guest; with ``skill``, one whose puzzle rating is already that."""
    user = await store.create_user(name, None, guest=True)
    if skill is not None:
        async with store.transaction() as conn:
            await conn.execute(
                insert(m.puzzle_ratings).values(
                    user_id=user.id,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    attempts=12,
                    solved=6,
                    last_ms=now_ms(),
                )
            )
    return user


async def serve(store: Store, user: User, *puzzle_ids: int) -> None:
    """What GET of a puzzle marks for its person (without replaying a position)."""
    async with store.transaction() as conn:
        for pid in puzzle_ids:
            await conn.execute(
                insert(m.puzzle_served).values(user_id=user.id, puzzle_id=pid, served_ms=now_ms())
            )


async def puzzle_skill(store: Store, pid: int) -> tuple[Skill, int, int]:
    p = m.puzzles
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(p).where(p.c.id == pid))).one()
    return Skill(row.mu, row.sigma), row.attempts, row.solved


# -- weight ---------------------------------------------------------------------------


def test_a_new_accounts_first_answer_moves_no_puzzle_and_a_known_one_three_quarters() -> None:
    async def body(store: Store) -> None:
        book = PuzzleBook(store)
        first, second = await puzzles(store, 2)
        new = await person(store, "Newcomer")
        known = await person(store, "Regular", KNOWN)
        await serve(store, new, first)
        await serve(store, known, second)

        got = await book.answer(first, new, "AS")
        # his own rating moves by the whole game (openskill's win over an equal puzzle)...
        me, _ = rate([DEFAULT, DEFAULT], [1, 2])
        assert got["rating"] == {
            "before": 1500,
            "after": shown(me.mu),
            "change": shown(me.mu) - 1500,
        }
        assert got["rating"]["change"] > 0
        # ...the puzzle's not at all: an account of sigma0 weighs 1 - 1 = 0
        skill, attempts, solved = await puzzle_skill(store, first)
        assert (skill, attempts, solved) == (Skill(25.0, DEFAULT.sigma), 1, 1)

        await book.answer(second, known, "AS")
        # openskill's whole update of the puzzle, then three quarters of it by hand:
        # precision 1/s^2 grows by 3/4 of its growth, the mean moves by 3/4 of the
        # observation's pull at the new precision
        _, full = rate([KNOWN, Skill(25.0, DEFAULT.sigma)], [1, 2])
        p0, p1 = DEFAULT.sigma**-2, full.sigma**-2
        precision = p0 + 0.75 * (p1 - p0)
        mu = 25.0 + 0.75 * (p1 / precision) * (full.mu - 25.0)
        skill, attempts, solved = await puzzle_skill(store, second)
        assert skill.mu == pytest.approx(mu, abs=1e-9)
        assert skill.sigma == pytest.approx(precision**-0.5, abs=1e-9)
        # solved: the puzzle looks easier, by less than the whole update
        assert full.mu < skill.mu < 25.0 and (attempts, solved) == (1, 1)

    run("sqlite", body)


# -- serving --------------------------------------------------------------------------


def test_an_answer_needs_the_puzzle_served_first() -> None:
    async def body(store: Store) -> None:
        book = PuzzleBook(store)
        (pid,) = await puzzles(store, 1)
        eve = await person(store, "Eve")
        with pytest.raises(ProtocolError) as e:
            await book.answer(pid, eve, "AS")
        assert (e.value.code, e.value.status) == ("puzzle_not_served", 403)
        # nothing kept, nothing moved
        assert (await book.history(eve, 0, 10))["attempts"] == []
        assert await puzzle_skill(store, pid) == (Skill(25.0, DEFAULT.sigma), 0, 0)
        async with store.engine.connect() as conn:
            rated = (await conn.execute(select(m.puzzle_ratings))).all()
        assert rated == []
        # served, the same answer counts; a second one is judged and not rated again
        await serve(store, eve, pid)
        one = await book.answer(pid, eve, "AS")
        assert one["first"] and one["best"] == "AS" and one["rating"]["change"] > 0
        assert [v["card"] for v in one["values"]] == ["AS", "KS", "7S"]
        two = await book.answer(pid, eve, "7S")
        assert not two["first"] and two["rating"] is None and not two["correct"]
        assert (await book.rating(eve)) == {
            "rating": one["rating"]["after"],
            "attempts": 1,
            "solved": 1,
        }
        assert (await puzzle_skill(store, pid))[1:] == (1, 1)

    run("sqlite", body)


# -- answers at once ------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_answers_at_once_are_all_rated(backend: str) -> None:
    """Ten established people answer one puzzle at the same moment, and one person ten
    puzzles: every update is stored, each on top of the one before (on PostgreSQL a read
    of the rating outside a lock let most of them be overwritten)."""
    n = 10

    async def body(store: Store) -> None:
        book = PuzzleBook(store)
        ids = await puzzles(store, n + 1)
        crowd_puzzle, singles = ids[0], ids[1:]
        crowd = [await person(store, f"Solver {i}", KNOWN) for i in range(n)]
        for user in crowd:
            await serve(store, user, crowd_puzzle)
        busy = await person(store, "Busy", KNOWN)
        await serve(store, busy, *singles)

        got = await asyncio.gather(
            *(book.answer(crowd_puzzle, user, "AS") for user in crowd),
            *(book.answer(pid, busy, "KS") for pid in singles),
        )
        assert all(g["first"] for g in got)

        # the puzzle: ten solves, one after the other, each from the known prior
        expected = Skill(25.0, DEFAULT.sigma)
        for _ in range(n):
            _, full = rate([KNOWN, expected], [1, 2])
            p0, p1 = expected.sigma**-2, full.sigma**-2
            precision = p0 + 0.75 * (p1 - p0)
            expected = Skill(
                expected.mu + 0.75 * (p1 / precision) * (full.mu - expected.mu),
                precision**-0.5,
            )
        skill, attempts, solved = await puzzle_skill(store, crowd_puzzle)
        assert (attempts, solved) == (n, n)
        assert skill.mu == pytest.approx(expected.mu, abs=1e-9)
        assert skill.sigma == pytest.approx(expected.sigma, abs=1e-9)

        # the busy person: ten misses in a row, each starting where the last one ended
        a = m.puzzle_attempts
        async with store.engine.connect() as conn:
            chain = (
                await conn.execute(
                    select(a.c.rating_before, a.c.rating_after)
                    .where(a.c.user_id == busy.id)
                    .order_by(a.c.id)
                )
            ).all()
        assert len(chain) == n
        assert chain[0].rating_before == shown(KNOWN.mu) == 1500
        for earlier, later in itertools.pairwise(chain):
            assert later.rating_before == earlier.rating_after
        mine = KNOWN
        for _ in range(n):
            mine = rate([mine, Skill(25.0, DEFAULT.sigma)], [2, 1])[0]
        me = await book.rating(busy)
        assert me == {"rating": shown(mine.mu), "attempts": 12 + n, "solved": 6}
        assert chain[-1].rating_after == shown(mine.mu) < 1500

    run(backend, body)


# -- over HTTP: a session, a serving, a limit -------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_answers_need_a_session_and_a_serving_and_are_rate_limited(tmp_path: Path) -> None:
    with inprocess_server(tmp_path, puzzle_answer_limit=3) as srv:
        clock = FakeClock()
        srv.server.throttles.set_clock(clock)
        with sqlite3.connect(tmp_path / "kozyr.db") as db:
            for key in ("bot:http:1", "bot:http:2"):
                row = puzzle_row(key)
                db.execute(
                    f"INSERT INTO puzzles ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    list(row.values()),
                )
            served, unserved = (i for (i,) in db.execute("SELECT id FROM puzzles ORDER BY id"))
        with httpx.Client(base_url=srv.base) as nobody:
            r = nobody.post(f"/api/puzzles/{served}/answer", json={"card": "AS"})
            assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
            assert "best" not in r.text and "values" not in r.json()
        with httpx.Client(base_url=srv.base) as http:
            me = http.post("/api/guest", json={}).json()["user"]
            with sqlite3.connect(tmp_path / "kozyr.db") as db:
                db.execute(
                    "INSERT INTO puzzle_served (user_id, puzzle_id, served_ms) VALUES (?, ?, ?)",
                    (me["id"], served, now_ms()),
                )
            r = http.post(f"/api/puzzles/{unserved}/answer", json={"card": "AS"})
            assert (r.status_code, r.json()["code"]) == (403, "puzzle_not_served")
            assert r.json()["message"] and r.json()["message_ru"]
            assert "values" not in r.json()
            # that refusal was one answer of three; two more, then the limit
            first = http.post(f"/api/puzzles/{served}/answer", json={"card": "KS"})
            assert first.status_code == 200 and first.json()["first"]
            assert first.json()["values"][0] == {"card": "AS", "value": 10.0}
            clock.now += 10
            again = http.post(f"/api/puzzles/{served}/answer", json={"card": "AS"})
            assert again.status_code == 200 and again.json()["rating"] is None
            clock.now += 10  # t = 20 s
            r = http.post(f"/api/puzzles/{served}/answer", json={"card": "AS"})
            assert (r.status_code, r.json()["code"]) == (429, "too_many_answers")
            assert r.json()["message_ru"]
            # the first answer (t = 0) leaves the window at t = 60: 40 s from now
            assert r.headers["retry-after"] == "40"
            clock.now += 40
            r = http.post(f"/api/puzzles/{served}/answer", json={"card": "AS"})
            assert r.status_code == 200 and not r.json()["first"]
            history = http.get("/api/puzzles/history").json()
            assert [a["first"] for a in history["attempts"]] == [False, False, True]
        with sqlite3.connect(tmp_path / "kozyr.db") as db:
            assert db.execute(
                "SELECT attempts, solved FROM puzzles WHERE id = ?", (served,)
            ).fetchone() == (1, 0)
            assert db.execute(
                "SELECT attempts FROM puzzles WHERE id = ?", (unserved,)
            ).fetchone() == (0,)
