"""The HTTP and WebSocket routes, one router per area (see ``docs/protocol.md``)."""

from fastapi import APIRouter

from kozyr.server.routes import accounts, bets, games, health, replays, socket, tables

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    accounts.router,
    tables.router,
    bets.router,
    games.router,
    replays.router,
    socket.router,
)
