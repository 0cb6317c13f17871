"""What committing moves to the log costs the server, on SQLite: the log writer's one hop
a batch (``Store._append_sync`` in its own thread) beside the same batch through the
async engine (aiosqlite: a round trip between the loop and its thread per statement),
alternated in one run on one database.

    .venv/bin/python bench/commit_cost.py --moves 2000
    .venv/bin/python bench/commit_cost.py --moves 2000 --batch 20

Prints, per path, the process's CPU (user and system) and the wall time per move, with
moves committed one at a time (a human pace: each move its own transaction) or
``--batch`` at a time (many tables at once: the group commit).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time
from pathlib import Path

from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Seat, Store, TableRow


def cpu() -> tuple[float, float]:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime, r.ru_stime


async def run(moves: int, batch: int, rounds: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="kozyr-commit-"))
    store = Store(sqlite_url(data))
    await store.migrate()
    user = await store.create_user("bench", None, True)
    await store.insert_table(
        TableRow(
            id="t",
            game="imperial",
            players=2,
            options={},
            seed=1,
            seats=[Seat(), Seat()],
            creator_id=user.id,
        )
    )
    log_thread = store._log_thread
    seq = 0
    totals = {"one hop": [0.0, 0.0, 0.0], "aiosqlite": [0.0, 0.0, 0.0]}
    for _ in range(rounds):
        for path in totals:
            store._log_thread = log_thread if path == "one hop" else None
            (u0, s0), t0 = cpu(), time.perf_counter()
            for _ in range(moves // rounds // batch):
                await asyncio.gather(
                    *(
                        store.append_action("t", seq + k + 1, 0, "bot", "H7", None)
                        for k in range(batch)
                    )
                )
                seq += batch
            (u1, s1), t1 = cpu(), time.perf_counter()
            totals[path][0] += u1 - u0
            totals[path][1] += s1 - s0
            totals[path][2] += t1 - t0
    store._log_thread = log_thread
    await store.close()
    n = moves // rounds // batch * batch * rounds
    print(
        f"SQLite, {n} moves a path, {batch} a transaction, {rounds} alternations, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for path, (user_s, sys_s, wall) in totals.items():
        print(
            f"  {path:>9}: user {1e6 * user_s / n:7.0f} us  system {1e6 * sys_s / n:6.0f} us  "
            f"wall {1e6 * wall / n:7.0f} us per move"
        )
    one, old = totals["one hop"], totals["aiosqlite"]
    print(f"  CPU ratio one hop / aiosqlite: {(one[0] + one[1]) / (old[0] + old[1]):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    asyncio.run(run(args.moves, args.batch, args.rounds))


if __name__ == "__main__":
    main()
