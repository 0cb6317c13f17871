"""``kozyr puzzles build`` (#29, docs/puzzles.md): reads the server's finished games (and
plays seeded bot games) for puzzles and stores what it finds.

It runs in a process of its own (the command), never on a server's event loop: the
valuations (:mod:`.puzzle_finder`) go to worker processes (or one worker thread, ``jobs``
0), and this module's loop only reads games from the database and writes puzzles. Only
games whose table is public and ``finished`` and whose game is over are read. It is idempotent: a
game read once is recorded in ``puzzle_sources`` and never read again, and each puzzle
has a unique key per position (``puzzles.key``), inserted with ON CONFLICT DO NOTHING.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from kozyr.games import GAMES
from kozyr.records import to_record
from kozyr.server.accounts.ratings import DEFAULT
from kozyr.server.reviews import puzzle_finder as finder
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, insert_new, now_ms
from kozyr.server.tables.lobby import replay_row

__all__ = ["Built", "Progress", "build", "first_mu", "table_source"]

HARDER = 2.0
"""A puzzle's first rating: openskill's default mu, this much higher when the player in the
game missed the best card, this much lower when he found it."""


@dataclass(slots=True)
class Progress:
    games: int
    total: int
    positions: int
    found: int


@dataclass(frozen=True, slots=True)
class Built:
    found: int
    server_games: int
    bot_games: int
    skipped: int
    positions: int
    seconds: float


def table_source(table_id: str) -> str:
    return f"table:{table_id}"


def first_mu(best: str, played: str) -> float:
    return DEFAULT.mu + (HARDER if played != best else -HARDER)


def _executor(jobs: int) -> Executor:
    if jobs <= 0:
        return ThreadPoolExecutor(1, thread_name_prefix="kozyr-puzzles")
    # spawned, not forked: this process has the database's threads running
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"))


async def _finished_records(store: Store, seen: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """The records of the finished games not read yet (the game replayed from its log off
    the loop, and taken only if it is over)."""
    t = m.game_tables
    async with store.engine.connect() as conn:
        ids = (
            await conn.execute(
                # public tables only: a private table's hands are for its own players
                select(t.c.id)
                .where(t.c.status == "finished", t.c.private.is_(False))
                .order_by(t.c.finished_ms, t.c.id)
            )
        ).all()
    out = []
    for (table_id,) in ids:
        key = table_source(table_id)
        if key in seen:
            continue
        row = await store.table(table_id)
        if row is None or row.status != "finished" or row.private:
            continue
        texts = [a.text for a in await store.actions(table_id)]
        state = await asyncio.to_thread(replay_row, row, texts)
        if not state.over:
            continue
        out.append((key, to_record(state)))
    return out


async def _save(
    store: Store,
    key: str,
    game: str,
    table_id: str | None,
    bot_seed: int | None,
    read: finder.Read,
) -> int:
    """Writes one game's puzzles and marks the game read, in one transaction; the number
    of puzzles new to the database."""
    now = now_ms()
    added = 0
    async with store.transaction() as conn:
        for f in read.found:
            result = await conn.execute(
                insert_new(conn, m.puzzles).values(
                    key=f"{key}:{f.index}",
                    game=game,
                    players=int(f.position["options"]["players"]),
                    source="server" if table_id is not None else "bot",
                    table_id=table_id,
                    bot_seed=bot_seed,
                    position=json.dumps(f.position),
                    action_index=f.index,
                    seat=f.seat,
                    best=f.best,
                    played=f.played,
                    card_values=json.dumps([list(v) for v in f.values]),
                    margin=f.margin,
                    worlds=f.worlds,
                    mu=first_mu(f.best, f.played),
                    sigma=DEFAULT.sigma,
                    attempts=0,
                    solved=0,
                    created_ms=now,
                )
            )
            added += max(0, result.rowcount or 0)
        await conn.execute(
            insert_new(conn, m.puzzle_sources).values(
                key=key, game=game, positions=read.positions, found=len(read.found), created_ms=now
            )
        )
    return added


async def build(
    store: Store,
    settings: finder.Settings,
    *,
    bot_games: int = 0,
    jobs: int = 2,
    report: Callable[[Progress], None] | None = None,
) -> Built:
    """Reads every finished game not read before and ``bot_games`` seeded bot games of
    each game (seeds 1 to ``bot_games``), and stores the puzzles found."""
    began = time.monotonic()
    async with store.engine.connect() as conn:
        seen = {k for (k,) in (await conn.execute(select(m.puzzle_sources.c.key))).all()}
    tables = await _finished_records(store, seen)
    bots = [
        (game, seed)
        for game in GAMES
        for seed in range(1, bot_games + 1)
        if finder.bot_source(game, seed) not in seen
    ]
    skipped = sum(1 for k in seen if k.startswith("table:")) + sum(
        1 for game in GAMES for s in range(1, bot_games + 1) if finder.bot_source(game, s) in seen
    )
    progress = Progress(0, len(tables) + len(bots), 0, 0)
    if report is not None:
        report(progress)
    loop = asyncio.get_running_loop()
    pool = _executor(jobs)
    try:
        work: list[asyncio.Future[Any]] = []
        for key, record in tables:
            read_one: asyncio.Future[Any] = loop.run_in_executor(
                pool, finder.read_record, record, settings
            )
            work.append(_labelled(read_one, key, record["game"], key.split(":", 1)[1], None))
        for game, seed in bots:
            play_one: asyncio.Future[Any] = loop.run_in_executor(
                pool, finder.read_bot_game, game, seed, settings
            )
            work.append(_labelled(play_one, finder.bot_source(game, seed), game, None, seed))
        for done in asyncio.as_completed(work):
            key, game, table_id, seed, result = await done
            read = result if table_id is not None else result[1]
            progress.found += await _save(store, key, game, table_id, seed, read)
            progress.games += 1
            progress.positions += read.positions
            if report is not None:
                report(progress)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return Built(
        progress.found,
        len(tables),
        len(bots),
        skipped,
        progress.positions,
        time.monotonic() - began,
    )


def _labelled(
    future: asyncio.Future[Any], key: str, game: str, table_id: str | None, seed: int | None
) -> asyncio.Future[tuple[str, str, str | None, int | None, Any]]:
    async def wait() -> tuple[str, str, str | None, int | None, Any]:
        return key, game, table_id, seed, await future

    return asyncio.ensure_future(wait())
