"""Where a table's bots think: people first.

The bots of a table where a person sits (or is away, played for) think in the lobby's
bot pool. The bots of a table of bots alone, which plays only for its spectators, think
in a pool of their own, of ``KOZYR_BOT_ALONE_THREADS`` threads (1 by default): however
many such tables are watched, they queue there for those threads, and never take more
of the process than that, nor a thread from a table where someone plays
(docs/performance.md, "Tables of bots alone"). A table is routed at each decision, as
its seats are then: a table whose last person was replaced by a bot moves over.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import ParamSpec, TypeVar

from kozyr.server.play.presence import bots_alone
from kozyr.server.storage.store import TableRow

__all__ = ["ALONE_PREFIX", "TablePool"]

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
