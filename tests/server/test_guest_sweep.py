"""The idle-guest clean-up (``kozyr.server.guests``) over a real store, on SQLite and, when
``KOZYR_TEST_POSTGRES_URL`` is set, on PostgreSQL: a guest of every kind (a bettor, a
top-up, a puzzle, a lesson, a review, a seat) is retired by the written rule, one whose
chips are still in play is kept, one that cannot be retired stops nobody, and the chips
of accounts that are gone go back to the house."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import func, insert, select, update
from tests.server.stores import run_on_store

from kozyr.server import guests
from kozyr.server.account_changes import retire
from kozyr.server.money import escrow, ledger, wallets
from kozyr.server.money.betting import TableBets, settlement_key
from kozyr.server.money.ledger import Account
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, User, now_ms

DAY = 86_400_000
LATER = now_ms() + 40 * DAY
"""When the sweeps below run: everything made during the test is 40 days old by then."""


def wire(store: Store) -> None:
    """As the server wires them: a grant with each account, escrow at a start."""
    store.on_new_user.append(wallets.grant_new_user)
    store.on_start.append(escrow.escrow_at_start)


def run(backend: str, body: Callable[[Store], Awaitable[None]]) -> None:
    run_on_store(backend, body, wire)


async def guest(store: Store, name: str) -> User:
    user = await store.create_user(f"guest-{name}", None, guest=True)
    await store.create_session(user.id, 30)
    return user


async def table(
    store: Store, table_id: str, seats: list[Seat], status: str, **more: Any
) -> TableRow:
    row = TableRow(table_id, "imperial", 2, {}, 7, seats, **more)
    await store.insert_table(row)
    if status != "open":
        row.status = status
        row.started_ms = now_ms()
        if status == "finished":
            row.finished_ms = now_ms()
        await store.save_table(row, started=True)
    return row


def seat(user: User) -> Seat:
    return Seat(user_id=user.id, name=user.name)


async def wallet(store: Store, user: User) -> int:
    async with store.engine.connect() as conn:
        return await ledger.balance(conn, Account.wallet(user.id))


async def count(store: Store, table: Any, user: User) -> int:
    async with store.engine.connect() as conn:
        found = await conn.scalar(
            select(func.count()).select_from(table).where(table.c.user_id == user.id)
        )
    return int(found or 0)


async def problems(store: Store) -> list[str]:
    async with store.engine.connect() as conn:
        return await ledger.check(conn)


async def settle(bets: TableBets, market: str, outcome: str) -> None:
    """The market's settlement as the table posts it when its game decides it."""
    async with bets.store._write() as conn:
        await bets._post_settlement(conn, bets.book.markets[market], outcome, bets.bets[market])


@pytest.fixture
def log_of_sweep(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="kozyr.server.guests")
    return caplog


def test_every_kind_of_guest_is_swept_and_none_stops_the_others(
    backend: str, log_of_sweep: pytest.LogCaptureFixture
) -> None:
    async def body(store: Store) -> None:
        bettor, topper, open_bettor = [await guest(store, n) for n in ("b", "t", "o")]
        puzzler, learner, reviewer = [await guest(store, n) for n in ("p", "l", "r")]
        sitter, staker, failing, active = [await guest(store, n) for n in ("s", "k", "f", "a")]
        person = await store.create_user("Person", "hash", guest=False)

        # bets: two bettors on a bot table whose market settles (150 on yes loses to 30
        # on no: the pool of 180 goes to the bettor), and two on one that never does
        finished = await table(store, "t1", [Seat(bot=1), Seat(bot=2)], "open")
        book = TableBets(finished, store)
        await book.place(bettor, False, 0, "deal.1.capot", "no", 30, "k1")
        await book.place(topper, False, 0, "deal.1.capot", "yes", 150, "k2")
        await settle(book, "deal.1.capot", "no")
        finished.status, finished.finished_ms = "finished", now_ms()
        await store.save_table(finished)
        playing = await table(store, "t2", [Seat(bot=1), Seat(bot=2)], "playing")
        still = TableBets(playing, store)
        await still.place(open_bettor, False, 0, "game.winner", "seat:0", 20, "k3")
        # the loser of 150 has 50 left and claims the day's top-up to 100
        assert (await wallets.top_up(store, topper, "day-1"))["amount"] == 50
        assert [await wallet(store, u) for u in (bettor, topper, open_bettor)] == [350, 100, 180]

        # a puzzle answered, a lesson finished, a review asked for a game he sat in
        async with store.transaction() as conn:
            puzzle = {"key": "bot:x:1:1", "game": "imperial", "players": 2, "source": "bot"}
            puzzle |= {"position": "{}", "action_index": 1, "seat": 0, "best": "AS"}
            puzzle |= {"played": "KS", "card_values": "[]", "margin": 1.0, "worlds": 1}
            puzzle |= {"mu": 25.0, "sigma": 8.0, "attempts": 1, "solved": 1}
            puzzle_id = (
                await conn.execute(
                    insert(m.puzzles)
                    .values(**puzzle, created_ms=now_ms())
                    .returning(m.puzzles.c.id)
                )
            ).scalar_one()
            for who, at in ((puzzler, now_ms()), (active, LATER - DAY)):
                await conn.execute(
                    insert(m.puzzle_attempts).values(
                        user_id=who.id,
                        puzzle_id=puzzle_id,
                        number=1,
                        card="AS",
                        solved=True,
                        created_ms=at,
                    )
                )
            await conn.execute(
                insert(m.puzzle_ratings).values(
                    user_id=puzzler.id, mu=26.0, sigma=7.0, attempts=1, solved=1, last_ms=0
                )
            )
            await conn.execute(
                insert(m.lesson_progress).values(
                    user_id=learner.id, game="imperial", lesson="trumps", done_ms=now_ms()
                )
            )
        reviewed = await table(store, "t4", [seat(reviewer), Seat(bot=3)], "finished")
        async with store.transaction() as conn:
            job = {"table_id": reviewed.id, "level": 1, "user_id": reviewer.id}
            job |= {"status": "failed", "done": 0, "total": 9, "owner": "", "token": 1}
            await conn.execute(
                insert(m.review_jobs).values(**job, heartbeat_ms=0, created_ms=now_ms())
            )
            await conn.execute(
                insert(m.game_reviews).values(
                    table_id=reviewed.id, level=2, review="{}", created_ms=now_ms()
                )
            )
        # a seat in a finished game of a table he opened; a seat at a stake game going on
        await table(store, "t5", [seat(sitter), Seat(bot=1)], "finished", creator_id=sitter.id)
        stake = {"kind": "per_game", "chips": 10}
        await table(store, "t6", [seat(staker), Seat(bot=1)], "playing", stake=stake)
        assert await wallet(store, staker) == 190  # the hold, 10, is in the escrow
        # a guest that cannot be retired: his chips' way back is keyed by his wallet's
        # last entry (his grant), a key something else has taken
        async with store.transaction() as conn:
            e, a = m.ledger_entries, m.ledger_accounts
            grant_entry = await conn.scalar(
                select(e.c.id)
                .join(a, a.c.id == e.c.account_id)
                .where(a.c.key == Account.wallet(failing.id).key)
            )
            sink = Account("test:sink", "wallet")
            moves = [(Account.house(), -1), (sink, 1)]
            await ledger.post(conn, f"retire:{failing.id}:{grant_entry}", "test", moves)
            # and one who made his account long ago but answered a puzzle yesterday
            await conn.execute(
                update(m.users).where(m.users.c.id == active.id).values(created_ms=0)
            )

        done = await guests.sweep(store, 30, now=LATER)
        assert (done.retired, done.kept, done.failed, done.returned) == (6, 2, 1, 0)
        gone = [bettor, topper, puzzler, learner, reviewer, sitter]
        assert [await wallet(store, u) for u in gone] == [0] * 6
        # the house got back 350 + 100 + 4 x 200
        async with store.engine.connect() as conn:
            back = await conn.scalar(
                select(func.sum(m.ledger_entries.c.amount))
                .join(m.ledger_transactions)
                .where(m.ledger_transactions.c.kind == "retire", m.ledger_entries.c.amount > 0)
            )
        assert back == 1250
        kept = [open_bettor, staker, failing, active, person]
        assert [await wallet(store, u) for u in kept] == [180, 190, 200, 200, 1000]
        assert await problems(store) == []
        async with store.engine.connect() as conn:
            rows = {r.id: r for r in (await conn.execute(select(m.users))).all()}
        for u in gone:
            assert (rows[u.id].name, rows[u.id].deleted_ms is not None) == ("deleted", True)
            # what was his alone goes
            for own in (m.sessions, m.lesson_progress, m.puzzle_attempts, m.puzzle_ratings):
                assert await count(store, own, u) == 0
            assert await count(store, m.wallet_top_ups, u) == 0
        for u in kept:
            assert rows[u.id].deleted_ms is None
        for u in (open_bettor, staker, failing, active):
            assert await count(store, m.sessions, u) == 1
        # what others' records need stays, anonymised
        assert await count(store, m.bets, bettor) == 1 and await count(store, m.bets, topper) == 1
        for t, who in (("t4", reviewer), ("t5", sitter)):
            stored = await store.table(t)
            assert stored is not None and stored.seats[0].name == "deleted"
            assert stored.seats[0].user_id == who.id
        assert await count(store, m.review_jobs, reviewer) == 1
        warned = [r for r in log_of_sweep.records if r.levelname == "WARNING"]
        assert len(warned) == 1 and str(failing.id) in warned[0].getMessage()
        assert warned[0].exc_info is None  # one line, no traceback

        # the market his bet rides on settles (on seat:0: he gets his 20 and 0 more),
        # and the next sweep retires him too
        await settle(still, "game.winner", "seat:0")
        assert await wallet(store, open_bettor) == 200
        done = await guests.sweep(store, 30, now=LATER)
        assert (done.retired, done.kept, done.failed, done.returned) == (1, 1, 1, 0)
        assert await wallet(store, open_bettor) == 0
        assert await problems(store) == []
        # a third run finds nothing new to move
        done = await guests.sweep(store, 30, now=LATER)
        assert (done.retired, done.kept, done.failed, done.returned) == (0, 1, 1, 0)

    run(backend, body)


def test_a_deleted_accounts_chips_go_back_to_the_house(backend: str) -> None:
    async def body(store: Store) -> None:
        quitter = await store.create_user("Quitter", "hash", guest=False)
        stayer = await store.create_user("Stayer", "hash", guest=False)
        playing = await table(store, "t2", [Seat(bot=1), Seat(bot=2)], "playing")
        bets = TableBets(playing, store)
        await bets.place(stayer, False, 0, "game.winner", "seat:0", 20, "k1")
        await bets.place(quitter, False, 0, "game.winner", "seat:1", 40, "k2")
        # he deletes his account: the 960 in his wallet go back to the house at once
        async with store.transaction() as conn:
            await retire(conn, quitter.id)
        assert (await wallet(store, quitter), await wallet(store, stayer)) == (0, 980)
        assert await problems(store) == []
        # his bet wins after he is gone: the pool of 20 + 40 pays him 60, which go back
        # at the next sweep; nothing more at the one after
        await settle(bets, "game.winner", "seat:1")
        assert await wallet(store, quitter) == 60
        assert (await guests.sweep(store, 30, now=LATER)).returned == 60
        assert (await wallet(store, quitter), await wallet(store, stayer)) == (0, 980)
        assert (await guests.sweep(store, 30, now=LATER)).returned == 0
        async with store.engine.connect() as conn:
            house = await ledger.balance(conn, Account.house())
            settled = await conn.scalar(
                select(func.count())
                .select_from(m.ledger_transactions)
                .where(m.ledger_transactions.c.key == settlement_key("t2", "game.winner"))
            )
        # the house issued 1000 + 1000 and has 960 + 60 back: 980 are out, in one wallet
        assert (house, settled) == (-980, 1)
        assert await problems(store) == []

    run(backend, body)


def test_a_retired_guests_id_is_never_given_again(backend: str) -> None:
    async def body(store: Store) -> None:
        old = await guest(store, "old")
        await guests.sweep(store, 30, now=LATER)
        assert await store.user_by_name(old.name) is None  # he is gone...
        new = await guest(store, "new")
        assert new.id != old.id  # ...and his id, which the ledger names, is nobody's
        assert await wallet(store, new) == 200  # his own welcome grant, not the old one's
        async with store.engine.connect() as conn:
            grants = await conn.scalar(
                select(func.count())
                .select_from(m.ledger_transactions)
                .where(m.ledger_transactions.c.key.like("grant:%"))
            )
        assert grants == 2
        assert await problems(store) == []

    run(backend, body)
