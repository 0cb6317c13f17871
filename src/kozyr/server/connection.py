"""One client's WebSocket: reading, checking and dispatching its frames, and writing its
outgoing queue."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from kozyr.server.protocol import VERSION, Client, ProtocolError
from kozyr.server.store import User
from kozyr.server.tables import Table

if TYPE_CHECKING:
    from kozyr.server.app import Server

log = logging.getLogger("kozyr.server")


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
                frame = self.server.lobby.lobby_frame(data.get("offset"), data.get("limit"))
                self.server.lobby.lobby_watchers.add(self.client)
                self.client.send(frame)
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
        invite = data.get("invite")
        table_id = data.get("table")
        if isinstance(table_id, str) and table_id not in self.server.lobby.tables:
            # A finished table has left memory: the database tells how it ended.
            for frame in await self.server.lobby.finished_hello(table_id, self.user, invite):
                self.client.send(frame)
            return
        table = self._table(data)
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
