"""Watching a table owned by another process (cluster mode).

On the owner, a :class:`RemoteClient` stands for a connection on another process: the
table treats it as any watcher (presence, grace, its role's frames) and its frames go to
that process through Redis, already encoded, each watcher's own role's frame only. On
the other process, a :class:`Relay` holds a local connection's relayed tables: which
process owns each and the last ``seq`` delivered, so that it can resynchronise with a
new owner after a takeover.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kozyr.server.storage.store import User
from kozyr.server.transport.protocol import Client, dumps

Post = Callable[[str, dict[str, Any]], None]


def node_channel(node: str) -> str:
    return f"node:{node}"


class RemoteClient(Client):
    """A connection on process ``node`` watching ``table_id`` here."""

    def __init__(
        self, user: User, node: str, conn: str, table_id: str, me: str, post: Post
    ) -> None:
        super().__init__(user)
        self.node = node
        self.conn = conn
        self.table_id = table_id
        self._me = me
        self._post = post

    def send(self, frame: dict[str, Any] | str, size: int | None = None) -> None:
        if self.closed:
            return
        self.send_to([self.conn], frame if isinstance(frame, str) else dumps(frame))

    def send_to(self, conns: list[str], text: str) -> None:
        """One message for several connections of the same process and role."""
        self._post(
            node_channel(self.node),
            {"kind": "frames", "from": self._me, "table": self.table_id, "to": conns, "text": text},
        )


@dataclass
class Relayed:
    """A table a local connection watches through its owner."""

    owner: str
    last_seq: int | None = None


@dataclass
class Relay:
    """A local connection's relayed tables."""

    conn: str
    client: Client
    user: User
    tables: dict[str, Relayed] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Orders the re-hellos of one connection (a takeover notice and a failed request
    may both ask for one)."""

    def deliver(self, sender: str, table_id: str, text: str) -> None:
        """A frame from ``sender`` for this connection: passed on if ``sender`` is the
        table's owner as far as this connection knows (a deposed owner's late frames are
        dropped), noting its ``seq``."""
        relayed = self.tables.get(table_id)
        if relayed is None or relayed.owner != sender:
            return
        seq = frame_seq(text)
        if seq is not None:
            relayed.last_seq = seq
        self.client.send(text)


def frame_seq(text: str) -> int | None:
    """The ``seq`` of an encoded ``update`` or ``sync`` frame, else None."""
    head = text[:40]
    if '"type":"update"' not in head and '"type":"sync"' not in head:
        return None
    try:
        seq = json.loads(text).get("seq")
    except ValueError:
        return None
    return seq if isinstance(seq, int) else None
