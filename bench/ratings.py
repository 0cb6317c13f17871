"""What ratings cost: one game's openskill update (2, 3 and 4 players), the finish hook
inside its transaction, and ``kozyr ratings rebuild`` over many stored games.

Writes a temporary SQLite database of ``--games`` rated games between ``--people`` people
and the five bot levels (random places), committed one by one through the store's finish
hook as the server commits them, then rebuilds; prints the times.

    .venv/bin/python bench/ratings.py --games 2000
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import tempfile
import time
from pathlib import Path

from kozyr.server.accounts import ratings
from kozyr.server.accounts.ratings import DEFAULT, rate
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Seat, Store, TableRow


def bench_rate(n: int, reps: int) -> float:
    ranks = list(range(1, n + 1))
    started = time.perf_counter()
    for _ in range(reps):
        rate([DEFAULT] * n, ranks)
    return (time.perf_counter() - started) / reps


async def bench_store(games: int, people: int, seed: int) -> tuple[float, float, float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        await store.migrate()
        ratings.install(store)
        for i in range(people):
            await store.create_user(f"p{i}", None, guest=False)
        plain = hooked = 0.0
        for g in range(games):
            game, _, count = rng.choice(ratings.VARIANTS).rpartition("-")
            n = int(count[:-1])
            seats = [Seat(user_id=rng.randrange(people) + 1, name="p")]
            seats += [Seat(bot=rng.randint(1, 5), name="bot") for _ in range(n - 1)]
            rng.shuffle(seats)
            row = TableRow(
                id=f"t{g}", game=game, players=n, options={}, seed=1, seats=seats, rated=True
            )
            await store.insert_table(row)
            places = list(range(n))
            rng.shuffle(places)
            final = dataclasses.replace(
                row, status="finished", finished_ms=g + 1, result={"places": places}
            )
            started = time.perf_counter()
            await store.append_action(row.id, 1, 0, "bot", "AS", None, final)
            hooked += time.perf_counter() - started
        # the same commits without the hook, for the difference
        store.on_finish.clear()
        for g in range(min(games, 500)):
            row = TableRow(id=f"u{g}", game="imperial", players=2, options={}, seed=1, seats=[])
            await store.insert_table(row)
            final = dataclasses.replace(row, status="finished", finished_ms=g + 1)
            started = time.perf_counter()
            await store.append_action(row.id, 1, 0, "bot", "AS", None, final)
            plain += time.perf_counter() - started
        started = time.perf_counter()
        done = await ratings.rebuild(store)
        rebuild = time.perf_counter() - started
        assert done.changed == 0, done.lines()
        await store.close()
        return hooked / games, plain / min(games, 500), rebuild


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--people", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for n in (2, 3, 4):
        print(f"openskill update, {n} players: {bench_rate(n, 2000) * 1e6:.0f} us")
    hooked, plain, rebuild = asyncio.run(bench_store(args.games, args.people, args.seed))
    print(f"last-action commit with the rating hook: {hooked * 1e3:.2f} ms")
    print(f"last-action commit without it:           {plain * 1e3:.2f} ms")
    each = rebuild / args.games * 1e3
    print(f"rebuild of {args.games} games: {rebuild:.2f} s ({each:.2f} ms a game)")


if __name__ == "__main__":
    main()
