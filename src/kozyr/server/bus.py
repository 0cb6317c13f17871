"""Fan-out of notices between the parts of the server (and, with Redis, between server
processes): ``publish(channel, message)`` and ``subscribe(channel, callback)``.

The bus carries lobby notices (a table was opened, filled, finished) so that every
process can tell its lobby watchers and, in cluster mode, the requests, replies and frames
between processes (``kozyr.server.cluster``). The in-process bus is the default;
``KOZYR_REDIS_URL`` selects Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("kozyr.server.bus")

Callback = Callable[[dict[str, Any]], None]


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


class RedisBus(LocalBus):
    """Publishes through Redis pub/sub; every process (this one too) receives each message
    from Redis and hands it to its local subscribers."""

    PREFIX = "kozyr:"
    RETRY = 1.0
    """Seconds between attempts to reach a lost Redis again."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self._redis = redis.from_url(url, socket_connect_timeout=2, socket_timeout=None)
        self._task: asyncio.Task[None] | None = None
        self._sender: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self.available = False

    async def start(self) -> None:
        """Subscribes; raises :class:`RedisUnavailable` when Redis cannot be reached."""
        try:
            pubsub = await self._subscribe()
        except Exception as e:
            await self._redis.aclose()
            raise RedisUnavailable(self.url, str(e) or type(e).__name__) from e
        self.available = True
        self._task = asyncio.create_task(self._listen(pubsub))
        self._sender = asyncio.create_task(self._send())

    async def _subscribe(self) -> Any:
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe(self.PREFIX + "*")
        return pubsub

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for raw in pubsub.listen():
                    if raw.get("type") != "pmessage":
                        continue
                    channel = raw["channel"]
                    channel = channel.decode() if isinstance(channel, bytes) else str(channel)
                    try:
                        message = json.loads(raw["data"])
                    except (ValueError, TypeError):
                        continue
                    self.deliver(channel[len(self.PREFIX) :], message)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.error("lost Redis at %s: %s", redact(self.url), e)
            self._lost()
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            pubsub = await self._reconnect()

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
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
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
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                # Lost for good or for a moment: the listener tells (``on_lost``); what
                # could not be sent is gone, as on a lost Redis anyway.
                log.error("publishing to Redis failed: %s", e)


def make_bus(redis_url: str | None) -> LocalBus:
    return RedisBus(redis_url) if redis_url else LocalBus()
