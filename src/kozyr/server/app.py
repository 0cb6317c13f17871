"""The FastAPI application: HTTP lobby and accounts, the WebSocket, health and metrics."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
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
from starlette.websockets import WebSocketDisconnect, WebSocketState

from kozyr.records import to_record
from kozyr.server import auth
from kozyr.server.bus import make_bus
from kozyr.server.config import Settings
from kozyr.server.lobby import Lobby
from kozyr.server.metrics import Metrics
from kozyr.server.protocol import (
    VERSION,
    Client,
    ProtocolError,
)
from kozyr.server.store import Store, User
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
            await server.lobby.close()
            await server.bus.stop()
            await server.store.close()

    app = FastAPI(title="kozyr", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.server = server

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
            await server.store.delete_session(token)
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
        await Connection(server, ws, user).run()

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


class Connection:
    """One client's WebSocket: reads, checks and dispatches its frames; writes its queue."""

    def __init__(self, server: Server, ws: WebSocket, user: User) -> None:
        self.server = server
        self.ws = ws
        self.user = user
        self.client = Client(user)
        self.wakeup = asyncio.Event()
        self.client.attach(self.wakeup)
        self.times: deque[float] = deque()

    async def run(self) -> None:
        metrics = self.server.metrics
        metrics.connections.inc()
        writer = asyncio.create_task(self._writer())
        try:
            self.client.send({"v": VERSION, "type": "welcome", "user": self.user.to_json()})
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if self._flooding():
                    await self._close(1008)
                    break
                raw = message.get("text")
                if raw is None:
                    data = message.get("bytes") or b""
                    size = len(data)
                    try:
                        raw = data.decode("utf-8")
                    except UnicodeDecodeError:
                        raw = "\x00"  # not JSON
                else:
                    limit = self.server.settings.max_frame
                    size = len(raw) if len(raw) <= limit // 4 else len(raw.encode("utf-8"))
                if size > self.server.settings.max_frame:
                    self._reject(ProtocolError("too_large"))
                    continue
                await self._handle(raw)
        except WebSocketDisconnect:
            pass
        finally:
            self.client.closed = True
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            self.server.lobby.lobby_watchers.discard(self.client)
            for table_id in list(self.client.tables):
                table = self.server.lobby.tables.get(table_id)
                if table is not None:
                    await table.unwatch(self.client)
            metrics.connections.dec()

    def _flooding(self) -> bool:
        now = time.monotonic()
        self.times.append(now)
        while self.times and self.times[0] < now - 1.0:
            self.times.popleft()
        return len(self.times) > self.server.settings.flood_frames

    async def _close(self, code: int) -> None:
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self._flush()
                await self.ws.close(code=code)

    async def _flush(self) -> None:
        for frame in self.client.take():
            await self.ws.send_text(frame)

    async def _writer(self) -> None:
        try:
            while True:
                await self.wakeup.wait()
                self.wakeup.clear()
                if self.client.overflow:
                    # A client that does not read its frames: drop it (it may reconnect).
                    await self.ws.close(code=1013)
                    return
                await self._flush()
        except (WebSocketDisconnect, RuntimeError):
            return

    def _reject(self, e: ProtocolError, **extra: Any) -> None:
        self.server.metrics.rejected.labels(e.code).inc()
        self.client.send(e.frame(**extra))

    async def _handle(self, raw: str) -> None:
        try:
            data = json.loads(raw)
        except ValueError:
            self._reject(ProtocolError("bad_json"))
            return
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            self._reject(ProtocolError("bad_frame", 'A frame is an object with a "type".'))
            return
        table_id = data.get("table")
        cid = data.get("id")
        extra = {
            "table": table_id if isinstance(table_id, str) and len(table_id) <= 32 else None,
            "id": cid if isinstance(cid, str | int) and not isinstance(cid, bool) else None,
        }
        if isinstance(extra["id"], str) and len(extra["id"]) > 64:
            extra["id"] = None
        try:
            if data.get("v", VERSION) != VERSION:
                raise ProtocolError("bad_version")
            kind = data["type"]
            if kind == "action":
                await self._action(data)
            elif kind == "hello":
                await self._hello(data)
            elif kind == "unwatch":
                table = self._table(data)
                await table.unwatch(self.client)
            elif kind == "back":
                await self._table(data).back(self.client)
            elif kind == "lobby":
                self.server.lobby.lobby_watchers.add(self.client)
                self.client.send(
                    {"v": VERSION, "type": "lobby", "tables": self.server.lobby.open_tables()}
                )
            elif kind == "ping":
                self.client.send({"v": VERSION, "type": "pong", "t": data.get("t")})
            else:
                raise ProtocolError("unknown_type")
        except ProtocolError as e:
            self._reject(e, **extra)
        except Exception:
            log.exception("frame handling failed")
            self._reject(
                ProtocolError("bad_frame", "The server could not handle the frame."), **extra
            )

    def _table(self, data: dict[str, Any]) -> Table:
        table_id = data.get("table")
        if not isinstance(table_id, str):
            raise ProtocolError("no_table")
        table = self.server.lobby.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table")
        return table

    async def _hello(self, data: dict[str, Any]) -> None:
        table = self._table(data)
        invite = data.get("invite")
        row = table.row
        if row.private and not (
            row.creator_id == self.user.id
            or table.seat_of(self.user.id) is not None
            or (isinstance(invite, str) and invite == row.invite_code)
        ):
            raise ProtocolError("no_table")
        last = data.get("last_seq")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            last = -1  # nonsense: a full resync
        await table.watch(self.client, last)

    async def _action(self, data: dict[str, Any]) -> None:
        started = time.perf_counter()
        table = self._table(data)
        cid = data.get("id")
        if isinstance(cid, int) and not isinstance(cid, bool):
            cid = str(cid)
        if not isinstance(cid, str) or not 1 <= len(cid) <= 64:
            raise ProtocolError(
                "bad_frame", 'An action needs an "id": a string of 1-64 characters.'
            )
        action = data.get("action")
        if not isinstance(action, str) or not 1 <= len(action) <= 32:
            raise ProtocolError("bad_frame", 'An action needs "action": the move as text.')
        # A connection acts only for its own seat: the seat comes from who signed in.
        seat = table.seat_of(self.user.id)
        if seat is None:
            raise ProtocolError("not_seated")
        await table.act(seat, action, cid, "person", reply=self.client)
        self.server.metrics.latency.observe(time.perf_counter() - started)
