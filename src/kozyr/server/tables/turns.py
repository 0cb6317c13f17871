"""Who moves next at a table, and when: the bot of a bot's seat (or of an away person's),
or the person against the turn timer. Bots think in the executor, never on the event
loop; their moves go through the match like any other (B2).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from kozyr.bots.base import Bot
from kozyr.server.play.match import Match
from kozyr.server.play.presence import Presence
from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import now_ms
from kozyr.server.tables.views import table_commitment
from kozyr.server.transport.protocol import ProtocolError

log = logging.getLogger("kozyr.server.tables.turns")

_fallback_logged: set[str] = set()


def make_table_bot(game: str, level: int, seed: int, kind: str | None = None) -> Bot:
    """The bot of ``level`` (or of ``kind``) for ``game``; the random bot while that level
    is not built."""
    from kozyr.bots.registry import make_bot

    try:
        return make_bot(game, kind or level, seed)
    except (ValueError, ImportError) as e:
        key = f"{game}:{level}"
        if key not in _fallback_logged:
            _fallback_logged.add(key)
            log.warning(
                "bot level %s for %s not available (%s): using the random bot", level, game, e
            )
        return make_bot(game, "random", seed)


BotPlay = Callable[[int, int, int], Awaitable[object]]
"""(seat, action, seq): the table applies a bot's move (under its lock)."""


class Turns:
    def __init__(
        self,
        match: Match,
        presence: Presence,
        settings: Settings,
        executor: Executor,
        lock: asyncio.Lock,
        play: BotPlay,
        on_timeout: Callable[[int], None],
    ) -> None:
        self.match = match
        self.row = match.row
        self.presence = presence
        self.settings = settings
        self.executor = executor
        self.lock = lock
        self.play = play
        self.on_timeout = on_timeout
        """Called (under the lock) when a person's turn ran out and he is now away."""
        self.bots: dict[int, Bot] = {}
        self.deadline_ms: int | None = None
        # A timer handle, not a task: a task per move (created, then cancelled by the
        # next move) was a measurable part of a move. Nor is the handle replaced at every
        # move (a cancel and a new heap entry each time, 2% of a move at 1,000 people):
        # a move only moves ``_due`` later, and the armed timer, which fires first,
        # re-arms itself for what is due by then.
        self._timer: asyncio.TimerHandle | None = None
        self._due: tuple[float, int, int] | None = None
        """(loop time, seat, seq) of the running turn's end; None: no turn is timed."""
        self._expiring: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_key: tuple[int, int] = (-1, -1)
        self.stopping = False
        """The server is stopping (:meth:`stop`): nobody's move is played any more."""

    def make_bots(self) -> None:
        """Every seat's bot (a person's plays when he is away), made as the game starts."""
        self.bots = {
            i: make_table_bot(self.row.game, s.bot or 3, self.bot_seed(i), self.settings.bot_kind)
            for i, s in enumerate(self.row.seats)
        }

    def bot_seed(self, seat: int) -> int:
        """A bot's own randomness, never derived from the table seed: knowing one must not
        tell the other (and a bot's choices would tell about the seed)."""
        if self.row.seed_secret:
            return secrets.randbits(64)
        # A fixed-seed table (tests, demonstrations) repeats its bots' play too: from the
        # public commitment, which says nothing about the seed.
        key = f"kozyr:bot:{table_commitment(self.row)}:{seat}".encode()
        return int.from_bytes(hashlib.sha256(key).digest()[:8], "big")

    def schedule(self) -> None:
        """Arms the bot or the turn timer for whoever must act now (called under lock)."""
        self._due = None
        self.deadline_ms = None
        state = self.match.state
        if self.stopping or not self.match.playing or state is None or state.over:
            return
        seat = state.to_act
        if seat is None:
            return
        seq = self.match.seq
        if self.presence.bot_plays(seat):
            if not self.presence.attended:
                self.pause()  # bots alone, nobody watching: they wait for a watcher
                return
            key = (seat, seq)
            task = self._bot_task
            if task is not None and not task.done():
                if self._bot_key == key:
                    return
                task.cancel()
            self._bot_key = key
            self._bot_task = asyncio.create_task(self._bot_move(seat, seq))
            return
        timeout = self.row.turn_timeout
        if timeout:
            self.deadline_ms = now_ms() + int(timeout * 1000)
            loop = asyncio.get_running_loop()
            when = loop.time() + timeout
            self._due = (when, seat, seq)
            timer = self._timer
            if timer is not None:
                if timer.when() <= when:
                    return  # it fires first and re-arms for this turn's end
                timer.cancel()
            self._timer = loop.call_at(when, self._check_due)

    def _check_due(self) -> None:
        self._timer = None
        due = self._due
        if due is None:
            return
        when, seat, seq = due
        loop = asyncio.get_running_loop()
        # The loop may run a timer up to its clock's resolution early.
        if loop.time() + 0.001 < when:
            self._timer = loop.call_at(when, self._check_due)
            return
        self._due = None
        self._time_up(seat, seq)

    def _time_up(self, seat: int, seq: int) -> None:
        self._expiring = asyncio.create_task(self._turn_timed_out(seat, seq))

    async def _turn_timed_out(self, seat: int, seq: int) -> None:
        async with self.lock:
            if self.stopping or self.match.seq != seq or self.match.to_act != seat:
                return
            # Timed out: a bot plays for him until he comes back.
            self.presence.leave(seat)
            self.on_timeout(seat)

    async def _bot_move(self, seat: int, seq: int) -> None:
        try:
            is_bot = self.row.seats[seat].bot is not None
            delay = self.settings.bot_delay if is_bot else min(self.settings.bot_delay, 0.2)
            if delay > 0:
                await asyncio.sleep(delay)
            while True:
                async with self.lock:
                    state = self.match.state
                    if state is None or self.match.seq != seq or state.to_act != seat:
                        return
                    if not self.presence.bot_plays(seat) or not self.presence.attended:
                        return
                    observation = state.observation(seat)
                    legal = state.legal_actions()
                action = await self._choose(seat, observation, legal)
                async with self.lock:
                    if self.stopping:
                        return
                    try:
                        self._bot_task = None
                        await self.play(seat, action, seq)
                        return
                    except ProtocolError as e:
                        if e.code != "busy":
                            self.schedule()
                            return
                await asyncio.sleep(0.5)  # the database refused: try again
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move failed at table %s", self.row.id)

    async def _choose(self, seat: int, observation: Any, legal: list[int]) -> int:
        """The seat's bot thinks in a worker thread: the event loop never waits on it."""
        bot = self.bots[seat]
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(
                self.executor, bot.choose, observation, legal, self.settings.bot_budget
            )
            if action not in legal:
                raise ValueError(f"bot chose {action}, not a legal action")
            return int(action)
        except Exception:
            if self.stopping:  # the stop shut the bots' threads down: no move at all
                raise asyncio.CancelledError from None
            log.exception("bot at table %s seat %s failed; playing at random", self.row.id, seat)
            return random.choice(legal)

    @property
    def bot_pending(self) -> bool:
        """A bot's move is on its way (waiting for its delay or thinking)."""
        return self._bot_task is not None and not self._bot_task.done()

    def pause(self) -> None:
        """Stops a bot's move that has not been applied yet (the last watcher of a table
        of bots alone has gone); :meth:`schedule` starts it again."""
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
        self._bot_task = None
        self._bot_key = (-1, -1)

    def stop(self) -> None:
        """The server is stopping: no bot's move, no clock's, from now on (a move being
        committed finishes under the table's lock; the table takes no other)."""
        self.stopping = True
        self.deadline_ms = None
        self.close()

    def close(self) -> None:
        self._due = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in [self._expiring, self._bot_task]:
            if task is not None:
                task.cancel()
