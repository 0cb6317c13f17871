"""What stakes add to the two commits they ride on: a game's start (escrow) and its last
action (settlement), on SQLite through the real store and hooks, with and without stakes.

    .venv/bin/python bench/stakes_commit.py --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from kozyr.server.money import escrow, wallets
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Seat, Store, TableRow


def row(i: int, user_id: int, stake: bool) -> TableRow:
    return TableRow(
        id=f"b{i}",
        game="imperial",
        players=2,
        options={"players": 2, "target": 5},
        seed=i,
        seats=[Seat(user_id=user_id, name="p"), Seat(bot=1, name="bot 1")],
        stake={"kind": "per_game", "chips": 1} if stake else None,
    )


async def run(tables: int, stake: bool) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        store.on_new_user.append(wallets.grant_new_user)
        store.on_start.append(escrow.escrow_at_start)
        store.on_finish.append(escrow.settle_at_finish)
        await store.migrate()
        user = await store.create_user("bench", None, guest=False)
        starts, ends = [], []
        try:
            for i in range(tables):
                r = row(i, user.id, stake)
                await store.insert_table(r)
                r.status = "playing"
                t0 = time.perf_counter()
                await store.save_table(r, started=True)
                starts.append(time.perf_counter() - t0)
                done = TableRow(**{**r.__dict__, "status": "finished"})
                done.result = {"winner": i % 2, "scores": [{"imperials": 5}, {"imperials": 0}]}
                t0 = time.perf_counter()
                await store.append_action(r.id, 1, 0, "bot", "AS", None, done)
                ends.append(time.perf_counter() - t0)
        finally:
            await store.close()
    return starts, ends


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    print(f"{args.tables} tables, SQLite (WAL, synchronous=FULL); median / p95 in ms")
    for stake in (False, True):
        starts, ends = asyncio.run(run(args.tables, stake))
        for name, xs in (("start", starts), ("last action", ends)):
            xs = sorted(xs)
            median = statistics.median(xs) * 1000
            p95 = xs[int(len(xs) * 0.95)] * 1000
            label = "stakes" if stake else "no stakes"
            print(f"  {label:9} {name:11}: {median:6.2f} / {p95:6.2f}")


if __name__ == "__main__":
    main()
