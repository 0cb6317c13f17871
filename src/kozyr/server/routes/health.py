"""Health and metrics, for the operator's probes and Prometheus."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text

from kozyr.server.routes.common import server_of

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    server = server_of(request)
    async with server.store.engine.connect() as conn:
        await conn.execute(text("SELECT 1"))
    return {"ok": True, "tables": len(server.lobby.tables)}


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    registry = server_of(request).metrics.registry
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)
