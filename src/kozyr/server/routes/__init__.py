"""The HTTP and WebSocket routes, one router per area (see ``docs/protocol.md``)."""

from fastapi import APIRouter

from kozyr.server.routes import accounts, games, health, replays, socket, tables, wallet

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    accounts.router,
    tables.router,
    games.router,
    replays.router,
    socket.router,
    wallet.router,
)
