"""A review process that waits after each decision it reports, so that a test catches a
review half-way on any machine (a fast one ends a whole review between two looks)."""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from typing import Any

from kozyr.server.reviews import worker as review_worker

PAUSE = 0.5
"""Seconds after each decision: two of the owner's ticks, so each is saved before the next."""


class _Paced:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def send(self, message: Any) -> None:
        self.conn.send(message)
        if message[0] == "decision":
            time.sleep(PAUSE)

    def close(self) -> None:
        self.conn.close()


def run(conn: Connection, *args: Any) -> None:
    """:func:`review_worker.run`, paced."""
    review_worker.run(_Paced(conn), *args)  # type: ignore[arg-type]
