"""A person's chip wallet (B5): the welcome grant, the daily top-up, the balance, what is
held in escrow and in open bets, and the wallet's page of the ledger.

Chips are play money: the house issues them (grants, top-ups) and nothing ever buys or
cashes them. Every movement goes through :mod:`kozyr.server.money.ledger`, with a key that makes
it happen once: ``grant:{user}``, ``top_up:{user}:{client key}``. An account that is gone
(deleted, or a guest retired by the clean-up) gives its chips back to the house:
``retire:{user}:{last entry}`` (:func:`give_back`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.money import ledger, statements
from kozyr.server.money.betting import chips_in_bets
from kozyr.server.money.escrow import stake_hold, stake_too_high
from kozyr.server.money.ledger import Account
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both

__all__ = [
    "GUEST_WELCOME",
    "TOP_UP_TO",
    "WELCOME",
    "balance_of",
    "check_cover",
    "give_back",
    "grant",
    "grant_new_user",
    "lock",
    "top_up",
    "utc_day",
    "wallet_page",
]

WELCOME = 1000
"""Chips a new account starts with."""
GUEST_WELCOME = 200
"""Chips a guest starts with (a guest is made in one click, so less)."""
TOP_UP_TO = 100
"""Once a UTC day, a person below this many chips may claim a top-up to exactly this."""
MAX_PAGE = 100


def utc_day(ms: int | None = None) -> str:
    """The UTC day of ``ms`` (default: now) as YYYY-MM-DD."""
    return datetime.fromtimestamp((now_ms() if ms is None else ms) / 1000, UTC).date().isoformat()


async def grant(conn: AsyncConnection, user_id: int, guest: bool) -> None:
    """The welcome grant, once per account whatever calls it."""
    amount = GUEST_WELCOME if guest else WELCOME
    moves = [(Account.house(), -amount), (Account.wallet(user_id), amount)]
    await ledger.post(conn, f"grant:{user_id}", "grant", moves, {"welcome": amount})


async def grant_new_user(conn: AsyncConnection, user: User) -> None:
    """``Store.on_new_user``: the grant commits with the account."""
    await grant(conn, user.id, user.guest)


async def _has_grant(conn: AsyncConnection, user_id: int) -> bool:
    tx = m.ledger_transactions
    found = await conn.execute(select(tx.c.id).where(tx.c.key == f"grant:{user_id}"))
    return found.first() is not None


async def ensure_grant(store: Store, user_id: int) -> None:
    """Accounts made before wallets existed get their grant on the first wallet read."""
    async with store.engine.connect() as conn:
        if await _has_grant(conn, user_id):
            return
        guest = (
            await conn.execute(select(m.users.c.guest).where(m.users.c.id == user_id))
        ).scalar()
    if guest is None:
        return
    async with store.transaction() as conn:
        await grant(conn, user_id, bool(guest))


async def balance_of(store: Store, user_id: int) -> int:
    """The wallet's balance (after the grant it is owed, if any)."""
    await ensure_grant(store, user_id)
    async with store.engine.connect() as conn:
        return await ledger.balance(conn, Account.wallet(user_id))


async def check_cover(store: Store, user_id: int, hold: int | None) -> None:
    """Refuses (409 ``stake_too_high``) a seat whose wallet cannot cover the hold."""
    if hold is None:
        return
    balance = await balance_of(store, user_id)
    if balance < hold:
        raise stake_too_high(balance, hold)


async def held(conn: AsyncConnection, user_id: int) -> int:
    """Chips of the person's in escrow: one hold per stake game he plays that is not over
    (the escrow is made with the start and settled with the end)."""
    t, p = m.game_tables, m.table_players
    rows = (
        await conn.execute(
            select(t.c.game, t.c.options, t.c.stake)
            .join(p, and_(p.c.table_id == t.c.id, p.c.user_id == user_id))
            .where(t.c.status == "playing", t.c.stake.is_not(None))
        )
    ).all()
    return sum(stake_hold(r.game, json.loads(r.options), json.loads(r.stake)) or 0 for r in rows)


async def holdings(conn: AsyncConnection, user_id: int) -> tuple[int, int]:
    """(in escrow, in open bets): the person's chips out of his wallet that are still his
    until a game or a market is settled. The top-up counts them with the balance."""
    return await held(conn, user_id), await chips_in_bets(conn, user_id)


def _bound(value: str | None, name: str, default: int | None, high: int) -> int | None:
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 12 or not 1 <= int(value) <= high:
        raise ProtocolError("bad_request", f"{name} must be a whole number 1-{high}.")
    return int(value)


async def wallet_page(
    store: Store, user: User, limit: str | None, before: str | None
) -> dict[str, Any]:
    """``GET /api/wallet``: balance, held (``in_escrow`` at stake games plus ``in_bets``,
    bets not settled yet), whether a top-up is due, and a page of entries (newest first;
    ``next`` is the ``before`` of the following page), each told in words in both
    languages (``text``, ``text_ru``: :mod:`kozyr.server.money.statements`) with the table
    it is about (``table_id``) and whether that table's game is over (``finished``)."""
    size = _bound(limit, "limit", 50, MAX_PAGE)
    assert size is not None
    below = _bound(before, "before", None, 2**62)
    await ensure_grant(store, user.id)
    wallet = Account.wallet(user.id)
    async with store.engine.connect() as conn:
        balance = await ledger.balance(conn, wallet)
        rows = await ledger.entries(conn, wallet, size + 1, below)
        claimed = await _claimed(conn, user.id, utc_day())
        in_escrow, in_bets = await holdings(conn, user.id)
        page = rows[:size]
        told = await statements.describe(conn, user.id, page)
    return {
        "balance": balance,
        "held": in_escrow + in_bets,
        "in_escrow": in_escrow,
        "in_bets": in_bets,
        "can_top_up": balance + in_escrow + in_bets < TOP_UP_TO and claimed is None,
        "entries": [
            {
                "id": e["id"],
                "at_ms": e["created_ms"],
                "kind": e["kind"],
                "amount": e["amount"],
                "balance": e["balance"],
                "text": words.en,
                "text_ru": words.ru,
                "table_id": words.table_id,
                "finished": words.finished,
                "memo": e["memo"],
            }
            for e, words in zip(page, told, strict=True)
        ],
        "next": page[-1]["id"] if len(rows) > size else None,
    }


async def _claimed(conn: AsyncConnection, user_id: int, day: str) -> Any:
    w = m.wallet_top_ups
    query = select(w).where(w.c.user_id == user_id, w.c.day == day)
    return (await conn.execute(query)).first()


async def top_up(store: Store, user: User, key: str, day: str | None = None) -> dict[str, Any]:
    """``POST /api/wallet/top-up``: up to :data:`TOP_UP_TO` once a UTC day, counting the
    chips held in escrow and in open bets with the balance (a person with 50 in his wallet
    and 950 riding on a bet is not poor). The same ``key`` again the same day returns the
    first answer and moves nothing; on another day it is another request and is refused
    (``key_reused``)."""
    day = day or utc_day()
    await ensure_grant(store, user.id)
    wallet = Account.wallet(user.id)
    try:
        async with store.transaction() as conn:
            w = m.wallet_top_ups
            earlier = (
                await conn.execute(select(w).where(w.c.user_id == user.id, w.c.client_key == key))
            ).first()
            if earlier is not None:
                if earlier.day != day:
                    english, russian = both("chips.top_up.key_reused", day=earlier.day)
                    raise ProtocolError("key_reused", english, 409, message_ru=russian)
                again = await _answer(conn, user.id, key, day, int(earlier.amount))
                again.pop("tx_id")
                return again
            if await _claimed(conn, user.id, day) is not None:
                raise _not_due_today()
            await lock(conn, [Account.house(), wallet])
            balance = await ledger.balance(conn, wallet)
            in_escrow, in_bets = await holdings(conn, user.id)
            total = balance + in_escrow + in_bets
            if total >= TOP_UP_TO:
                raise _not_due(balance, in_escrow + in_bets)
            answer = await _answer(conn, user.id, key, day, TOP_UP_TO - total)
            await conn.execute(
                insert(w).values(
                    user_id=user.id,
                    day=day,
                    client_key=key,
                    tx_id=answer.pop("tx_id"),
                    amount=answer["amount"],
                )
            )
            return answer
    except IntegrityError as e:  # another key claimed today's top-up at the same moment
        raise _not_due_today() from e


async def give_back(conn: AsyncConnection, user_id: int) -> int:
    """The chips in the wallet of an account that is gone go back to the house, which
    issued them (docs/chips.md); returns how many. One ledger transaction, keyed by the
    wallet's last entry: done again it moves nothing, and chips the wallet receives later
    (a game under way or a bet settled after the account went) go by another key."""
    wallet = Account.wallet(user_id)
    if await ledger.balance(conn, wallet) <= 0:
        return 0  # (and no wallet is made for an account that never had one)
    await lock(conn, [Account.house(), wallet])
    chips = await ledger.balance(conn, wallet)
    if chips <= 0:
        return 0
    e, a = m.ledger_entries, m.ledger_accounts
    last = await conn.scalar(
        select(func.max(e.c.id)).join(a, a.c.id == e.c.account_id).where(a.c.key == wallet.key)
    )
    moves = [(wallet, -chips), (Account.house(), chips)]
    await ledger.post(conn, f"retire:{user_id}:{last}", "retire", moves, {"user": user_id})
    return chips


async def lock(conn: AsyncConnection, accounts: list[Account]) -> None:
    """Locks the accounts' rows (PostgreSQL; SQLite has one writer) in id order, as
    :func:`ledger.post` does: every movement of the wallet's chips (a bet, an escrow, a
    payout) waits until the balance and what is held have been read together."""
    ids = sorted([await ledger.account(conn, a) for a in accounts])
    a = m.ledger_accounts
    for acct_id in ids:
        await conn.execute(select(a.c.id).where(a.c.id == acct_id).with_for_update())


async def _answer(
    conn: AsyncConnection, user_id: int, key: str, day: str, amount: int
) -> dict[str, Any]:
    """Posts (or finds, for the same key) the top-up's movement."""
    wallet = Account.wallet(user_id)
    moves = [(Account.house(), -amount), (wallet, amount)]
    posted = await ledger.post(conn, f"top_up:{user_id}:{key}", "top_up", moves, {"day": day})
    return {
        "balance": posted.balances[wallet.key],
        "amount": amount,
        "replayed": posted.replayed,
        "tx_id": posted.tx_id,
    }


def _not_due(balance: int, held: int) -> ProtocolError:
    if not held:
        english, russian = both("chips.top_up.not_due", balance=balance, top_up_to=TOP_UP_TO)
    else:
        english, russian = both(
            "chips.top_up.not_due_held",
            total=balance + held,
            balance=balance,
            held=held,
            top_up_to=TOP_UP_TO,
        )
    return ProtocolError(
        "top_up_not_due",
        english,
        409,
        message_ru=russian,
        params={"balance": balance, "held": held},
    )


def _not_due_today() -> ProtocolError:
    english, russian = both("chips.top_up.claimed_today")
    return ProtocolError("top_up_not_due", english, 409, message_ru=russian)
