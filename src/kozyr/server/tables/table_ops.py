"""The lobby's changes of one live table (sit, leave, bots, a spectator's bet) as plain
operations on JSON arguments, so that the HTTP routes run them on this process's table
and, in cluster mode, the owner of a table runs them for a request forwarded to it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from kozyr.server.money import wallets
from kozyr.server.money.betting import PlacedBet
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.lobby import may_see
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import ProtocolError

Op = Callable[[Table, User, dict[str, Any]], Awaitable[dict[str, Any]]]


def table_json(table: Table, user: User | None) -> dict[str, Any]:
    """``{"table": info}``, with the invite code for its creator and players."""
    mine = user is not None and (
        table.row.creator_id == user.id or table.seat_of(user.id) is not None
    )
    return {"table": table.info(private=mine)}


async def sit(table: Table, user: User, args: dict[str, Any]) -> dict[str, Any]:
    if not may_see(table.row, user, args.get("invite")):
        raise ProtocolError("no_table", status=404)
    addr = args.get("addr")  # the address's mark, never the address (it may be forwarded)
    got = await table.sit(user.id, user.name, args.get("seat"), user.guest, addr)
    return {"seat": got, **table_json(table, user)}


async def leave(table: Table, user: User, _args: dict[str, Any]) -> dict[str, Any]:
    # a private table is not there for whoever is not at it (nor its creator): 404 as on
    # every other route, not the 409 that would say it exists
    if not may_see(table.row, user, None):
        raise ProtocolError("no_table", status=404)
    await table.leave(user.id)
    return table_json(table, user)


async def set_bot(table: Table, user: User, args: dict[str, Any]) -> dict[str, Any]:
    if not may_see(table.row, user, None):  # as leave: not the 403 of a stranger
        raise ProtocolError("no_table", status=404)
    await table.set_bot(user.id, int(args["seat"]), args.get("level"))
    return table_json(table, user)


def bet_json(bet: PlacedBet) -> dict[str, Any]:
    return {
        "id": bet.id,
        "market": bet.market,
        "outcome": bet.outcome,
        "chips": bet.chips,
        "seq": bet.seq,
        "key": bet.key,
    }


async def bet(table: Table, user: User, args: dict[str, Any]) -> dict[str, Any]:
    """A spectator's bet at a live table: the response body and its HTTP status."""
    if not may_see(table.row, user, None):
        raise ProtocolError("no_table", status=404)
    placed, again = await table.bet(
        user, args["market"], args["outcome"], args.get("chips"), args["key"]
    )
    book = table.bets
    market = book.book.markets[placed.market]
    entry = book.market_json(market)
    entry["my_bets"] = book.my_bets(market, user.id)
    return {
        "body": {
            "bet": bet_json(placed),
            "market": entry,
            "duplicate": again,
            **await bet_balance(placed, book.store, user),
        },
        "status": 200 if again else 201,
    }


async def bet_balance(placed: PlacedBet, store: Store, user: User) -> dict[str, int | None]:
    """The bettor's wallet after his bet, for the page's header: as the bet's own
    transaction left it (``balance_tx``), or (a retry answered with the bet taken
    before) as it is now."""
    if placed.balance is not None:
        return {"balance": placed.balance, "balance_tx": placed.balance_tx}
    return {"balance": await wallets.balance_of(store, user.id), "balance_tx": None}


OPS: dict[str, Op] = {"sit": sit, "leave": leave, "set_bot": set_bot, "bet": bet}
