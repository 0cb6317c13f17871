"""Post-game reviews for the web page: run in the background, one process each, with
their progress; stored with the game once done (``game_reviews``, docs/review.md).

A review is CPU work for seconds to minutes, so it never runs on the event loop, nor in
a thread (it would hold the GIL against the tables): each runs in a process of its own
(:mod:`.review_worker`), spawned fresh, which sends its progress and its result back
through a pipe that a thread reads. A process of its own can be ended at once when the
server stops, and a crash in one review fails only that review.

A review under way is a row of ``review_jobs``, so that every server process of a cluster
sees it: its status, its progress (written every few percent) and its owner, who renews
``heartbeat_ms`` while it holds the review. A POST on any process joins it instead of
starting another. A row whose heartbeat is older than :data:`STALE_MS` (its process died,
or stopped and let it go) is taken over by the next process asked about it, under a new
fencing ``token``.

The decisions a review has made are saved as it goes (``review_parts``, a batch at each
tick, in the same transaction as a write of its row that is fenced by the owner's token:
an owner that lost the review saves nothing). A process that takes a review over resumes
it after the last decision saved: each decision has its own seed, so the review is the
one a run in one go gives.

Limits: at most ``running`` reviews at once in a server process (the rest wait in the
order they were asked for: status ``queued``, with their ``place`` in that queue, 1 the
next to start), at most ``KOZYR_REVIEW_QUEUE`` waiting (503 ``review_queue_full``: the
queue is the server's memory and each review minutes of a core, so a crowd of new
accounts cannot stack up hours of work), and one review queued or running per
user across the cluster (429 ``review_busy``): a new review's row is written only if the
user has no live one, in one statement (SQLite runs one writer at a time) under a
per-user advisory lock (PostgreSQL), so that two requests at once on two processes cannot
both start one. Reviews are deterministic: the same record and level give the same
review (the seed is fixed), so a stored review is never worth redoing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from sqlalchemy import delete, exists, func, insert, literal, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError

from kozyr.records import to_record
from kozyr.review_command import LEVEL_WORLDS
from kozyr.server.reviews import worker as review_worker
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, TableRow, User, insert_new, now_ms
from kozyr.server.tables.lobby import Lobby
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both

__all__ = ["DEFAULT_LEVEL", "MAX_RUNNING", "REVIEW_SEED", "STALE_MS", "Reviews"]

log = logging.getLogger("kozyr.server.reviews.jobs")

T = TypeVar("T")

DEFAULT_LEVEL = 2
MAX_RUNNING = 2
"""Reviews running at once in one server process (each takes a core while it runs)."""
REVIEW_SEED = 0
"""The search's seed for every review: the same game and level, the same review."""
STALE_MS = 15_000
"""A review whose owner has not renewed its heartbeat for this long is taken over (its
process is taken for dead). Tests set it lower with ``KOZYR_REVIEW_STALE_MS``, read when
the server's reviews are set up (not at import: a module imported once may serve many
servers, as the tests' forked servers do)."""


def stale_ms_setting() -> int:
    """``KOZYR_REVIEW_STALE_MS`` if set, else :data:`STALE_MS`."""
    return int(os.environ.get("KOZYR_REVIEW_STALE_MS") or STALE_MS)


HEARTBEAT_MS = 2_000
"""How often an owner renews its reviews' heartbeat (well inside :data:`STALE_MS`)."""
TICK = 0.25
"""Seconds between the owner's looks at its reviews' progress."""
PROGRESS_STEP = 0.02
"""The share of a review's actions after which its progress is written again."""
LIVE = ("queued", "running")
"""The statuses of a review under way."""
_LOCK_REVIEWS = 0x6B7A0015
"""The first key of the PostgreSQL advisory lock that makes one user's review starts take
turns (the second is the user's id); arbitrary, distinct from the lobby's keys."""


class _UserBusy(Exception):
    """The user has a live review already: the new one's row was not written."""


class ReviewFailed(Exception):
    """The review process reported an error or died."""


@dataclass(eq=False)
class Job:
    """A review held by this process: queued or running here, under ``token``."""

    row: TableRow
    level: int
    user_id: int
    token: int
    status: str = "queued"
    done: int = 0
    total: int = 0
    process: BaseProcess | None = field(default=None, repr=False)
    written: tuple[str, int, int] = ("queued", 0, 0)
    """(status, done, total) as last written to the database."""
    written_ms: int = 0
    lost: bool = False
    """Another process took the review over: this one stops without writing."""
    pending: deque[dict[str, Any]] = field(default_factory=deque, repr=False)
    """Decisions the review process has sent and that are not saved yet, in order
    (appended by the thread that reads the pipe, saved and popped on the event loop)."""

    def to_json(self, place: int | None = None) -> dict[str, Any]:
        return _status(self.status, self.level, self.done, self.total, place=place)


def _status(
    status: str,
    level: int | None,
    done: int,
    total: int,
    error: str | None = None,
    place: int | None = None,
) -> dict[str, Any]:
    """``place``: a queued review's place among those waiting here (1: the next to
    start); None when it is not waiting, or waits on another process."""
    out: dict[str, Any] = {
        "status": status,
        "level": level,
        "done": done,
        "total": total,
        "place": place,
        "review": None,
        "error": error,
    }
    if error is not None:
        named = ProtocolError(error)  # the catalog's messages for the code
        out["message"], out["message_ru"] = named.message, named.message_ru
    return out


def _none() -> dict[str, Any]:
    return _status("none", None, 0, 0)


def _follow(conn: Connection, job: Job) -> dict[str, Any]:
    """Reads a review process's messages until its result (in a thread: ``recv`` blocks).
    Raises :class:`ReviewFailed` if it reports an error or dies (the pipe closes)."""
    with conn:
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError) as e:
                raise ReviewFailed("the review process ended without a result") from e
            kind = message[0]
            if kind == "decision":
                job.pending.append(message[1])
            elif kind == "progress":
                # (a resumed review replays the actions before its first new decision
                # from the start: its progress stays where the saved decisions put it)
                job.done, job.total = max(job.done, int(message[1])), int(message[2])
            elif kind == "done":
                result: dict[str, Any] = message[1]
                return result
            else:
                raise ReviewFailed(str(message[1]))


class Reviews:
    """The reviews of one server process: those it runs, and everyone's in the database."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        running: int = MAX_RUNNING,
        node_id: str | None = None,
        stale_ms: int | None = None,
        worker: Callable[..., None] = review_worker.run,
        queue: int | None = None,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.running = running
        self.queue = queue if queue is not None else lobby.settings.review_queue
        """Reviews that may wait here at most (``KOZYR_REVIEW_QUEUE``)."""
        self.node_id = node_id or lobby.settings.node_id
        self.stale_ms = stale_ms if stale_ms is not None else stale_ms_setting()
        self.worker = worker
        """What a review process runs (:func:`review_worker.run`; tests pace it)."""
        self._jobs: dict[tuple[str, int], Job] = {}
        """(table id, level) -> its review held here, queued or running."""
        self._claiming: set[tuple[str, int]] = set()
        """(table id, level) being taken here right now (not yet in ``_jobs``)."""
        self._waiting: deque[Job] = deque()
        self._active: set[Job] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._beat: asyncio.Task[None] | None = None
        # threads of their own that wait on the review processes (minutes each), so that
        # the default pool stays free for password hashing and the like
        self._threads = ThreadPoolExecutor(2 * running, thread_name_prefix="kozyr-review")
        # spawn, not fork: the server's process has threads and an event loop, which a
        # forked child would inherit half-way through whatever they were doing
        self._context = multiprocessing.get_context("spawn")
        self._closed = False

    # -- what the routes ask -------------------------------------------------------

    async def status(self, table_id: str, user: User | None, invite: Any) -> dict[str, Any]:
        """The status object of a game's review (404 ``no_table`` unless the caller may
        read the game's record). A review whose process died starts again here."""
        row = await self.lobby.stored(table_id, user, invite)
        # the jobs before the stored review: a job's row goes only once its review is
        # stored, so a review that ends meanwhile is seen in one or the other
        jobs = await self._revived(row, await self._job_rows(row.id))
        stored = await self._stored(row.id)
        top = -1 if stored is None else int(stored["level"])
        live = [j for j in jobs if j.status in LIVE and j.level > top]
        if live:
            return self._json(max(live, key=lambda j: j.level))
        failed = [j for j in jobs if j.status == "failed" and j.level > top]
        if failed:
            return self._json(max(failed, key=lambda j: j.level))
        return _none() if stored is None else await self._done(row.id, stored)

    async def request(
        self, table_id: str, user: User, invite: Any, level: int
    ) -> tuple[int, dict[str, Any]]:
        """Starts a review of a finished game at ``level`` unless one that answers is
        stored (200, done) or under way on any process (202, joined); else 202 with the
        new review's status."""
        row = await self.lobby.stored(table_id, user, invite)
        if row.status != "finished":
            raise ProtocolError("game_not_finished", status=409)
        jobs = await self._revived(row, await self._job_rows(row.id))
        stored = await self._stored(row.id)
        if stored is not None and stored["level"] >= level:
            return 200, await self._done(row.id, stored)
        live = [j for j in jobs if j.status in LIVE and j.level >= level]
        if live:
            return 202, self._json(max(live, key=lambda j: j.level))
        if await self._busy(user.id):
            # busy with this very game, maybe: their other request (on another process)
            # started it after ``jobs`` was read
            return await self._join_or_busy(row.id, level)
        if self._closed:
            english, russian = both("review.server_stopping")
            raise ProtocolError("busy", english, 503, message_ru=russian)
        if len(self._waiting) >= self.queue:
            raise ProtocolError("review_queue_full", status=503)
        before = next((j for j in jobs if j.level == level), None)
        try:
            job = await self._claim(row, level, user.id, before, one_per_user=True)
        except _UserBusy:
            return await self._join_or_busy(row.id, level)
        if job is None:  # another process started it a moment before: join it
            now = await self._job_row(row.id, level)
            if now is None:
                stored = await self._stored(row.id)
                if stored is not None:
                    return 200, await self._done(row.id, stored)
                english, russian = both("review.try_again")
                raise ProtocolError("busy", english, 503, message_ru=russian)
            return 202, self._json(now)
        return 202, self._job_json(job)

    # -- the database's view -------------------------------------------------------

    def _json(self, r: Row[Any]) -> dict[str, Any]:
        """A job row's status; one held here is said from memory (fresher)."""
        mine = self._jobs.get((r.table_id, int(r.level)))
        if mine is not None and mine.token == r.token:
            return self._job_json(mine)
        return _status(r.status, int(r.level), int(r.done), int(r.total), r.error)

    def _job_json(self, job: Job) -> dict[str, Any]:
        """A review held here, with its place in the queue while it waits."""
        place = None
        if job.status == "queued":
            place = next((i for i, j in enumerate(self._waiting, 1) if j is job), None)
        return job.to_json(place)

    async def _join_or_busy(self, table_id: str, level: int) -> tuple[int, dict[str, Any]]:
        """For a user with a review under way: joined (202) if it is this game's at
        ``level`` or higher (a deeper review answers the request too, as in
        :meth:`request`), else 429 ``review_busy`` (another of theirs)."""
        rows = await self._job_rows(table_id)
        live = [r for r in rows if r.status in LIVE and int(r.level) >= level]
        if not live:
            raise ProtocolError("review_busy", status=429)
        return 202, self._json(max(live, key=lambda r: int(r.level)))

    async def _job_rows(self, table_id: str) -> list[Row[Any]]:
        async with self.store.engine.connect() as conn:
            result = await conn.execute(
                select(m.review_jobs).where(m.review_jobs.c.table_id == table_id)
            )
            return list(result.all())

    async def _job_row(self, table_id: str, level: int) -> Row[Any] | None:
        async with self.store.engine.connect() as conn:
            result = await conn.execute(
                select(m.review_jobs).where(
                    m.review_jobs.c.table_id == table_id, m.review_jobs.c.level == level
                )
            )
            return result.first()

    async def _job_row_in(self, conn: Any, table_id: str, level: int, seen: Row[Any]) -> bool:
        """The row ``seen`` is still there under its token (so a conditional update of it
        failed on the user's limit, not because another process took it)."""
        c = m.review_jobs.c
        found = await conn.execute(
            select(c.token).where(c.table_id == table_id, c.level == level, c.token == seen.token)
        )
        return found.first() is not None

    async def _busy(self, user_id: int) -> bool:
        """The user has a review queued or running (and alive) on any process."""
        c = m.review_jobs.c
        async with self.store.engine.connect() as conn:
            found = (
                await conn.execute(
                    select(c.table_id)
                    .where(
                        c.user_id == user_id,
                        c.status.in_(LIVE),
                        c.heartbeat_ms >= now_ms() - self.stale_ms,
                    )
                    .limit(1)
                )
            ).first()
        return found is not None

    def _stale(self, r: Row[Any]) -> bool:
        if r.status not in LIVE:
            return False
        key = (r.table_id, int(r.level))
        mine = self._jobs.get(key)
        if key in self._claiming or (mine is not None and mine.token == r.token):
            return False  # held here (its heartbeat may just be late)
        # one of this node's rows that it no longer holds: left by its previous life
        return r.owner == self.node_id or int(r.heartbeat_ms) < now_ms() - self.stale_ms

    async def _revived(self, row: TableRow, jobs: list[Row[Any]]) -> list[Row[Any]]:
        """The game's job rows, with those whose owner is gone taken over here (restarted)
        once a finished game's review at their level is not stored yet."""
        stale = [r for r in jobs if self._stale(r)]
        if not stale or row.status != "finished" or self._closed:
            return jobs
        stored = await self._stored(row.id)
        for r in stale:
            if stored is None or stored["level"] < r.level:
                job = await self._claim(row, int(r.level), int(r.user_id), r)
                if job is not None:
                    log.info(
                        "review of %s at level %d taken over from %s", row.id, r.level, r.owner
                    )
        return await self._job_rows(row.id)

    async def _claim(
        self,
        row: TableRow,
        level: int,
        user_id: int,
        seen: Row[Any] | None,
        one_per_user: bool = False,
    ) -> Job | None:
        """Takes the review of (row, level) here: a new row, or the row ``seen`` (failed,
        or its owner gone) if nobody took it since. None if another process did.

        ``one_per_user`` (a new request, not a take-over): raises :class:`_UserBusy`,
        writing nothing, if ``user_id`` has a live review already. The check and the write
        are one statement, and on PostgreSQL they take turns per user under an advisory
        lock (at read committed two statements at once would both see no live review)."""
        now = now_ms()
        values = {
            "user_id": user_id,
            "status": "queued",
            "done": 0,
            "total": 0,
            "error": None,
            "owner": self.node_id,
            "heartbeat_ms": now,
        }
        c = m.review_jobs.c
        key = (row.id, level)
        self._claiming.add(key)
        free = ~exists().where(
            c.user_id == user_id, c.status.in_(LIVE), c.heartbeat_ms >= now - self.stale_ms
        )
        try:
            async with self.store.transaction() as conn:
                if one_per_user and not self.store.is_sqlite:
                    await conn.execute(select(func.pg_advisory_xact_lock(_LOCK_REVIEWS, user_id)))
                if seen is None:
                    token = 1
                    new = {"table_id": row.id, "level": level, "token": token, "created_ms": now}
                    new.update(values)
                    if one_per_user:
                        cols = m.review_jobs.c
                        chosen = select(
                            *(literal(v, cols[k].type).label(k) for k, v in new.items())
                        ).where(free)
                        made = await conn.execute(
                            insert(m.review_jobs).from_select(list(new), chosen)
                        )
                        if made.rowcount != 1:
                            raise _UserBusy
                    else:
                        await conn.execute(insert(m.review_jobs).values(**new))
                else:
                    token = int(seen.token) + 1
                    mine = [c.table_id == row.id, c.level == level, c.token == seen.token]
                    if one_per_user:
                        mine.append(free)
                    taken = await conn.execute(
                        update(m.review_jobs).where(*mine).values(token=token, **values)
                    )
                    if taken.rowcount != 1:
                        if one_per_user and await self._job_row_in(conn, row.id, level, seen):
                            raise _UserBusy
                        return None
        except IntegrityError:
            return None
        finally:
            self._claiming.discard(key)
        job = Job(row, level, user_id, token, written_ms=now)
        self._jobs[(row.id, level)] = job
        self._waiting.append(job)
        self._pump()
        return job

    # -- running -------------------------------------------------------------------

    def _pump(self) -> None:
        """Starts waiting reviews, in the order they were asked for, while there is room."""
        loop = asyncio.get_running_loop()
        while self._waiting and len(self._active) < self.running and not self._closed:
            job = self._waiting.popleft()
            job.status = "running"
            self._active.add(job)
            task = loop.create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if self._jobs and (self._beat is None or self._beat.done()) and not self._closed:
            self._beat = loop.create_task(self._heartbeat())

    async def _run(self, job: Job) -> None:
        row = job.row
        try:
            state = await self.lobby.replayed(row)
            record = to_record(state, players=[s.name or "" for s in row.seats], table=row.id)
            job.total = len(record["actions"])
            # read after the claim: a save of the previous owner either came before it
            # (and is here) or was refused by the new token
            earlier = await self._parts(job)
            if earlier:
                job.done = int(earlier[-1]["index"]) + 1
                log.info(
                    "review of %s at level %d resumed after %d decisions",
                    row.id,
                    job.level,
                    len(earlier),
                )
            result = await self._in_process(job, record, earlier)
            result["level"] = job.level
            # stored before the job's row goes; "done" is said by the stored review only
            await self._save(job, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            if job.lost:
                log.info("review of %s at level %d was taken over", row.id, job.level)
            else:
                log.exception("review of %s at level %d failed", row.id, job.level)
                job.status = "failed"  # (so that a heartbeat meanwhile writes it failed too)
                with contextlib.suppress(Exception):
                    await self._write(job, status="failed", error="review_failed")
        finally:
            self._active.discard(job)
            if self._jobs.get((row.id, job.level)) is job:
                del self._jobs[(row.id, job.level)]
            if not self._closed:
                self._pump()

    async def _heartbeat(self) -> None:
        """While this process holds reviews: their progress every few percent, and the
        heartbeat that tells the other processes they are alive. A review taken over
        meanwhile (this process was stopped too long) is ended here."""
        while self._jobs and not self._closed:
            await asyncio.sleep(TICK)
            now = now_ms()
            for job in list(self._jobs.values()):
                step = max(1, int(job.total * PROGRESS_STEP))
                status, done, total = job.written
                moved = (job.status, job.total) != (status, total) or job.done - done >= step
                moved = moved or bool(job.pending)  # new decisions: saved at once
                if job.lost or not (moved or now - job.written_ms >= HEARTBEAT_MS):
                    continue
                try:
                    await self._write(job)
                except Exception:  # the database away a moment: the next tick tries again
                    log.warning("review heartbeat of %s not written", job.row.id, exc_info=True)

    async def _write(
        self,
        job: Job,
        status: str | None = None,
        error: str | None = None,
        heartbeat_ms: int | None = None,
    ) -> bool:
        """Writes the job's status, progress and heartbeat, and saves its new decisions,
        in one transaction fenced by its token; a job that another process took over is
        marked lost (its process ended) and nothing is written: False."""
        now = now_ms()
        state = (status or job.status, job.done, job.total)
        batch = list(job.pending)  # (the reading thread may add more meanwhile)
        c = m.review_jobs.c
        async with self.store.transaction() as conn:
            # the update first: on PostgreSQL it locks the row against a take-over (which
            # updates it too) until this commits, and it matches nothing after one
            result = await conn.execute(
                update(m.review_jobs)
                .where(c.table_id == job.row.id, c.level == job.level, c.token == job.token)
                .values(status=state[0], done=state[1], total=state[2])
                .values(heartbeat_ms=now if heartbeat_ms is None else heartbeat_ms)
                .values(**({"error": error} if error is not None else {}))
            )
            if result.rowcount == 1 and batch:
                # A batch whose commit was reported failed may be in already: skipped, not
                # refused (its decisions are the same), so the next save goes through.
                await conn.execute(
                    insert_new(conn, m.review_parts),
                    [
                        {
                            "table_id": job.row.id,
                            "level": job.level,
                            "idx": int(d["index"]),
                            "decision": json.dumps(d, ensure_ascii=False),
                        }
                        for d in batch
                    ],
                )
        if result.rowcount != 1:
            self._lose(job)
            return False
        for _ in batch:
            job.pending.popleft()
        job.written, job.written_ms = state, now
        return True

    def _lose(self, job: Job) -> None:
        job.lost = True
        if job in self._waiting:
            self._waiting.remove(job)
        if self._jobs.get((job.row.id, job.level)) is job:
            del self._jobs[(job.row.id, job.level)]
        if job.process is not None and job.process.is_alive():
            job.process.terminate()  # its thread sees the pipe close: the run ends

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def _in_process(
        self, job: Job, record: dict[str, Any], earlier: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The review's JSON, worked out in a new process (after the decisions
        ``earlier``)."""
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=self.worker,
            args=(send, record, LEVEL_WORLDS[job.level], REVIEW_SEED, earlier),
            name=f"kozyr-review-{job.row.id}-{job.level}",
            daemon=True,
        )
        job.process = process
        try:
            if job.lost:
                raise ReviewFailed("taken over before it started")
            # starting a process writes the record to it: not on the event loop
            await self._in_thread(process.start)
        finally:
            send.close()  # the child has its own end: its death closes the pipe
        try:
            return await self._in_thread(_follow, receive, job)
        finally:
            if process.is_alive():
                process.terminate()
            job.process = None
            with contextlib.suppress(asyncio.CancelledError):
                await self._in_thread(process.join, 10)

    # -- storage -------------------------------------------------------------------

    async def _stored(self, table_id: str) -> dict[str, Any] | None:
        """The highest-level review stored for the game: {"level", "review" (text)}."""
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(m.game_reviews.c.level, m.game_reviews.c.review)
                    .where(m.game_reviews.c.table_id == table_id)
                    .order_by(m.game_reviews.c.level.desc())
                    .limit(1)
                )
            ).first()
        return None if row is None else {"level": int(row.level), "review": row.review}

    async def _done(self, table_id: str, stored: dict[str, Any]) -> dict[str, Any]:
        total = await self.store.action_count(table_id)
        return {
            "status": "done",
            "level": stored["level"],
            "done": total,
            "total": total,
            "review": json.loads(stored["review"]),
            "error": None,
        }

    async def _parts(self, job: Job) -> list[dict[str, Any]]:
        """The decisions of (game, level) saved so far, in order (:func:`review_worker.
        decision_to`)."""
        p = m.review_parts.c
        async with self.store.engine.connect() as conn:
            result = await conn.execute(
                select(p.decision)
                .where(p.table_id == job.row.id, p.level == job.level)
                .order_by(p.idx)
            )
            return [json.loads(r.decision) for r in result.all()]

    async def _save(self, job: Job, review: dict[str, Any]) -> None:
        """Stores the review and, in the same transaction, drops its job's row and saved
        decisions; fenced by the job's token like every write (a lost job stores nothing:
        its new owner will)."""
        c, p = m.review_jobs.c, m.review_parts.c
        gone = delete(m.review_jobs).where(
            c.table_id == job.row.id, c.level == job.level, c.token == job.token
        )
        parts = delete(m.review_parts).where(p.table_id == job.row.id, p.level == job.level)
        try:
            async with self.store.transaction() as conn:
                if (await conn.execute(gone)).rowcount != 1:
                    raise ReviewFailed("taken over before it was stored")
                await conn.execute(parts)
                await conn.execute(
                    insert(m.game_reviews).values(
                        table_id=job.row.id,
                        level=job.level,
                        review=json.dumps(review, ensure_ascii=False),
                        created_ms=now_ms(),
                    )
                )
        except ReviewFailed:
            self._lose(job)
            raise
        except IntegrityError:
            # another server process stored the same review first (the same, seeded)
            log.info("review of %s at level %d was already stored", job.row.id, job.level)
            async with self.store.transaction() as conn:
                if (await conn.execute(gone)).rowcount == 1:
                    await conn.execute(parts)

    # -- life cycle ----------------------------------------------------------------

    async def close(self) -> None:
        """Ends every review process at once and lets their rows go (heartbeat 0): the
        next process asked about one of them starts it again."""
        self._closed = True
        held = list(self._jobs.values())
        self._waiting.clear()
        for job in list(self._active):
            if job.process is not None and job.process.is_alive():
                job.process.terminate()
        tasks = list(self._tasks) + ([self._beat] if self._beat is not None else [])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for job in held:
            # its decisions received so far are saved: the next owner goes on after them
            with contextlib.suppress(Exception):
                await self._write(job, heartbeat_ms=0)
        # the processes are ended: their threads see the pipes close and return
        self._threads.shutdown(wait=False, cancel_futures=True)
