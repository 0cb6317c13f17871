"""Chip amounts are bounded (docs/chips.md): the ledger refuses, writing nothing, any
posting whose amount or resulting balance passes ``MAX_AMOUNT`` (10^15) either way; the
largest stake table (Imperial per_imperial 1,000,000 x target 20, I12 and B5) escrows and
settles to the chip; ``kozyr ledger check`` finds a balance that disagrees with its
journal."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from sqlalchemy import func, select

from kozyr.server.money import escrow, ledger, wallets
from kozyr.server.money.ledger import MAX_AMOUNT, Account, ChipsLimit
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow

HOUSE = Account.house()
ANN, BOB = Account.wallet(1), Account.wallet(2)


def run(body: Callable[[Store], Awaitable[None]], folder: Path | None = None) -> None:
    async def main(where: Path) -> None:
        store = Store(sqlite_url(where))
        await store.migrate()
        try:
            await body(store)
        finally:
            await store.close()

    if folder is not None:
        asyncio.run(main(folder))
        return
    with tempfile.TemporaryDirectory() as temporary:
        asyncio.run(main(Path(temporary)))


async def post(store: Store, key: str, moves: list[tuple[Account, int]]) -> ledger.Posted:
    async with store.engine.begin() as conn:
        return await ledger.post(conn, key, "test", moves)


async def journal_size(store: Store) -> tuple[int, int]:
    async with store.engine.connect() as conn:
        txs = await conn.scalar(select(func.count()).select_from(m.ledger_transactions))
        entries = await conn.scalar(select(func.count()).select_from(m.ledger_entries))
    return int(txs or 0), int(entries or 0)


@pytest.mark.parametrize(
    "amount",
    [MAX_AMOUNT + 1, 4 * 10**18, 2**63, 10**30, 10**5000],
    ids=["ceiling+1", "4e18", "2^63", "1e30", "1e5000"],
)
def test_a_movement_past_the_ceiling_is_refused_and_writes_nothing(amount: int) -> None:
    async def body(store: Store) -> None:
        with pytest.raises(ChipsLimit) as refused:
            await post(store, "big", [(HOUSE, -amount), (ANN, amount)])
        assert refused.value.code == "chips_limit"
        assert refused.value.account == "house" and refused.value.balance is None
        assert "passes the ledger's limit of 1,000,000,000,000,000 chips" in str(refused.value)
        assert await journal_size(store) == (0, 0)
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, HOUSE) == 0
            assert await ledger.check(conn) == []

    run(body)


def test_a_balance_past_the_ceiling_is_refused_and_writes_nothing() -> None:
    """Every other account is floored at 0 and all balances sum to 0, so the house's
    balance is minus every chip out: it is the balance the ceiling bounds."""

    async def body(store: Store) -> None:
        # exactly the ceiling is allowed: 10^15 - 10 to Ann, then 10 to Bob
        await post(store, "g1", [(HOUSE, -(MAX_AMOUNT - 10)), (ANN, MAX_AMOUNT - 10)])
        # 11 more would leave the house at -(10^15 + 1)
        with pytest.raises(ChipsLimit) as refused:
            await post(store, "g2", [(HOUSE, -11), (BOB, 11)])
        assert refused.value.code == "chips_limit"
        assert refused.value.account == "house" and refused.value.amount == -11
        assert refused.value.balance == -(MAX_AMOUNT + 1)
        assert "house's balance of -1,000,000,000,000,001 chips" in str(refused.value)
        assert await journal_size(store) == (1, 2)
        await post(store, "g3", [(HOUSE, -10), (BOB, 10)])
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, HOUSE) == -MAX_AMOUNT
            assert await ledger.balance(conn, ANN) == MAX_AMOUNT - 10
            assert await ledger.balance(conn, BOB) == 10
            assert await ledger.check(conn) == []
            assert (await ledger.audit(conn)).ok

    run(body)


def test_the_largest_imperial_stake_escrows_and_settles_to_the_chip() -> None:
    """Imperial, 3 players (Ann and two bots), per_imperial 1,000,000 chips, target 20.

    By hand: each seat's hold is 1,000,000 x 20 = 20,000,000; the escrow 60,000,000, of
    which the house backs the two bots' 40,000,000. Ann wins with 20 imperials; the bot
    with 0 pays 1,000,000 x 20 = 20,000,000 (its whole hold), the bot with 7 pays
    1,000,000 x 13 = 13,000,000; Ann receives 33,000,000. Ann's wallet: 20,000,000 - hold
    + hold + 33,000,000 = 53,000,000. The house: -20,000,000 (Ann's chips) - 40,000,000
    + (20,000,000 - 20,000,000) + (20,000,000 - 13,000,000) = -53,000,000."""

    async def body(store: Store) -> None:
        ann = await store.create_user("ann", None, guest=False)
        wallet = Account.wallet(ann.id)
        await post(store, "fund", [(HOUSE, -20_000_000), (wallet, 20_000_000)])
        row = TableRow(
            id="tmax",
            game="imperial",
            players=3,
            options={"players": 3, "target": 20},
            seed=1,
            seats=[
                Seat(user_id=ann.id, name="ann"),
                Seat(bot=1, name="bot 1"),
                Seat(bot=1, name="bot 1"),
            ],
            stake={"kind": "per_imperial", "chips": 1_000_000},
        )
        assert escrow.row_hold(row) == 20_000_000
        async with store.transaction() as conn:
            await escrow.escrow_at_start(conn, row)
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, Account.escrow("tmax")) == 60_000_000
            assert await ledger.balance(conn, wallet) == 0
            assert await ledger.balance(conn, HOUSE) == -60_000_000
        row.status = "finished"
        row.result = {
            "scores": [
                {"imperials": 20, "points": 0},
                {"imperials": 0, "points": 23},
                {"imperials": 7, "points": 0},
            ],
            "over": True,
            "winner": 0,
        }
        assert escrow.nets(row) == [33_000_000, -20_000_000, -13_000_000]
        async with store.transaction() as conn:
            await escrow.settle_at_finish(conn, row)
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, wallet) == 53_000_000
            assert await ledger.balance(conn, HOUSE) == -53_000_000
            assert await ledger.balance(conn, Account.escrow("tmax")) == 0
            settled = await ledger.entries(conn, Account.escrow("tmax"))
            assert [e["amount"] for e in settled] == [-60_000_000, 60_000_000]
            assert await ledger.check(conn) == []
            found = await ledger.audit(conn)
            assert found.ok and found.total == 0 and found.accounts == 3

    run(body)


def _ledger_check(data: Path, lang: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZYR_")}
    return subprocess.run(
        [sys.executable, "-m", "kozyr", "ledger", "check", "--data", str(data), "--lang", lang],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_ledger_check_passes_a_consistent_ledger_and_names_what_differs(tmp_path: Path) -> None:
    async def body(store: Store) -> None:
        store.on_new_user.append(wallets.grant_new_user)
        await store.create_user("ann", None, guest=False)  # house -1000, user:1 +1000

    run(body, tmp_path)
    good = _ledger_check(tmp_path, "en")
    assert good.returncode == 0, good.stderr
    assert good.stdout == (
        "The ledger is consistent: 2 accounts, all balances sum to 0, and each equals the "
        "sum of its journal entries.\n"
    )
    database = tmp_path / "kozyr.db"
    with sqlite3.connect(database) as db:
        db.execute("UPDATE ledger_accounts SET balance = balance + 5 WHERE key = 'user:1'")
    bad = _ledger_check(tmp_path, "en")
    assert bad.returncode == 1, bad.stderr
    # the house was named first (id 1), Ann's wallet second (id 2)
    assert bad.stdout == (
        "The ledger is NOT consistent:\n"
        "  - all 2 balances sum to 5, not 0\n"
        "  - user:1 (#2, ann): balance 1005, journal sum 1000 (off by 5)\n"
    )
    russian = _ledger_check(tmp_path, "ru")
    assert russian.returncode == 1
    assert russian.stdout == (
        "Учёт фишек НЕ сходится:\n"
        "  - сумма всех балансов (2) равна 5, а не 0\n"
        "  - user:1 (#2, ann): баланс 1005, сумма проводок 1000 (расхождение 5)\n"
    )
    # what SQLite makes of a sum past 2^63: a float; SUM over it would abort
    with sqlite3.connect(database) as db:
        db.execute("UPDATE ledger_accounts SET balance = 1000 WHERE key = 'user:1'")
        db.execute("UPDATE ledger_accounts SET balance = 9.3e18 WHERE key = 'house'")
    huge = _ledger_check(tmp_path, "en")
    assert huge.returncode == 1, huge.stderr
    assert huge.stdout == (
        "The ledger is NOT consistent:\n"
        "  - all 2 balances sum to 9300000000000001000, not 0\n"
        "  - house (#1): balance 9300000000000000000, journal sum -1000 "
        "(off by 9300000000000001000)\n"
    )


def test_ledger_check_without_a_database_says_so(tmp_path: Path) -> None:
    missing = _ledger_check(tmp_path / "nowhere", "en")
    assert missing.returncode == 2
    assert missing.stdout == ""
    assert "No database at" in missing.stderr and "--data or --database" in missing.stderr
    assert not (tmp_path / "nowhere").exists()
