"""Where a table's bots think: people first.

The bots of a table where a person sits (or is away, played for) think in the lobby's
bot pool. The bots of a table of bots alone, which plays only for its spectators, think
in a pool of their own, of ``KOZYR_BOT_ALONE_THREADS`` threads (1 by default): however
many such tables are watched, they queue there for those threads, and never take more
of the process than that, nor a thread from a table where someone plays
(docs/performance.md, "Tables of bots alone"). A table is routed at each decision, as
its seats are then: a table whose last person was replaced by a bot moves over.

A thread that thinks all the time still holds Python's one interpreter lock for most of
it, and every request the event loop serves waits for the lock again at each step: one
busy thread alone slowed ``/healthz`` from 5 to over 100 ms. So the pool of the bots
alone is also paced (:class:`PacedPool`): after a decision of ``d`` seconds it rests
``d * (1 / share - 1)``, so that it thinks for at most ``KOZYR_BOT_ALONE_SHARE`` (a
quarter by default) of the time.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from kozyr.server.play.presence import bots_alone
from kozyr.server.storage.store import TableRow

__all__ = ["ALONE_PREFIX", "PacedPool", "TablePool"]

P = ParamSpec("P")
T = TypeVar("T")

ALONE_PREFIX = "kozyr-bot-alone"
"""The names of the threads of the bots of tables of bots alone."""


class TablePool(Executor):
    """One table's view of the two bot pools: each decision goes to the pool its table's
    seats call for at that moment. It owns neither pool (the lobby shuts them down)."""

    def __init__(self, row: TableRow, seated: Executor, alone: Executor) -> None:
        self.row = row
        self.seated = seated
        self.alone = alone

    def pool(self) -> Executor:
        return self.alone if bots_alone(self.row) else self.seated

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self.pool().submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing: the pools are the lobby's, shared by its tables."""


class PacedPool(Executor):
    """A thread pool that works for at most ``share`` of the time: each job first waits
    until the pool's rest after the jobs before it is over (sleeping, which lets the
    event loop run), and a job of ``d`` seconds adds ``d * (1 / share - 1)`` of rest.

    >>> pool = PacedPool(1, 0.5, "doc", clock=iter([0.0, 0.0, 2.0, 2.0]).__next__)
    >>> pool.submit(sum, [1, 2]).result()
    3
    >>> pool.rest_until  # 2 s of work at a half share: 2 s of rest, until t = 4
    4.0
    >>> pool.shutdown()
    """

    def __init__(
        self,
        workers: int,
        share: float,
        name: str,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"a share of the time is from 0 to 1, not {share}")
        self.share = share
        self.clock = clock
        self.sleep = sleep
        self.rest_until = 0.0
        self._lock = threading.Lock()
        self._threads = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)

    def _paced(self, job: Callable[[], T]) -> T:
        with self._lock:
            wait = self.rest_until - self.clock()
        if wait > 0:
            self.sleep(wait)
        start = self.clock()
        try:
            return job()
        finally:
            end = self.clock()
            with self._lock:
                rest = (end - start) * (1 / self.share - 1)
                self.rest_until = max(self.rest_until, end) + rest

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        return self._threads.submit(self._paced, functools.partial(fn, *args, **kwargs))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._threads.shutdown(wait=wait, cancel_futures=cancel_futures)
