"""The chip ledger (B5): double entry, idempotency keys, floors, append-only journal, and
conservation through random sequences of movements (hypothesis), on SQLite and, when
``KOZYR_TEST_POSTGRES_URL`` is set, on PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from tests.server.stores import BACKENDS, run_on_store

from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account, InsufficientChips, KeyReused
from kozyr.server.storage.store import Store

HOUSE = Account.house()
ANN, BOB, CAT = Account.wallet(1), Account.wallet(2), Account.wallet(3)
ESCROW = Account.escrow("t1")


run = run_on_store


async def post(store: Store, key: str, moves: list[tuple[Account, int]], **memo: Any) -> Any:
    async with store.engine.begin() as conn:
        return await ledger.post(conn, key, "test", moves, memo)


async def balances(store: Store, *accounts: Account) -> list[int]:
    async with store.engine.connect() as conn:
        return [await ledger.balance(conn, a) for a in accounts]


async def problems(store: Store) -> list[str]:
    async with store.engine.connect() as conn:
        return await ledger.check(conn)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_a_grant_moves_chips_from_the_house_and_sums_to_zero(backend: str) -> None:
    async def body(store: Store) -> None:
        posted = await post(store, "grant:1", [(HOUSE, -1000), (ANN, 1000)])
        assert not posted.replayed
        assert posted.balances == {"house": -1000, "user:1": 1000}
        await post(store, "pay:1", [(ANN, -300), (BOB, 300)], reason="game")
        assert await balances(store, HOUSE, ANN, BOB) == [-1000, 700, 300]
        assert await problems(store) == []
        async with store.engine.connect() as conn:
            history = await ledger.entries(conn, ANN)
        # newest first, each with the balance after it
        assert [(e["amount"], e["balance"]) for e in history] == [(-300, 700), (1000, 1000)]
        assert history[0]["memo"] == {"reason": "game"}

    run(backend, body)


def test_a_replayed_key_moves_nothing_and_other_content_is_refused(backend: str) -> None:
    async def body(store: Store) -> None:
        first = await post(store, "grant:ann", [(HOUSE, -200), (ANN, 200)])
        again = await post(store, "grant:ann", [(ANN, 200), (HOUSE, -200)])  # same content
        assert again.replayed and again.tx_id == first.tx_id
        assert again.balances == {"house": -200, "user:1": 200}
        with pytest.raises(KeyReused):
            await post(store, "grant:ann", [(HOUSE, -999), (ANN, 999)])
        assert await balances(store, HOUSE, ANN) == [-200, 200]
        assert await problems(store) == []

    run(backend, body)


def test_a_wallet_never_goes_below_zero(backend: str) -> None:
    async def body(store: Store) -> None:
        await post(store, "grant", [(HOUSE, -100), (ANN, 100)])
        with pytest.raises(InsufficientChips) as refused:
            await post(store, "too-much", [(ANN, -150), (ESCROW, 150)])
        assert (refused.value.balance, refused.value.needed) == (100, 150)
        assert await balances(store, ANN, ESCROW) == [100, 0]
        # the database refuses it too, whatever the code does
        with pytest.raises(IntegrityError):
            async with store.engine.begin() as conn:
                await conn.execute(
                    text("UPDATE ledger_accounts SET balance = -1 WHERE key = 'user:1'")
                )
        assert await problems(store) == []

    run(backend, body)


def test_the_journal_is_append_only(backend: str) -> None:
    async def body(store: Store) -> None:
        await post(store, "grant", [(HOUSE, -100), (ANN, 100)])
        for statement in (
            "UPDATE ledger_entries SET amount = 5",
            "DELETE FROM ledger_entries",
            "UPDATE ledger_transactions SET kind = 'x'",
        ):
            with pytest.raises(DBAPIError, match="append-only"):
                async with store.engine.begin() as conn:
                    await conn.execute(text(statement))
        assert await balances(store, ANN) == [100]

    run(backend, body)


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ([(HOUSE, -5), (ANN, 4)], "sum to zero"),
        ([(HOUSE, 0), (ANN, 0)], "non-zero whole number"),
        ([(HOUSE, -1.5), (ANN, 1.5)], "non-zero whole number"),
        ([(ANN, 5), (ANN, -5)], "appears twice"),
        ([(ANN, 5)], "at least two accounts"),
    ],
)
def test_malformed_movements_are_refused(moves: list[tuple[Account, Any]], message: str) -> None:
    async def body(store: Store) -> None:
        with pytest.raises(ValueError, match=message):
            await post(store, "bad", moves)
        assert await problems(store) == []

    run("sqlite", body)


def test_concurrent_spending_never_overdraws(backend: str) -> None:
    """Twenty transfers of 10 race for a wallet of 100: exactly ten succeed."""

    async def body(store: Store) -> None:
        await post(store, "grant", [(HOUSE, -100), (ANN, 100)])

        async def spend(i: int) -> bool:
            try:
                await post(store, f"spend:{i}", [(ANN, -10), (Account.wallet(100 + i), 10)])
            except InsufficientChips:
                return False
            return True

        results = await asyncio.gather(*(spend(i) for i in range(20)))
        assert sum(results) == 10
        assert await balances(store, ANN) == [0]
        assert await problems(store) == []

    run(backend, body)


# A random sequence of movements: (kind, a, b, amount, key number). Keys are drawn from a
# small range so that replays (same key, same or other content) happen often.
OPS = st.lists(
    st.tuples(
        st.sampled_from(["grant", "pay", "escrow", "release", "retry"]),
        st.integers(0, 2),
        st.integers(0, 2),
        st.integers(1, 400),
        st.integers(0, 12),
    ),
    max_size=25,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_conservation_through_random_movements(ops: list[tuple[str, int, int, int, int]]) -> None:
    wallets = [ANN, BOB, CAT]

    async def body(store: Store) -> None:
        expected: dict[str, int] = {}
        last: tuple[str, list[tuple[Account, int]]] | None = None
        for kind, a, b, amount, k in ops:
            if kind == "retry" and last is not None:
                key, moves = last  # a client's retry of the last movement
            else:
                key = f"k{k}"
                src, dst = wallets[a], wallets[b]
                moves = {
                    "grant": [(HOUSE, -amount), (src, amount)],
                    "pay": [(src, -amount), (dst, amount)] if a != b else [],
                    "escrow": [(src, -amount), (ESCROW, amount)],
                    "release": [(ESCROW, -amount), (dst, amount)],
                    "retry": [],
                }[kind]
            if not moves:
                continue
            try:
                posted = await post(store, key, moves)
            except (InsufficientChips, KeyReused):
                pass
            else:
                if not posted.replayed:
                    for acct, n in moves:
                        expected[acct.key] = expected.get(acct.key, 0) + n
                last = (key, moves)
            assert await problems(store) == []
        everyone = [HOUSE, ESCROW, *wallets]
        assert await balances(store, *everyone) == [expected.get(x.key, 0) for x in everyone]
        assert sum(await balances(store, *everyone)) == 0

    run("sqlite", body)
