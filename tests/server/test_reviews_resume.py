"""Reviews under way across processes, below HTTP: a review taken over resumes after the
decisions its previous owner saved (and ends equal to a review in one go), an owner that
lost its review can save nothing more, and two requests at once on two processes start
one review between them (docs/review.md). Each "process" is a ``Reviews`` of its own
over a ``Store`` of its own on the test server's database, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, func, insert, select
from tests.server import paced_review
from tests.server.support import Player, ServerProc
from tests.server.test_reviews import SHORT, choices, finished_game

from kozyr.review import Review, review
from kozyr.review_command import LEVEL_WORLDS
from kozyr.server.reviews.jobs import REVIEW_SEED, ReviewFailed, Reviews
from kozyr.server.reviews.worker import decision_to
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings, normalise_database_url, sqlite_url
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.tables.lobby import Lobby
from kozyr.server.transport.protocol import ProtocolError

pytestmark = pytest.mark.asyncio

LEVEL = 1


@dataclass
class Node:
    """One server process's worth: its own connections, lobby and reviews."""

    store: Store
    lobby: Lobby
    reviews: Reviews


@contextlib.asynccontextmanager
async def nodes(server: ServerProc, tmp: Path, *specs: dict[str, Any]) -> AsyncIterator[list[Node]]:
    """``Reviews`` (keyword arguments ``specs``) each over a store of its own on the
    server's database; ``run=False`` keeps a node from running its reviews (no process,
    no heartbeat: what it holds stays queued)."""
    url = (
        normalise_database_url(server.database_url)
        if server.database_url
        else sqlite_url(server.data)
    )
    out: list[Node] = []
    try:
        for i, spec in enumerate(specs):
            spec = dict(spec)
            run = spec.pop("run", True)
            store = Store(url)
            settings = Settings(data=tmp / f"node{i}", database_url=server.database_url)
            lobby = Lobby(store, settings, Metrics(), LocalBus())
            reviews = Reviews(store, lobby, **spec)
            if not run:
                reviews._pump = lambda: None  # type: ignore[method-assign]
            out.append(Node(store, lobby, reviews))
        yield out
    finally:
        for node in out:
            await node.reviews.close()
            await node.lobby.close()
            await node.store.close()


async def user(store: Store) -> User:
    return await store.create_user("r" + uuid.uuid4().hex[:10], None, guest=True)


async def game(server: ServerProc, decisions: int = 6) -> tuple[str, dict[str, Any]]:
    """A finished game of bots (its id) and its record, with at least ``decisions``
    choices to review (a short game may end in its first declarations)."""
    player = await Player(server).sign_in()
    try:
        for _ in range(20):
            table, _ = await finished_game(player, SHORT)
            record = (await player.http.get(f"/api/games/{table}/record")).json()
            if len(choices(record)) >= decisions:
                return table, record
        raise AssertionError("no game of bots had enough decisions")
    finally:
        await player.close()


async def in_one_go(record: dict[str, Any], level: int = LEVEL) -> Review:
    """The review as a server's review process works it out, without interruption."""
    return await asyncio.to_thread(
        review, record, worlds=LEVEL_WORLDS[level], seed=REVIEW_SEED, hindsight=True
    )


async def job_rows(store: Store, table: str) -> list[Any]:
    async with store.engine.connect() as conn:
        c = m.review_jobs.c
        return list((await conn.execute(select(m.review_jobs).where(c.table_id == table))).all())


async def parts(store: Store, table: str) -> list[dict[str, Any]]:
    p = m.review_parts.c
    async with store.engine.connect() as conn:
        rows = await conn.execute(
            select(p.idx, p.decision).where(p.table_id == table).order_by(p.idx)
        )
        out = []
        for r in rows.all():
            d = json.loads(r.decision)
            assert d["index"] == r.idx
            out.append(d)
        return out


async def until_done(reviews: Reviews, table: str, timeout: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = await reviews.status(table, None, None)
        assert status["status"] != "failed", status
        if status["status"] == "done":
            return status
        await asyncio.sleep(0.05)
    raise TimeoutError(f"the review of {table} did not end")


def die(reviews: Reviews) -> None:
    """The process holding ``reviews`` is killed: its review processes end, its tasks
    stop, and nothing more is written (its rows keep their last heartbeat)."""
    reviews._closed = True
    for job in list(reviews._active):
        if job.process is not None and job.process.is_alive():
            job.process.terminate()
    for task in list(reviews._tasks) + ([reviews._beat] if reviews._beat else []):
        task.cancel()


async def test_the_driver_resumed_gives_the_review_in_one_go(server: ServerProc) -> None:
    """``review(earlier=...)`` goes on after the decisions given and ends with the same
    review as a run in one go (each decision has its own seed)."""
    _, record = await game(server)
    whole = await in_one_go(record)
    cut = len(whole.decisions) // 2
    made: list[int] = []
    resumed = await asyncio.to_thread(
        review,
        record,
        worlds=LEVEL_WORLDS[LEVEL],
        seed=REVIEW_SEED,
        hindsight=True,
        earlier=whole.decisions[:cut],
        on_decision=lambda d: made.append(d.index),
    )
    assert resumed.to_json() == whole.to_json()
    assert resumed.decisions == whole.decisions  # (full precision, not only rounded)
    # only the decisions after the cut were searched again
    assert made == [d.index for d in whole.decisions[cut:]]


async def test_a_review_taken_over_resumes_after_the_saved_decisions(
    server: ServerProc, tmp_path: Path
) -> None:
    """A dead owner's row (heartbeat 0) with the first half of the decisions saved: the
    process that takes it over keeps those (marked here: their ``worlds`` changed) and
    works out only the rest; the stored review is the one in one go, but for the mark."""
    table, record = await game(server)
    whole = await in_one_go(record)
    cut = len(whole.decisions) // 2
    marked = [decision_to(d) | {"worlds": 12345} for d in whole.decisions[:cut]]
    async with nodes(server, tmp_path, {"node_id": "heir"}) as (heir,):
        asker = await user(heir.store)
        async with heir.store.transaction() as conn:
            await conn.execute(
                insert(m.review_jobs).values(
                    table_id=table,
                    level=LEVEL,
                    user_id=asker.id,
                    status="running",
                    done=marked[-1]["index"] + 1,
                    total=len(record["actions"]),
                    error=None,
                    owner="dead",
                    token=7,
                    heartbeat_ms=0,
                    created_ms=now_ms(),
                )
            )
            await conn.execute(
                insert(m.review_parts),
                [
                    {
                        "table_id": table,
                        "level": LEVEL,
                        "idx": d["index"],
                        "decision": json.dumps(d),
                    }
                    for d in marked
                ],
            )
        first = await heir.reviews.status(table, None, None)
        assert first["status"] in ("queued", "running")
        final = await until_done(heir.reviews, table)
        want = whole.to_json() | {"level": LEVEL}
        for d in want["decisions"][:cut]:
            d["worlds"] = 12345
        assert final["review"] == want
        assert await job_rows(heir.store, table) == []
        assert await parts(heir.store, table) == []  # gone with the job's row


async def test_an_owner_killed_mid_review_is_resumed_elsewhere_to_the_same_review(
    server: ServerProc, tmp_path: Path
) -> None:
    """A review runs on one process, which dies after saving some of its decisions; the
    next process asked about the game takes it over once its heartbeat is stale, goes on
    after them, and stores the review a run in one go gives."""
    level = 2
    table, record = await game(server, decisions=10)
    whole_task = asyncio.create_task(in_one_go(record, level))
    # the first's review process waits after each decision: caught half-way on any machine
    first_spec = {"node_id": "first", "worker": paced_review.run}
    async with nodes(server, tmp_path, first_spec, {"node_id": "second"}) as (first, second):
        asker = await user(first.store)
        code, _ = await first.reviews.request(table, asker, None, level)
        assert code == 202
        deadline = time.monotonic() + 120
        while not await parts(first.store, table):
            assert time.monotonic() < deadline, "no decision was saved"
            assert await job_rows(first.store, table), "the review ended before it was killed"
            await asyncio.sleep(0.02)
        die(first.reviews)
        saved = await parts(first.store, table)
        whole = await whole_task
        assert len(saved) < len(whole.decisions), "the review ended before it was killed"
        assert saved == [decision_to(d) for d in whole.decisions[: len(saved)]]
        second.reviews.stale_ms = 300
        await asyncio.sleep(0.4)  # the first's heartbeat is stale now
        taken = await second.reviews.status(table, None, None)
        assert taken["status"] in ("queued", "running")
        (row,) = await job_rows(second.store, table)
        assert (row.owner, row.token) == ("second", 2)
        final = await until_done(second.reviews, table)
        assert final["review"] == whole.to_json() | {"level": level}


async def test_an_owner_that_lost_its_review_saves_nothing(
    server: ServerProc, tmp_path: Path
) -> None:
    """Fencing: once another process took the review over (a new token), the old owner's
    late save of decisions, and its late store of the review, are refused and change
    nothing."""
    table, record = await game(server)
    whole = await in_one_go(record)
    first_two = [decision_to(d) for d in whole.decisions[:2]]
    async with nodes(
        server,
        tmp_path,
        {"node_id": "old", "run": False},
        {"node_id": "new", "run": False, "stale_ms": -60_000},  # every row looks stale
    ) as (old, new):
        asker = await user(old.store)
        code, _ = await old.reviews.request(table, asker, None, LEVEL)
        assert code == 202
        job = old.reviews._jobs[(table, LEVEL)]
        job.pending.append(first_two[0])
        assert await old.reviews._write(job)  # while it holds the review: saved
        assert await parts(old.store, table) == first_two[:1]

        await new.reviews.status(table, None, None)  # takes it over
        (row,) = await job_rows(new.store, table)
        assert (row.owner, row.token) == ("new", 2)

        job.pending.append(first_two[1])
        assert not await old.reviews._write(job)
        assert job.lost
        assert await parts(old.store, table) == first_two[:1]  # nothing added
        (after,) = await job_rows(new.store, table)
        assert after._asdict() == row._asdict()  # nor the row touched
        with pytest.raises(ReviewFailed, match="taken over"):
            await old.reviews._save(job, whole.to_json() | {"level": LEVEL})
        async with old.store.engine.connect() as conn:
            stored = select(func.count()).where(m.game_reviews.c.table_id == table)
            assert await conn.scalar(stored) == 0
        assert await job_rows(new.store, table) == [row]


async def test_a_save_whose_commit_was_reported_failed_is_saved_again_without_error(
    server: ServerProc, tmp_path: Path
) -> None:
    """A batch of decisions can be in the database although its commit reported an error
    (the connection lost after the commit): the job keeps it pending and saves it again
    with the next ones. The decisions already there are skipped, not refused as a
    duplicate key, so the save goes through at once."""
    table, record = await game(server)
    whole = await in_one_go(record)
    first_two = [decision_to(d) for d in whole.decisions[:2]]
    async with nodes(server, tmp_path, {"node_id": "one", "run": False}) as (one,):
        asker = await user(one.store)
        code, _ = await one.reviews.request(table, asker, None, LEVEL)
        assert code == 202
        job = one.reviews._jobs[(table, LEVEL)]
        async with one.store.transaction() as conn:  # the "failed" save that did commit
            await conn.execute(
                insert(m.review_parts),
                [
                    {
                        "table_id": table,
                        "level": LEVEL,
                        "idx": int(first_two[0]["index"]),
                        "decision": json.dumps(first_two[0], ensure_ascii=False),
                    }
                ],
            )
        job.pending.extend(first_two)
        assert await one.reviews._write(job)
        assert not job.pending
        assert await parts(one.store, table) == first_two


async def test_two_requests_at_once_on_two_processes_start_one_review(
    server: ServerProc, tmp_path: Path
) -> None:
    """Raced with asyncio.gather over one database: one user asking for two games on two
    processes gets one review and one 429 ``review_busy`` (the limit of one per user);
    two users asking for one game get one review that both join; so does one user asking
    twice for one game."""
    (one, _), (two, _) = await game(server), await game(server)
    async with nodes(
        server, tmp_path, {"node_id": "a", "run": False}, {"node_id": "b", "run": False}
    ) as (a, b):
        for attempt in range(3):
            asker = await user(a.store)
            got = await asyncio.gather(
                a.reviews.request(one, asker, None, LEVEL),
                b.reviews.request(two, asker, None, LEVEL),
                return_exceptions=True,
            )
            started = [g for g in got if isinstance(g, tuple)]
            refused = [g for g in got if isinstance(g, ProtocolError)]
            assert len(started) == 1 and len(refused) == 1, got
            assert (refused[0].code, refused[0].status) == ("review_busy", 429)
            assert started[0][0] == 202
            live = [r for t in (one, two) for r in await job_rows(a.store, t)]
            assert [r.user_id for r in live] == [asker.id], attempt
            held = len(a.reviews._jobs) + len(b.reviews._jobs)
            assert held == 1
            await clear([a, b], (one, two))

        for same_user in (False, True):
            first = await user(a.store)
            second = first if same_user else await user(a.store)
            got = await asyncio.gather(
                a.reviews.request(one, first, None, LEVEL),
                b.reviews.request(one, second, None, LEVEL),
            )
            assert [code for code, _ in got] == [202, 202]
            assert all(s["status"] == "queued" and s["level"] == LEVEL for _, s in got)
            (row,) = await job_rows(a.store, one)
            assert row.token == 1
            assert len(a.reviews._jobs) + len(b.reviews._jobs) == 1
            await clear([a, b], (one,))


@pytest.mark.parametrize("deeper", [0, 1])
async def test_a_request_that_read_the_game_before_its_twin_started_its_review_joins_it(
    server: ServerProc, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deeper: int
) -> None:
    """The race above, made certain: one user's two requests for one game, on two
    processes; the second read the game's reviews (none) before the first wrote its row,
    and then finds its user busy. Busy with this very game: it joins (202), never 429
    (CI here once saw the 429). So also when the first asked for a deeper review
    (``deeper``): that one answers the second, as it does when read in time. Another game
    of the user's, or a deeper review still of this one, is refused: one review a user at
    a time."""
    (one, _) = await game(server)
    async with nodes(
        server, tmp_path, {"node_id": "a", "run": False}, {"node_id": "b", "run": False}
    ) as (a, b):
        asker = await user(a.store)
        code, first = await a.reviews.request(one, asker, None, LEVEL + deeper)
        assert code == 202 and (first["status"], first["level"]) == ("queued", LEVEL + deeper)
        real = b.reviews._job_rows
        reads: list[str] = []

        async def read_before_the_row(table_id: str) -> list[Any]:
            reads.append(table_id)
            return [] if len(reads) == 1 else await real(table_id)

        monkeypatch.setattr(b.reviews, "_job_rows", read_before_the_row)
        code, joined = await b.reviews.request(one, asker, None, LEVEL)
        assert reads and code == 202
        assert (joined["status"], joined["level"]) == ("queued", LEVEL + deeper)
        (row,) = await job_rows(a.store, one)
        assert (row.token, row.level, row.user_id) == (1, LEVEL + deeper, asker.id)
        assert len(a.reviews._jobs) + len(b.reviews._jobs) == 1
        # meanwhile: another game of the same user, or this one deeper still: refused
        (two, _) = await game(server)
        for table, level in ((two, LEVEL), (one, LEVEL + deeper + 1)):
            with pytest.raises(ProtocolError) as refused:
                await b.reviews.request(table, asker, None, level)
            assert (refused.value.code, refused.value.status) == ("review_busy", 429)
        await clear([a, b], (one,))


async def test_the_queue_is_capped_and_each_waiting_review_knows_its_place(
    server: ServerProc, tmp_path: Path
) -> None:
    """Issue 43, item 6: the queue had no cap. Three people ask for three depths of one
    game on a process whose reviews wait (``run=False``) and whose queue holds two: the
    first two wait at places 1 and 2, the third is refused with 503 ``review_queue_full``
    in both languages, and nothing of his is written."""
    (one, _) = await game(server)
    async with nodes(server, tmp_path, {"node_id": "q", "run": False, "queue": 2}) as (q,):
        first, second, third = [await user(q.store) for _ in range(3)]
        code, status = await q.reviews.request(one, first, None, 1)
        assert (code, status["status"], status["place"]) == (202, "queued", 1)
        code, status = await q.reviews.request(one, second, None, 2)
        assert (code, status["status"], status["place"]) == (202, "queued", 2)
        # the game's status is its deepest review under way: the second, still 2nd
        shown = await q.reviews.status(one, None, None)
        assert (shown["level"], shown["place"]) == (2, 2)
        with pytest.raises(ProtocolError) as full:
            await q.reviews.request(one, third, None, 3)
        assert (full.value.code, full.value.status) == ("review_queue_full", 503)
        assert "reviews" in full.value.message and "разбор" in full.value.message_ru
        assert sorted(r.level for r in await job_rows(q.store, one)) == [1, 2]
        # the first starts: the second moves up to 1st, and there is room for the third
        started = q.reviews._waiting.popleft()
        started.status = "running"
        code, status = await q.reviews.request(one, third, None, 3)
        assert (code, status["place"]) == (202, 2)
        assert q.reviews._job_json(q.reviews._jobs[(one, 2)])["place"] == 1
        assert q.reviews._job_json(started)["place"] is None  # running: in no queue
        await clear([q], (one,))


async def clear(held: list[Node], tables: tuple[str, ...]) -> None:
    """Forgets the reviews held (never run: ``run=False``) and their rows."""
    for node in held:
        node.reviews._jobs.clear()
        node.reviews._waiting.clear()
    async with held[0].store.transaction() as conn:
        await conn.execute(delete(m.review_jobs).where(m.review_jobs.c.table_id.in_(tables)))
