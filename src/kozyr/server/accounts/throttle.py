"""Sliding-window rate limits: login attempts per client address and per name, new
accounts per address, guests per address, puzzle answers per person and per address,
wrong invite codes, and the windows other routes add by name for work that costs the
server CPU (uploaded records, hints: :meth:`Throttles.add`).

Login attempts are counted per address (``KOZYR_LOGIN_LIMIT``, 10 a minute), which holds
any one name's guesses from that address to the same, and per name over every address
with an allowance ``NAME_SHARE`` times larger. A stranger guessing a name from one
address therefore locks out that address only, never the name's owner at his (as lichess
counts per name and address); only a guess spread over ``NAME_SHARE`` addresses (IPv6 /64
networks) or more at full speed can hold the name, and that cap is what keeps such a
spread guess at 100 tries a minute per name instead of 10 per address without end.

Guests have an allowance of their own, larger than the accounts' (``KOZYR_GUEST_LIMIT``,
200 an hour, against ``KOZYR_ACCOUNT_LIMIT``, 20): a café, a school or a club behind one
address lets a whole room play as guests at once, while names and passwords (a
registration, or a guest turned into an account) stay as scarce as before. The guests'
window is bounded too, so that a script cannot mint guests without end.

In memory, per process: a restart forgets them. In cluster mode (``KOZYR_REDIS_URL``)
they are counted in Redis over every process instead (``kozyr.server.accounts.redis_throttle``),
with these in-memory windows as the fallback while Redis is lost. That is enough to stop
guessing passwords or minting accounts at machine speed; a proxy in front can add
per-address limits of its own (``docs/deploy.md``).

A window keeps the times of the attempts it let through within the last ``window``
seconds; one more is let through while there are fewer than ``limit``. Refused attempts
are not recorded, so hammering a locked name does not keep it locked: it frees up
``window`` seconds after the oldest attempt counted, which is the ``Retry-After``.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

Clock = Callable[[], float]

Kind = Literal["account", "guest"]
"""Which new-account window a place is taken in: ``account`` for a name with a password
(a registration, a guest turned into an account), ``guest`` for a guest."""

GUEST_LIMIT = 200
"""Guests per client address in any ``account_window`` (``KOZYR_GUEST_LIMIT``)."""

ANSWER_LIMIT = 20
"""Puzzle answers per person in any ``ANSWER_WINDOW`` (``KOZYR_PUZZLE_ANSWER_LIMIT``): a
quick solver answers a puzzle in a few seconds, a script in a millisecond."""
ANSWER_WINDOW = 60.0
ANSWER_ROOM = 10
"""An address may answer this many times a person's limit: a room of solvers behind one
address, but not a crowd of fresh guests made to answer for one."""
INVITE_GUESSES = 30
"""Wrong invite codes (a private table answered 404 although an ``invite`` was given) per
client address, and per person, in any ``INVITE_WINDOW`` seconds; then 429
``too_many_invite_guesses``. A code is 72 random bits, so guessing is hopeless anyway;
the window keeps a script from asking the server to try at machine speed. The default
of ``KOZYR_INVITE_GUESS_LIMIT``."""
INVITE_WINDOW = 600.0

NAME_SHARE = 10
"""A name's login attempts over every address, in any ``login_window``, as a multiple of
the per-address ``login_limit``: what it takes to lock a name's owner out."""


class SlidingWindow:
    """At most ``limit`` hits per key in any ``window`` seconds.

    >>> now = [0.0]
    >>> w = SlidingWindow(2, 60, clock=lambda: now[0])
    >>> w.hit("a"), w.hit("a"), w.hit("a"), w.hit("b")
    (None, None, 60.0, None)
    >>> now[0] = 60.0
    >>> w.hit("a")
    """

    def __init__(
        self, limit: int, window: float, clock: Clock = time.monotonic, max_keys: int = 100_000
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        # key -> times of the hits let through, oldest first; keys in least recent use order
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()

    def retry_after(self, key: str) -> float | None:
        """Seconds until ``key`` may hit again, or None if it may now (records nothing)."""
        hits = self._fresh(key)
        if hits is None or len(hits) < self.limit:
            return None
        return max(hits[0] + self.window - self.clock(), 0.0)

    def hit(self, key: str) -> float | None:
        """Records a hit and returns None, or returns the seconds to wait (and records
        nothing) if ``key`` is at its limit."""
        wait = self.retry_after(key)
        if wait is not None:
            return wait
        self.record(key)
        return None

    def record(self, key: str) -> float:
        """Records a hit now, without checking; returns its time (for :meth:`unrecord`)."""
        hits = self._hits.get(key)
        if hits is None:
            hits = self._hits[key] = deque()
            while len(self._hits) > self.max_keys:
                # memory stays bounded under a flood of names: the stalest key goes first
                self._hits.popitem(last=False)
        else:
            self._hits.move_to_end(key)
        at = self.clock()
        hits.append(at)
        return at

    def unrecord(self, key: str, at: float) -> None:
        """Takes back the hit recorded at ``at`` (one that turned out not to count)."""
        hits = self._hits.get(key)
        if hits is not None and at in hits:
            hits.remove(at)
            if not hits:
                del self._hits[key]

    def _fresh(self, key: str) -> deque[float] | None:
        hits = self._hits.get(key)
        if hits is None:
            return None
        cutoff = self.clock() - self.window
        while hits and hits[0] <= cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
            return None
        return hits


def retry_header(seconds: float) -> str:
    """``Retry-After`` is whole seconds, rounded up so a client that obeys it gets in."""
    return str(max(1, math.ceil(seconds)))


@dataclass(frozen=True)
class AccountHold:
    """A place in the new-account window taken before the account is made: the time of
    the in-process hit, or the member of the shared (Redis) window's set."""

    address: str
    at: float | None = None
    member: str | None = None
    kind: Kind = "account"


class Throttles:
    """The server's limits (see ``Settings.login_limit``, ``account_limit`` and
    ``guest_limit``). Guests are counted in their own window over the same
    ``account_window``."""

    def __init__(
        self,
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
        self.login_name = SlidingWindow(login_limit * NAME_SHARE, login_window, clock)
        self.login_address = SlidingWindow(login_limit, login_window, clock)
        self.accounts = SlidingWindow(account_limit, account_window, clock)
        self.guests = SlidingWindow(guest_limit, account_window, clock)
        self.answer_person = SlidingWindow(answer_limit, ANSWER_WINDOW, clock)
        self.answer_address = SlidingWindow(answer_limit * ANSWER_ROOM, ANSWER_WINDOW, clock)
        self.named: dict[str, SlidingWindow] = {}
        """The windows of other routes by name (:meth:`add`): uploads, hints."""
        self.invites = SlidingWindow(invite_limit, INVITE_WINDOW, clock)
        """Wrong invite codes, by ``invite_keys`` (in this process, as a guess is cheap)."""

    def window(self, kind: Kind) -> SlidingWindow:
        return self.guests if kind == "guest" else self.accounts

    def set_clock(self, clock: Clock) -> None:
        for window in (
            self.login_name,
            self.login_address,
            self.accounts,
            self.guests,
            self.answer_person,
            self.answer_address,
            self.invites,
        ):
            window.clock = clock
        for window in self.named.values():
            window.clock = clock

    def add(self, name: str, limit: int, window: float) -> None:
        """A window of its own for a route's work: at most ``limit`` in any ``window``
        seconds per key, spent with :meth:`spend`."""
        self.named[name] = SlidingWindow(limit, window, self.login_name.clock)

    def login(self, name_key: str, address: str) -> float | None:
        """Counts one login attempt for the address and the name, unless either is at its
        limit (the name's is ``NAME_SHARE`` times the address's): then the seconds to wait,
        and neither is counted."""
        waits = [
            w
            for w in (
                self.login_name.retry_after(name_key),
                self.login_address.retry_after(address),
            )
            if w is not None
        ]
        if waits:
            return max(waits)
        self.login_name.record(name_key)
        self.login_address.record(address)
        return None

    def invite_wait(self, keys: list[str]) -> float | None:
        """Seconds until any of ``keys`` (:func:`invite_keys`) may guess an invite again,
        or None: it may now."""
        waits = [w for w in (self.invites.retry_after(k) for k in keys) if w is not None]
        return max(waits) if waits else None

    def invite_missed(self, keys: list[str]) -> None:
        """Counts one wrong invite against each of ``keys``."""
        for key in keys:
            self.invites.record(key)

    def new_account(self, address: str, kind: Kind = "account") -> float | None:
        return self.window(kind).hit(address)

    def answer(self, person: str, address: str) -> float | None:
        """Counts one puzzle answer for the person and the address, unless either is at
        its limit: then the seconds to wait, and neither is counted."""
        waits = [
            w
            for w in (
                self.answer_person.retry_after(person),
                self.answer_address.retry_after(address),
            )
            if w is not None
        ]
        if waits:
            return max(waits)
        self.answer_person.record(person)
        self.answer_address.record(address)
        return None

    # What the routes call: awaitable, so that the cluster's throttles can ask Redis.

    async def attempt_login(self, name_key: str, address: str) -> float | None:
        """:meth:`login`."""
        return self.login(name_key, address)

    async def attempt_answer(self, person: str, address: str) -> float | None:
        """:meth:`answer`."""
        return self.answer(person, address)

    async def reserve_account(
        self, address: str, kind: Kind = "account"
    ) -> tuple[float | None, AccountHold | None]:
        """Counts an account (or a guest, ``kind``) about to be made from ``address`` in
        the same step as the check, so that two requests at once cannot both take the last
        place: (None, the hold) or (the seconds to wait, None). A hold whose account is not
        made after all is given back with :meth:`release_account`."""
        window = self.window(kind)
        wait = window.retry_after(address)
        if wait is not None:
            return wait, None
        return None, AccountHold(address, at=window.record(address), kind=kind)

    async def release_account(self, hold: AccountHold) -> None:
        """The account of ``hold`` was not made: its place is free again."""
        if hold.at is not None:
            self.window(hold.kind).unrecord(hold.address, hold.at)

    async def spend(self, hits: Sequence[tuple[str, str]]) -> float | None:
        """Counts one hit of each (window name, key) of :meth:`add`, all or none, as
        :meth:`login` does: None, or the seconds to wait while any key is at its limit."""
        waits = [
            wait for name, key in hits if (wait := self.named[name].retry_after(key)) is not None
        ]
        if waits:
            return max(waits)
        for name, key in hits:
            self.named[name].record(key)
        return None

    async def close(self) -> None:
        return None


def invite_keys(address: str, user_id: int | None) -> list[str]:
    """What a wrong invite is counted against: the client's address, and the person."""
    return [f"address:{address}"] + ([] if user_id is None else [f"user:{user_id}"])
