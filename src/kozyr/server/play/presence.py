"""Who is at a table: its watchers (each connection as a seat or a spectator) and the
seated people who are away, after a grace period without a connection or a timed-out
turn (a bot plays their seat until they come back, B2).

Everything here runs under the table's lock; :class:`Presence` takes the lock only in
the grace timer it starts itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import TableRow
from kozyr.server.transport.protocol import Client, ProtocolError


def bots_alone(row: TableRow) -> bool:
    """Every seat of ``row`` holds a bot: no person is seated (nor can be any more)."""
    return all(s.bot is not None for s in row.seats)


class Presence:
    def __init__(
        self,
        row: TableRow,
        settings: Settings,
        lock: asyncio.Lock,
        playing: Callable[[], bool],
        on_away: Callable[[int], None],
    ) -> None:
        self.row = row
        self.settings = settings
        self.lock = lock
        self.playing = playing
        self.on_away = on_away
        """Called (under the lock) when a seat has just become away by itself."""
        self.watchers: dict[Client, int | None] = {}
        self.away: set[int] = set()
        self._grace: dict[int, asyncio.Task[None]] = {}

    @property
    def table_id(self) -> str:
        return self.row.id

    def connected(self, seat: int) -> bool:
        return any(role == seat for role in self.watchers.values())

    @property
    def spectators(self) -> int:
        return sum(1 for role in self.watchers.values() if role is None)

    def bot_plays(self, seat: int) -> bool:
        return self.row.seats[seat].bot is not None or seat in self.away

    @property
    def attended(self) -> bool:
        """Someone is there for the bots to play to. A table with a person seated always
        is (an away person's seat is played for him); a table of bots alone only while a
        connection (here or, relayed, on another process) watches it: else its bots wait,
        and it costs no CPU (docs/deploy.md, "Tables of bots alone")."""
        return bool(self.watchers) or not bots_alone(self.row)

    # -- watchers -------------------------------------------------------------------

    def arrive(self, client: Client, seat: int | None) -> bool:
        """``client`` watches as ``seat``; returns whether that seat was away (it is back)."""
        self.watchers[client] = seat
        client.tables[self.table_id] = seat
        if seat is None:
            return False
        task = self._grace.pop(seat, None)
        if task is not None:
            task.cancel()
        was_away = seat in self.away
        self.away.discard(seat)
        return was_away

    def depart(self, client: Client) -> None:
        """``client`` stops watching; a seat left without a connection gets its grace."""
        role = self.watchers.pop(client, None)
        client.tables.pop(self.table_id, None)
        if role is not None and self.playing() and not self.connected(role):
            self.start_grace(role)

    def seated(self, user_id: int, seat: int) -> None:
        """The person sat down: his spectating connections now act for ``seat``."""
        for client, role in self.watchers.items():
            if client.user.id == user_id and role is None:
                self.watchers[client] = seat
                client.tables[self.table_id] = seat

    def stood(self, seat: int) -> None:
        """``seat`` was freed before the game: its connections become spectators."""
        for client, role in self.watchers.items():
            if role == seat:
                self.watchers[client] = None
                client.tables[self.table_id] = None

    def role_of(self, client: Client) -> int:
        """The seat ``client`` acts for; ``not_seated`` for a spectator."""
        seat = self.watchers.get(client)
        if seat is None:
            raise ProtocolError("not_seated")
        return seat

    # -- away -----------------------------------------------------------------------

    def back(self, seat: int) -> bool:
        """The person at ``seat`` is back; returns whether he had been away."""
        if seat not in self.away:
            return False
        self.away.discard(seat)
        return True

    def leave(self, seat: int) -> None:
        """He left a game in progress: the seat stays his, a bot plays it meanwhile."""
        self.away.add(seat)

    def start_grace(self, seat: int) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.create_task(self._grace_expired(seat))

    async def _grace_expired(self, seat: int) -> None:
        await asyncio.sleep(self.settings.grace)
        async with self.lock:
            self._grace.pop(seat, None)
            if not self.playing() or self.connected(seat) or seat in self.away:
                return
            if self.row.seats[seat].user_id is None:
                return
            self.away.add(seat)
            self.on_away(seat)

    def game_over(self) -> None:
        """Nobody is away from a finished game; no grace is needed any more."""
        self.away.clear()
        for task in self._grace.values():
            task.cancel()
        self._grace.clear()

    def close(self) -> None:
        for task in self._grace.values():
            task.cancel()

    def forget(self) -> None:
        """The table left memory: its connections no longer watch it."""
        for client in list(self.watchers):
            client.tables.pop(self.table_id, None)
        self.watchers.clear()
