"""A header-read timeout for uvicorn, which has none of its own.

uvicorn times out a connection only while it is idle between requests (keep-alive); a
client that sends half a request line or half its headers and then nothing is held for
as long as TCP keeps it, and a few hundred such clients (slowloris) hold the process's
sockets until ``/healthz`` fails. This subclass of uvicorn's HTTP protocol closes a
connection whose next request's headers have not all arrived ``header_timeout`` seconds
after it opened, or after the previous response was sent. Request bodies have their own
limit in the app (``bodies.read_body``), and a proxy in front should have both too
(``docs/deploy.md``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol


def _waiting_for_headers(protocol: Any) -> bool:
    cycle = protocol.cycle
    return cycle is None or bool(cycle.response_complete)


class HeaderDeadline:
    """Mixed in before a uvicorn HTTP protocol class (h11 or httptools)."""

    header_timeout: float = 10.0
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def data_received(self, data: bytes) -> None:
        me: Any = self
        before = me.cycle
        super().data_received(data)  # type: ignore[misc]
        if me.cycle is not before:
            self._disarm()  # a request's headers are complete
        elif _waiting_for_headers(me) and self._deadline is None:
            # the first bytes of a further request on a kept-alive connection
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _arm(self) -> None:
        me: Any = self
        self._disarm()
        self._deadline = me.loop.call_later(self.header_timeout, self._expire)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        me: Any = self
        self._deadline = None
        transport = me.transport
        if transport is None or transport.is_closing():
            return
        if transport.get_protocol() is not self:
            return  # upgraded to a WebSocket: no longer ours
        if _waiting_for_headers(me):
            transport.close()


def guarded_protocol(header_timeout: float) -> type[Any]:
    """uvicorn's preferred HTTP protocol (httptools if installed, else h11) with the
    header deadline."""
    base: type[Any]
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        base = H11Protocol
    else:
        base = HttpToolsProtocol
    return type(
        f"Guarded{base.__name__}",
        (HeaderDeadline, base),
        {"header_timeout": header_timeout},
    )
