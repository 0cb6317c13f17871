"""Who may say what where at a table, and who hears it.

- **Channels.** A person seated at the table talks on the players' channel; anyone else
  watching it on the spectators'. The channel comes from who he is, never from the frame
  (a ``channel`` that is not his is refused, ``talk_channel``); someone neither seated nor
  watching is refused (``not_at_table``).
- **The kibitzer rule.** The players' channel reaches everyone at the table. The
  spectators' reaches only the spectators until the table is finished; then everyone. At
  the game's end the players still watching are sent the spectators' lines they did not
  see (:meth:`Talk.reveal`, run by the table's ``on_over``), and a ``hello`` gives back
  the lines its person may see now.
- **Blocks.** A line is not delivered to anyone who has blocked its speaker: not live, not
  in a ``hello``'s history, not at the reveal (the speaker is not told).
- **Rate.** At most ``LIMIT`` lines per person in any ``WINDOW`` seconds, counted on the
  process that runs the table (in cluster mode: per table owner); a refused line is not
  counted (``talk_too_fast``, 429).

Every refusal changes nothing: the line is checked, and the person's place in the window
taken, before it is stored; a line that could not be stored gives its place back.
"""

from __future__ import annotations

import asyncio
import logging

from kozyr.server.accounts.throttle import SlidingWindow
from kozyr.server.friends.lists import blocked_by, deaf_to
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.table import Table
from kozyr.server.talk import kept
from kozyr.server.talk.said import PLAYERS, SPECTATORS, Channel, Said
from kozyr.server.talk.words import JOINERS, MAX_CHARS, clean
from kozyr.server.transport.frames import TALK_RAW, SayFrame
from kozyr.server.transport.protocol import Client, ProtocolError, dumps

log = logging.getLogger("kozyr.server.talk")

LIMIT = 5
"""Lines per person in any :data:`WINDOW` seconds."""
WINDOW = 10.0


def _finished(table: Table) -> bool:
    return table.row.status == "finished"


def hears(role: int | None, channel: Channel, finished: bool) -> bool:
    """Whether a watcher of ``role`` (a seat, or None for a spectator) is sent a line of
    ``channel``: the kibitzer rule.

    >>> hears(0, "spectators", finished=False), hears(0, "spectators", finished=True)
    (False, True)
    >>> hears(None, "players", finished=False), hears(None, "spectators", finished=False)
    (True, True)
    """
    return channel == PLAYERS or role is None or finished


class Talk:
    """Table talk on this process: lines said at the tables it runs."""

    def __init__(self, store: Store, window: SlidingWindow | None = None) -> None:
        self.store = store
        self.window = window or SlidingWindow(LIMIT, WINDOW)
        self._tasks: set[asyncio.Task[None]] = set()

    def _content(self, frame: SayFrame) -> tuple[str | None, str | None]:
        if frame.text is not None and frame.phrase is not None:
            raise ProtocolError("bad_frame", "A say carries a text or a phrase, not both.")
        if frame.phrase is not None:
            return None, frame.phrase
        if frame.text is not None and len(frame.text) > TALK_RAW:
            raise ProtocolError("talk_too_long", params={"max": MAX_CHARS})
        text = clean(frame.text or "")
        if not "".join(c for c in text if c not in JOINERS).strip():  # nothing to show
            raise ProtocolError("talk_empty")
        if len(text) > MAX_CHARS:
            raise ProtocolError("talk_too_long", params={"max": MAX_CHARS})
        return text, None

    @staticmethod
    def channel_of(table: Table, user: User, client: Client | None) -> Channel:
        if table.seat_of(user.id) is not None:
            return PLAYERS
        if client is not None and client in table.watchers:
            return SPECTATORS
        raise ProtocolError("not_at_table", status=403)

    async def say(self, table: Table, user: User, client: Client | None, frame: SayFrame) -> Said:
        """Checks, keeps and sends one line (``client``: the connection it came by, here
        or relayed, if it watches the table)."""
        text, phrase = self._content(frame)
        channel = self.channel_of(table, user, client)
        if frame.channel is not None and frame.channel != channel:
            raise ProtocolError("talk_channel")
        key = str(user.id)
        wait = self.window.retry_after(key)
        if wait is not None:
            raise ProtocolError("talk_too_fast", status=429, params={"retry_after": wait})
        at = self.window.record(key)
        try:
            said = await kept.keep(
                self.store, table.id, table.seq, user.id, user.name, channel, text, phrase
            )
        except BaseException:
            self.window.unrecord(key, at)
            raise
        self._watch_over(table)
        finished = _finished(table)
        encoded = dumps(said.to_json())
        watchers = list(table.watchers.items())
        deaf = await deaf_to(self.store, user.id, {w.user.id for w, _ in watchers})
        for watcher, role in watchers:
            if hears(role, channel, finished) and watcher.user.id not in deaf:
                watcher.send(encoded)
        return said

    async def history(self, table: Table, client: Client) -> None:
        """After a ``hello``: the lines its person may see now, as ``said`` frames."""
        self._watch_over(table)
        role = table.watchers.get(client)
        players_only = role is not None and not _finished(table)
        blocked = await blocked_by(self.store, client.user.id)
        for said in await kept.lines(self.store, table.id, players_only):
            if said.user_id not in blocked:
                client.send(said.to_json())

    async def finished_history(self, table_id: str, client: Client) -> None:
        """After a ``hello`` to a finished table that has left memory: both channels."""
        blocked = await blocked_by(self.store, client.user.id)
        for said in await kept.lines(self.store, table_id, players_only=False):
            if said.user_id not in blocked:
                client.send(said.to_json())

    def _watch_over(self, table: Table) -> None:
        """Has the table tell :meth:`reveal` when its game ends (once per table)."""
        if self.reveal not in table.on_over:
            table.on_over.append(self.reveal)

    def reveal(self, table: Table) -> None:
        """The game is over: the players watching get the spectators' lines (called under
        the table's lock, so the lines are read in a task of their own)."""
        task = asyncio.get_running_loop().create_task(self._reveal(table))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reveal(self, table: Table) -> None:
        try:
            lines = await kept.spectators_lines(self.store, table.id)
        except Exception:
            log.exception("the spectators' talk of table %s was not sent", table.id)
            return
        if not lines:
            return
        frames = [(s.user_id, dumps(s.to_json())) for s in lines]
        for watcher, role in list(table.watchers.items()):
            if role is not None:
                try:
                    blocked = await blocked_by(self.store, watcher.user.id)
                except Exception:
                    log.exception("the blocks of %d were not read", watcher.user.id)
                    continue
                for speaker, text in frames:
                    if speaker not in blocked:
                        watcher.send(text)
