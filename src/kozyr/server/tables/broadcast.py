"""A table's frames to its watchers: ``table``, ``update``, ``sync`` and ``ack``, each
recipient's own (a seat sees its hand, a spectator none, B3).

Watchers with the same role get the same frame, so each broadcast builds and encodes a
frame once per role, not once per watcher (a table with many spectators costs one
encoding for all of them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kozyr.server.play.match import Match
from kozyr.server.play.presence import Presence
from kozyr.server.tables.views import Views, view_of
from kozyr.server.transport.protocol import VERSION, Client, dumps, utf8_size
from kozyr.server.transport.relay import RemoteClient

RESYNC_AFTER = 300
"""A client more than this many actions behind gets one full ``sync`` frame instead."""


class Broadcaster:
    def __init__(
        self,
        match: Match,
        presence: Presence,
        info: Callable[[bool], dict[str, Any]],
        deadline_ms: Callable[[], int | None],
    ) -> None:
        self.match = match
        self.presence = presence
        self.info = info
        """The table's info (private: with the invite code, for those seated)."""
        self.deadline_ms = deadline_ms

    @property
    def table_id(self) -> str:
        return self.match.id

    # -- frames -----------------------------------------------------------------------

    def table_frame(self, role: int | None) -> dict[str, Any]:
        return {"v": VERSION, "type": "table", "table": self.info(role is not None), "you": role}

    def update_frame(
        self, seq: int, seat: int | None, view: bool, views: Views | None = None
    ) -> dict[str, Any]:
        state = self.match.state
        assert state is not None
        actor, text, by = self.match.entry(seq)
        frame: dict[str, Any] = {
            "v": VERSION,
            "type": "update",
            "table": self.table_id,
            "seq": seq,
            "action": {"seat": actor, "action": text, "by": by},
            "events": self.match.events(seq),
        }
        if view:
            frame["view"] = (views or Views(state)).of(seat)
            frame["deadline_ms"] = self.deadline_ms()
        return frame

    def sync_frame(self, seat: int | None) -> dict[str, Any]:
        state = self.match.state
        assert state is not None
        return {
            "v": VERSION,
            "type": "sync",
            "table": self.table_id,
            "seq": self.match.seq,
            "view": view_of(state, seat, events=True),
        }

    def ack_frame(self, cid: str, seq: int, duplicate: bool) -> dict[str, Any]:
        frame: dict[str, Any] = {"v": VERSION, "type": "ack", "table": self.table_id, "id": cid}
        frame["seq"] = seq
        if duplicate:
            frame["duplicate"] = True
        return frame

    # -- to every watcher -------------------------------------------------------------

    def _to_all(self, make: Callable[[int | None], dict[str, Any]]) -> None:
        """Sends each watcher the frame of its role: built, encoded and measured once per
        role, so that a spectator costs one queue append (and its socket write)."""
        cache: dict[int | None, tuple[str, int]] = {}
        remote: dict[tuple[str, int | None], list[RemoteClient]] = {}
        for client, role in list(self.presence.watchers.items()):
            entry = cache.get(role)
            if entry is None:
                text = dumps(make(role))
                entry = cache[role] = (text, utf8_size(text))
            if isinstance(client, RemoteClient):
                # cluster mode: one message per other process and role, not per watcher
                remote.setdefault((client.node, role), []).append(client)
                continue
            client.send(*entry)
        for (_node, role), clients in remote.items():
            clients[0].send_to([c.conn for c in clients if not c.closed], cache[role][0])

    def send_table(self) -> None:
        self._to_all(self.table_frame)

    def update(self, seq: int) -> None:
        assert self.match.state is not None
        views = Views(self.match.state)  # the public view built once for every role
        self._to_all(lambda role: self.update_frame(seq, role, view=True, views=views))

    def sync(self) -> None:
        self._to_all(self.sync_frame)

    # -- to one -----------------------------------------------------------------------

    def catch_up(self, client: Client, last_seq: int | None) -> None:
        """What a (re)connecting client missed since ``last_seq``: each missed update, or
        one full ``sync`` when it is far behind, up to date, says nothing or says
        something odd (a sync is always safe: it holds the whole view)."""
        match = self.match
        if not match.playing and match.row.status != "finished":
            return
        if match.state is None:
            return
        role = self.presence.watchers.get(client)
        seq = match.seq
        if last_seq is None or not 0 <= last_seq < seq or seq - last_seq > RESYNC_AFTER:
            client.send(self.sync_frame(role))
            return
        for s in range(last_seq + 1, seq + 1):
            client.send(self.update_frame(s, role, view=s == seq))
