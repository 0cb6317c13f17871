"""Cluster mode: several processes over one database and one Redis (``KOZYR_REDIS_URL``).

Each process has a node id and listens on its own channel ``node:{id}`` (besides the
lobby's and ``cluster``, it subscribes to nothing else: what is addressed to another
process never reaches it). A request for a table this process does not own goes to the
owner's channel as ``{"kind": "req", "id", "from", "op", "table", "user", "args"}``; the
answer comes back on the requester's channel as ``{"kind": "rep", "id", "ok", "result" |
"error"}`` (an error is re-raised here as the owner's :class:`ProtocolError`). An owner
that does not answer within ``KOZYR_RPC_TIMEOUT`` is presumed dead: the caller waits for
its lease to expire, takes the table over (or finds who did), and tries again. The owner
sends a table's frames only to the processes with watchers there, on their own channels,
as ``{"kind": "frames", "from", "table", "to": [connection ids], "text"}``.

Ops: ``hello``, ``unwatch``, ``back``, ``act`` and ``say`` (table talk) for a relayed
connection (the owner keeps a :class:`RemoteClient` for it), and the lobby's ``sit``,
``leave``, ``set_bot`` and ``bet`` (``kozyr.server.tables.table_ops``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

from prometheus_client.core import CounterMetricFamily, Metric

from kozyr.server.money.escrow import parse_stake
from kozyr.server.play.games import game_of
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.tables.lobby import Lobby
from kozyr.server.tables.ownership import Ownership
from kozyr.server.tables.table import Table
from kozyr.server.tables.table_ops import OPS
from kozyr.server.talk.room import Talk
from kozyr.server.transport.close_codes import SERVICE_RESTART
from kozyr.server.transport.frames import (
    ActionFrame,
    BadActionFrame,
    HelloFrame,
    SayFrame,
    parse_frame,
)
from kozyr.server.transport.protocol import VERSION, Client, ProtocolError
from kozyr.server.transport.relay import Relay, Relayed, RemoteClient, node_channel

log = logging.getLogger("kozyr.server.cluster")

ATTEMPTS = 4
"""Tries of a forwarded request (each after the owner was found dead or the table moved)."""


class OwnerSilent(Exception):
    """The owner did not answer in time."""


Forwarded = TypeVar("Forwarded", HelloFrame, ActionFrame, SayFrame)


def forwarded(kind: type[Forwarded], fields: dict[str, Any]) -> Forwarded:
    """A client's frame another process forwarded, its fields taken from the request's
    ``args``, read by the parser that read it there (``transport.frames``): the owner
    acts on the same checked message. The ``args`` keep their names (``cid``, not
    ``id``) for processes of other versions."""
    frame = parse_frame({**fields, "type": kind.TYPE})
    if isinstance(frame, BadActionFrame):
        raise frame.error
    if not isinstance(frame, kind):  # cannot be: the type is the model's own
        raise ProtocolError("bad_frame")
    return frame


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.guest}


def user_of(data: Any) -> User:
    return User(int(data["id"]), str(data["name"]), bool(data["guest"]))


def error_json(e: ProtocolError) -> dict[str, Any]:
    return {
        "code": e.code,
        "message": e.message,
        "message_ru": e.message_ru,
        "status": e.status,
        "params": e.params,
        "reason": e.reason,
    }


def error_of(data: dict[str, Any]) -> ProtocolError:
    return ProtocolError(
        str(data.get("code")),
        data.get("message"),
        int(data.get("status") or 400),
        message_ru=data.get("message_ru"),
        params=data.get("params"),
        reason=data.get("reason"),
    )


class BusReceived:
    """``kozyr_bus_received_total{channel}``: the messages this process received from
    Redis, by channel (it subscribes only to its own ``node:`` channel, the lobby's and the
    cluster's, so another process's traffic never shows here)."""

    def __init__(self, bus: LocalBus) -> None:
        self.bus = bus

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "kozyr_bus_received",
            "Messages this process received from Redis, by channel",
            labels=["channel"],
        )
        for channel, count in sorted(self.bus.received.items()):
            family.add_metric([channel], count)
        yield family


def late_ms(request: dict[str, Any], now: int | None = None) -> int | None:
    """How many ms past its caller's timeout a forwarded request arrived, or None when it
    is in time (or carries no expiry: a process of an older version sent it). At the
    expiry itself it is late: its caller gives up at that very millisecond.

    >>> late_ms({"expires_ms": 10_000}, now=10_250), late_ms({"expires_ms": 10_000}, now=9_999)
    (250, None)
    >>> late_ms({"expires_ms": 10_000}, now=10_000)
    0
    """
    expires = request.get("expires_ms")
    if not isinstance(expires, int):
        return None
    over = (now_ms() if now is None else now) - expires
    return over if over >= 0 else None


class Cluster:
    """This process's part of the cluster, around its lobby: the cluster makes the
    :class:`Lobby` and gives it its leases (:class:`Ownership`) as it is made; then it
    forwards requests for other processes' tables and relays their frames."""

    def __init__(self, settings: Settings, store: Store, metrics: Metrics, bus: LocalBus) -> None:
        self.me = settings.node_id
        self.settings = settings
        self.store = store
        self.bus = bus
        self.lobby = Lobby(store, settings, metrics, bus, ownership=self._leases)
        self.talk = Talk(store)
        """Table talk at the tables this process owns, relayed connections' included."""
        assert self.lobby.ownership is not None
        self.ownership: Ownership = self.lobby.ownership
        self._calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._remote: dict[tuple[str, str, str], RemoteClient] = {}
        """(node, connection, table) -> the watcher standing for that relayed connection."""
        self.relays: dict[str, Relay] = {}
        """Connection id -> the tables it watches through other processes."""
        self._tasks: set[asyncio.Task[Any]] = set()
        bus.subscribe(node_channel(self.me), self._on_node)
        bus.subscribe("cluster", self._on_cluster)
        bus.on_lost.append(self._lost)
        metrics.registry.register(BusReceived(bus))

    def _leases(self, lobby: Lobby) -> Ownership:
        """The leases of ``lobby``'s tables (called by the lobby as it is made)."""
        return Ownership(self.settings, self.store, lobby, self._announce, self._dropped)

    def start(self) -> None:
        self.ownership.start()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await self.ownership.stop()

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- messages ---------------------------------------------------------------------

    def _on_node(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "frames":
            table_id, text, sender = message["table"], message["text"], message["from"]
            for conn in message.get("to", ()):
                relay = self.relays.get(conn)
                if relay is not None:
                    relay.deliver(sender, table_id, text)
        elif kind == "rep":
            future = self._calls.get(message.get("id", ""))
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "req":
            late = late_ms(message)
            if late is not None:
                # Its caller gave up (and told its client so) when the time ran out; a
                # request held up on the way (a Redis that stalled, then resumed) must
                # not change the table after that answer.
                log.warning(
                    "dropped a forwarded %s from %s: it came %d ms after its caller gave up",
                    message.get("op"),
                    message.get("from"),
                    late,
                )
                return
            self._spawn(self._serve(message))

    def _on_cluster(self, message: dict[str, Any]) -> None:
        """``{"table", "owner"}``: a process has taken a table over."""
        table_id, owner = message.get("table"), message.get("owner")
        if not isinstance(table_id, str) or not isinstance(owner, str):
            return
        for relay in list(self.relays.values()):
            relayed = relay.tables.get(table_id)
            if relayed is not None and relayed.owner != owner:
                self._spawn(self.rehello(relay, table_id))

    def _announce(self, table_id: str) -> None:
        self.bus.post("cluster", {"table": table_id, "owner": self.me})

    def _dropped(self, table_id: str) -> None:
        for key in [k for k in self._remote if k[2] == table_id]:
            self._remote.pop(key).closed = True

    def _lost(self) -> None:
        """Redis is gone (its connection reset, or no answer within
        ``KOZYR_REDIS_TIMEOUT``): relayed connections get a clear error and are closed (1012),
        so that they reconnect (to the owner, with luck); requests waiting for an answer
        fail; watchers from other processes are gone (their seats get the grace)."""
        error = ProtocolError("cluster_unavailable", status=503)
        for future in self._calls.values():
            if not future.done():
                future.set_exception(error)
        for relay in list(self.relays.values()):
            for table_id in list(relay.tables):
                relay.client.send(error.frame(table=table_id))
            relay.tables.clear()
            if relay.client.on_end is not None:
                relay.client.on_end(SERVICE_RESTART, "cluster unavailable")
        remote, self._remote = self._remote, {}
        for (_node, _conn, table_id), client in remote.items():
            table = self.lobby.tables.get(table_id)
            if table is not None:
                self._spawn(table.unwatch(client))
            client.closed = True

    # -- asking -----------------------------------------------------------------------

    async def call(
        self, node: str, op: str, table_id: str, user: User, args: dict[str, Any]
    ) -> Any:
        """Runs ``op`` on process ``node``; raises its ProtocolError, or
        :class:`OwnerSilent` after the timeout."""
        if not self.bus.available:
            raise ProtocolError("cluster_unavailable", status=503)
        call_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = future
        try:
            self.bus.post(
                node_channel(node),
                {
                    "kind": "req",
                    "id": call_id,
                    "from": self.me,
                    "op": op,
                    "table": table_id,
                    "user": user_json(user),
                    "args": args,
                    # wall-clock time, the one the processes share (docs/deploy.md: NTP)
                    "expires_ms": now_ms() + int(self.settings.rpc_timeout * 1000),
                },
            )
            async with asyncio.timeout(self.settings.rpc_timeout):
                reply = await future
        except TimeoutError:
            raise OwnerSilent(node) from None
        finally:
            self._calls.pop(call_id, None)
        if reply.get("ok"):
            return reply.get("result")
        raise error_of(reply.get("error") or {})

    async def forward(
        self, table_id: str, op: str, user: User, args: dict[str, Any]
    ) -> dict[str, Any]:
        """A lobby op (``table_ops.OPS``) on the table wherever it is run."""
        for _ in range(ATTEMPTS):
            target = await self.ownership.route(table_id)
            if isinstance(target, Table):
                return await OPS[op](target, user, args)
            try:
                result: dict[str, Any] = await self.call(target, op, table_id, user, args)
                return result
            except OwnerSilent:
                await self.ownership.after_silence(table_id, target)
            except ProtocolError as e:
                if e.code != "moved":
                    raise
                await asyncio.sleep(0.2)
        raise ProtocolError("cluster_unavailable", status=503)

    async def quick_seat(
        self,
        user: User,
        game: str,
        players: int | None,
        rated: bool | None,
        stake: Any,
        addr: str | None = None,
    ) -> dict[str, Any] | None:
        """Quick play's seat at an open public table another process runs (from the
        lobby notices), as ``{"seat", "table"}``; None when there is none to take."""
        game_of(game)  # bad_game, as on one process
        terms = parse_stake(stake, game)
        if user.guest:
            rated = False
        found = [
            info
            for table_id, info in list(self.lobby.remote.items())
            if table_id not in self.lobby.tables
            and info.get("game") == game
            and info.get("status") == "open"
            and not info.get("private")
            and (players is None or info.get("players") == players)
            and (rated is None or info.get("rated") == rated)
            and info.get("stake") == terms
            and any(s.get("kind") == "empty" for s in info.get("seats", ()))
            and all(s.get("user_id") != user.id for s in info.get("seats", ()))
        ]
        found.sort(key=lambda i: not i.get("rated"))  # rated first, as on one process
        for info in found:
            try:
                args = {"seat": None, "addr": addr}
                return await self.forward(str(info["id"]), "sit", user, args)
            except ProtocolError:
                continue  # filled or started meanwhile: the next one
        return None

    # -- answering --------------------------------------------------------------------

    async def _serve(self, message: dict[str, Any]) -> None:
        sender = str(message.get("from"))
        reply: dict[str, Any] = {"kind": "rep", "id": message.get("id")}
        try:
            result = await self._run(
                str(message["op"]),
                str(message["table"]),
                user_of(message["user"]),
                message.get("args") or {},
                sender,
            )
            reply.update(ok=True, result=result)
        except ProtocolError as e:
            reply.update(ok=False, error=error_json(e))
        except Fenced:  # lost the table while changing it: the caller finds the new owner
            reply.update(ok=False, error=error_json(ProtocolError("moved", status=503)))
        except Exception:
            log.exception("forwarded %s failed", message.get("op"))
            reply.update(ok=False, error=error_json(ProtocolError("busy", status=503)))
        self.bus.post(node_channel(sender), reply)

    async def _run(
        self, op: str, table_id: str, user: User, args: dict[str, Any], sender: str
    ) -> Any:
        table = self.lobby.tables.get(table_id)
        if table is None:
            # not (or no longer) ours: the caller looks for the owner again
            raise ProtocolError("moved", status=503)
        conn = str(args.get("conn", ""))
        key = (sender, conn, table_id)
        if op == "hello":
            hello = forwarded(
                HelloFrame,
                {"table": table_id, "last_seq": args.get("last_seq"), "invite": args.get("invite")},
            )
            row = table.row
            if row.private and not (
                row.creator_id == user.id
                or table.seat_of(user.id) is not None
                or (hello.invite is not None and hello.invite == row.invite_code)
            ):
                raise ProtocolError("no_table")
            client = self._remote.get(key)
            if client is None:
                client = RemoteClient(user, sender, conn, table_id, self.me, self.bus.post)
                self._remote[key] = client
            await table.watch(client, hello.last_seq)
            # the talk after the answer, not before it: its reads must not hold the
            # relaying process's hello (a Redis lost meanwhile would leave its watcher
            # without a word of why it is closed)
            self._spawn(self.talk.history(table, client))
            return {"you": table.watchers.get(client)}
        if op == "unwatch":
            client = self._remote.pop(key, None)
            if client is not None:
                await table.unwatch(client)
                client.closed = True
            return {}
        if op == "back":
            client = self._remote.get(key)
            if client is None:
                raise ProtocolError("not_watching")
            await table.back(client)
            return {}
        if op == "act":
            action = forwarded(
                ActionFrame,
                {
                    "table": table_id,
                    "id": args.get("cid"),
                    "action": args.get("action"),
                    "seq": args.get("seq"),
                },
            )
            seat = table.seat_of(user.id)
            if seat is None:
                raise ProtocolError("not_seated")
            reply = self._remote.get(key)
            seq, duplicate = await table.act(
                seat, action.action, action.id, "person", reply=reply, expect_seq=action.seq
            )
            return {"seq": seq, "duplicate": duplicate, "acked": reply is not None}
        if op == "say":
            say = forwarded(
                SayFrame,
                {
                    "table": table_id,
                    "channel": args.get("channel"),
                    "text": args.get("text"),
                    "phrase": args.get("phrase"),
                },
            )
            said = await self.talk.say(table, user, self._remote.get(key), say)
            return {"id": said.id}
        if op in OPS:
            return await OPS[op](table, user, args)
        raise ProtocolError("unknown_type")

    # -- relayed connections ----------------------------------------------------------

    def relay_of(self, conn: str, client: Client, user: User) -> Relay:
        relay = self.relays.get(conn)
        if relay is None:
            relay = self.relays[conn] = Relay(conn, client, user)
        return relay

    async def hello(
        self, relay: Relay, table_id: str, last_seq: int | None, invite: str | None
    ) -> Table | None:
        """Watches a table through its owner; returns the table instead when it is (now)
        run here (the caller then watches it locally)."""
        async with relay.lock:
            return await self._hello(relay, table_id, last_seq, invite)

    async def _hello(
        self, relay: Relay, table_id: str, last_seq: int | None, invite: str | None
    ) -> Table | None:
        for _ in range(ATTEMPTS):
            target = await self.ownership.route(table_id)
            if isinstance(target, Table):
                relay.tables.pop(table_id, None)
                return target
            # known before asking: the owner's frames may come before its answer
            relay.tables[table_id] = Relayed(target, last_seq)
            args = {"conn": relay.conn, "last_seq": last_seq, "invite": invite}
            try:
                await self.call(target, "hello", table_id, relay.user, args)
                return None
            except OwnerSilent:
                await self.ownership.after_silence(table_id, target)
            except ProtocolError as e:
                if e.code != "moved":
                    relay.tables.pop(table_id, None)
                    raise
                await asyncio.sleep(0.2)
        relay.tables.pop(table_id, None)
        raise ProtocolError("cluster_unavailable", status=503)

    async def rehello(self, relay: Relay, table_id: str) -> None:
        """The table has a new owner: the connection catches up there from its last
        ``seq`` (or watches it here, if this process took it)."""
        async with relay.lock:
            relayed = relay.tables.get(table_id)
            if relayed is None:
                return
            try:
                table = await self._hello(relay, table_id, relayed.last_seq, None)
                if table is not None:
                    await table.watch(relay.client, relayed.last_seq)
                    await self.talk.history(table, relay.client)
            except ProtocolError as e:
                relay.client.send(e.frame(table=table_id))
            except Exception:
                log.exception("re-hello of table %s failed", table_id)

    async def act(self, relay: Relay, table_id: str, frame: ActionFrame) -> Table | None:
        """A relayed connection's action, sent to the owner (whose answer is the ack,
        sent to the connection as a frame); the table instead when it is run here."""
        args = {"conn": relay.conn, "action": frame.action, "cid": frame.id, "seq": frame.seq}
        for _ in range(ATTEMPTS):
            relayed = relay.tables.get(table_id)
            if relayed is None:
                return self.lobby.tables.get(table_id)
            try:
                done = await self.call(relayed.owner, "act", table_id, relay.user, args)
                if not done.get("acked"):  # the owner did not know this connection
                    ack = {"v": VERSION, "type": "ack", "table": table_id, "id": frame.id}
                    ack["seq"] = done["seq"]
                    if done.get("duplicate"):
                        ack["duplicate"] = True
                    relay.client.send(ack)
                return None
            except OwnerSilent:
                await self.ownership.after_silence(table_id, relayed.owner)
                await self.rehello(relay, table_id)
            except ProtocolError as e:
                if e.code != "moved":
                    raise
                await asyncio.sleep(0.2)
                await self.rehello(relay, table_id)
        raise ProtocolError("cluster_unavailable", status=503)

    async def say(self, relay: Relay, table_id: str, frame: SayFrame) -> Table | None:
        """A relayed connection's line of talk, said at the owner (whose ``said`` frame
        comes back as any other); the table instead when it is run here."""
        args = {
            "conn": relay.conn,
            "channel": frame.channel,
            "text": frame.text,
            "phrase": frame.phrase,
        }
        for _ in range(ATTEMPTS):
            relayed = relay.tables.get(table_id)
            if relayed is None:
                return self.lobby.tables.get(table_id)
            try:
                await self.call(relayed.owner, "say", table_id, relay.user, args)
                return None
            except OwnerSilent:
                await self.ownership.after_silence(table_id, relayed.owner)
                await self.rehello(relay, table_id)
            except ProtocolError as e:
                if e.code != "moved":
                    raise
                await asyncio.sleep(0.2)
                await self.rehello(relay, table_id)
        raise ProtocolError("cluster_unavailable", status=503)

    async def simple(self, relay: Relay, table_id: str, op: str) -> None:
        """``unwatch`` or ``back`` of a relayed connection."""
        relayed = relay.tables.get(table_id)
        if relayed is None:
            raise ProtocolError("no_table")
        if op == "unwatch":
            relay.tables.pop(table_id, None)
        with contextlib.suppress(OwnerSilent):
            await self.call(relayed.owner, op, table_id, relay.user, {"conn": relay.conn})

    def forget(self, conn: str) -> None:
        """The connection closed: its owners forget it (without waiting for them)."""
        relay = self.relays.pop(conn, None)
        if relay is None:
            return
        for table_id, relayed in relay.tables.items():
            self.bus.post(
                node_channel(relayed.owner),
                {
                    "kind": "req",
                    "id": uuid.uuid4().hex,
                    "from": self.me,
                    "op": "unwatch",
                    "table": table_id,
                    "user": user_json(relay.user),
                    "args": {"conn": conn},
                },
            )
        relay.tables.clear()
