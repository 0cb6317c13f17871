"""What the stake tests share: reading a server's ledger straight from its database, and
each stake kind's settlement worked out by hand from a finished game's result (the rules
as docs/chips.md words them, written again here so the tests do not trust the server's
arithmetic)."""

from __future__ import annotations

import os
from typing import Any

from sqlalchemy import func, select
from tests.server.support import ServerProc, fresh_postgres

from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account
from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store


async def database_of(backend: str) -> str | None:
    """A fresh database for ``backend`` (None: the server's own SQLite file), from inside
    a running event loop."""
    if backend == "sqlite":
        return None
    return await fresh_postgres(os.environ["KOZYR_TEST_POSTGRES_URL"])


def store_of(server: ServerProc) -> Store:
    """A second connection to the server's own database (read it, never write)."""
    if server.database_url:
        return Store(normalise_database_url(server.database_url))
    return Store(sqlite_url(server.data))


async def ledger_facts(store: Store, tables: list[str], users: list[int]) -> dict[str, Any]:
    """The ledger's problems, each table's escrow and settlement count, each wallet."""
    tx = m.ledger_transactions
    async with store.engine.connect() as conn:
        out: dict[str, Any] = {"problems": await ledger.check(conn)}
        out["settles"] = {}
        out["escrows"] = {}
        for t in tables:
            for kind, bucket in (("settle", "settles"), ("escrow", "escrows")):
                n = await conn.scalar(
                    select(func.count()).select_from(tx).where(tx.c.key == f"{kind}:{t}")
                )
                out[bucket][t] = int(n or 0)
        out["escrow_left"] = {t: await ledger.balance(conn, Account.escrow(t)) for t in tables}
        out["wallets"] = {u: await ledger.balance(conn, Account.wallet(u)) for u in users}
    return out


def net_by_hand(
    game: str, stake: dict[str, Any], options: dict[str, Any], result: Any
) -> list[int]:
    """Each seat's chips won (negative: paid), from the rules of the stake kind."""
    s, kind = int(stake["chips"]), stake["kind"]
    if game == "imperial":
        winner = result["winner"]
        n = len(result["scores"])
        target = int(options.get("target", 5))
        owed = [
            0
            if i == winner
            else s * (1 if kind == "per_game" else max(0, target - sc["imperials"]))
            for i, sc in enumerate(result["scores"])
        ]
        return [sum(owed) if i == winner else -owed[i] for i in range(n)]
    totals = list(result["totals"])
    n = len(totals)
    if kind == "per_trick":
        return [
            s * sum(max(-10, min(10, totals[a] - totals[b])) for b in range(n) if b != a)
            for a in range(n)
        ]
    units = {4: [3, 1, -1, -3], 3: [2, 0, -2]}[n]
    ranked = sorted(totals, reverse=True)
    out = []
    for a in range(n):
        first, count = ranked.index(totals[a]), ranked.count(totals[a])
        base, rest = divmod(sum(units[first : first + count]) * s, count)
        order = [b for b in range(n) if totals[b] == totals[a]].index(a)
        out.append(base + (1 if order < rest else 0))
    return out
