"""The chip wallet over HTTP: the balance and its ledger, and the daily top-up."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from kozyr.server.money import wallets
from kozyr.server.routes.common import need_user, server_of
from kozyr.server.transport.bodies import TopUpBody

router = APIRouter()


@router.get("/api/wallet")
async def wallet(
    request: Request, limit: str | None = None, before: str | None = None
) -> dict[str, Any]:
    user = await need_user(request)
    return await wallets.wallet_page(server_of(request).store, user, limit, before)


@router.post("/api/wallet/top-up")
async def top_up(request: Request, body: TopUpBody) -> dict[str, Any]:
    user = await need_user(request)
    return await wallets.top_up(server_of(request).store, user, body.key)
