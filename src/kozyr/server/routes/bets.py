"""Spectators' bets over HTTP: a table's markets, and placing a bet (docs/betting.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field, StrictStr

from kozyr.server.accounts import auth
from kozyr.server.money.betting import TableBets
from kozyr.server.routes.common import need_user, server_of
from kozyr.server.services import Server
from kozyr.server.storage.store import User
from kozyr.server.tables.lobby import may_see
from kozyr.server.tables.table_ops import bet_balance, bet_json
from kozyr.server.transport.bodies import Body, json_body
from kozyr.server.transport.protocol import ProtocolError

router = APIRouter()


class NewBet(Body):
    """``POST /api/tables/{id}/bets``."""

    market: Annotated[StrictStr, Field(max_length=64)]
    outcome: Annotated[StrictStr, Field(max_length=32)]
    # any JSON value: the betting module refuses what is not a whole number >= 1 with
    # its own code (bad_bet_chips), not a generic field error
    chips: Any = None
    key: Annotated[StrictStr, Field(min_length=1, max_length=100)]


NewBetBody = Annotated[NewBet, Depends(json_body(NewBet))]


async def _book(server: Server, table_id: str, user: User | None) -> TableBets:
    """The table's markets: the live table's, or rebuilt from the database."""
    live = server.lobby.tables.get(table_id)
    if live is not None:
        if not may_see(live.row, user, None):
            raise ProtocolError("no_table", status=404)
        return live.bets
    row = await server.lobby.stored(table_id, user, None)
    return await server.lobby.finished_bets(row)


@router.get("/api/tables/{table_id}/markets")
async def markets(table_id: str, request: Request) -> dict[str, Any]:
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    book = await _book(server, table_id, user)
    return {"markets": book.markets_json(user)}


@router.post("/api/tables/{table_id}/bets")
async def place_bet(table_id: str, request: Request, body: NewBetBody) -> JSONResponse:
    server = server_of(request)
    user = await need_user(request)
    live = server.lobby.tables.get(table_id)
    args = {"market": body.market, "outcome": body.outcome, "chips": body.chips, "key": body.key}
    if live is not None or server.cluster is not None:
        row = None if live is not None else await server.lobby.stored(table_id, user, None)
        if row is None or row.status != "finished":
            # live here, or (cluster mode) on the process that owns the table
            done = await server.table_op(table_id, "bet", user, args)
            return JSONResponse(done["body"], status_code=done["status"])
    book = await _book(server, table_id, user)
    if book.row.status == "finished":  # every market is settled: only a retry passes
        seated = any(s.user_id == user.id for s in book.row.seats)
        bet, again = await book.place(
            user, seated, -1, body.market, body.outcome, body.chips, body.key
        )
    else:  # a table that could not be restored takes no bets
        raise ProtocolError("no_table", status=404)
    market = book.book.markets[bet.market]
    entry = book.market_json(market)
    entry["my_bets"] = book.my_bets(market, user.id)
    answer = {
        "bet": bet_json(bet),
        "market": entry,
        "duplicate": again,
        **await bet_balance(bet, server.store, user),
    }
    return JSONResponse(answer, status_code=200 if again else 201)
