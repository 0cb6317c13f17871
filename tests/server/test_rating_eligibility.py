"""Ratings cannot be farmed with fresh accounts (issue 27, item 6): a rated game moves no
rating at all when it was abandoned in its first moves, when two of its people sat down
from one address, or when an account was too new; the reason is stored with the game,
and ``kozyr ratings rebuild`` keeps it.

Expected numbers by hand (test_ratings_maths): two new players' first game leaves the
winner at mu 27.63539, sigma 8.06590 (shown 1638) and the loser at 22.36461, 8.06590
(1427); a game that is not rated leaves both with no rating at all (1500 shown).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text, update
from tests.server.support import Player, ServerProc, fresh_postgres
from tests.server.test_ratings_http import (
    LOSER,
    WINNER,
    account,
    finished_info,
    get,
    two_people,
)

from kozyr.server.accounts import ratings
from kozyr.server.accounts.ratings import DAY_MS, Eligibility, address_mark
from kozyr.server.runtime.config import Settings, normalise_database_url, sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, now_ms

START = now_ms()
OLD = START - 30 * DAY_MS
"""An account a month old: it rates whatever it has played."""


@pytest.fixture
def store_url(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return sqlite_url(tmp_path)
    made = asyncio.run(fresh_postgres(os.environ["KOZYR_TEST_POSTGRES_URL"]))
    return normalise_database_url(made)


async def open_store(url: str, rules: Eligibility) -> Store:
    store = Store(url)
    await store.migrate()
    ratings.install(store, rules)
    return store


async def person(store: Store, created: int, addr: str | None = None) -> Seat:
    user = await store.create_user(f"p{secrets.token_hex(4)}", None, guest=False)
    async with store._write() as conn:
        await conn.execute(
            update(m.users).where(m.users.c.id == user.id).values(created_ms=created)
        )
    return Seat(user_id=user.id, name=user.name, addr=addr)


async def play(
    store: Store,
    seats: list[Seat],
    places: list[int],
    moves: list[int],
    *,
    at: int = START,
    rated: bool = True,
    by_bot: frozenset[int] = frozenset(),
) -> str:
    """A finished Imperial game started at ``at``: ``moves`` the seat of each action (the
    ones numbered in ``by_bot`` made by a bot for the seat's person); the seats in
    finishing order ``places``."""
    tid = f"t{secrets.token_hex(6)}"
    row = TableRow(
        id=tid,
        game="imperial",
        players=len(seats),
        options={"players": len(seats)},
        seed=1,
        seats=[dataclasses.replace(s) for s in seats],
        rated=rated,
    )
    await store.insert_table(row)
    row.status, row.started_ms = "playing", at
    await store.save_table(row, started=True)
    for seq, seat in enumerate(moves, 1):
        s = row.seats[seat]
        actor = "bot" if s.bot is not None or seq in by_bot else f"user:{s.user_id}"
        final = None
        if seq == len(moves):
            result = {"places": places, "over": True}
            final = dataclasses.replace(row, status="finished", finished_ms=at + seq, result=result)
        await store.append_action(tid, seq, seat, actor, "AS", None, final)
    return tid


async def ratings_of(store: Store) -> dict[str, tuple[float, float, int]]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(m.ratings))).all()
        changes = (await conn.execute(select(m.rating_changes))).all()
    assert len(changes) == sum(r.games for r in rows)
    return {r.player: (r.mu, r.sigma, r.games) for r in rows}


async def stored(store: Store, tid: str) -> tuple[str | None, list[dict[str, Any]]]:
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                select(m.game_tables.c.unrated, m.game_tables.c.seats).where(
                    m.game_tables.c.id == tid
                )
            )
        ).one()
    return row.unrated, json.loads(row.seats)


def first_game(got: dict[str, tuple[float, float, int]], winner: Seat, loser: Seat) -> None:
    """Both players' first rated game: the hand-worked 1638 and 1427."""
    for seat, (mu, sigma, shown) in ((winner, WINNER), (loser, LOSER)):
        g_mu, g_sigma, games = got[f"user:{seat.user_id}"]
        assert g_mu == pytest.approx(mu, abs=1e-4) and g_sigma == pytest.approx(sigma, abs=1e-4)
        assert (ratings.display(g_mu, g_sigma), games) == (shown, 1)


def test_a_game_abandoned_in_its_first_moves_is_not_rated(store_url: str) -> None:
    async def body() -> None:
        store = await open_store(store_url, Eligibility())
        try:
            a, b = await person(store, OLD, "m1"), await person(store, OLD, "m2")
            # b moves once and leaves: a bot plays his seat from move 4 on; aborted
            one = await play(store, [a, b], [0, 1], [0, 1, 0, 1, 0, 1], by_bot=frozenset({4, 6}))
            assert await stored(store, one) == ("aborted", [a.to_json(), b.to_json()])
            # b leaves before his first move
            gone = await play(store, [a, b], [0, 1], [0, 1, 0, 1], by_bot=frozenset({2, 4}))
            assert (await stored(store, gone))[0] == "aborted"
            assert await ratings_of(store) == {}
            # two moves of his own, then he leaves: rated, seat 1 first
            rated = await play(store, [a, b], [1, 0], [0, 1, 0, 1, 0, 1], by_bot=frozenset({6}))
            assert (await stored(store, rated))[0] is None
            got = await ratings_of(store)
            assert set(got) == {f"user:{a.user_id}", f"user:{b.user_id}"}
            first_game(got, winner=b, loser=a)
            # the rebuild leaves the aborted games out as the live updates did
            done = await ratings.rebuild(store)
            assert (done.games, done.changed) == (1, 0)
            assert await ratings_of(store) == got
        finally:
            await store.close()

    asyncio.run(body())


def test_a_game_over_before_someones_turn_came_is_rated(store_url: str) -> None:
    async def body() -> None:
        store = await open_store(store_url, Eligibility())
        try:
            # (Imperial's declarations can reach a small target at once)
            a, b = await person(store, OLD, "m1"), await person(store, OLD, "m2")
            tid = await play(store, [a, b], [0, 1], [0])
            assert (await stored(store, tid))[0] is None
            first_game(await ratings_of(store), winner=a, loser=b)
        finally:
            await store.close()

    asyncio.run(body())


def test_people_of_one_address_do_not_rate_each_other(store_url: str) -> None:
    async def body() -> None:
        store = await open_store(store_url, Eligibility())
        try:
            mark = address_mark("203.0.113.7")
            a, b = await person(store, OLD, mark), await person(store, OLD, mark)
            c = await person(store, OLD, address_mark("198.51.100.9"))
            same = await play(store, [a, b], [0, 1], [0, 1, 0, 1])
            unrated, seats = await stored(store, same)
            assert unrated == "shared_address"
            assert all("addr" not in s for s in seats)  # not kept once the game is over
            assert await ratings_of(store) == {}
            rated = await play(store, [a, c], [0, 1], [0, 1, 0, 1])
            unrated, seats = await stored(store, rated)
            assert unrated is None and all("addr" not in s for s in seats)
            first_game(await ratings_of(store), winner=a, loser=c)
        finally:
            await store.close()

    asyncio.run(body())


def test_address_marks() -> None:
    assert address_mark(None) is None and address_mark("") is None
    one = address_mark("203.0.113.7")
    assert one == address_mark("203.0.113.7") != address_mark("203.0.113.8")
    assert one is not None and "203" not in one and len(one) == 16


def test_two_addresses_of_one_ipv6_64_are_one_address(store_url: str) -> None:
    # Issue 43, item 6: a host may take any of its /64's 2^64 addresses
    assert address_mark("2001:db8:5:6::1") == address_mark("2001:db8:5:6:ffff:1:2:3")
    assert address_mark("2001:db8:5:6::1") != address_mark("2001:db8:5:7::1")
    assert address_mark("::ffff:203.0.113.7") == address_mark("203.0.113.7")

    async def body() -> None:
        store = await open_store(store_url, Eligibility())
        try:
            a = await person(store, OLD, address_mark("2001:db8:5:6::1"))
            b = await person(store, OLD, address_mark("2001:db8:5:6:a:b:c:d"))
            c = await person(store, OLD, address_mark("2001:db8:5:7::1"))
            same = await play(store, [a, b], [0, 1], [0, 1, 0, 1])
            assert (await stored(store, same))[0] == "shared_address"
            assert await ratings_of(store) == {}
            other = await play(store, [a, c], [0, 1], [0, 1, 0, 1])
            assert (await stored(store, other))[0] is None
            first_game(await ratings_of(store), winner=a, loser=c)
        finally:
            await store.close()

    asyncio.run(body())


def test_a_new_account_rates_after_three_games_or_three_days(store_url: str) -> None:
    async def body() -> None:
        store = await open_store(store_url, Eligibility())
        try:
            old = await person(store, OLD, "m1")
            new = await person(store, START, "m2")
            # a day old, no game: nobody's rating moves, the old account's neither
            first = await play(store, [old, new], [1, 0], [0, 1, 0, 1], at=START + DAY_MS)
            assert (await stored(store, first))[0] == "new_account"
            assert await ratings_of(store) == {}
            # two casual games against a bot, and one he left after a move: not yet
            bot = Seat(bot=1, name="bot 1")
            for i in range(2):
                await play(store, [new, bot], [0, 1], [0, 1, 0, 1], rated=False, at=START + i)
            await play(store, [new, bot], [0, 1], [0, 1, 1, 1], rated=False, at=START + 5)
            second = await play(store, [old, new], [1, 0], [0, 1, 0, 1], at=START + DAY_MS)
            assert (await stored(store, second))[0] == "new_account"
            # a third game played out: he rates (the bot game moved no rating either)
            await play(store, [new, bot], [1, 0], [0, 1, 0, 1], rated=False, at=START + 10)
            third = await play(store, [old, new], [1, 0], [0, 1, 0, 1], at=START + DAY_MS)
            assert (await stored(store, third))[0] is None
            first_game(await ratings_of(store), winner=new, loser=old)
            # three days old and no game at all: he rates
            aged = await person(store, START - 3 * DAY_MS, "m3")
            other = await person(store, OLD, "m4")
            await play(store, [aged, other], [0, 1], [0, 1, 0, 1], at=START)
            got = await ratings_of(store)
            first_game(got, winner=aged, loser=other)
            # one day short of it: he does not
            young = await person(store, START - 2 * DAY_MS, "m5")
            late = await play(store, [young, other], [0, 1], [0, 1, 0, 1], at=START)
            assert (await stored(store, late))[0] == "new_account"
            assert await ratings_of(store) == got
        finally:
            await store.close()

    asyncio.run(body())


def test_the_rules_can_be_turned_off(store_url: str) -> None:
    async def body() -> None:
        store = await open_store(store_url, Eligibility.off())
        try:
            a, b = await person(store, START, "m"), await person(store, START, "m")
            tid = await play(store, [a, b], [0, 1], [0])
            assert (await stored(store, tid))[0] is None
            first_game(await ratings_of(store), winner=a, loser=b)
        finally:
            await store.close()

    asyncio.run(body())


# -- over a real server: the address each person sat down from ---------------------


@pytest.fixture
def strict_server(fresh_server: ServerProc) -> Iterator[ServerProc]:
    """A server with the rules as in production; clients name their address in
    X-Forwarded-For, which it believes from 127.0.0.1."""
    fresh_server.env.update(
        {
            "KOZYR_RATING_NEW_GAMES": "3",
            "KOZYR_RATING_SHARED_ADDRESS": "0",
            "KOZYR_FORWARDED_ALLOW_IPS": "127.0.0.1",
        }
    )
    yield fresh_server.start()


async def _sql(server: ServerProc, statement: str) -> None:
    store = Store(Settings(data=server.data, database_url=server.database_url).url)
    try:
        async with store.engine.begin() as conn:
            await conn.execute(text(statement))
    finally:
        await store.close()


async def _from(player: Player, address: str) -> Player:
    player.http.headers["x-forwarded-for"] = address
    return player


async def _last_game(player: Player, server: ServerProc, table: str) -> dict[str, Any]:
    games = (await get(player, server, f"/api/users/{player.name}/games"))["games"]
    assert games[0]["id"] == table
    return dict(games[0])


@pytest.mark.asyncio
async def test_new_accounts_and_one_address_over_the_server(strict_server: ServerProc) -> None:
    server = strict_server
    a = await _from(await account(server), "203.0.113.1")
    b = await _from(await account(server), "203.0.113.2")
    try:
        table = await two_people(server, a, b, rated=True)
        game = await _last_game(a, server, table)
        assert (game["rated"], game["unrated"], game["rating_change"]) == (
            True,
            "new_account",
            None,
        )
        # the game's end tells the players why it moved no rating (the game-over dialog)
        for p in (a, b):
            info = await finished_info(p, table)
            assert (info["unrated"], info["rating_changes"]) == ("new_account", None)
        await _sql(server, f"UPDATE users SET created_ms = created_ms - {4 * DAY_MS}")
        # b sits down from a's address
        await _from(b, "203.0.113.1")
        table = await two_people(server, a, b, rated=True)
        assert (await _last_game(b, server, table))["unrated"] == "shared_address"
        for p in (a, b):
            assert (await get(None, server, f"/api/users/{p.name}"))["ratings"] == {}
        await _from(b, "203.0.113.2")
        table = await two_people(server, a, b, rated=True)
        game = await _last_game(a, server, table)
        assert game["unrated"] is None
        winner, loser = (a, b) if game["won"] else (b, a)
        for p, (_, _, shown) in ((winner, WINNER), (loser, LOSER)):
            mine = (await get(None, server, f"/api/users/{p.name}"))["ratings"]["imperial-2p"]
            assert (mine["rating"], mine["games"]) == (shown, 1)
    finally:
        await a.close()
        await b.close()
