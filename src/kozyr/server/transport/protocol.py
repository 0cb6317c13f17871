"""The WebSocket protocol's vocabulary: version, frame types, error codes (their messages
are in the catalogue, :mod:`kozyr.texts.protocol`), and the per-connection outgoing queue
(see ``docs/protocol.md``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import orjson

from kozyr.cards import CardError
from kozyr.games.base import IllegalAction
from kozyr.server.storage.store import User
from kozyr.texts import AREAS, both

VERSION = 1

_SURROGATE = re.compile("[\ud800-\udfff]")

# Client -> server frame types
CLIENT_TYPES = ("hello", "action", "back", "unwatch", "lobby", "ping", "say")

_ERROR = "protocol.error."
ERRORS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {key.removeprefix(_ERROR): both(key) for key in AREAS["protocol"] if key.startswith(_ERROR)}
)
"""Each error code's English and Russian message, from the catalogue
(:mod:`kozyr.texts.protocol`): what an error says when nothing more precise is given."""


class ProtocolError(Exception):
    """A rejected request: becomes an ``error`` frame (or an HTTP error in the lobby).

    ``reason`` is a rule refusal's own code, parameters and ruling (``illegal_action``
    only); ``message_ru`` then is its Russian message instead of the catalog's."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        status: int = 400,
        *,
        message_ru: str | None = None,
        reason: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        english, russian = ERRORS.get(code, (code, code))
        super().__init__(message or english)
        self.code = code
        self.message = message or english
        self.message_ru = message_ru or russian
        self.status = status
        self.reason = reason
        self.params = params
        """The numbers the messages name (``stake_too_high``: balance and hold), for a
        client that words its own message."""

    def frame(self, **extra: Any) -> dict[str, Any]:
        return error_frame(
            self.code,
            self.message,
            self.message_ru,
            reason=self.reason,
            params=self.params,
            **extra,
        )

    def to_json(self) -> dict[str, Any]:
        """The HTTP error body."""
        body: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        body["message_ru"] = self.message_ru
        if self.reason is not None:
            body["reason"] = self.reason
        if self.params is not None:
            body["params"] = self.params
        return body


def refusal(e: IllegalAction | CardError) -> ProtocolError:
    """A rule's refusal of a move as an ``illegal_action`` error that names the rule's own
    code, parameters and ruling, with the catalog's messages (``kozyr.messages``)."""
    data = e.to_json()
    return ProtocolError(
        "illegal_action",
        data["message"],
        message_ru=data["message_ru"],
        reason={"code": data["code"], "params": data["params"], "rule": data["rule"]},
    )


def error_frame(
    code: str, message: str, message_ru: str | None = None, **extra: Any
) -> dict[str, Any]:
    frame: dict[str, Any] = {"v": VERSION, "type": "error", "code": code, "message": message}
    frame["message_ru"] = message_ru or ERRORS.get(code, (message, message))[1]
    frame.update({k: v for k, v in extra.items() if v is not None})
    return frame


def dumps(frame: dict[str, Any]) -> str:
    """A frame's compact JSON text, non-ASCII characters as themselves.

    orjson writes the same text as ``json.dumps(frame, ensure_ascii=False,
    separators=(",", ":"))`` about ten times faster (each move's frames are encoded once
    per role: docs/performance.md). What it refuses (an integer beyond 64 bits, a key
    that is not a string) goes to the standard library, which takes it as before."""
    try:
        return orjson.dumps(frame).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _json_dumps(frame)


def _json_dumps(frame: dict[str, Any]) -> str:
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii() and _SURROGATE.search(text):
        # Text with a lone surrogate (orjson refuses it) cannot be written as UTF-8, and
        # sending it would fail and drop the socket. ``parse_json`` lets none in; should
        # one come all the same, it is sent as U+FFFD rather than not at all.
        text = _SURROGATE.sub("\ufffd", text)
    return text


class Client:
    """One WebSocket connection's identity and outgoing queue.

    Frames are queued (never awaited under a table lock) and written by the connection's
    writer task. The queue is bounded twice: by ``limit`` frames and by ``max_bytes`` of
    frames not yet written (queued or in the writer's hands). Past either, the queue is
    dropped at once (its memory freed), nothing more is accepted, and ``on_overflow`` is
    called so that the connection can be closed (1013) even if its writer is stuck.
    """

    def __init__(self, user: User, limit: int = 2000, max_bytes: int = 1024 * 1024) -> None:
        self.user = user
        self.queue: list[str] = []
        self.limit = limit
        self.max_bytes = max_bytes
        self.pending_bytes = 0
        """UTF-8 bytes of the frames queued or being written."""
        self.closed = False
        self.overflow = False
        self.on_overflow: Callable[[], None] | None = None
        self.on_end: Callable[[int, str], None] | None = None
        """Closes the connection with a code and reason (set by the connection): a table
        that moved to another process sends its watchers there."""
        self._wake: Callable[[], None] | None = None
        # table id -> the seat this connection acts for there (None: spectator)
        self.tables: dict[str, int | None] = {}

    def attach(self, wake: Callable[[], None]) -> None:
        """``wake`` is called for every frame queued: the connection's writer hands the
        queue to its socket soon after."""
        self._wake = wake

    def send(self, frame: dict[str, Any] | str, size: int | None = None) -> None:
        """Queues a frame; ``size`` is its UTF-8 length when the caller knows it already
        (a frame shared by many clients is measured once)."""
        if self.closed:
            return
        text = frame if isinstance(frame, str) else dumps(frame)
        if size is None:
            size = utf8_size(text)
        if len(self.queue) >= self.limit or self.pending_bytes + size > self.max_bytes:
            self.overflow = True
            self.closed = True
            self.drop()
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queue.append(text)
        self.pending_bytes += size
        if self._wake is not None:
            self._wake()

    def take(self) -> list[str]:
        out, self.queue = self.queue, []
        return out

    def written(self, text: str) -> None:
        """The writer has handed ``text`` to the socket."""
        self.pending_bytes = max(0, self.pending_bytes - utf8_size(text))

    def drop(self) -> None:
        """Forgets everything not yet written."""
        self.queue = []
        self.pending_bytes = 0


def utf8_size(text: str) -> int:
    # isascii() is O(1) on CPython's str, so ASCII frames (nearly all) cost no encoding.
    return len(text) if text.isascii() else len(text.encode("utf-8"))
