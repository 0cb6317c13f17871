"""Cluster mode: the login and account limits counted in Redis, so that they hold across
every server process (``KOZYR_REDIS_URL``).

Each window is a sorted set per key whose members are the hits let through, scored by
their time; one Lua script trims the set, counts it and adds the hit, so two processes
cannot both let the last attempt through. The semantics are those of
:class:`kozyr.server.accounts.throttle.SlidingWindow`: refused attempts are not recorded, and the
wait is the time until the oldest counted hit leaves the window. A set expires
``window`` seconds after its last hit, so Redis holds nothing for idle keys.

The time is Redis's own (``TIME``), the one clock every process shares, unless a clock is
given (tests). When Redis cannot be reached the process counts in memory, as without
Redis, until Redis answers again: a lost Redis never turns a sign-in into a 500.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, TypeVar

from kozyr.server.accounts.throttle import (
    ANSWER_LIMIT,
    ANSWER_ROOM,
    ANSWER_WINDOW,
    GUEST_LIMIT,
    INVITE_GUESSES,
    NAME_SHARE,
    AccountHold,
    Clock,
    Kind,
    Throttles,
)
from kozyr.server.runtime.bus import redact

log = logging.getLogger("kozyr.server.accounts.throttle")

T = TypeVar("T")

PREFIX = "kozyr:throttle:"
Mode = Literal["hit", "check", "record"]

# KEYS: one sorted set per window. ARGV: now ("" = Redis's TIME), the hit's unique member,
# the mode, then limit and window (seconds) per key. "hit" records the hit in every key
# unless one is at its limit; "check" records nothing; "record" records without checking.
# Returns the seconds to wait as a string (Lua numbers would be cut to integers), or "-1".
SCRIPT = """
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) + tonumber(t[2]) / 1000000
else
  now = tonumber(ARGV[1])
end
local mode = ARGV[3]
local wait = -1
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 + 2 * i])
  local window = tonumber(ARGV[3 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%.17g', now - window))
  if mode ~= 'record' then
    local n = redis.call('ZCARD', key)
    if n > 0 and n >= limit then
      local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
      local w = tonumber(oldest[2]) + window - now
      if w < 0 then w = 0 end
      if w > wait then wait = w end
    end
  end
end
if wait >= 0 or mode == 'check' then
  return string.format('%.17g', wait)
end
local at = string.format('%.17g', now)
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[3 + 2 * i])
  redis.call('ZADD', key, at, ARGV[2])
  redis.call('PEXPIRE', key, math.ceil(window * 1000))
end
return '-1'
"""


def _key_part(key: str) -> str:
    # names and addresses are short, but a key's length is the client's to choose
    return key if len(key) <= 100 else "sha256:" + hashlib.sha256(key.encode()).hexdigest()


class RedisWindow:
    """At most ``limit`` hits per key in any ``window`` seconds, over every process.

    ``client`` is a ``redis.asyncio.Redis``; ``name`` tells this window's keys apart from
    the other windows'; ``clock`` (tests) replaces Redis's own time."""

    _members = itertools.count()

    def __init__(
        self, client: Any, name: str, limit: int, window: float, clock: Clock | None = None
    ) -> None:
        self.client = client
        self.name = name
        self.limit = limit
        self.window = window
        self.clock = clock
        self._script = client.register_script(SCRIPT)
        self._me = secrets.token_hex(6)

    def key(self, key: str) -> str:
        return f"{PREFIX}{self.name}:{_key_part(key)}"

    async def retry_after(self, key: str) -> float | None:
        """Seconds until ``key`` may hit again, or None if it may now (records nothing)."""
        return await run(self, "check", [(self, key)])

    async def hit(self, key: str) -> float | None:
        """Records a hit and returns None, or returns the seconds to wait (and records
        nothing) if ``key`` is at its limit."""
        return await run(self, "hit", [(self, key)])

    async def record(self, key: str) -> None:
        await run(self, "record", [(self, key)])

    def member(self) -> str:
        """Unique among all processes, so that two hits at one instant both count."""
        return f"{self._me}:{next(self._members)}"


async def run(
    via: RedisWindow,
    mode: Mode,
    hits: Sequence[tuple[RedisWindow, str]],
    member: str | None = None,
) -> float | None:
    """One script call over several windows at once (atomic: login checks the name and
    the address together and counts both or neither). ``via``'s clock and script serve;
    ``member`` names the hit in the sets (to take it back later), a fresh one if None."""
    now = "" if via.clock is None else repr(via.clock())
    args: list[str] = [now, member or via.member(), mode]
    for window, _ in hits:
        args += [str(window.limit), repr(float(window.window))]
    keys = [window.key(key) for window, key in hits]
    raw = await via._script(keys=keys, args=args)
    wait = float(raw.decode() if isinstance(raw, bytes) else raw)
    return None if wait < 0 else wait


class RedisThrottles(Throttles):
    """The server's limits in Redis; the in-memory windows of :class:`Throttles` are the
    fallback while Redis cannot be reached."""

    RETRY = 5.0
    """Seconds the throttles count in memory after Redis failed before they try it again."""

    def __init__(
        self,
        url: str,
        login_limit: int,
        login_window: float,
        account_limit: int,
        account_window: float,
        clock: Clock = time.monotonic,
        *,
        guest_limit: int = GUEST_LIMIT,
        answer_limit: int = ANSWER_LIMIT,
        invite_limit: int = INVITE_GUESSES,
    ) -> None:
        super().__init__(
            login_limit,
            login_window,
            account_limit,
            account_window,
            clock,
            guest_limit=guest_limit,
            answer_limit=answer_limit,
            invite_limit=invite_limit,
        )
        import redis.asyncio as redis

        self.url = url
        # short timeouts: a sign-in waits at most this long for a Redis that hangs
        self.client = redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        self.shared_name = RedisWindow(
            self.client, "login-name", login_limit * NAME_SHARE, login_window
        )
        self.shared_address = RedisWindow(self.client, "login-address", login_limit, login_window)
        self.shared_accounts = RedisWindow(self.client, "accounts", account_limit, account_window)
        self.shared_guests = RedisWindow(self.client, "guests", guest_limit, account_window)
        self.shared_answer_person = RedisWindow(
            self.client, "answer-person", answer_limit, ANSWER_WINDOW
        )
        self.shared_answer_address = RedisWindow(
            self.client, "answer-address", answer_limit * ANSWER_ROOM, ANSWER_WINDOW
        )
        self.shared_named: dict[str, RedisWindow] = {}
        self._retry_at = 0.0
        self._lost = False

    async def _shared(self, call: Callable[[], Awaitable[T]]) -> tuple[bool, T | None]:
        """(True, the result) from Redis, or (False, None) when it cannot be had."""
        if self._lost and time.monotonic() < self._retry_at:
            return False, None
        try:
            result = await call()
        except Exception as e:  # whatever Redis does, the limits go on in memory
            if not self._lost:
                log.error(
                    "throttles: Redis at %s failed (%s); counting in this process until it is back",
                    redact(self.url),
                    e,
                )
            self._lost = True
            self._retry_at = time.monotonic() + self.RETRY
            return False, None
        if self._lost:
            log.info("throttles: Redis at %s is back; counting over all", redact(self.url))
            self._lost = False
        return True, result

    async def attempt_login(self, name_key: str, address: str) -> float | None:
        shared, wait = await self._shared(
            lambda: run(
                self.shared_name,
                "hit",
                [(self.shared_name, name_key), (self.shared_address, address)],
            )
        )
        return wait if shared else self.login(name_key, address)

    async def attempt_answer(self, person: str, address: str) -> float | None:
        shared, wait = await self._shared(
            lambda: run(
                self.shared_answer_person,
                "hit",
                [(self.shared_answer_person, person), (self.shared_answer_address, address)],
            )
        )
        return wait if shared else self.answer(person, address)

    def shared_window(self, kind: Kind) -> RedisWindow:
        return self.shared_guests if kind == "guest" else self.shared_accounts

    async def reserve_account(
        self, address: str, kind: Kind = "account"
    ) -> tuple[float | None, AccountHold | None]:
        window = self.shared_window(kind)
        member = window.member()
        shared, wait = await self._shared(
            lambda: run(window, "hit", [(window, address)], member=member)
        )
        if not shared:
            return await super().reserve_account(address, kind)
        if wait is not None:
            return wait, None
        return None, AccountHold(address, member=member, kind=kind)

    async def release_account(self, hold: AccountHold) -> None:
        if hold.member is None:
            await super().release_account(hold)
            return
        key = self.shared_window(hold.kind).key(hold.address)
        member = hold.member
        await self._shared(lambda: self.client.zrem(key, member))

    def add(self, name: str, limit: int, window: float) -> None:
        super().add(name, limit, window)
        self.shared_named[name] = RedisWindow(self.client, name, limit, window)

    async def spend(self, hits: Sequence[tuple[str, str]]) -> float | None:
        windows = [(self.shared_named[name], key) for name, key in hits]
        if not windows:
            return None
        shared, wait = await self._shared(lambda: run(windows[0][0], "hit", windows))
        return wait if shared else await super().spend(hits)

    async def close(self) -> None:
        await self.client.aclose()
