"""The HTTP and WebSocket routes, one router per area (see ``docs/protocol.md``)."""

from fastapi import APIRouter

from kozyr.server.routes import (
    account_changes,
    accounts,
    bets,
    friends,  # friends, blocks and challenges (#44)
    game_facts,
    games,
    guide,  # learn to play: how to play (#29)
    health,
    lessons,  # learn to play: lessons (#29)
    puzzles,  # puzzles from real deals (#29)
    replays,
    reviews,
    rules,
    socket,
    tables,
    talk,  # table talk (#44)
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
    puzzles.router,  # puzzles from real deals (#29)
    guide.router,  # learn to play: how to play (#29)
    lessons.router,  # learn to play: lessons (#29)
    friends.router,  # friends, blocks and challenges (#44)
    talk.router,  # table talk (#44)
)
