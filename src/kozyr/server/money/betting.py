"""Spectators' bets at a table (B4): its book of markets, the bets on them, and the chips
they move on the ledger. Nothing here knows a game: the markets and what decides them
come from the game's catalogue (``GAMES[game].markets``) through
:class:`kozyr.games.markets.Book`.

A table owns one :class:`TableBets` and calls it under the table's lock:

- :meth:`TableBets.follow` after every committed action (and the game's start), before
  the lock is released: the action's events go to the book, whose changes are sent to
  the watchers and whose decided markets are settled. A bet is checked and committed
  under the same lock, so one handled after the action that deals a deal finds that
  deal's markets already closed, however close in time the two were.
- :meth:`TableBets.place` takes a bet: one database transaction holds its ledger
  movement (wallet -> the market's escrow) and its row.

Settlement moves a market's escrow to the winners' wallets in one ledger transaction
keyed ``bets:{table}:{market}``: exactly once, however often it is tried. A settlement
that did not commit (a crash between the deciding action and it, a database hiccup) is
done again from the stored log at the next action or the next start (:func:`recover`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, literal, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.games.markets import Bet, Book, Change, Market, payouts, refund_reason
from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account, InsufficientChips, KeyReused
from kozyr.server.play.games import game_of
from kozyr.server.storage import models as m
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import Store, TableRow, User, now_ms
from kozyr.server.transport.protocol import VERSION, Client, ProtocolError, dumps, utf8_size
from kozyr.texts import both

__all__ = [
    "MAX_BETS_PER_MARKET",
    "PlacedBet",
    "TableBets",
    "chips_in_bets",
    "holds_bets",
    "offline_book",
    "settlement_key",
    "unsettled_tables_query",
]

log = logging.getLogger("kozyr.server.money.betting")

MAX_BETS_PER_MARKET = 10
"""Bets one person may place on one market (B4 limits)."""


def settlement_key(table_id: str, market_id: str) -> str:
    return f"bets:{table_id}:{market_id}"


def bet_key(user_id: int, key: str) -> str:
    """The ledger key of a bet: the client's key is unique per person only."""
    return f"bet:{user_id}:{key}"


@dataclass(frozen=True, slots=True)
class PlacedBet:
    id: int
    table_id: str
    market: str
    user_id: int
    outcome: str
    chips: int
    seq: int
    key: str
    balance: int | None = None
    """The bettor's wallet just after this bet was taken (None: a bet read back)."""
    balance_tx: int | None = None
    """The ledger transaction of the bet: a page that hears of several balances keeps the
    one after the latest transaction (a wallet's transactions are numbered in order)."""

    def same_as(self, table_id: str, market: str, outcome: str, chips: int) -> bool:
        return (self.table_id, self.market, self.outcome, self.chips) == (
            table_id,
            market,
            outcome,
            chips,
        )


Balances = tuple[dict[str, int], int | None]
"""A settlement's wallet balances after it, by account key, and its transaction."""


def _placed(row: Any) -> PlacedBet:
    return PlacedBet(
        int(row.id),
        row.table_id,
        row.market_id,
        int(row.user_id),
        row.outcome,
        int(row.chips),
        int(row.seq),
        row.key,
    )


def _whole_chips(chips: Any) -> int:
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise ProtocolError("bad_bet_chips")
    return chips


class TableBets:
    """One table's markets and bets (in memory; the bets also in the database)."""

    def __init__(
        self,
        row: TableRow,
        store: Store,
        watchers: Callable[[], Mapping[Client, int | None]] = dict,
    ) -> None:
        spec = game_of(row.game)
        self.row = row
        self.store = store
        self.watchers = watchers
        self.book = Book(
            spec.markets, row.players, spec.options_from_json(row.options, stored=True)
        )
        self.book.start()  # the table is open: the game's and deal 1's markets
        self.fed = 0
        """How many of the game state's events the book has had."""
        self.bets: dict[str, list[PlacedBet]] = {}
        """By market, in the order they were taken."""
        self.unsettled: set[str] = set()
        """Markets the book has decided whose settlement is not committed yet."""

    @property
    def table_id(self) -> str:
        return self.row.id

    # -- the book -------------------------------------------------------------------

    def catch_up(self, events: Sequence[Any]) -> list[Change]:
        """Feeds the events the book has not had yet; settles nothing, sends nothing."""
        changes = self.book.feed_all(events[self.fed :])
        self.fed = len(events)
        for c in changes:
            if c.what == "settle":
                self.unsettled.add(c.market.id)
        return changes

    def adopt_book(self, caught_up: TableBets) -> None:
        """Takes the book of :func:`offline_book` (fed in a worker from a restored game's
        events) as this table's: the same markets, the same decided ones to settle."""
        self.book = caught_up.book
        self.fed = caught_up.fed
        self.unsettled = set(caught_up.unsettled)

    async def follow(self, events: Sequence[Any]) -> None:
        """After a committed action (under the table's lock): the book's changes go out,
        and every decided market is settled."""
        if self.announce(events):
            await self.settle_pending()

    def announce(self, events: Sequence[Any]) -> bool:
        """Feeds the new events and sends the markets they opened or closed; True when a
        decided market waits to be settled (``settle_pending``). Most moves decide
        nothing, and this way they cost no coroutine."""
        changes = self.catch_up(events)
        for c in changes:
            if c.what != "settle":
                self._to_all(self.market_frame(c.market))
        return bool(self.unsettled)

    async def load(self) -> None:
        """The table's stored bets, and which of its decided markets are settled already."""
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.bets).where(m.bets.c.table_id == self.table_id).order_by(m.bets.c.id)
                )
            ).all()
            keys = [settlement_key(self.table_id, mid) for mid in self.unsettled]
            done = set()
            if keys:
                found = await conn.execute(
                    select(m.ledger_transactions.c.key).where(m.ledger_transactions.c.key.in_(keys))
                )
                done = {k for (k,) in found.all()}
        self.bets = {}
        for r in rows:
            self.bets.setdefault(r.market_id, []).append(_placed(r))
        # a market nobody bet on has nothing to settle
        self.unsettled = {
            mid
            for mid in self.unsettled
            if mid in self.bets and settlement_key(self.table_id, mid) not in done
        }

    async def settle_pending(self) -> None:
        """Settles every decided market not settled yet (a market nobody bet on settles
        with no movement). A failure is logged and left for the next try."""
        for mid in sorted(self.unsettled):
            market = self.book.markets[mid]
            outcome = self.book.settled[mid]
            bets = self.bets.get(mid, [])
            balances: Balances = ({}, None)
            try:
                if bets:
                    async with self.store._write() as conn:
                        balances = await self._post_settlement(conn, market, outcome, bets)
            except Exception:
                log.exception("settling %s at table %s failed", mid, self.table_id)
                continue
            self._settled(market, outcome, bets, balances)

    def void_undecided(self) -> None:
        """The table ended before its game did: every market not decided is void, to be
        settled (every bet refunded) like any decided one."""
        for change in self.book.void_undecided():
            self.unsettled.add(change.market.id)

    async def end_early(self, conn: AsyncConnection) -> Callable[[], None]:
        """The table ends before its game (``tables.idle_bots``): every market not decided
        is void, and every settlement still to make (those refunds, and a decided market's
        whose commit failed) is posted in ``conn``, the transaction that ends the table,
        so that they commit with the end or not at all. Each is the market's one
        settlement (:func:`settlement_key`), so a retry moves nothing twice. Returns what
        to tell the watchers once ``conn`` has committed."""
        self.void_undecided()
        done: list[tuple[Market, str, list[PlacedBet], Balances]] = []
        for mid in sorted(self.unsettled):
            market, outcome = self.book.markets[mid], self.book.settled[mid]
            bets = self.bets.get(mid, [])
            balances: Balances = ({}, None)
            if bets:
                balances = await self._post_settlement(conn, market, outcome, bets)
            done.append((market, outcome, bets, balances))

        def tell() -> None:
            for market, outcome, bets, balances in done:
                self._settled(market, outcome, bets, balances)

        return tell

    def _settled(
        self, market: Market, outcome: str, bets: list[PlacedBet], balances: Balances
    ) -> None:
        self.unsettled.discard(market.id)
        self._to_all(self.market_frame(market))
        self._tell_bettors(market, outcome, bets, balances)

    async def _post_settlement(
        self, conn: AsyncConnection, market: Market, outcome: str, bets: list[PlacedBet]
    ) -> Balances:
        """Posts the settlement in ``conn``; the balances after it of the wallets it paid,
        and its transaction (none when it was found committed already: they may be old)."""
        paid = payouts([Bet(b.id, b.outcome, b.chips) for b in bets], outcome)
        per_user: dict[int, int] = {}
        for b, n in zip(bets, paid, strict=True):
            if n:
                per_user[b.user_id] = per_user.get(b.user_id, 0) + n
        pool = sum(b.chips for b in bets)
        moves = [(Account.market(self.table_id, market.id), -pool)]
        moves += [(Account.wallet(u), n) for u, n in sorted(per_user.items())]
        memo = {"table": self.table_id, "market": market.id, "outcome": outcome}
        key = settlement_key(self.table_id, market.id)
        posted = await ledger.post(conn, key, "bets", moves, memo)
        return ({}, None) if posted.replayed else (posted.balances, posted.tx_id)

    # -- what is shown --------------------------------------------------------------

    def state_of(self, market_id: str) -> str:
        if market_id in self.book.open:
            return "open"
        if market_id in self.book.settled and market_id not in self.unsettled:
            return "settled"
        return "closed"

    def market_json(self, market: Market) -> dict[str, Any]:
        """A market as everyone sees it: no bettor is named, no card shown. A settled
        market says why it refunded every bet, if it did (``refund``: ``void``, its
        question never answered, or ``no_winner``, nobody backed the outcome)."""
        pools = dict.fromkeys(market.outcomes, 0)
        for b in self.bets.get(market.id, []):
            pools[b.outcome] += b.chips
        pool: int = sum(pools.values())
        state = self.state_of(market.id)
        outcome = self.book.settled[market.id] if state == "settled" else None
        refund = None
        if outcome is not None and pool:
            refund = refund_reason(self._shared(market.id), outcome)
        return {
            **market.to_json(),
            "state": state,
            "outcome": outcome,
            "refund": refund,
            "pools": pools,
            "pool": pool,
        }

    def _shared(self, market_id: str) -> list[Bet]:
        return [Bet(b.id, b.outcome, b.chips) for b in self.bets.get(market_id, [])]

    def my_bets(self, market: Market, user_id: int) -> list[dict[str, Any]]:
        """The person's bets on ``market``; once it is settled, each with its ``payout``
        and ``result``: ``won``, ``lost`` or ``refunded`` (the market's ``refund`` says
        why)."""
        bets = self.bets.get(market.id, [])
        paid: list[int | None] = [None] * len(bets)
        results: list[str | None] = [None] * len(bets)
        if self.state_of(market.id) == "settled":
            outcome = self.book.settled[market.id]
            shared = self._shared(market.id)
            paid = list(payouts(shared, outcome))
            refund = refund_reason(shared, outcome)
            results = [
                "refunded" if refund else "won" if b.outcome == outcome else "lost" for b in bets
            ]
        return [
            {"id": b.id, "outcome": b.outcome, "chips": b.chips, "payout": n, "result": r}
            for b, n, r in zip(bets, paid, results, strict=True)
            if b.user_id == user_id
        ]

    def markets_json(self, user: User | None) -> list[dict[str, Any]]:
        out = []
        for market in self.book.markets.values():
            entry = self.market_json(market)
            entry["my_bets"] = [] if user is None else self.my_bets(market, user.id)
            out.append(entry)
        return out

    def market_frame(self, market: Market) -> dict[str, Any]:
        return {
            "v": VERSION,
            "type": "market",
            "table": self.table_id,
            "market": self.market_json(market),
        }

    def _to_all(self, frame: dict[str, Any]) -> None:
        watchers = self.watchers()
        if not watchers:
            return
        text = dumps(frame)
        size = utf8_size(text)
        for client in list(watchers):
            client.send(text, size)

    def _tell_bettors(
        self,
        market: Market,
        outcome: str,
        bets: list[PlacedBet],
        balances: tuple[Mapping[str, int], int | None],
    ) -> None:
        """Each bettor watching is told how his bets came out (``result``: ``won`` when
        one of them won, ``refunded`` with the market's ``refund`` reason, else ``lost``)
        and, when the settlement paid him, his wallet's ``balance`` after it (and its
        transaction, ``balance_tx``)."""
        bettors = {b.user_id for b in bets}
        if not bettors:
            return
        refund = refund_reason(self._shared(market.id), outcome)
        for client in list(self.watchers()):
            if client.user.id not in bettors:
                continue
            mine = self.my_bets(market, client.user.id)
            won = any(b["result"] == "won" for b in mine)
            frame: dict[str, Any] = {
                "v": VERSION,
                "type": "bet_settled",
                "table": self.table_id,
                "market": market.id,
                "outcome": outcome,
                "bets": mine,
                "staked": sum(b["chips"] for b in mine),
                "payout": sum(b["payout"] or 0 for b in mine),
                "result": "refunded" if refund else "won" if won else "lost",
                "refund": refund,
            }
            wallet = balances[0].get(Account.wallet(client.user.id).key)
            if wallet is not None:
                frame["balance"], frame["balance_tx"] = wallet, balances[1]
            client.send(frame)

    # -- bets -----------------------------------------------------------------------

    async def check_no_bets(self, user_id: int) -> None:
        """Refuses (409 ``holds_bets``) a seat to a person who holds bets on this table
        not settled yet: B4, players never bet on their own table, and a bet taken while
        he stood must not ride on the game he would then play. Called under the table's
        lock, as bets are taken, and read from the database (whatever this process has
        in memory of a table just restored or taken over)."""
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.bets.c.market_id, m.bets.c.chips).where(
                        m.bets.c.table_id == self.table_id, m.bets.c.user_id == user_id
                    )
                )
            ).all()
        chips = sum(int(r.chips) for r in rows if self.state_of(r.market_id) != "settled")
        if chips:
            raise holds_bets(chips)

    async def place(
        self,
        user: User,
        seated: bool,
        seq: int,
        market_id: str,
        outcome: str,
        chips: Any,
        key: str,
    ) -> tuple[PlacedBet, bool]:
        """Takes a bet (under the table's lock); returns it and whether it was taken
        before under the same key. Raises ProtocolError, moving nothing, when refused."""
        earlier = await self._by_key(user.id, key)
        if earlier is not None:
            if earlier.same_as(self.table_id, market_id, outcome, chips):
                return earlier, True
            raise ProtocolError("key_reused", status=409)
        if seated:
            raise ProtocolError("seated_cannot_bet", status=403)
        market = self.book.markets.get(market_id)
        if market is None:
            raise ProtocolError("no_market", status=404)
        if outcome not in market.outcomes:
            raise ProtocolError(
                "bad_outcome", f"The outcomes of {market_id} are {', '.join(market.outcomes)}."
            )
        if market_id in self.book.settled:
            raise ProtocolError("market_settled", status=409)
        if market_id not in self.book.open:
            raise ProtocolError("market_closed", status=409)
        chips = _whole_chips(chips)
        if sum(b.user_id == user.id for b in self.bets.get(market_id, [])) >= MAX_BETS_PER_MARKET:
            raise ProtocolError("too_many_bets", status=409)
        bet = await self._commit(user, seq, market, outcome, chips, key)
        self.bets.setdefault(market_id, []).append(bet)
        self._to_all(self.market_frame(market))
        return bet, False

    async def _by_key(self, user_id: int, key: str) -> PlacedBet | None:
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(m.bets).where(and_(m.bets.c.user_id == user_id, m.bets.c.key == key))
                )
            ).first()
        return None if row is None else _placed(row)

    async def _commit(
        self, user: User, seq: int, market: Market, outcome: str, chips: int, key: str
    ) -> PlacedBet:
        wallet = Account.wallet(user.id)
        memo = {"table": self.table_id, "market": market.id, "outcome": outcome}
        try:
            async with self.store._write() as conn:
                # The lease first, as in every action batch: a process frozen past its
                # lease, woken before it has noticed, must not take a bet for a table
                # another process runs now (lease row, then wallets: the order of every
                # write that takes both).
                await self.store.check_lease(conn, self.table_id)
                held = await ledger.balance(conn, wallet)
                _check_balance(held, chips)
                posted = await ledger.post(
                    conn,
                    bet_key(user.id, key),
                    "bet",
                    [(wallet, -chips), (Account.market(self.table_id, market.id), chips)],
                    memo,
                )
                values = {
                    "table_id": self.table_id,
                    "market_id": market.id,
                    "user_id": user.id,
                    "outcome": outcome,
                    "chips": chips,
                    "seq": seq,
                    "key": key,
                    "created_ms": now_ms(),
                }
                bet_id = (
                    await conn.execute(insert(m.bets).values(**values).returning(m.bets.c.id))
                ).scalar_one()
        except InsufficientChips as e:  # spent meanwhile at another table
            _check_balance(e.balance, chips)
            raise
        except (KeyReused, IntegrityError) as e:  # the same key, at once, at another table
            raise ProtocolError("key_reused", status=409) from e
        except Fenced:
            # Another process has taken the table over: nothing moved here (the store
            # has told the ownership, which drops the table); the bettor retries there.
            raise ProtocolError("moved", status=503) from None
        after = posted.balances.get(wallet.key)
        return PlacedBet(
            int(bet_id),
            self.table_id,
            market.id,
            user.id,
            outcome,
            chips,
            seq,
            key,
            after,
            posted.tx_id,
        )


def _check_balance(held: int, chips: int) -> None:
    if held <= 0:
        raise ProtocolError("no_chips", status=409)
    if chips > held:
        english, russian = both("chips.bet.insufficient", held=held, chips=chips)
        raise ProtocolError(
            "insufficient_chips",
            english,
            409,
            message_ru=russian,
            reason={"code": "insufficient_chips", "params": {"balance": held, "chips": chips}},
        )


def holds_bets(chips: int) -> ProtocolError:
    """B4: a person with ``chips`` in open bets on a table may not take a seat at it."""
    english, russian = both("chips.bet.holds_bets", chips=chips)
    return ProtocolError("holds_bets", english, 409, message_ru=russian, params={"chips": chips})


def _settlement_key_sql() -> Any:
    """:func:`settlement_key` of each bet's market, in SQL."""
    b = m.bets
    return literal("bets:") + b.c.table_id + literal(":") + b.c.market_id


async def chips_in_bets(conn: AsyncConnection, user_id: int) -> int:
    """The person's chips in bets whose market is not settled yet: they sit in the
    markets' escrows, out of the wallet, until the settlement (docs/chips.md)."""
    b, tx = m.bets, m.ledger_transactions
    total = await conn.scalar(
        select(func.coalesce(func.sum(b.c.chips), 0))
        .select_from(b)
        .outerjoin(tx, tx.c.key == _settlement_key_sql())
        .where(b.c.user_id == user_id, tx.c.id.is_(None))
    )
    return int(total or 0)


def unsettled_tables_query() -> Any:
    """Finished tables with a bet on a market whose settlement is not committed."""
    b, t, tx = m.bets, m.game_tables, m.ledger_transactions
    return (
        select(b.c.table_id)
        .distinct()
        .join(t, t.c.id == b.c.table_id)
        .outerjoin(tx, tx.c.key == _settlement_key_sql())
        .where(t.c.status == "finished")
        .where(tx.c.id.is_(None))
    )


def offline_book(row: TableRow, events: Iterable[Any], store: Store) -> TableBets:
    """A table's markets rebuilt from its events (CPU work: run in a worker): a finished
    table's, or a restored one's for :meth:`TableBets.adopt_book`."""
    bets = TableBets(row, store)
    bets.catch_up(list(events))
    if row.status == "finished":
        # (a no-op after a game over, which voids the rest itself) A table ended before
        # its game: its undecided markets are void, so none shows as open to bets.
        bets.void_undecided()
    return bets
