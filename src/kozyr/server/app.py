"""The FastAPI application: HTTP lobby and accounts, the WebSocket, health and metrics."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from kozyr.server import auth, names
from kozyr.server.bodies import (
    CredentialsBody,
    JoinBody,
    NewBotBody,
    NewTableBody,
    QuickPlayBody,
)
from kozyr.server.bodies import field_error as _field_error
from kozyr.server.bus import make_bus
from kozyr.server.config import Settings
from kozyr.server.connection import Connection, KeepTransport
from kozyr.server.lobby import Lobby, page_bounds
from kozyr.server.metrics import Metrics
from kozyr.server.protocol import (
    ProtocolError,
)
from kozyr.server.security import SecurityMiddleware, origin_allowed
from kozyr.server.sockets import SIGNED_OUT, Sockets
from kozyr.server.store import Store, User, token_hash
from kozyr.server.tables import Table
from kozyr.server.throttle import Throttles, retry_header

log = logging.getLogger("kozyr.server")

WEB_STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kozyr server</title></head>
<body><h1>kozyr server</h1>
<p>Imperial and Emperor. The web page comes later; the API is at <code>/api</code>,
the game stream at <code>/ws</code> (see docs/protocol.md).</p></body></html>
"""


class Server:
    """What the routes share: settings, store, lobby, metrics."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.store = Store(settings.url)
        self.bus = make_bus(settings.redis_url)
        self.lobby = Lobby(self.store, settings, self.metrics, self.bus)
        self.on_ready: Callable[[int], None] | None = None
        self.throttles = Throttles(
            settings.login_limit,
            settings.login_window,
            settings.account_limit,
            settings.account_window,
        )
        # the look-alike check and the insert of a new name, as one step
        self.names_lock = asyncio.Lock()
        self.sockets = Sockets(settings)
        """Every open WebSocket, by account and address (caps, logout)."""

    async def close_user(self, user_id: int, code: int, session: str | None = None) -> int:
        """Closes the user's WebSockets (those of one session, given the token's hash);
        when it returns, none of them acts any more. Returns how many were closed."""
        return await self.sockets.close_user(user_id, code, session)


class Throttled(ProtocolError):
    """429 with a ``Retry-After``."""

    def __init__(self, code: str, wait: float) -> None:
        super().__init__(code, status=429)
        self.retry_after = wait


def _error(e: ProtocolError) -> JSONResponse:
    response = JSONResponse(
        {"type": "error", "code": e.code, "message": e.message, "message_ru": e.message_ru},
        status_code=e.status,
    )
    if isinstance(e, Throttled):
        response.headers["retry-after"] = retry_header(e.retry_after)
    return response


def client_address(request: Request) -> str:
    """The address the throttles count by: the peer's, or the one a trusted proxy names
    (uvicorn rewrites it only for ``KOZYR_FORWARDED_ALLOW_IPS``)."""
    return request.client.host if request.client is not None else "unknown"


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
        await server.bus.start()
        restored = await server.lobby.restore()
        if server.on_ready is not None:
            server.on_ready(restored)
        log.info("kozyr server ready (%d tables restored)", restored)
        try:
            yield
        finally:
            await server.sockets.close()
            await server.lobby.close()
            await server.bus.stop()
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
        return _error(e)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, e: RequestValidationError) -> JSONResponse:
        error = _field_error(e.errors())
        server.metrics.rejected.labels(error.code).inc()
        return _error(error)

    if settings.api_docs:

        @app.get("/api/docs", include_in_schema=False)
        async def api_docs() -> RedirectResponse:
            return RedirectResponse("/api/openapi.json")

    async def need_user(request: Request) -> User:
        user = await auth.user_of(server.store, request)
        if user is None:
            raise ProtocolError("unauthorized", "Sign in or play as a guest first.", 401)
        return user

    async def signed_in(user: User, response: JSONResponse) -> JSONResponse:
        token = await server.store.create_session(user.id, settings.session_days)
        auth.set_cookie(response, token, settings)
        return response

    # -- health and metrics ---------------------------------------------------------

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        async with server.store.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))
        return {"ok": True, "tables": len(server.lobby.tables)}

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(server.metrics.registry), media_type=CONTENT_TYPE_LATEST)

    # -- accounts -------------------------------------------------------------------

    def account_allowed(request: Request) -> str:
        address = client_address(request)
        wait = server.throttles.accounts.retry_after(address)
        if wait is not None:
            raise Throttled("too_many_accounts", wait)
        return address

    @app.post("/api/register")
    async def register(request: Request, body: CredentialsBody) -> JSONResponse:
        address = account_allowed(request)
        user = await auth.register(server.store, body.name, body.password, server.names_lock)
        server.throttles.accounts.record(address)
        return await signed_in(user, JSONResponse({"user": user.to_json()}, status_code=201))

    @app.post("/api/login")
    async def login(request: Request, body: CredentialsBody) -> JSONResponse:
        # every attempt counts, right or wrong: a guesser learns nothing from which
        # attempts were refused
        name_key = names.normalise(body.name).casefold()
        wait = server.throttles.login(name_key, client_address(request))
        if wait is not None:
            raise Throttled("too_many_attempts", wait)
        user = await auth.login(server.store, body.name, body.password)
        return await signed_in(user, JSONResponse({"user": user.to_json()}))

    @app.post("/api/guest")
    async def guest(request: Request) -> JSONResponse:
        address = account_allowed(request)
        user = await auth.guest(server.store)
        server.throttles.accounts.record(address)
        return await signed_in(user, JSONResponse({"user": user.to_json()}, status_code=201))

    @app.post("/api/logout")
    async def logout(request: Request) -> JSONResponse:
        token = auth.token_of(request)
        if token and len(token) <= 200:
            user = await auth.user_of(server.store, request)
            await server.store.delete_session(token)
            if user is not None:
                # Sockets opened with this session stop acting for the user too.
                await server.close_user(user.id, SIGNED_OUT, token_hash(token))
        response = JSONResponse({"ok": True})
        auth.clear_cookie(response, settings)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        user = await need_user(request)
        return {"user": user.to_json()}

    # -- lobby ----------------------------------------------------------------------

    def visible(table: Table, user: User | None, invite: str | None) -> bool:
        row = table.row
        if not row.private:
            return True
        if user is not None and (row.creator_id == user.id or table.seat_of(user.id) is not None):
            return True
        return invite is not None and invite == row.invite_code

    def table_json(table: Table, user: User | None) -> dict[str, Any]:
        mine = user is not None and (
            table.row.creator_id == user.id or table.seat_of(user.id) is not None
        )
        return {"table": table.info(private=mine)}

    @app.get("/api/tables")
    async def list_tables(
        game: str | None = None, offset: str | None = None, limit: str | None = None
    ) -> dict[str, Any]:
        first, size = page_bounds(offset, limit)
        return server.lobby.page(game or None, first, size)

    @app.post("/api/tables")
    async def create_table(request: Request, body: NewTableBody) -> JSONResponse:
        user = await need_user(request)
        table = await server.lobby.create(
            user,
            game=body.game,
            players=body.players,
            options=body.options,
            bots=body.bots,
            private=body.private,
            sit=body.sit,
            seat=body.seat,
            turn_timeout=(
                body.turn_timeout if "turn_timeout" in body.model_fields_set else "default"
            ),
            address=request.client.host if request.client else None,
        )
        return JSONResponse(table_json(table, user), status_code=201)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request, invite: str | None = None) -> Any:
        user = await auth.user_of(server.store, request)
        return await server.lobby.info(table_id, user, invite)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request, body: JoinBody) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        if not visible(table, user, body.invite):
            raise ProtocolError("no_table", status=404)
        got = await table.sit(user.id, user.name, body.seat)
        return {"seat": got, **table_json(table, user)}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        await table.leave(user.id)
        return table_json(table, user)

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(table_id: str, request: Request, body: NewBotBody) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        await table.set_bot(user.id, body.seat, body.level)
        return table_json(table, user)

    @app.delete("/api/tables/{table_id}/bots/{seat}")
    async def remove_bot(table_id: str, seat: int, request: Request) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        await table.set_bot(user.id, seat, None)
        return table_json(table, user)

    @app.post("/api/quickplay")
    async def quick_play(request: Request, body: QuickPlayBody) -> Any:
        user = await need_user(request)
        address = request.client.host if request.client else None
        table = await server.lobby.quick_play(user, body.game, body.players, body.level, address)
        return {"seat": table.seat_of(user.id), **table_json(table, user)}

    @app.get("/api/games")
    async def my_games(request: Request) -> dict[str, Any]:
        user = await need_user(request)
        return {"games": await server.lobby.games_of(user)}

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str, request: Request, invite: str | None = None) -> Any:
        # Decided from the committed row: the full record exists for readers only once
        # the database says the game is over.
        user = await auth.user_of(server.store, request)
        return await server.lobby.record(table_id, user, invite)

    # -- the WebSocket --------------------------------------------------------------

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        # SecurityMiddleware has refused foreign Hosts and Origins already; checked here
        # as well so that this route never depends on the middleware being there
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings):
            await ws.close(code=1008)
            return
        user = await auth.user_of(server.store, ws)
        if user is None:
            await ws.close(code=1008)
            return
        await ws.accept()
        await Connection(server, ws, user, auth.token_of(ws)).run()

    try:  # the web page's own routes (replays), when that package is there
        from kozyr.web.routes import router as web_router
    except ImportError:
        pass
    else:
        app.include_router(web_router)
    if WEB_STATIC.is_dir():
        app.mount("/", StaticFiles(directory=WEB_STATIC, html=True), name="web")
    else:

        @app.get("/", response_class=HTMLResponse)
        async def index() -> str:
            return PLACEHOLDER

    return app
