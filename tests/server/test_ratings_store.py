"""Rating updates commit with a rated game's last action; ``kozyr ratings rebuild`` gets
exactly the same numbers from the stored games (also for games finished in the same
millisecond); casual games and games of bots alone move nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select, update

from kozyr.server.accounts import ratings
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow

MODEL = PlackettLuce()


def person(uid: int) -> Seat:
    return Seat(user_id=uid, name=f"p{uid}")


def bot(level: int) -> Seat:
    return Seat(bot=level, name=f"bot {level}")


async def finish(
    store: Store, tid: str, game: str, seats: list[Seat], places: list[int], at: int, rated: bool
) -> TableRow:
    """A finished game through the store's hooks; its final row as the match adopts it."""
    row = TableRow(
        id=tid,
        game=game,
        players=len(seats),
        options={"players": len(seats)},
        seed=1,
        seats=seats,
        rated=rated,
    )
    await store.insert_table(row)
    row.status = "playing"
    await store.save_table(row, started=True)
    final = dataclasses.replace(
        row, status="finished", finished_ms=at, result={"places": places, "over": True}
    )
    await store.append_action(tid, 1, 0, "bot", "AS", None, final)
    return final


async def snapshot(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(m.ratings).order_by(m.ratings.c.player))).all()
        changes = (
            await conn.execute(select(m.rating_changes).order_by(m.rating_changes.c.id))
        ).all()
    return (
        [dict(r._mapping) for r in rows],
        # ids are renumbered by a rebuild; their order is what must hold
        [{k: v for k, v in c._mapping.items() if k != "id"} for c in changes],
    )


def chain(*games: tuple[list[Any], list[int]]) -> dict[str, tuple[float, float]]:
    """openskill's own updates, game after game; players by key, new ones at default."""
    now: dict[str, Any] = {}
    for players, ranks in games:
        teams = [[now.get(p, MODEL.rating())] for p in players]
        for p, team in zip(players, MODEL.rate(teams, ranks=ranks), strict=True):
            now[p] = team[0]
    return {p: (r.mu, r.sigma) for p, r in now.items()}


async def play_history(store: Store) -> None:
    ids = [(await store.create_user(f"p{i}", None, guest=False)).id for i in (1, 2, 3)]
    assert ids == [1, 2, 3]
    await finish(store, "g1", "imperial", [person(1), person(2)], [1, 0], 1000, True)
    await finish(
        store, "g2", "emperor", [person(1), bot(3), person(3), bot(5)], [2, 0, 3, 1], 2000, True
    )
    # casual, and bots alone: no rating moves
    await finish(store, "g3", "imperial", [person(1), person(2)], [0, 1], 2500, False)
    await finish(store, "g4", "imperial", [bot(1), bot(2)], [0, 1], 2600, True)
    # two games of one player finished in the same millisecond, "zb" committed first
    await finish(store, "zb", "imperial", [person(1), bot(2)], [0, 1], 4000, True)
    await finish(store, "za", "imperial", [person(2), person(1)], [0, 1], 4000, True)


def test_live_updates_are_openskills_and_rebuild_gets_the_same(tmp_path: Path) -> None:
    async def body() -> None:
        store = Store(sqlite_url(tmp_path))
        await store.migrate()
        ratings.install(store, ratings.Eligibility.off())  # the rules: test_rating_eligibility
        try:
            await play_history(store)
            live = await snapshot(store)
            rows = {(r["player"], r["variant"]): r for r in live[0]}
            # imperial-2p: g1 (p2 beats p1), zb (p1 beats bot 2), za (p2 beats p1)
            two = chain(
                (["user:1", "user:2"], [2, 1]),
                (["user:1", "bot:2"], [1, 2]),
                (["user:2", "user:1"], [1, 2]),
            )
            for player, (mu, sigma) in two.items():
                row = rows[(player, "imperial-2p")]
                assert (row["mu"], row["sigma"]) == (mu, sigma)
            # places [2, 0, 3, 1]: seat 2 first, seat 0 second, seat 3 third, seat 1 last
            four = chain((["user:1", "bot:3", "user:3", "bot:5"], [2, 4, 1, 3]))
            assert (
                rows[("user:3", "emperor-4p")]["mu"],
                rows[("bot:3", "emperor-4p")]["sigma"],
            ) == (
                four["user:3"][0],
                four["bot:3"][1],
            )
            assert rows[("user:1", "imperial-2p")]["games"] == 3
            assert rows[("user:1", "imperial-2p")]["last_ms"] == 4000
            assert ("bot:1", "imperial-2p") not in rows  # g4: bots alone
            assert len(live[1]) == 2 + 4 + 2 + 2  # g1, g2, zb, za

            done = await ratings.rebuild(store)
            assert (done.games, done.ratings, done.changed) == (4, 7, 0)
            assert await snapshot(store) == live
        finally:
            await store.close()

    asyncio.run(body())


def test_a_finish_hook_that_runs_twice_moves_a_rating_once(tmp_path: Path) -> None:
    async def body() -> None:
        store = Store(sqlite_url(tmp_path))
        await store.migrate()
        ratings.install(store, ratings.Eligibility.off())  # the rules: test_rating_eligibility
        try:
            await store.create_user("p1", None, guest=False)
            await finish(store, "g1", "imperial", [person(1), bot(2)], [0, 1], 1000, True)
            once = await snapshot(store)
            row = await store.table("g1")
            assert row is not None and row.rated and row.result is not None
            async with store._write() as conn:
                await ratings.on_finish(conn, row, ratings.Eligibility.off())
            assert await snapshot(store) == once
        finally:
            await store.close()

    asyncio.run(body())


def test_the_game_over_tells_each_seats_rating_change(tmp_path: Path) -> None:
    """Issue 30, item 7: the game-over dialog shows "1500 → 1638 (+138)". The finish hook
    leaves each seat's change on the finished row (the table's info carries it to the
    players at once), and a finished table read back from the database finds the same."""

    async def body() -> None:
        store = Store(sqlite_url(tmp_path))
        await store.migrate()
        ratings.install(store, ratings.Eligibility.off())
        try:
            await store.create_user("p1", None, guest=False)
            final = await finish(store, "r1", "imperial", [person(1), bot(2)], [0, 1], 1000, True)
            # two new players' first game (hand-worked in test_ratings_maths)
            assert final.rating_changes == [
                {"before": 1500, "after": 1638, "provisional": True},
                {"before": 1500, "after": 1427, "provisional": True},
            ]
            for n in range(2, 11):
                final = await finish(
                    store, f"r{n}", "imperial", [bot(2), person(1)], [0, 1], 1000 + n, True
                )
            assert final.rating_changes is not None
            mine = final.rating_changes[1]
            assert mine is not None and mine["after"] < mine["before"]
            assert mine["provisional"] is False  # his tenth rated game
            casual = await finish(store, "c1", "imperial", [person(1), bot(2)], [0, 1], 2000, False)
            assert casual.rating_changes is None
            async with store.engine.connect() as conn:
                for tid, hooked in (("r1", "first"), ("r10", final), ("c1", casual)):
                    row = await store.table(tid)
                    assert row is not None and row.rating_changes is None  # never stored
                    got = await ratings.changes_of(conn, row)
                    if hooked == "first":
                        assert got is not None and got[0] == {
                            "before": 1500,
                            "after": 1638,
                            "provisional": True,
                        }
                    else:
                        assert isinstance(hooked, TableRow)
                        assert got == hooked.rating_changes
        finally:
            await store.close()

    asyncio.run(body())


def test_the_rebuild_command_restores_the_live_numbers(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)

    async def setup() -> tuple[list[Any], list[Any]]:
        store = Store(url)
        await store.migrate()
        ratings.install(store, ratings.Eligibility.off())  # the rules: test_rating_eligibility
        try:
            await play_history(store)
            live = await snapshot(store)
            async with store._write() as conn:  # a rating gone wrong
                await conn.execute(update(m.ratings).values(mu=0.5).where(m.ratings.c.bot == 2))
            return live
        finally:
            await store.close()

    async def now() -> tuple[list[Any], list[Any]]:
        store = Store(url)
        try:
            return await snapshot(store)
        finally:
            await store.close()

    live = asyncio.run(setup())
    out = subprocess.run(
        [sys.executable, "-m", "kozyr", "ratings", "rebuild", "--database", url],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "rebuilt 7 ratings from 4 rated games" in out.stdout
    assert "1 ratings differed from the stored ones" in out.stdout
    assert asyncio.run(now()) == live
