"""The lobby over HTTP: listing, creating and finding tables, sitting down and standing
up, bots, quick play."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from kozyr.server.accounts import auth, ratings
from kozyr.server.routes.common import invite_guarded, need_user, peer_address, server_of
from kozyr.server.tables.table_ops import table_json
from kozyr.server.transport.bodies import JoinBody, NewBotBody, NewTableBody, QuickPlayBody
from kozyr.server.transport.paging import page_bounds

router = APIRouter()


@router.get("/api/tables")
async def list_tables(
    request: Request, game: str | None = None, offset: str | None = None, limit: str | None = None
) -> dict[str, Any]:
    first, size = page_bounds(offset, limit)
    return server_of(request).lobby.page(game or None, first, size)


@router.post("/api/tables")
async def create_table(request: Request, body: NewTableBody) -> JSONResponse:
    user = await need_user(request)
    table = await server_of(request).lobby.create(
        user,
        game=body.game,
        players=body.players,
        options=body.options,
        bots=body.bots,
        private=body.private,
        sit=body.sit,
        seat=body.seat,
        turn_timeout=(body.turn_timeout if "turn_timeout" in body.model_fields_set else "default"),
        rated=body.rated,
        address=peer_address(request),
        stake=body.stake,
        hints=body.hints,
    )
    return JSONResponse(table_json(table, user), status_code=201)


@router.get("/api/tables/{table_id}")
async def get_table(table_id: str, request: Request, invite: str | None = None) -> Any:
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    return await invite_guarded(
        request, user, invite, lambda: server.lobby.info(table_id, user, invite)
    )


@router.post("/api/tables/{table_id}/join")
async def join(table_id: str, request: Request, body: JoinBody) -> Any:
    user = await need_user(request)
    address = peer_address(request)
    args = {"seat": body.seat, "invite": body.invite, "addr": ratings.address_mark(address)}
    return await invite_guarded(
        request, user, body.invite, lambda: server_of(request).table_op(table_id, "sit", user, args)
    )


@router.post("/api/tables/{table_id}/leave")
async def leave(table_id: str, request: Request) -> Any:
    user = await need_user(request)
    return await server_of(request).table_op(table_id, "leave", user, {})


@router.post("/api/tables/{table_id}/bots")
async def add_bot(table_id: str, request: Request, body: NewBotBody) -> Any:
    user = await need_user(request)
    args = {"seat": body.seat, "level": body.level}
    return await server_of(request).table_op(table_id, "set_bot", user, args)


@router.delete("/api/tables/{table_id}/bots/{seat}")
async def remove_bot(table_id: str, seat: int, request: Request) -> Any:
    user = await need_user(request)
    args = {"seat": seat, "level": None}
    return await server_of(request).table_op(table_id, "set_bot", user, args)


@router.post("/api/quickplay")
async def quick_play(request: Request, body: QuickPlayBody) -> Any:
    user = await need_user(request)
    address = peer_address(request)
    server = server_of(request)
    if server.cluster is not None:
        # an open table of any process before a new one here
        found = await server.cluster.quick_seat(
            user, body.game, body.players, body.rated, body.stake, ratings.address_mark(address)
        )
        if found is not None:
            return found
    lobby = server.lobby
    table = await lobby.quick_play(
        user, body.game, body.players, body.level, address, rated=body.rated, stake=body.stake
    )
    return {"seat": table.seat_of(user.id), **table_json(table, user)}
