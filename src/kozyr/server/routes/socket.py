"""The game stream: one WebSocket per client (``docs/protocol.md``)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from kozyr.server.accounts import auth
from kozyr.server.connection import Connection
from kozyr.server.routes.common import server_of
from kozyr.server.transport.security import origin_allowed

router = APIRouter()


@router.websocket("/ws")
async def websocket(ws: WebSocket) -> None:
    server = server_of(ws)
    # SecurityMiddleware has refused foreign Hosts and Origins already; checked here
    # as well so that this route never depends on the middleware being there
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), server.settings):
        await ws.close(code=1008)
        return
    user = await auth.user_of(server.store, ws)
    if user is None:
        await ws.close(code=1008)
        return
    await ws.accept()
    await Connection(server, ws, user, auth.token_of(ws)).run()
