"""The FastAPI application: the routers (``kozyr.server.routes``), error handlers,
middleware, the life cycle, and the web page's static folder, served by path."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from kozyr.server import guests
from kozyr.server.accounts import names
from kozyr.server.connection import KeepTransport
from kozyr.server.routes import ROUTERS
from kozyr.server.routes.common import error_response
from kozyr.server.routes.shell import shell_router
from kozyr.server.runtime import gctune, stopping
from kozyr.server.runtime.config import Settings
from kozyr.server.services import Server
from kozyr.server.storage.leases import Fenced
from kozyr.server.transport.bodies import field_error
from kozyr.server.transport.protocol import ProtocolError
from kozyr.server.transport.security import SecurityMiddleware

__all__ = ["WEB_STATIC", "KozyrApp", "Server", "create_app"]

log = logging.getLogger("kozyr.server")

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
"""The page's files, served as they are: the server imports nothing from ``kozyr.web``."""

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kozyr server</title></head>
<body><h1>kozyr server</h1>
<p>Imperial and Emperor. The web page comes later; the API is at <code>/api</code>,
the game stream at <code>/ws</code> (see docs/protocol.md).</p></body></html>
"""


class KozyrApp(FastAPI):
    """FastAPI with :class:`SecurityMiddleware` outside everything, even the handler that
    turns crashes into 500s, so that every response carries the security headers."""

    security: SecurityMiddleware | None = None

    def build_middleware_stack(self) -> ASGIApp:
        inner = super().build_middleware_stack()
        server: Server = self.state.server
        self.security = SecurityMiddleware(
            inner, server.settings, lambda code: server.metrics.rejected.labels(code).inc()
        )
        return self.security


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    server = Server(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.store.migrate()
        filled = await names.backfill_skeletons(server.store)
        if filled:
            log.info("name skeletons filled in for %d users", filled)
        await server.bus.start()  # RedisUnavailable: the server does not start
        restored = await server.lobby.restore()
        if server.cluster is not None:
            server.cluster.start()
        gctune.tune(settings.gc_threshold)
        if server.on_ready is not None:
            server.on_ready(restored)
        log.info("kozyr server ready (%d tables restored)", restored)
        # from the signal on, no move: not only once uvicorn has closed every connection
        unhook = stopping.on_stop_signals(server.stop_moves)
        sweeper = asyncio.create_task(
            guests.run_periodically(
                server.store, settings.guest_ttl_days, settings.guest_sweep_seconds
            )
        )
        try:
            yield
        finally:
            unhook()
            server.stop_moves()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10):
                    await server.lobby.finish_moves()  # the commits under way end first
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await server.sockets.close()
            await server.reviews.close()  # ends the review processes at once
            if server.cluster is not None:
                await server.cluster.stop()
            await server.lobby.close()
            server.close_pools()
            await server.bus.stop()
            await server.throttles.close()
            await server.store.close()

    # No Swagger page: FastAPI's loads its scripts from a CDN, which the page's CSP and
    # the rule "nothing from outside" forbid. The schema alone, and only when asked for.
    app = KozyrApp(
        title="kozyr",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json" if settings.api_docs else None,
    )
    app.state.server = server
    app.add_middleware(KeepTransport)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, e: ProtocolError) -> JSONResponse:
        server.metrics.rejected.labels(e.code).inc()
        return error_response(e)

    @app.exception_handler(Fenced)
    async def fenced(_request: Request, _e: Fenced) -> JSONResponse:
        # the table moved to another process while this one was changing it
        return error_response(ProtocolError("moved", status=503))

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, e: RequestValidationError) -> JSONResponse:
        error = field_error(e.errors())
        server.metrics.rejected.labels(error.code).inc()
        return error_response(error)

    if settings.api_docs:

        @app.get("/api/docs", include_in_schema=False)
        async def api_docs() -> RedirectResponse:
            return RedirectResponse("/api/openapi.json")

    for router in ROUTERS:
        app.include_router(router)
    if WEB_STATIC.is_dir():
        app.include_router(shell_router(WEB_STATIC))  # before the files: /sw.js
        app.mount("/", StaticFiles(directory=WEB_STATIC, html=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse)
        async def index() -> str:
            return PLACEHOLDER

    return app
