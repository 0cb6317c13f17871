"""Several queued text frames of one WebSocket handed to its socket in one write.

A move sends its actor two frames in the same moment (the ack and the update). Through
ASGI each ``websocket.send`` is its own trip through the server's protocol and its own
write system call; with a thousand people those writes were the largest single part of
a move's CPU after the game itself (docs/performance.md). uvicorn's sans-I/O WebSocket
protocol frames a message with ``conn.send_text`` and writes ``conn.data_to_send()``;
:class:`FrameBatch` does the same for every frame of a batch and writes once.

It depends on that protocol's attributes (uvicorn's ``websockets-sansio``
implementation, pinned in ``requirements/``); with any other server or version
:meth:`FrameBatch.of` gives None and the connection keeps using ASGI's ``send``.
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.types import Send

# uvicorn's WebSocketsSansIOProtocol, as far as the batch uses it.
_NEEDED = (
    "conn",
    "transport",
    "writable",
    "disconnected",
    "handshake_complete",
    "close_sent",
    "initial_response",
)


class _Framer(Protocol):
    def send_text(self, data: bytes) -> None: ...

    def data_to_send(self) -> list[bytes]: ...


class FrameBatch:
    """Writes a list of text frames with one ``transport.write``."""

    def __init__(self, protocol: Any) -> None:
        self._p = protocol
        self._framer: _Framer = protocol.conn

    @classmethod
    def of(cls, send: Send) -> FrameBatch | None:
        """The batch writer for the server protocol behind ``send``, or None."""
        protocol = getattr(send, "__self__", None)
        if protocol is None or not all(hasattr(protocol, a) for a in _NEEDED):
            return None
        framer = protocol.conn
        if not callable(getattr(framer, "send_text", None)) or not callable(
            getattr(framer, "data_to_send", None)
        ):
            return None
        return cls(protocol)

    def ready(self) -> bool:
        """The handshake is done and no close has been sent: plain data frames may go
        (otherwise ASGI's ``send`` is used, which knows every other state)."""
        p = self._p
        return bool(p.handshake_complete and not p.close_sent and p.initial_response is None)

    def can_write_now(self) -> bool:
        """Plain data frames may go and the transport takes them without waiting: a
        :meth:`write_now` would not block."""
        p = self._p
        return bool(self.ready() and p.writable.is_set() and not p.disconnected)

    def write_now(self, texts: list[str]) -> None:
        """Frames every text and writes them at once, for when :meth:`can_write_now` (or
        once :meth:`write` has waited). Raises ConnectionResetError (an OSError, as
        uvicorn's send raises) for a connection that is closing."""
        framer = self._framer
        try:
            for text in texts:
                framer.send_text(text.encode())
        except AssertionError as exc:
            # websockets' InvalidState (an AssertionError): the connection is closing.
            raise ConnectionResetError(str(exc)) from exc
        self._p.transport.write(b"".join(framer.data_to_send()))

    async def write(self, texts: list[str]) -> None:
        """Frames every text and writes them at once, after the transport's flow control
        allows it (as uvicorn's own send waits). Raises ConnectionResetError (an
        OSError, as uvicorn's send raises) for a peer that is gone or closing."""
        p = self._p
        await p.writable.wait()
        if p.disconnected:
            raise ConnectionResetError("the WebSocket's peer is gone")
        self.write_now(texts)
