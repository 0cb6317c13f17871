"""Post-game reviews for the web page: run in the background, one process each, with
their progress; stored with the game once done (``game_reviews``, docs/review.md).

A review is CPU work for seconds to minutes, so it never runs on the event loop, nor in
a thread (it would hold the GIL against the tables): each runs in a process of its own
(:mod:`.review_worker`), spawned fresh, which sends its progress and its result back
through a pipe that a thread reads. A process of its own can be ended at once when the
server stops, and a crash in one review fails only that review.

Limits: at most ``running`` reviews at once in a server process (the rest wait in the
order they were asked for: status ``queued``), and one review queued or running per
user (429 ``review_busy``). Reviews are deterministic: the same record and level give
the same review (the seed is fixed), so a stored review is never worth redoing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from kozyr.records import to_record
from kozyr.review_command import LEVEL_WORLDS
from kozyr.server import models as m
from kozyr.server import review_worker
from kozyr.server.lobby import Lobby
from kozyr.server.protocol import ProtocolError
from kozyr.server.store import Store, TableRow, User, now_ms

__all__ = ["DEFAULT_LEVEL", "MAX_RUNNING", "REVIEW_SEED", "Reviews"]

log = logging.getLogger("kozyr.server.reviews")

T = TypeVar("T")

DEFAULT_LEVEL = 2
MAX_RUNNING = 2
"""Reviews running at once in one server process (each takes a core while it runs)."""
REVIEW_SEED = 0
"""The search's seed for every review: the same game and level, the same review."""
MAX_FAILED = 1000
"""Failed reviews remembered (to show "failed"), the oldest forgotten first."""


class ReviewFailed(Exception):
    """The review process reported an error or died."""


@dataclass(eq=False)
class Job:
    """A review asked for and not yet stored: queued, running, or failed."""

    row: TableRow
    level: int
    user_id: int
    status: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    process: BaseProcess | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "level": self.level,
            "done": self.done,
            "total": self.total,
            "review": None,
            "error": self.error,
        }
        if self.error is not None:
            named = ProtocolError(self.error)  # the catalog's messages for the code
            out["message"], out["message_ru"] = named.message, named.message_ru
        return out


def _none() -> dict[str, Any]:
    return {"status": "none", "level": None, "done": 0, "total": 0, "review": None, "error": None}


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
            if kind == "progress":
                job.done, job.total = int(message[1]), int(message[2])
            elif kind == "done":
                result: dict[str, Any] = message[1]
                return result
            else:
                raise ReviewFailed(str(message[1]))


class Reviews:
    """The reviews of one server process: those asked for, running, and stored."""

    def __init__(self, store: Store, lobby: Lobby, running: int = MAX_RUNNING) -> None:
        self.store = store
        self.lobby = lobby
        self.running = running
        self._jobs: dict[tuple[str, int], Job] = {}
        """(table id, level) -> its review queued or running."""
        self._waiting: deque[Job] = deque()
        self._active: set[Job] = set()
        self._failed: OrderedDict[str, Job] = OrderedDict()
        """table id -> its last failed review (until asked for again)."""
        self._tasks: set[asyncio.Task[None]] = set()
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
        read the game's record)."""
        row = await self.lobby.stored(table_id, user, invite)
        # the job before the stored review: a job ends only once its review is stored,
        # so a review that ends meanwhile is seen in one or the other, never in neither
        job = self._latest(row.id)
        stored = await self._stored(row.id)
        if job is not None and (stored is None or job.level > stored["level"]):
            return job.to_json()
        failed = self._failed.get(row.id)
        if stored is not None:
            if failed is not None and failed.level > stored["level"]:
                return failed.to_json()
            return await self._done(row.id, stored)
        return failed.to_json() if failed is not None else _none()

    async def request(
        self, table_id: str, user: User, invite: Any, level: int
    ) -> tuple[int, dict[str, Any]]:
        """Starts a review of a finished game at ``level`` unless one that answers is
        stored (200, done) or running (202); else 202 with the new review's status."""
        row = await self.lobby.stored(table_id, user, invite)
        if row.status != "finished":
            raise ProtocolError("game_not_finished", status=409)
        before = self._latest(row.id)  # (as in status: one that ends meanwhile is stored)
        stored = await self._stored(row.id)
        if stored is not None and stored["level"] >= level:
            return 200, await self._done(row.id, stored)
        # No await from here on: the checks and the new job are one step.
        job = self._latest(row.id) or before
        if job is not None and job.level >= level and job.status != "failed":
            return 202, job.to_json()
        if any(j.user_id == user.id for j in self._jobs.values()):
            raise ProtocolError("review_busy", status=429)
        if self._closed:
            raise ProtocolError(
                "busy",
                "The server is stopping; try again.",
                503,
                message_ru="Сервер останавливается; попробуйте снова.",
            )
        job = Job(row, level, user.id)
        self._jobs[(row.id, level)] = job
        self._failed.pop(row.id, None)
        self._waiting.append(job)
        self._pump()
        return 202, job.to_json()

    # -- running -------------------------------------------------------------------

    def _latest(self, table_id: str) -> Job | None:
        """The highest-level review of the game queued or running."""
        jobs = [j for (t, _), j in self._jobs.items() if t == table_id]
        return max(jobs, key=lambda j: j.level, default=None)

    def _pump(self) -> None:
        """Starts waiting reviews, in the order they were asked for, while there is room."""
        while self._waiting and len(self._active) < self.running and not self._closed:
            job = self._waiting.popleft()
            job.status = "running"
            self._active.add(job)
            task = asyncio.get_running_loop().create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, job: Job) -> None:
        row = job.row
        try:
            state = await self.lobby.replayed(row)
            record = to_record(state, players=[s.name or "" for s in row.seats], table=row.id)
            job.total = len(record["actions"])
            result = await self._in_process(job, record)
            result["level"] = job.level
            # stored before the job goes; "done" is said by the stored review only
            await self._save(row.id, job.level, result)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("review of %s at level %d failed", row.id, job.level)
            job.status, job.error = "failed", "review_failed"
            self._failed[row.id] = job
            while len(self._failed) > MAX_FAILED:
                self._failed.popitem(last=False)
        finally:
            self._active.discard(job)
            self._jobs.pop((row.id, job.level), None)
            if not self._closed:
                self._pump()

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._threads, fn, *args)

    async def _in_process(self, job: Job, record: dict[str, Any]) -> dict[str, Any]:
        """The review's JSON, worked out in a new process."""
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=review_worker.run,
            args=(send, record, LEVEL_WORLDS[job.level], REVIEW_SEED),
            name=f"kozyr-review-{job.row.id}-{job.level}",
            daemon=True,
        )
        job.process = process
        try:
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

    async def _save(self, table_id: str, level: int, review: dict[str, Any]) -> None:
        try:
            async with self.store.transaction() as conn:
                await conn.execute(
                    insert(m.game_reviews).values(
                        table_id=table_id,
                        level=level,
                        review=json.dumps(review, ensure_ascii=False),
                        created_ms=now_ms(),
                    )
                )
        except IntegrityError:
            # another server process stored the same review first (the same, seeded)
            log.info("review of %s at level %d was already stored", table_id, level)

    # -- life cycle ----------------------------------------------------------------

    async def close(self) -> None:
        """Ends every review process at once and forgets the reviews not yet stored
        (they show "none" after a restart and may be asked for again)."""
        self._closed = True
        self._waiting.clear()
        for job in list(self._active):
            if job.process is not None and job.process.is_alive():
                job.process.terminate()
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # the processes are ended: their threads see the pipes close and return
        self._threads.shutdown(wait=False, cancel_futures=True)
