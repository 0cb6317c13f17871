"""Fan-out of notices between the parts of the server (and, with Redis, between server
processes): ``publish(channel, message)`` and ``subscribe(channel, callback)``.

The bus carries lobby notices (a table was opened, filled, finished) so that every
process can tell its lobby watchers and, in cluster mode, the requests, replies and frames
between processes (``kozyr.server.cluster``). The in-process bus is the default;
``KOZYR_REDIS_URL`` selects Redis.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("kozyr.server.runtime.bus")

Callback = Callable[[dict[str, Any]], None]

DEFAULT_TIMEOUT = 2.5
"""Seconds Redis may take to answer before it counts as lost (``KOZYR_REDIS_TIMEOUT``)."""


class RedisUnavailable(RuntimeError):
    """Redis cannot be reached at the URL given (at start: the server does not start)."""

    def __init__(self, url: str, why: str) -> None:
        super().__init__(f"cannot reach Redis at {redact(url)}: {why}")
        self.url = redact(url)


def redact(url: str) -> str:
    """The URL without its password, fit for a message or a log line."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    auth, _, host = rest.rpartition("@")
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user + ':***' if ':' in auth else user}@{host}"


class Bus(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, channel: str, callback: Callback) -> None: ...


class LocalBus:
    """Delivers each message to the callbacks of this process, in order."""

    available = True
    """False while Redis is lost (the local bus is always there)."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Callback]] = {}
        self.on_lost: list[Callable[[], None]] = []
        """Called when the bus loses Redis (never for the local bus)."""
        self.received: collections.Counter[str] = collections.Counter()
        """Messages received from Redis, by channel (none for the local bus)."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def deliver(self, channel: str, message: dict[str, Any]) -> None:
        for callback in list(self._subs.get(channel, ())):
            try:
                callback(message)
            except Exception:  # a faulty subscriber must not stop the others
                log.exception("bus subscriber failed on %s", channel)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.deliver(channel, message)

    def subscribe(self, channel: str, callback: Callback) -> None:
        self._subs.setdefault(channel, []).append(callback)

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Publishes without waiting, in the order of the calls."""
        self.deliver(channel, message)


class RedisSilent(ConnectionError):
    """Redis did not answer a PING in time: stopped, or the network drops the packets (a
    connection that is neither answered nor reset)."""


class RedisBus(LocalBus):
    """Publishes through Redis pub/sub. A process subscribes only to the channels it has
    callbacks for (its own ``node:`` channel, the lobby's and the cluster's), so that what
    is addressed to one process (requests, answers, a table's frames for its watchers)
    reaches that process alone; a process receives its own messages too, as any other.

    Redis is lost when its connection is reset or when it stops answering: the listener's
    connection is PINGed whenever it has been quiet for a third of ``timeout``, and a PING
    not answered within ``timeout`` counts as a loss (``on_lost``), as does a reset; then
    the bus tries again every ``RETRY`` seconds until Redis answers."""

    PREFIX = "kozyr:"
    RETRY = 1.0
    """Seconds between attempts to reach a lost Redis again."""

    def __init__(self, url: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self.timeout = timeout
        # Every command but the listener's blocking read is bounded by the timeout: a
        # stopped Redis accepts connections (the kernel does) but answers nothing.
        self._redis = redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        self._task: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self._pubsub: Any = None
        self._heard = 0.0
        """Loop time of the last thing the listener read from Redis."""
        self._pong = asyncio.Event()
        self._subscribing: set[asyncio.Task[None]] = set()
        self.available = False

    async def start(self) -> None:
        """Subscribes; raises :class:`RedisUnavailable` when Redis cannot be reached (or
        does not answer within the timeout)."""
        try:
            pubsub = await self._subscribe()
        except Exception as e:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(self.timeout):
                    await self._redis.aclose()
            raise RedisUnavailable(self.url, str(e) or type(e).__name__) from e
        self.available = True
        self._task = asyncio.create_task(self._run(pubsub))
        self._sender = asyncio.create_task(self._send())

    def subscribe(self, channel: str, callback: Callback) -> None:
        new = channel not in self._subs
        super().subscribe(channel, callback)
        if new and self._pubsub is not None:
            # the live connection learns it now; a reconnection subscribes to all anyway
            self._spawn_add(channel)

    def _spawn_add(self, channel: str) -> None:
        task = asyncio.get_running_loop().create_task(self._add(self.PREFIX + channel))
        self._subscribing.add(task)
        task.add_done_callback(self._subscribing.discard)

    async def _add(self, channel: str) -> None:
        with contextlib.suppress(Exception):  # lost meanwhile: the reconnection covers it
            async with asyncio.timeout(self.timeout):
                await self._pubsub.subscribe(channel)

    async def _subscribe(self) -> Any:
        """A new pub/sub connection subscribed to this process's channels, once Redis has
        answered on it (the subscription's confirmation) within the timeout."""
        pubsub = self._redis.pubsub()
        try:
            async with asyncio.timeout(self.timeout):
                # at least one channel: a pub/sub connection without one ends its listening
                channels = [self.PREFIX + channel for channel in self._subs] or [self.PREFIX]
                await pubsub.subscribe(*channels)
                await pubsub.get_message(timeout=None)
        except BaseException:
            await self._close(pubsub)
            raise
        self._heard = asyncio.get_running_loop().time()
        self._pubsub = pubsub
        for channel in [c for c in self._subs if self.PREFIX + c not in channels]:
            self._spawn_add(channel)  # subscribed to while this connection was being made
        return pubsub

    async def _close(self, pubsub: Any) -> None:
        if self._pubsub is pubsub:
            self._pubsub = None
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.timeout):
                await pubsub.aclose()

    async def _run(self, pubsub: Any) -> None:
        while True:
            try:
                await self._watch(pubsub)
            except asyncio.CancelledError:
                await self._close(pubsub)
                raise
            except Exception as e:
                log.error("lost Redis at %s: %s", redact(self.url), str(e) or type(e).__name__)
            self._lost()
            await self._close(pubsub)
            pubsub = await self._reconnect()

    async def _watch(self, pubsub: Any) -> None:
        """Listens and pings until Redis is lost (raises why)."""
        listener = asyncio.create_task(self._listen(pubsub))
        pinger = asyncio.create_task(self._ping(pubsub))
        try:
            done, _ = await asyncio.wait({listener, pinger}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (listener, pinger):
                task.cancel()
            for task in (listener, pinger):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for task in done:
            error = task.exception()
            if error is not None:
                raise error
        raise ConnectionError("the subscription ended")

    async def _listen(self, pubsub: Any) -> None:
        loop = asyncio.get_running_loop()
        async for raw in pubsub.listen():
            self._heard = loop.time()
            kind = raw.get("type")
            if kind == "pong":
                self._pong.set()
                continue
            if kind != "message":
                continue
            channel = raw["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
            channel = channel[len(self.PREFIX) :]
            self.received[channel] += 1
            try:
                message = json.loads(raw["data"])
            except (ValueError, TypeError):
                continue
            self.deliver(channel, message)

    async def _ping(self, pubsub: Any) -> None:
        """Raises :class:`RedisSilent` when a PING on the listener's connection is not
        answered within the timeout (only a quiet connection is pinged: anything read
        shows that Redis still answers)."""
        loop = asyncio.get_running_loop()
        quiet = self.timeout / 3
        while True:
            await asyncio.sleep(max(0.0, self._heard + quiet - loop.time()))
            if loop.time() - self._heard < quiet:
                continue
            self._pong.clear()
            try:
                async with asyncio.timeout(self.timeout):
                    await pubsub.ping()
                    await self._pong.wait()
            except TimeoutError:
                raise RedisSilent(f"no answer to PING within {self.timeout:g} s") from None

    def _lost(self) -> None:
        if not self.available:
            return
        self.available = False
        self._outbox.clear()
        for callback in list(self.on_lost):
            try:
                callback()
            except Exception:
                log.exception("a Redis-lost callback failed")

    async def _reconnect(self) -> Any:
        while True:
            await asyncio.sleep(self.RETRY)
            try:
                pubsub = await self._subscribe()
            except Exception:
                continue
            log.info("Redis at %s is back", redact(self.url))
            self.available = True
            return pubsub

    async def stop(self) -> None:
        for task in (self._task, self._sender, *self._subscribing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        with contextlib.suppress(Exception):
            async with asyncio.timeout(self.timeout):
                await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        async with asyncio.timeout(self.timeout):
            await self._redis.publish(self.PREFIX + channel, json.dumps(message))

    def post(self, channel: str, message: dict[str, Any]) -> None:
        if not self.available:
            return  # lost: the callers have been told (on_lost)
        self._outbox.append((self.PREFIX + channel, json.dumps(message)))
        self._wake.set()

    async def _send(self) -> None:
        """One task publishes everything posted, in order, a pipeline at a time (one
        round trip for many frames; a pool of connections could reorder them)."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._outbox = self._outbox, []
            if not batch:
                continue
            try:
                async with asyncio.timeout(self.timeout):
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for channel, text in batch:
                            pipe.publish(channel, text)
                        await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                # Lost for good or for a moment: the listener tells (``on_lost``); what
                # could not be sent is gone, as on a lost Redis anyway.
                log.error("publishing to Redis failed: %s", str(e) or type(e).__name__)


def make_bus(redis_url: str | None, timeout: float = DEFAULT_TIMEOUT) -> LocalBus:
    return RedisBus(redis_url, timeout) if redis_url else LocalBus()
