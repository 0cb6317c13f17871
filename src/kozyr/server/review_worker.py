"""What a review process runs: the driver (:func:`kozyr.review.review`) over a finished
game's record, its progress and its result sent back through a pipe.

Kept apart from :mod:`kozyr.server.reviews` so that a freshly spawned review process
imports only the driver and the bots' search, not the server (seconds of imports).
"""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from typing import Any

from kozyr.review import review

__all__ = ["PROGRESS_EVERY", "run"]

PROGRESS_EVERY = 0.05
"""Seconds between progress messages (the page polls about once a second)."""


def run(conn: Connection, record: dict[str, Any], worlds: int, seed: int) -> None:
    """Reviews every seat of ``record``; sends ``("progress", done, total)`` as it goes,
    then ``("done", review_json)`` or ``("error", text)``, and closes ``conn``."""
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done >= total or now - last >= PROGRESS_EVERY:
            last = now
            conn.send(("progress", done, total))

    try:
        # after the game every card is public (B3): the oracle's move may be shown
        result = review(record, worlds=worlds, seed=seed, progress=progress, hindsight=True)
        conn.send(("done", result.to_json()))
    except Exception as e:  # any failure goes back to the server, which marks it failed
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()
