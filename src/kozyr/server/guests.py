"""The periodic clean-up of guest accounts nobody uses, and of chips left in the wallets of
accounts that are gone. The rule (docs/ratings.md, "Accounts and names"):

- A guest is idle when his account is older than ``KOZYR_GUEST_TTL_DAYS`` (30) days and
  nothing of his is newer: no table he sat at or opened was created or finished since,
  no bet, no top-up, no puzzle answered, no lesson finished, no review asked.
- An idle guest is kept while his chips or his seat are still in play: while he sits at
  a table not finished (its escrow may hold his stake, and the live table holds his seat
  and name) or has a bet on a market not settled (a pari-mutuel pool: taking his chips out
  would change what the other bets pay). Both settle on their own, through the ledger,
  when their game decides them; the first sweep after that retires him.
- Otherwise he is retired (``account_changes.retire``), in a database transaction of his
  own: the chips in his wallet go back to the house in one ledger transaction, what was
  his alone goes (sessions, puzzle attempts and rating, lesson progress, top-up records),
  and what others' records need stays, anonymised: his seats in stored games, his bets,
  the tables he opened show "deleted". His row stays too, renamed: the append-only ledger
  names his id for ever (``user:{id}``, ``grant:{id}``), and SQLite would give a deleted
  row's id to the next account, with its grant already spent.
- A guest who cannot be retired (his transaction fails) is logged in one line and left
  for the next run; the others are swept all the same.
- An account that is gone (deleted, or a retired guest) whose wallet receives chips later
  (a game under way or a bet settled after it went) hands them to the house at the next
  sweep.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import String, cast, func, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.account_changes import retire
from kozyr.server.money import wallets
from kozyr.server.money.betting import chips_in_bets
from kozyr.server.money.ledger import Account
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, now_ms

log = logging.getLogger("kozyr.server.guests")


@dataclass
class Swept:
    retired: int = 0
    """Idle guests retired this run."""
    kept: int = 0
    """Idle guests kept: their chips or seat still in play."""
    failed: int = 0
    """Idle guests whose retirement failed (logged; tried again next run)."""
    returned: int = 0
    """Chips handed back to the house from the wallets of accounts that are gone."""


def _wallet_key(user_id: Any) -> Any:
    """``Account.wallet(id).key`` in SQL."""
    return literal("user:") + cast(user_id, String)


def _last_use(idle: Any) -> Any:
    """(user id, time in ms) of everything a guest does, for the guests of ``idle``."""
    tp, t, w, tx = m.table_players, m.game_tables, m.wallet_top_ups, m.ledger_transactions
    when = func.coalesce(t.c.finished_ms, t.c.created_ms)
    return union_all(
        select(tp.c.user_id.label("user_id"), when.label("at"))
        .join(t, t.c.id == tp.c.table_id)
        .where(tp.c.user_id.in_(idle)),
        select(t.c.creator_id, when).where(t.c.creator_id.in_(idle)),
        *(
            select(x.c.user_id, at).where(x.c.user_id.in_(idle))
            for x, at in (
                (m.bets, m.bets.c.created_ms),
                (m.puzzle_attempts, m.puzzle_attempts.c.created_ms),
                (m.lesson_progress, m.lesson_progress.c.done_ms),
                (m.review_jobs, m.review_jobs.c.created_ms),
            )
        ),
        select(w.c.user_id, tx.c.created_ms)
        .join(tx, tx.c.id == w.c.tx_id)
        .where(w.c.user_id.in_(idle)),
    ).subquery()


async def _idle_guests(store: Store, cutoff: int) -> list[int]:
    u = m.users
    idle = select(u.c.id).where(
        u.c.guest.is_(True), u.c.deleted_ms.is_(None), u.c.created_ms < cutoff
    )
    uses = _last_use(idle)
    user_id, at = uses.c.user_id, uses.c.at
    async with store.engine.connect() as conn:
        old = (await conn.execute(idle.order_by(u.c.id))).scalars().all()
        recent = await conn.execute(
            select(user_id).group_by(user_id).having(func.max(at) >= cutoff)
        )
        busy = set(recent.scalars().all())
    return [uid for uid in old if uid not in busy]


async def _in_play(conn: AsyncConnection, user_id: int) -> bool:
    """Whether the person sits at a table not finished or has chips in an open bet."""
    tp, t = m.table_players, m.game_tables
    seated = await conn.scalar(
        select(tp.c.table_id)
        .join(t, t.c.id == tp.c.table_id)
        .where(tp.c.user_id == user_id, t.c.status != "finished")
        .limit(1)
    )
    return seated is not None or await chips_in_bets(conn, user_id) > 0


async def _retire_guest(store: Store, user_id: int) -> bool:
    """Retires the guest unless his chips or seat are in play (False: kept)."""
    u = m.users
    async with store._write() as conn:
        # The wallet first: a bet or a stake of his waits for this transaction, and one
        # committed before it is seen by the checks below.
        await wallets.lock(conn, [Account.house(), Account.wallet(user_id)])
        still = await conn.scalar(
            select(u.c.id).where(u.c.id == user_id, u.c.guest.is_(True), u.c.deleted_ms.is_(None))
        )
        if still is None or await _in_play(conn, user_id):  # (upgraded meanwhile, or busy)
            return False
        await retire(conn, user_id)
    return True


async def _return_chips(store: Store, done: Swept) -> None:
    """Chips paid to accounts that are gone go back to the house."""
    u, a = m.users, m.ledger_accounts
    async with store.engine.connect() as conn:
        gone = (
            (
                await conn.execute(
                    select(u.c.id)
                    .join(a, a.c.key == _wallet_key(u.c.id))
                    .where(u.c.deleted_ms.is_not(None), a.c.balance > 0)
                    .order_by(u.c.id)
                )
            )
            .scalars()
            .all()
        )
    for user_id in gone:
        try:
            async with store._write() as conn:
                done.returned += await wallets.give_back(conn, user_id)
        except Exception as e:
            log.warning("chips of the deleted account %d stay for now: %r", user_id, e)


async def sweep(store: Store, ttl_days: float, now: int | None = None) -> Swept:
    """Retires every idle guest whose chips and seat are out of play (the rule above),
    each in a transaction of his own, and hands the chips of accounts that are gone back
    to the house."""
    cutoff = (now_ms() if now is None else now) - int(ttl_days * 86_400_000)
    done = Swept()
    for user_id in await _idle_guests(store, cutoff):
        try:
            if await _retire_guest(store, user_id):
                done.retired += 1
            else:
                done.kept += 1
        except Exception as e:
            # one line, no traceback: the same guest fails again at every run until
            # someone looks, and must not bury the log or stop the others
            done.failed += 1
            log.warning("the idle guest %d could not be retired; kept for now: %r", user_id, e)
    await _return_chips(store, done)
    return done


async def run_periodically(store: Store, ttl_days: float, every: float) -> None:
    """The clean-up job: at start, then every ``every`` seconds, until cancelled."""
    while True:
        try:
            done = await sweep(store, ttl_days)
            if done.retired or done.failed or done.returned:
                log.info(
                    "idle guests: %d retired, %d kept in play, %d failed; %d chips of "
                    "accounts that are gone back to the house",
                    done.retired,
                    done.kept,
                    done.failed,
                    done.returned,
                )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the guest clean-up failed; it runs again later")
        await asyncio.sleep(every)
