"""Profiles, game histories and leaderboards (read-only; ``kozyr.server.profiles``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kozyr.server import profiles
from kozyr.server.accounts import auth
from kozyr.server.money import wallets
from kozyr.server.routes.common import server_of

router = APIRouter()


@router.get("/api/users/{name}")
async def user_profile(name: str, request: Request) -> dict[str, Any]:
    store = server_of(request).store
    user = await profiles.user_named(store, name)
    out = await profiles.profile(store, user)
    viewer = await auth.user_of(store, request)
    if viewer is not None and viewer.id == user.id:
        # his chips are his own business: shown on his own profile only
        out["balance"] = await wallets.balance_of(store, user.id)
    return out


@router.get("/api/users/{name}/games")
async def user_games(
    name: str, request: Request, offset: str | None = None, limit: str | None = None
) -> dict[str, Any]:
    store = server_of(request).store
    first, size = profiles.games_bounds(offset, limit)
    user = await profiles.user_named(store, name)
    viewer = await auth.user_of(store, request)
    return await profiles.games(store, user, viewer, first, size)


@router.get("/api/leaderboard")
async def leaderboard(request: Request, variant: str | None = None) -> dict[str, Any]:
    return await profiles.leaderboard(server_of(request).store, variant)
