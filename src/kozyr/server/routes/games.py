"""A player's games and a game's record (replays are in :mod:`.replays`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kozyr.server.accounts import auth
from kozyr.server.routes.common import invite_guarded, need_user, server_of

router = APIRouter()


@router.get("/api/games")
async def my_games(request: Request) -> dict[str, Any]:
    user = await need_user(request)
    return {"games": await server_of(request).lobby.games_of(user)}


@router.get("/api/games/{table_id}/record")
async def record(table_id: str, request: Request, invite: str | None = None) -> Any:
    # Decided from the committed row: the full record exists for readers only once
    # the database says the game is over.
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    return await invite_guarded(
        request, user, invite, lambda: server.lobby.record(table_id, user, invite)
    )
