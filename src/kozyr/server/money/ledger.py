"""Play chips on an append-only, double-entry ledger (B5): wallets, escrows and the house.

Chips are play money: never bought, never cashed out. Still they move with a bank's
guarantees, because people trust the numbers:

- Every movement is one *transaction* of *entries* whose amounts sum to zero over the
  accounts it touches (a person's wallet, a table's escrow, a market's pool, the house that
  issues chips and backs bots). Nothing is ever updated or deleted in the journal.
- Each account's balance is cached on its row and changed in the same database
  transaction as the entries, which record the balance after them; ``check`` proves the
  cache equals the sum of the entries.
- A wallet or an escrow never goes below zero: a database CHECK constraint refuses it,
  whatever the code above does, and :class:`InsufficientChips` says so.
- Every transaction has an idempotency key. Posting the same key again with the same
  content returns the first result and moves nothing; with other content it is refused
  (:class:`KeyReused`). A client's retry, a restart half-way through, or two processes
  settling the same game can therefore never move chips twice.

Amounts are integers, and bounded: no posting moves, and no balance ever holds, more than
:data:`MAX_AMOUNT` chips either way (:class:`ChipsLimit`). The databases keep balances in
64-bit columns; SQLite would quietly turn a larger sum into a float and PostgreSQL would
refuse it half-way, so the ledger refuses first, before writing anything.

The functions take an open :class:`AsyncConnection` inside a transaction, so a movement
can be committed together with what causes it (a game's last action and its settlement
are one commit).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.storage import models as m
from kozyr.server.storage.store import insert_new, now_ms

__all__ = [
    "HOUSE",
    "MAX_AMOUNT",
    "Account",
    "Audit",
    "ChipsLimit",
    "Difference",
    "InsufficientChips",
    "KeyReused",
    "LedgerError",
    "Posted",
    "account",
    "audit",
    "balance",
    "check",
    "entries",
    "post",
]

HOUSE = "house"
"""The key of the one account that issues chips (its balance is minus all chips out)."""

MAX_AMOUNT = 10**15
"""The most chips one posting may move, and one balance may hold, either way: far below
2^63 (about 9.2 x 10^18, the 64-bit columns' limit), so that even a sum of many balances
stays exact. The largest stake table moves 4 x 30,000,000 chips (docs/chips.md)."""

_FLOORED = ("wallet", "escrow", "market")
"""Kinds whose balance may never go below zero (the house may: it issues chips)."""


class LedgerError(ValueError):
    """A movement that cannot be made; ``code`` is the protocol's error code."""

    code = "ledger"


class InsufficientChips(LedgerError):
    code = "insufficient_chips"

    def __init__(self, account: str, balance: int, needed: int) -> None:
        super().__init__(f"{account} holds {balance} chips; {needed} are needed")
        self.account = account
        self.balance = balance
        self.needed = needed


class KeyReused(LedgerError):
    code = "key_reused"

    def __init__(self, key: str) -> None:
        super().__init__(f"the idempotency key {key!r} was already used for another movement")
        self.key = key


class ChipsLimit(LedgerError):
    """A posting whose amount, or an account's balance after it, would pass
    :data:`MAX_AMOUNT` chips either way; nothing is written."""

    code = "chips_limit"

    def __init__(self, account: str, amount: int, balance: int | None = None) -> None:
        if balance is None:
            what = f"a movement of {_size(amount)} chips for {account}"
        else:
            what = f"{account}'s balance of {_size(balance)} chips after {_size(amount)}"
        super().__init__(f"{what} passes the ledger's limit of {MAX_AMOUNT:,} chips")
        self.account = account
        self.amount = amount
        self.balance = balance


def _size(n: int) -> str:
    # an int past 4300 digits has no str(); a limit's message needs no more than its size
    return f"{n:,}" if abs(n) < 10**30 else f"a {n.bit_length()}-bit number of"


@dataclass(frozen=True, slots=True)
class Account:
    """An account by its key: ``user:7`` (a wallet), ``table:ab12:escrow``, ``house``."""

    key: str
    kind: str

    @staticmethod
    def wallet(user_id: int) -> Account:
        return Account(f"user:{user_id}", "wallet")

    @staticmethod
    def escrow(table_id: str) -> Account:
        return Account(f"table:{table_id}:escrow", "escrow")

    @staticmethod
    def market(table_id: str, market: str) -> Account:
        return Account(f"table:{table_id}:market:{market}", "market")

    @staticmethod
    def house() -> Account:
        return Account(HOUSE, "house")


@dataclass(frozen=True, slots=True)
class Posted:
    """A committed transaction: its id, and whether this call found it already there."""

    tx_id: int
    replayed: bool
    balances: dict[str, int]
    """The balance after the transaction of every account it touched."""


def _digest(kind: str, moves: Sequence[tuple[Account, int]], memo: dict[str, Any]) -> str:
    canonical = json.dumps(
        [kind, sorted((a.key, a.kind, n) for a, n in moves), memo],
        sort_keys=True,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


async def account(conn: AsyncConnection, acct: Account) -> int:
    """The account's id, creating it (balance 0) the first time it is named."""
    by_key = select(m.ledger_accounts.c.id).where(m.ledger_accounts.c.key == acct.key)
    found = (await conn.execute(by_key)).scalar()
    if found is not None:
        return int(found)
    values = {"key": acct.key, "kind": acct.kind, "balance": 0, "created_ms": now_ms()}
    await conn.execute(insert_new(conn, m.ledger_accounts).values(**values))
    return int((await conn.execute(by_key)).scalar_one())


async def post(
    conn: AsyncConnection,
    key: str,
    kind: str,
    moves: Sequence[tuple[Account, int]],
    memo: dict[str, Any] | None = None,
) -> Posted:
    """Posts one transaction (inside the caller's database transaction).

    ``moves`` are (account, amount) pairs: positive credits, negative debits, summing to
    zero; an account may appear once. Raises, before writing anything,
    :class:`InsufficientChips` when a wallet, escrow or market would go below zero,
    :class:`KeyReused` when ``key`` was used for other content, :class:`ChipsLimit` when
    an amount or a balance after it would pass :data:`MAX_AMOUNT` either way, and
    ValueError for malformed moves.
    """
    memo = memo or {}
    if not key or len(key) > 200:
        raise ValueError("an idempotency key is 1-200 characters")
    if len(moves) < 2:
        raise ValueError("a transaction moves chips between at least two accounts")
    for acct, amount in moves:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise ValueError(f"amount for {acct.key} must be a non-zero whole number of chips")
        if abs(amount) > MAX_AMOUNT:
            raise ChipsLimit(acct.key, amount)
    if sum(n for _, n in moves) != 0:
        raise ValueError("a transaction's amounts must sum to zero (double entry)")
    if len({a.key for a, _ in moves}) != len(moves):
        raise ValueError("an account appears twice in one transaction")
    digest = _digest(kind, moves, memo)
    tx = m.ledger_transactions
    by_key = select(tx.c.id, tx.c.digest).where(tx.c.key == key)
    old = (await conn.execute(by_key)).first()
    if old is not None:
        return await _replayed(conn, key, digest, int(old.id), old.digest)
    accounts = m.ledger_accounts
    ids = [(acct, await account(conn, acct), amount) for acct, amount in moves]
    # Lock the rows in id order (two transactions never wait on each other in a circle),
    # then check every floor before anything is written.
    ids.sort(key=lambda t: t[1])
    for acct, acct_id, amount in ids:
        query = select(accounts.c.balance).where(accounts.c.id == acct_id).with_for_update()
        current = int((await conn.execute(query)).scalar_one())
        if acct.kind in _FLOORED and current + amount < 0:
            raise InsufficientChips(acct.key, current, -amount)
        if abs(current + amount) > MAX_AMOUNT:
            raise ChipsLimit(acct.key, amount, current + amount)
    inserted = await conn.execute(
        insert_new(conn, tx)
        .values(
            key=key,
            kind=kind,
            digest=digest,
            memo=json.dumps(memo, sort_keys=True),
            created_ms=now_ms(),
        )
        .returning(tx.c.id)
    )
    tx_id = inserted.scalar()
    if tx_id is None:  # the same key was committed meanwhile by another transaction
        old = (await conn.execute(by_key)).one()
        return await _replayed(conn, key, digest, int(old.id), old.digest)
    balances: dict[str, int] = {}
    for acct, acct_id, amount in ids:
        after = (
            await conn.execute(
                update(accounts)
                .where(accounts.c.id == acct_id)
                .values(balance=accounts.c.balance + amount)
                .returning(accounts.c.balance)
            )
        ).scalar_one()
        balances[acct.key] = int(after)
        await conn.execute(
            insert(m.ledger_entries).values(
                tx_id=int(tx_id), account_id=acct_id, amount=amount, balance_after=int(after)
            )
        )
    return Posted(int(tx_id), False, balances)


async def _replayed(
    conn: AsyncConnection, key: str, digest: str, tx_id: int, old_digest: str
) -> Posted:
    if old_digest != digest:
        raise KeyReused(key)
    rows = (
        await conn.execute(
            select(m.ledger_accounts.c.key, m.ledger_entries.c.balance_after)
            .join(m.ledger_accounts, m.ledger_accounts.c.id == m.ledger_entries.c.account_id)
            .where(m.ledger_entries.c.tx_id == tx_id)
        )
    ).all()
    return Posted(tx_id, True, {r.key: int(r.balance_after) for r in rows})


async def balance(conn: AsyncConnection, acct: Account) -> int:
    """The account's balance (0 for an account never used)."""
    found = (
        await conn.execute(
            select(m.ledger_accounts.c.balance).where(m.ledger_accounts.c.key == acct.key)
        )
    ).scalar()
    return 0 if found is None else int(found)


async def entries(
    conn: AsyncConnection, acct: Account, limit: int = 50, before: int | None = None
) -> list[dict[str, Any]]:
    """The account's entries, newest first: a page of ``limit`` below entry id ``before``."""
    e, t, a = m.ledger_entries, m.ledger_transactions, m.ledger_accounts
    query = (
        select(
            e.c.id,
            e.c.amount,
            e.c.balance_after,
            t.c.kind,
            t.c.memo,
            t.c.created_ms,
        )
        .join(t, t.c.id == e.c.tx_id)
        .join(a, a.c.id == e.c.account_id)
        .where(a.c.key == acct.key)
        .order_by(e.c.id.desc())
        .limit(limit)
    )
    if before is not None:
        query = query.where(e.c.id < before)
    rows = (await conn.execute(query)).all()
    return [
        {
            "id": int(r.id),
            "amount": int(r.amount),
            "balance": int(r.balance_after),
            "kind": r.kind,
            "memo": json.loads(r.memo),
            "created_ms": int(r.created_ms),
        }
        for r in rows
    ]


async def check(conn: AsyncConnection) -> list[str]:
    """The ledger's invariants; returns what is wrong (empty: all holds).

    Every transaction sums to zero; all balances together sum to zero; each cached balance
    equals the sum of its entries; no floored account is below zero.
    """
    problems = []
    e, a = m.ledger_entries, m.ledger_accounts
    unbalanced = (
        await conn.execute(
            select(e.c.tx_id, func.sum(e.c.amount))
            .group_by(e.c.tx_id)
            .having(func.sum(e.c.amount) != 0)
        )
    ).all()
    problems += [f"transaction {r[0]} sums to {r[1]}" for r in unbalanced]
    total = (await conn.execute(select(func.coalesce(func.sum(a.c.balance), 0)))).scalar_one()
    if int(total) != 0:
        problems.append(f"all balances sum to {total}, not 0")
    sums = dict(
        (
            await conn.execute(
                select(e.c.account_id, func.sum(e.c.amount)).group_by(e.c.account_id)
            )
        ).all()
    )
    for row in (await conn.execute(select(a.c.id, a.c.key, a.c.kind, a.c.balance))).all():
        journal = int(sums.get(row.id, 0))
        if journal != int(row.balance):
            problems.append(f"{row.key}: cached balance {row.balance}, entries sum to {journal}")
        if row.kind in _FLOORED and int(row.balance) < 0:
            problems.append(f"{row.key}: balance {row.balance} below zero")
    return problems


@dataclass(frozen=True, slots=True)
class Difference:
    """An account whose cached balance is not the sum of its journal entries."""

    account_id: int
    key: str
    name: str | None
    """The person's name for a wallet (None for other accounts)."""
    balance: int
    journal: int


@dataclass(frozen=True, slots=True)
class Audit:
    """What ``kozyr ledger check`` finds: the accounts, the sum of all their balances
    (0 when no chip was made or lost) and every account that disagrees with its journal."""

    accounts: int
    total: int
    differences: list[Difference]

    @property
    def ok(self) -> bool:
        return self.total == 0 and not self.differences


def _whole(value: Any) -> int:
    # A corrupted SQLite row may hold a float (SQLite's answer to an integer past 2^63).
    return int(value) if value is not None else 0


async def audit(conn: AsyncConnection) -> Audit:
    """Every balance against the journal, summed here in Python: a corrupted database may
    hold sums past 2^63, which SQLite's SUM refuses ("integer overflow")."""
    a, e, u = m.ledger_accounts, m.ledger_entries, m.users
    journal: dict[int, int] = {}
    rows = await conn.stream(select(e.c.account_id, e.c.amount))
    async for account_id, amount in rows:
        journal[int(account_id)] = journal.get(int(account_id), 0) + _whole(amount)
    query = select(a.c.id, a.c.key, a.c.kind, a.c.balance).order_by(a.c.id)
    accounts = (await conn.execute(query)).all()
    names = dict((await conn.execute(select(u.c.id, u.c.name))).all())
    total = 0
    differences = []
    for row in accounts:
        cached = _whole(row.balance)
        total += cached
        summed = journal.get(int(row.id), 0)
        if cached != summed:
            name = None
            if row.kind == "wallet" and row.key.startswith("user:"):
                user_id = row.key.removeprefix("user:")
                name = names.get(int(user_id)) if user_id.isdigit() else None
            differences.append(Difference(int(row.id), row.key, name, cached, summed))
    return Audit(len(accounts), total, differences)
