"""Worker pools for CPU work that people ask for (hints, uploaded records): each kind in
threads of its own, so that one kind cannot take the threads another needs (the bots',
the stored games' replays), and with a bounded queue, so that a crowd of requests is
refused at once (503) instead of waiting without end.

>>> import asyncio
>>> pool = Pool("doc", workers=1, waiting=0)
>>> asyncio.run(pool.run(sum, [1, 2]))
3
>>> pool.shutdown()
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class PoolFull(Exception):
    """Every worker is busy and the queue is full: try again in a moment."""


class Pool:
    """``workers`` threads named ``kozyr-<name>``, and at most ``waiting`` jobs queued
    for them; a job past that raises :class:`PoolFull` without being queued."""

    def __init__(self, name: str, workers: int, waiting: int) -> None:
        self.name = name
        self.workers = workers
        self.limit = workers + waiting
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"kozyr-{name}")
        self._lock = threading.Lock()
        self._pending = 0
        """Jobs queued or running. A job leaves when its thread is done with it, not when
        its caller stops waiting, so a caller that gave up cannot let more in."""

    @property
    def full(self) -> bool:
        """No room for one more job now."""
        return self._pending >= self.limit

    def _done(self, _future: Future[Any]) -> None:
        with self._lock:
            self._pending -= 1

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the pool's threads (PoolFull when there is no room)."""
        with self._lock:
            if self._pending >= self.limit:
                raise PoolFull(self.name)
            self._pending += 1
        try:
            future = self._executor.submit(fn, *args)
        except BaseException:
            with self._lock:
                self._pending -= 1
            raise
        future.add_done_callback(self._done)
        return await asyncio.wrap_future(future)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def hint_pool() -> Pool:
    """Hints (``kozyr.server.tables.hints``): two searched at once, each about half a
    second; eight more may wait for a thread, a few seconds at most."""
    return Pool("hint", workers=2, waiting=8)


def upload_pool() -> Pool:
    """Uploaded records replayed or verified (``POST /api/replay``, ``/api/verify``): one
    at a time, a few waiting; the stored games' replays have the lobby's pool."""
    return Pool("upload", workers=1, waiting=4)
