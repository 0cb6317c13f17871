"""Fan-out of notices between the parts of the server (and, with Redis, between server
processes): ``publish(channel, message)`` and ``subscribe(channel, callback)``.

The tables themselves live in one process (the authority); the bus carries lobby
notices (a table was opened, filled, finished) so that every process can tell its
lobby watchers. The in-process bus is the default; ``KOZYR_REDIS_URL`` selects Redis.
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


class Bus(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, channel: str, callback: Callback) -> None: ...


class LocalBus:
    """Delivers each message to the callbacks of this process, in order."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Callback]] = {}

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


class RedisBus(LocalBus):
    """Publishes through Redis pub/sub; every process (this one too) receives each message
    from Redis and hands it to its local subscribers."""

    PREFIX = "kozyr:"

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis = redis.from_url(url)
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe(self.PREFIX + "*")
        self._task = asyncio.create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
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

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._redis.aclose()

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._redis.publish(self.PREFIX + channel, json.dumps(message))


def make_bus(redis_url: str | None) -> LocalBus:
    return RedisBus(redis_url) if redis_url else LocalBus()
