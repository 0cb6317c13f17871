"""How long the event loop stalls while a process restores many tables at once (at start,
or taking over a dead process's tables in cluster mode).

Writes ``--tables`` games in progress of ``--moves`` random actions each straight into a
fresh SQLite database (two people at each, so that nothing moves once they are back),
then restores them with the server's lobby while a heartbeat task on the same event loop
wakes every millisecond and notes how late it woke. Prints the restore's wall time and
the heartbeat's worst and 99th-percentile lateness: the loop's longest stall, i.e. how
long every other table and connection of the process would have waited.

A worst case far above the 99th percentile in both modes is Python's cyclic garbage
collector (a full collection over the restored games), not a replay: ``--no-gc`` shows the
stalls without it.

``--inline`` replays on the event loop as the server did before the replays went to the
replay pool (for comparison):

    .venv/bin/python bench/restore_stall.py --tables 200 --moves 120
    .venv/bin/python bench/restore_stall.py --tables 200 --moves 120 --inline
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from kozyr.server.play.games import game_of, new_state
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, now_ms
from kozyr.server.tables.lobby import Lobby
from kozyr.server.tables.turns import make_table_bot


async def fill(store: Store, tables: int, moves: int, seed: int) -> int:
    """Writes the games; returns how many actions in all."""
    ann = await store.create_user("ann", None, guest=False)
    bob = await store.create_user("bob", None, guest=False)
    rng = random.Random(seed)
    total = 0
    made = 0
    while made < tables:
        row = TableRow(
            id=f"t{made:05d}",
            game="imperial",
            players=2,
            options=game_of("imperial").options_from_json({"target": 20}).to_json(),
            seed=rng.getrandbits(256),
            seats=[Seat(user_id=ann.id, name="ann"), Seat(user_id=bob.id, name="bob")],
            status="playing",
            join_order=[0, 1],
            started_ms=now_ms(),
            turn_timeout=None,
        )
        row.first_dealer = game_of("imperial").draw_start(2, row.seed, row.dealing)
        state = new_state(row)
        texts: list[tuple[int, str]] = []
        while len(texts) < moves and not state.over and state.to_act is not None:
            seat = state.to_act
            state.apply(rng.choice(state.legal_actions()))
            texts.append((seat, state.actions[-1]))
        if state.over:
            continue  # a game in progress only
        await store.insert_table(row)
        async with store.transaction() as conn:
            await conn.execute(
                insert(m.actions),
                [
                    {
                        "table_id": row.id,
                        "seq": i + 1,
                        "seat": seat,
                        "actor": f"user:{row.seats[seat].user_id}",
                        "action_text": text,
                        "client_action_id": f"c{i}",
                        "created_ms": now_ms(),
                    }
                    for i, (seat, text) in enumerate(texts)
                ],
            )
        total += len(texts)
        made += 1
    return total


async def heartbeat(lateness: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        due = time.perf_counter() + 0.001
        await asyncio.sleep(0.001)
        lateness.append(max(0.0, time.perf_counter() - due))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        settings = Settings(data=folder, database_url=None, grace=3600, turn_timeout=None)
        store = Store(settings.url)
        await store.migrate()
        actions = await fill(store, args.tables, args.moves, args.seed)
        lobby = Lobby(store, settings, Metrics(), LocalBus())
        if args.inline:

            async def inline(fn: Any, *fn_args: Any) -> Any:
                return fn(*fn_args)

            lobby.offload = inline  # type: ignore[method-assign]
        # The first bot made imports the bots' modules (a tenth of a second or more, once
        # per process): done before the measure, as in a process that has run a while.
        make_table_bot("imperial", 3, 0, settings.bot_kind)
        lateness: list[float] = []
        stop = asyncio.Event()
        beat = asyncio.create_task(heartbeat(lateness, stop))
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        restored = await lobby.restore()
        took = time.perf_counter() - started
        stop.set()
        await beat
        await lobby.close()
        await store.close()
    lateness.sort()
    return {
        "mode": "inline" if args.inline else "replay pool",
        "tables": restored,
        "actions": actions,
        "restore_s": round(took, 3),
        "stall_max_ms": round(lateness[-1] * 1000, 1),
        "stall_p99_ms": round(lateness[int(len(lateness) * 0.99)] * 1000, 1),
        "stall_median_ms": round(statistics.median(lateness) * 1000, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inline", action="store_true", help="replay on the event loop")
    parser.add_argument("--no-gc", action="store_true", help="without the cyclic collector")
    args = parser.parse_args()
    if args.no_gc:
        gc.disable()
    print(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
