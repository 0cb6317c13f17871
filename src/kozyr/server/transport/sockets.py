"""Every open WebSocket, by account, by session and by address: the caps on how many one
account or address may hold and how many frames an account may send, closing an account's
sockets (at logout), and the watchdog that cuts off sockets whose writes are stuck."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from typing import Protocol, TypeVar

from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import User


class Connection(Protocol):
    """What the registry needs of an open WebSocket (:class:`kozyr.server.connection.
    Connection` is the one there is): whose it is, from where, whether a write is stuck,
    and how to stop and close it."""

    @property
    def user(self) -> User: ...

    @property
    def address(self) -> str: ...

    @property
    def session(self) -> str | None: ...

    @property
    def sending_since(self) -> float | None: ...

    def stop(self) -> None: ...

    def cut_off(self, why: str) -> None: ...

    async def end(self, code: int, reason: str = "", flush: bool = True) -> None: ...


K = TypeVar("K")


def _discard(index: dict[K, set[Connection]], key: K, conn: Connection) -> None:
    group = index.get(key)
    if group is not None:
        group.discard(conn)
        if not group:
            del index[key]


class FrameBudget:
    """A token bucket: ``rate`` frames a second, with bursts of up to ``rate`` frames."""

    __slots__ = ("last", "rate", "tokens")

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = rate
        self.last = time.monotonic()

    def spend(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Sockets:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.by_user: dict[int, set[Connection]] = defaultdict(set)
        self.by_address: dict[str, set[Connection]] = defaultdict(set)
        self.budgets: dict[int, FrameBudget] = {}
        self._watchdog: asyncio.Task[None] | None = None

    def add(self, conn: Connection) -> bool:
        """Registers a new connection; False (nothing registered) when its account or its
        address already holds as many as allowed."""
        if len(self.by_user.get(conn.user.id, ())) >= self.settings.max_sockets_per_account:
            return False
        if len(self.by_address.get(conn.address, ())) >= self.settings.max_sockets_per_address:
            return False
        self.by_user[conn.user.id].add(conn)
        self.by_address[conn.address].add(conn)
        if self._watchdog is None or self._watchdog.done():
            self._watchdog = asyncio.create_task(self._watch())
        return True

    def remove(self, conn: Connection) -> None:
        _discard(self.by_user, conn.user.id, conn)
        _discard(self.by_address, conn.address, conn)
        if conn.user.id not in self.by_user:
            self.budgets.pop(conn.user.id, None)

    def spend(self, user_id: int) -> bool:
        """One frame from this account: False when it is past its frames per second."""
        budget = self.budgets.get(user_id)
        if budget is None:
            budget = self.budgets[user_id] = FrameBudget(self.settings.account_frames)
        return budget.spend()

    async def close_user(self, user_id: int, code: int, session: str | None = None) -> int:
        """Closes the account's sockets (only those opened with the session whose token
        hash is ``session``, when given); returns how many. When it returns, none of them
        acts any more."""
        conns = [
            c for c in self.by_user.get(user_id, ()) if session is None or c.session == session
        ]
        for c in conns:
            c.stop()  # at once: no frame read from now on is acted upon
        await asyncio.gather(*(c.end(code, "signed out") for c in conns), return_exceptions=True)
        return len(conns)

    async def _watch(self) -> None:
        """Cuts off every socket whose current write has waited longer than the write
        timeout (its peer does not read); runs while there are sockets."""
        timeout = self.settings.write_timeout
        tick = min(1.0, max(0.05, timeout / 4))
        while self.by_user:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for group in list(self.by_user.values()):
                for conn in list(group):
                    since = conn.sending_since
                    if since is not None and now - since > timeout:
                        conn.cut_off(f"a frame waited {now - since:.0f} s to be written")

    async def close(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
