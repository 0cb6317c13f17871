"""The HTTP and WebSocket routes, one router per area (see ``docs/protocol.md``)."""

from fastapi import APIRouter

from kozyr.server.routes import (
    account_changes,
    accounts,
    bets,
    game_facts,
    games,
    health,
    replays,
    reviews,
    rules,
    socket,
    tables,
    users,
    wallet,
)

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    accounts.router,
    tables.router,
    bets.router,
    games.router,
    game_facts.router,
    replays.router,
    reviews.router,
    socket.router,
    rules.router,
    users.router,
    account_changes.router,
    wallet.router,
)
