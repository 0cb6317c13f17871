"""What a review process runs: the driver (:func:`kozyr.review.review`) over a finished
game's record, its progress and its result sent back through a pipe.

Kept apart from :mod:`kozyr.server.reviews.jobs` so that a freshly spawned review process
imports only the driver and the bots' search, not the server (seconds of imports).
"""

from __future__ import annotations

import dataclasses
import time
from multiprocessing.connection import Connection
from typing import Any

from kozyr.review import Decision, review

__all__ = ["PROGRESS_EVERY", "decision_from", "decision_to", "run"]

PROGRESS_EVERY = 0.05
"""Seconds between progress messages (the page polls about once a second)."""


def decision_to(decision: Decision) -> dict[str, Any]:
    """A decision as saved while its review runs: every field at full precision (not
    ``Decision.to_json``, whose rounded values would change the summaries' sums)."""
    return dataclasses.asdict(decision)


def decision_from(saved: dict[str, Any]) -> Decision:
    return Decision(**saved)


def run(
    conn: Connection,
    record: dict[str, Any],
    worlds: int,
    seed: int,
    earlier: list[dict[str, Any]] | None = None,
) -> None:
    """Reviews every seat of ``record``, going on after the decisions ``earlier`` (saved
    by an interrupted run, :func:`decision_to`); sends ``("decision", saved)`` for each
    new decision and ``("progress", done, total)`` as it goes, then ``("done",
    review_json)`` or ``("error", text)``, and closes ``conn``."""
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if done >= total or now - last >= PROGRESS_EVERY:
            last = now
            conn.send(("progress", done, total))

    try:
        # after the game every card is public (B3): the oracle's move may be shown
        result = review(
            record,
            worlds=worlds,
            seed=seed,
            progress=progress,
            hindsight=True,
            earlier=[decision_from(d) for d in earlier or ()],
            on_decision=lambda d: conn.send(("decision", decision_to(d))),
        )
        conn.send(("done", result.to_json()))
    except Exception as e:  # any failure goes back to the server, which marks it failed
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()
