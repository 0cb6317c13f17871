"""The FastAPI application: HTTP lobby and accounts, the WebSocket, health and metrics."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from sqlalchemy import text
from starlette.staticfiles import StaticFiles

from kozyr.records import to_record
from kozyr.server import auth
from kozyr.server.bus import make_bus
from kozyr.server.config import Settings
from kozyr.server.connection import Connection, KeepTransport
from kozyr.server.lobby import Lobby
from kozyr.server.metrics import Metrics
from kozyr.server.protocol import (
    ProtocolError,
)
from kozyr.server.sockets import SIGNED_OUT, Sockets
from kozyr.server.store import Store, User, token_hash
from kozyr.server.tables import Table, new_state, view_of

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
        self.sockets = Sockets(settings)
        """Every open WebSocket, by account and address (caps, logout)."""

    async def close_user(self, user_id: int, code: int, session: str | None = None) -> int:
        """Closes the user's WebSockets (those of one session, given the token's hash);
        when it returns, none of them acts any more. Returns how many were closed."""
        return await self.sockets.close_user(user_id, code, session)


def _error(e: ProtocolError) -> JSONResponse:
    return JSONResponse(
        {"type": "error", "code": e.code, "message": e.message, "message_ru": e.message_ru},
        status_code=e.status,
    )


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw:
        return {}
    if len(raw) > 64 * 1024:
        raise ProtocolError("too_large", status=413)
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise ProtocolError("bad_json") from e
    if not isinstance(data, dict):
        raise ProtocolError("bad_frame", "The body must be a JSON object.")
    return data


def origin_ok(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Programs send no Origin; a browser's must be this server's own or an allowed one."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    server = Server(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.store.migrate()
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

    app = FastAPI(title="kozyr", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.server = server
    app.add_middleware(KeepTransport)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, e: ProtocolError) -> JSONResponse:
        server.metrics.rejected.labels(e.code).inc()
        return _error(e)

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

    @app.post("/api/register")
    async def register(request: Request) -> JSONResponse:
        body = await _body(request)
        user = await auth.register(server.store, body.get("name"), body.get("password"))
        return await signed_in(user, JSONResponse({"user": user.to_json()}, status_code=201))

    @app.post("/api/login")
    async def login(request: Request) -> JSONResponse:
        body = await _body(request)
        user = await auth.login(server.store, body.get("name"), body.get("password"))
        return await signed_in(user, JSONResponse({"user": user.to_json()}))

    @app.post("/api/guest")
    async def guest() -> JSONResponse:
        user = await auth.guest(server.store)
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
    async def list_tables(game: str | None = None) -> dict[str, Any]:
        return {"tables": server.lobby.open_tables(game)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        user = await need_user(request)
        body = await _body(request)
        players = body.get("players")
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise ProtocolError("bad_options", "players must be a whole number.")
        seat = body.get("seat", 0)
        table = await server.lobby.create(
            user,
            game=str(body.get("game", "")),
            players=players,
            options=body.get("options"),
            bots=body.get("bots"),
            private=bool(body.get("private", False)),
            sit=bool(body.get("sit", True)),
            seat=seat if isinstance(seat, int) and not isinstance(seat, bool) else -1,
            turn_timeout=body.get("turn_timeout", "default"),
        )
        return JSONResponse(table_json(table, user), status_code=201)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request, invite: str | None = None) -> Any:
        user = await auth.user_of(server.store, request)
        table = server.lobby.get(table_id)
        if not visible(table, user, invite):
            raise ProtocolError("no_table", status=404)
        return table_json(table, user)

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Any:
        user = await need_user(request)
        body = await _body(request)
        table = server.lobby.get(table_id)
        invite = body.get("invite")
        if not visible(table, user, invite if isinstance(invite, str) else None):
            raise ProtocolError("no_table", status=404)
        seat = body.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ProtocolError("bad_seat", "No such seat.")
        got = await table.sit(user.id, user.name, seat)
        return {"seat": got, **table_json(table, user)}

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        await table.leave(user.id)
        return table_json(table, user)

    @app.post("/api/tables/{table_id}/bots")
    async def add_bot(table_id: str, request: Request) -> Any:
        user = await need_user(request)
        body = await _body(request)
        table = server.lobby.get(table_id)
        seat, level = body.get("seat"), body.get("level", 3)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ProtocolError("bad_seat", "No such seat.")
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
            raise ProtocolError("bad_bots", "Bot levels are 1-5.")
        await table.set_bot(user.id, seat, level)
        return table_json(table, user)

    @app.delete("/api/tables/{table_id}/bots/{seat}")
    async def remove_bot(table_id: str, seat: int, request: Request) -> Any:
        user = await need_user(request)
        table = server.lobby.get(table_id)
        await table.set_bot(user.id, seat, None)
        return table_json(table, user)

    @app.post("/api/quickplay")
    async def quick_play(request: Request) -> Any:
        user = await need_user(request)
        body = await _body(request)
        players, level = body.get("players"), body.get("level", 3)
        if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
            raise ProtocolError("bad_options", "players must be a whole number.")
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
            raise ProtocolError("bad_bots", "Bot levels are 1-5.")
        table = await server.lobby.quick_play(user, str(body.get("game", "")), players, level)
        return {"seat": table.seat_of(user.id), **table_json(table, user)}

    @app.get("/api/games")
    async def my_games(request: Request) -> dict[str, Any]:
        user = await need_user(request)
        return {"games": await server.lobby.games_of(user)}

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str, request: Request) -> dict[str, Any]:
        user = await auth.user_of(server.store, request)
        live = server.lobby.tables.get(table_id)
        row = live.row if live is not None else await server.store.table(table_id)
        if row is None:
            raise ProtocolError("no_table", status=404)
        names = [s.name or "" for s in row.seats]
        if live is not None and live.state is not None:
            state = live.state
        elif row.status in ("playing", "finished"):
            state = new_state(row)
            for a in await server.store.actions(table_id):
                state.play(a.text)
        else:
            raise ProtocolError("not_started", status=409)
        if row.status == "finished":
            # After the game the record shows every card (B3).
            return to_record(state, players=names, table=row.id)
        seat = None
        if user is not None:
            seat = next((i for i, s in enumerate(row.seats) if s.user_id == user.id), None)
        partial: dict[str, Any] = {
            "format": "kozyr-record/1",
            "complete": False,
            "game": row.game,
            "options": row.options,
            "players": names,
            "table": row.id,
            "actions": list(state.actions),
            "view": view_of(state, seat, events=True),
        }
        if row.game == "imperial":
            partial["first_dealer"] = row.first_dealer
        else:
            partial["join_order"] = list(row.join_order)
        return partial

    # -- the WebSocket --------------------------------------------------------------

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        if not origin_ok(
            ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins
        ):
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
