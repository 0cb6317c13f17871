"""One client's WebSocket: reading its frames, each parsed into a typed message
(``transport.frames.parse_frame``) and dispatched on its class, and writing its outgoing
queue."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol, assert_never

from fastapi import WebSocket
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect, WebSocketState

from kozyr.server.accounts.throttle import invite_keys
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import User, token_hash
from kozyr.server.tables.table import Table
from kozyr.server.transport.addresses import address_key
from kozyr.server.transport.close_codes import POLICY, TRY_AGAIN_LATER
from kozyr.server.transport.framebatch import FrameBatch
from kozyr.server.transport.frames import (
    ActionFrame,
    BackFrame,
    BadActionFrame,
    FrameError,
    HelloFrame,
    LobbyFrame,
    PingFrame,
    SayFrame,
    UnwatchFrame,
    parse_frame,
)
from kozyr.server.transport.protocol import VERSION, Client, ProtocolError, dumps
from kozyr.server.transport.relay import Relay

if TYPE_CHECKING:
    from kozyr.server.services import Server

log = logging.getLogger("kozyr.server")

TRANSPORT_KEY = "kozyr.transport"
SEND_KEY = "kozyr.send"


class Transport(Protocol):
    """What the connection needs of the server's transport (asyncio's or uvloop's)."""

    def abort(self) -> None: ...

    def get_write_buffer_size(self) -> int: ...


class KeepTransport:
    """ASGI middleware: puts the server's transport of a WebSocket into its scope.

    ASGI has no way to abort a connection: a close is a frame written after everything
    queued, and a peer that reads nothing never lets it through (uvicorn's send then waits
    on the transport's drain for ever). The ``send`` the server hands the application is
    a method of its protocol object, which holds the transport; taking it here, before the
    framework wraps ``send``, lets the connection abort a socket whose peer has stopped
    reading. With a server that does not expose it the scope simply has no transport, and
    such sockets are only closed as ASGI allows.

    The server's own ``send`` is kept too: the writer hands frames straight to it, past
    the framework's wrappers, which were a measurable part of each spectator's cost.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            # Duck-typed: uvloop's transports are not asyncio.Transport subclasses.
            if callable(getattr(transport, "abort", None)) and callable(
                getattr(transport, "get_write_buffer_size", None)
            ):
                scope[TRANSPORT_KEY] = transport
        await self.app(scope, receive, send)


class Connection:
    """One client's WebSocket: reads its frames, hands each as a typed message to its
    handler; writes its queue."""

    def __init__(self, server: Server, ws: WebSocket, user: User, session: str | None) -> None:
        settings = server.settings
        self.server = server
        self.ws = ws
        self.user = user
        self.session = token_hash(session) if session else None
        """The SHA-256 of the session token it was opened with (logout closes those)."""
        self.address = address_key(ws.client.host) if ws.client is not None else "?"
        self.client = Client(user, max_bytes=settings.socket_buffer)
        self.wakeup = asyncio.Event()
        """Wakes the writer task: frames that cannot be written at once (see _flush)."""
        self._loop = asyncio.get_running_loop()
        self._flush_due = False
        self._writer_busy = False
        """The writer task holds frames (or waits on the socket): the next ones wait for it."""
        self._dead = False
        """Writing failed (the peer is gone): nothing more is written."""
        self.client.attach(self._wake)
        self.client.on_overflow = lambda: self.cut_off(
            f"more than {settings.socket_buffer} bytes of frames waited to be written"
        )
        self.transport: Transport | None = ws.scope.get(TRANSPORT_KEY)
        self._send: Send | None = ws.scope.get(SEND_KEY)
        self._batch = FrameBatch.of(self._send if self._send is not None else ws.send)
        self.times: deque[float] = deque()
        self.sending_since: float | None = None
        """When the frame now being written was handed to the socket (None: idle)."""
        self.stopped = False
        """Set when the connection is being closed: no further frame is acted upon."""
        self._writer: asyncio.Task[None] | None = None
        self._ending: asyncio.Task[None] | None = None
        self.conn_id = secrets.token_hex(8)
        """This connection's name between processes (cluster mode)."""
        self.client.on_end = self._end_soon

    def _end_soon(self, code: int, reason: str) -> None:
        """Closes the socket after the frames queued (a table moved away)."""
        if self._ending is None:
            self.stopped = True
            self._ending = asyncio.create_task(self.end(code, reason))

    @property
    def relay(self) -> Relay | None:
        """The tables this connection watches through other processes (cluster mode)."""
        cluster = self.server.cluster
        return None if cluster is None else cluster.relays.get(self.conn_id)

    async def run(self) -> None:
        sockets = self.server.sockets
        if not sockets.add(self):
            await self._refuse()
            return
        metrics = self.server.metrics
        metrics.connections.inc()
        self._writer = asyncio.create_task(self._write())
        try:
            self.client.send({"v": VERSION, "type": "welcome", "user": self.user.to_json()})
            while not self.stopped:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect" or self.stopped:
                    break
                if self._flooding() or not sockets.spend(self.user.id):
                    self._reject(ProtocolError("flood"))
                    await self.end(POLICY, "flood")
                    break
                text: str | None = message.get("text")
                raw: str | bytes = text if text is not None else (message.get("bytes") or b"")
                await self._handle(raw)
        except (WebSocketDisconnect, RuntimeError):
            pass  # the socket went away (or was closed under us)
        finally:
            self.stopped = True
            self.client.closed = True
            self.client.drop()
            if self._writer is not None:
                self._writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._writer
            if self._ending is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._ending
            sockets.remove(self)
            self.server.lobby.unwatch_lobby(self.client)
            if self.server.cluster is not None:
                self.server.cluster.forget(self.conn_id)
            for table_id in list(self.client.tables):
                table = self.server.lobby.tables.get(table_id)
                if table is not None:
                    await table.unwatch(self.client)
            metrics.connections.dec()

    async def _refuse(self) -> None:
        """Past the caps on open sockets: say why, then close (1008)."""
        self.server.metrics.rejected.labels("too_many_connections").inc()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.server.settings.write_timeout):
                await self.ws.send_text(dumps(ProtocolError("too_many_connections").frame()))
                await self.ws.close(code=POLICY, reason="too many connections")
                return
        self._abort()

    def _flooding(self) -> bool:
        now = time.monotonic()
        self.times.append(now)
        while self.times and self.times[0] < now - 1.0:
            self.times.popleft()
        return len(self.times) > self.server.settings.flood_frames

    # -- writing and closing ----------------------------------------------------------

    def _wake(self) -> None:
        """A frame was queued: the queue goes to the socket once the code now running
        yields (so that a move's ack and update leave in one write)."""
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Writes the queue at once when the socket takes it without waiting; otherwise
        (a handshake or close under way, a full transport, no batch writer) the writer
        task does. A callback, not a task's wake-up: with a thousand people this is most
        of the writes, and a task's turn costs several times a callback's."""
        self._flush_due = False
        batch = self._batch
        if self._dead or self.client.closed:
            return
        if batch is None or self._writer_busy or not batch.can_write_now():
            self.wakeup.set()
            return
        texts = self.client.take()
        if not texts:
            return
        try:
            batch.write_now(texts)
        except OSError:
            self._dead = True  # gone: the reader sees the disconnect and ends the rest
            return
        # nothing else is in flight (the writer task holds nothing): all queued is written
        self.client.pending_bytes = 0

    async def _write(self) -> None:
        client, send = self.client, self._send
        if send is None:
            send = self.ws.send
        batch = self._batch
        try:
            while True:
                await self.wakeup.wait()
                self.wakeup.clear()
                if self._dead:
                    return
                self._writer_busy = True
                texts = client.take()
                # The watchdog (``Sockets``) cuts off a send that waits too long:
                # a per-send timer would cost more than the send itself.
                if batch is not None and batch.ready():
                    self.sending_since = time.monotonic()
                    await batch.write(texts)
                    self.sending_since = None
                    for text in texts:
                        client.written(text)
                else:
                    for text in texts:
                        self.sending_since = time.monotonic()
                        await send({"type": "websocket.send", "text": text})
                        self.sending_since = None
                        client.written(text)
                self._writer_busy = False
                if client.queue:  # queued while this wrote: _flush left them to the task
                    self.wakeup.set()
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._dead = True
            return  # gone (servers raise OSError subclasses for a lost peer)

    def stop(self) -> None:
        """From now on nothing this connection reads is acted upon."""
        self.stopped = True

    def cut_off(self, why: str) -> None:
        """A client that does not read its frames: closed (1013) without waiting for it;
        it may reconnect and resynchronise."""
        if self._ending is not None:
            return
        log.warning("closing a WebSocket of user %s (%s): %s", self.user.id, TRY_AGAIN_LATER, why)
        self.stopped = True
        self.client.closed = True
        self.client.drop()
        self._ending = asyncio.create_task(self.end(TRY_AGAIN_LATER, "too slow", flush=False))

    async def end(self, code: int, reason: str = "", flush: bool = True) -> None:
        """Closes the socket with ``code``: what is queued first (``flush``), then the close
        frame. A peer that does not take them within the write timeout has its transport
        aborted: a graceful close would keep the socket and its buffers for ever."""
        self.stopped = True
        self.client.closed = True
        stuck = self.sending_since is not None
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        pending = [] if stuck or not flush else self.client.take()
        self.client.drop()
        if stuck:  # the transport is full: nothing more can be written to it
            self._abort()
            return
        try:
            async with asyncio.timeout(self.server.settings.write_timeout):
                for text in pending:
                    await self.ws.send_text(text)
                if self.ws.application_state == WebSocketState.CONNECTED:
                    await self.ws.close(code=code, reason=reason)
                # The close frame is on its way only once the transport has passed it on.
                while self.transport is not None and self.transport.get_write_buffer_size():
                    await asyncio.sleep(0.05)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            self._abort()
        except Exception:
            log.exception("closing a WebSocket failed")
            self._abort()

    def _abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    # -- reading ----------------------------------------------------------------------

    def _reject(self, e: ProtocolError, **extra: Any) -> None:
        self.server.metrics.rejected.labels(e.code).inc()
        self.client.send(e.frame(**extra))

    async def _handle(self, raw: str | bytes) -> None:
        """One frame: parsed (every refusal of its shape is the parser's), then handled by
        its message's class; a refusal either way is an ``error`` frame repeating the
        frame's ``table`` and ``id`` (``Echo``), and changes nothing."""
        try:
            frame = parse_frame(raw, self.server.settings.max_frame)
        except FrameError as e:
            self._reject(e)  # with what the frame's error repeats of it, if anything
            return
        except Exception:
            log.exception("frame parsing failed")
            self._reject(ProtocolError("bad_frame", "The server could not handle the frame."))
            return
        try:
            match frame:
                case ActionFrame():
                    await self._action(frame)
                case BadActionFrame():
                    # The table is looked for first, as for a good action: one for a
                    # table that is not there is no_table, whatever else is wrong with it.
                    if self._relayed(frame.table) is None:
                        self._table(frame.table)
                    raise frame.error
                case HelloFrame():
                    await self._hello_guarded(frame)
                case UnwatchFrame() | BackFrame():
                    await self._unwatch_or_back(frame)
                case LobbyFrame():
                    reply = self.server.lobby.lobby_frame(frame.offset, frame.limit)
                    self.server.lobby.watch_lobby(self.client)
                    self.client.send(reply)
                case PingFrame():
                    self.client.send({"v": VERSION, "type": "pong", "t": frame.t})
                case SayFrame():
                    await self._say(frame)
                case _:
                    assert_never(frame)
        except ProtocolError as e:
            self._reject(e, **frame.echo.fields())
        except Fenced:
            self._reject(ProtocolError("moved", status=503), **frame.echo.fields())
        except Exception:
            log.exception("frame handling failed")
            self._reject(
                ProtocolError("bad_frame", "The server could not handle the frame."),
                **frame.echo.fields(),
            )

    def _table(self, table_id: str | None) -> Table:
        table = self.server.lobby.tables.get(table_id) if table_id is not None else None
        if table is None:
            raise ProtocolError("no_table")
        return table

    def _relayed(self, table_id: str | None) -> Relay | None:
        """The relay through which this connection watches ``table_id``, if it does."""
        relay = self.relay
        return relay if relay is not None and table_id in relay.tables else None

    async def _unwatch_or_back(self, frame: UnwatchFrame | BackFrame) -> None:
        relay = self._relayed(frame.table)
        if relay is not None and frame.table is not None:
            assert self.server.cluster is not None
            await self.server.cluster.simple(relay, frame.table, frame.TYPE)
        elif isinstance(frame, UnwatchFrame):
            await self._table(frame.table).unwatch(self.client)
        else:
            await self._table(frame.table).back(self.client)

    async def _hello_guarded(self, frame: HelloFrame) -> None:
        """:meth:`_hello`, with wrong invites counted as over HTTP
        (``routes.common.invite_guarded``): ``too_many_invite_guesses`` once too many."""
        if frame.invite is None:
            await self._hello(frame)
            return
        throttles = self.server.throttles
        keys = invite_keys(self.address, self.user.id)
        if throttles.invite_wait(keys) is not None:
            raise ProtocolError("too_many_invite_guesses", status=429)
        try:
            await self._hello(frame)
        except ProtocolError as e:
            if e.code == "no_table":
                throttles.invite_missed(keys)
            raise

    async def _hello(self, frame: HelloFrame) -> None:
        table_id, last, invite = frame.table, frame.last_seq, frame.invite
        table: Table | None = None
        if table_id is not None and table_id not in self.server.lobby.tables:
            cluster = self.server.cluster
            row = None
            if cluster is not None and len(table_id) <= 16:
                row = await self.server.store.table(table_id)
            if cluster is not None and row is not None and row.status != "finished":
                # Another process runs it: watch it through that one.
                relay = cluster.relay_of(self.conn_id, self.client, self.user)
                table = await cluster.hello(relay, table_id, last, invite)
                if table is None:
                    self.server.lobby.unwatch_lobby(self.client)
                    return
            else:
                # A finished table has left memory: the database tells how it ended.
                for reply in await self.server.lobby.finished_hello(table_id, self.user, invite):
                    self.client.send(reply)
                await self.server.talk.finished_history(table_id, self.client)
                self.server.lobby.unwatch_lobby(self.client)
                return
        if table is None:
            table = self._table(table_id)
        row = table.row
        if row.private and not (
            row.creator_id == self.user.id
            or table.seat_of(self.user.id) is not None
            or (invite is not None and invite == row.invite_code)
        ):
            raise ProtocolError("no_table")
        await table.watch(self.client, last)
        await self.server.talk.history(table, self.client)
        # Going to a table leaves the lobby (the page asks for the lobby again when it
        # shows it): notices go to those looking at the lobby, not to every connection
        # that ever did, which made each change of any table cost a frame per person.
        self.server.lobby.unwatch_lobby(self.client)

    async def _action(self, frame: ActionFrame) -> None:
        started = time.perf_counter()
        relay = self._relayed(frame.table)
        table = None if relay is not None else self._table(frame.table)
        if table is None:
            assert relay is not None and frame.table is not None
            assert self.server.cluster is not None
            table = await self.server.cluster.act(relay, frame.table, frame)
            if table is None:  # the owner acked it to this connection
                self.server.metrics.latency.observe(time.perf_counter() - started)
                return
        # A connection acts only for its own seat: the seat comes from who signed in.
        seat = table.seat_of(self.user.id)
        if seat is None:
            raise ProtocolError("not_seated")
        # A double click sends the second intent against a view that is already gone:
        # with the seq it was made against, it is refused as stale instead of applied.
        await table.act(
            seat, frame.action, frame.id, "person", reply=self.client, expect_seq=frame.seq
        )
        self.server.metrics.latency.observe(time.perf_counter() - started)

    async def _say(self, frame: SayFrame) -> None:
        """A line of table talk, said where the table is run (``server/talk``)."""
        relay = self._relayed(frame.table)
        table = None if relay is not None else self._table(frame.table)
        if table is None:
            assert relay is not None and frame.table is not None
            assert self.server.cluster is not None
            table = await self.server.cluster.say(relay, frame.table, frame)
            if table is None:  # said at the owner
                return
        await self.server.talk.say(table, self.user, self.client, frame)
