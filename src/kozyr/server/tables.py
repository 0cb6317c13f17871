"""A live table: the authoritative game state, its seats, watchers, bots and timers.

Every change to a table runs under the table's one asyncio lock (boardgame.io's master):
an intent is parsed and checked by the engine on the current state, the action row is
committed to the database, and only then is the new state adopted, the sender
acknowledged and every watcher sent its own view (lichess-style numbered stream: the
table's ``seq`` is the number of actions applied).
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from kozyr.bots.base import Bot
from kozyr.cards import CardError
from kozyr.games.base import GameError, GameState, IllegalAction
from kozyr.games.dealing import LEGACY, commitment
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.server.config import Settings
from kozyr.server.metrics import Metrics
from kozyr.server.protocol import VERSION, Client, ProtocolError, dumps, utf8_size
from kozyr.server.store import Duplicate, Seat, Store, TableRow, now_ms

log = logging.getLogger("kozyr.server.tables")

RESYNC_AFTER = 300
"""A client more than this many actions behind gets one full ``sync`` frame instead."""

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


def new_state(row: TableRow) -> GameState:
    """The game a table's row fixes before any action (B2): options, seed, start."""
    if row.game == "imperial":
        return ImperialState.new(
            ImperialOptions.from_json(row.options),
            seed=row.seed,
            first_dealer=row.first_dealer,
            dealing=row.dealing,
        )
    return EmperorState.new(
        EmperorOptions.from_json(row.options),
        seed=row.seed,
        join_order=row.join_order,
        dealing=row.dealing,
    )


def table_commitment(row: TableRow) -> str | None:
    """``sha256`` of the seed, public from the table's creation on, so that the finished
    record's seed can be checked against it; None for old (legacy) rows, which had none."""
    return commitment(row.seed) if row.dealing != LEGACY else None


def view_of(state: GameState, seat: int | None, events: bool = False) -> dict[str, Any]:
    """A recipient's own view: its observation (seat None: the public one, B3)."""
    data = state.observation(seat).to_json()
    if not events:
        data.pop("events", None)
    return data


def table_info(
    row: TableRow,
    *,
    seq: int,
    to_act: int | None = None,
    deadline_ms: int | None = None,
    spectators: int = 0,
    connected: Callable[[int], bool] = lambda _seat: False,
    away: set[int] | frozenset[int] = frozenset(),
    private: bool = False,
) -> dict[str, Any]:
    """A table's info from its row and its live facts (for a table that is no longer in
    memory, the defaults: nobody connected, nobody watching)."""
    seats = []
    for i, s in enumerate(row.seats):
        kind = "bot" if s.bot is not None else ("person" if s.user_id is not None else "empty")
        seats.append(
            {
                "seat": i,
                "kind": kind,
                "name": s.name if s.user_id is not None else None,
                "user_id": s.user_id,
                "level": s.bot,
                "connected": kind == "bot" or (kind == "person" and connected(i)),
                "away": i in away,
            }
        )
    out: dict[str, Any] = {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": row.options,
        "private": row.private,
        "status": row.status,
        "seats": seats,
        "join_order": list(row.join_order),
        "spectators": spectators,
        "turn_timeout": row.turn_timeout,
        "creator_id": row.creator_id,
        "created_ms": row.created_ms,
        "seq": seq,
        "to_act": to_act,
        "deadline_ms": deadline_ms,
        "result": row.result,
        "dealing": row.dealing,
        "commitment": table_commitment(row),
        "seed_secret": row.seed_secret,
    }
    if private and row.invite_code:
        out["invite_code"] = row.invite_code
    return out


class Table:
    def __init__(
        self,
        row: TableRow,
        store: Store,
        settings: Settings,
        metrics: Metrics,
        executor: Executor,
        on_change: Callable[[Table], None],
    ) -> None:
        self.row = row
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.executor = executor
        self.on_change = on_change
        self.lock = asyncio.Lock()
        self.state: GameState | None = None
        self.log: list[tuple[int, str, str]] = []
        """(seat, action text, "person" | "bot") of each applied action, by seq - 1."""
        self.event_index: list[int] = [0]
        """event_index[seq]: len(state.events) after ``seq`` actions."""
        self.seen_ids: dict[tuple[int, str], int] = {}
        self.watchers: dict[Client, int | None] = {}
        self.away: set[int] = set()
        self.bots: dict[int, Bot] = {}
        self.deadline_ms: int | None = None
        self._timer: asyncio.Task[None] | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_key: tuple[int, int] = (-1, -1)
        self._grace: dict[int, asyncio.Task[None]] = {}

    # -- facts ----------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def playing(self) -> bool:
        return self.row.status == "playing" and self.state is not None

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.row.seats):
            if s.user_id == user_id:
                return i
        return None

    def connected(self, seat: int) -> bool:
        return any(role == seat for role in self.watchers.values())

    def bot_plays(self, seat: int) -> bool:
        s = self.row.seats[seat]
        return s.bot is not None or seat in self.away

    def timeout(self) -> float | None:
        return self.row.turn_timeout

    def info(self, private: bool = False) -> dict[str, Any]:
        """The table as the lobby shows it (public: no cards, no seed)."""
        return table_info(
            self.row,
            seq=self.seq,
            to_act=self.state.to_act if self.state is not None else None,
            deadline_ms=self.deadline_ms,
            spectators=sum(1 for role in self.watchers.values() if role is None),
            connected=self.connected,
            away=self.away,
            private=private,
        )

    # -- frames ---------------------------------------------------------------------

    def _table_frame(self, client: Client) -> dict[str, Any]:
        return self._role_table_frame(self.watchers.get(client))

    def _role_table_frame(self, role: int | None) -> dict[str, Any]:
        frame = {"v": VERSION, "type": "table", "table": self.info(private=role is not None)}
        frame["you"] = role
        return frame

    def send_table(self) -> None:
        # One frame per role, encoded once: with hundreds of spectators, building info()
        # (itself a pass over the watchers) for each of them made every join quadratic.
        self._broadcast(self._role_table_frame)
        self.on_change(self)

    def _update_frame(self, seq: int, seat: int | None, view: bool) -> dict[str, Any]:
        assert self.state is not None
        actor, text, by = self.log[seq - 1]
        frame: dict[str, Any] = {
            "v": VERSION,
            "type": "update",
            "table": self.id,
            "seq": seq,
            "action": {"seat": actor, "action": text, "by": by},
            "events": self.state.events[self.event_index[seq - 1] : self.event_index[seq]],
        }
        if view:
            frame["view"] = view_of(self.state, seat)
            frame["deadline_ms"] = self.deadline_ms
        return frame

    def _sync_frame(self, seat: int | None) -> dict[str, Any]:
        assert self.state is not None
        return {
            "v": VERSION,
            "type": "sync",
            "table": self.id,
            "seq": self.seq,
            "view": view_of(self.state, seat, events=True),
        }

    def _broadcast(self, frame_for: Callable[[int | None], dict[str, Any]]) -> None:
        """Sends each watcher the frame of its role: built, encoded and measured once per
        role, so that a spectator costs one queue append (and its socket write)."""
        cache: dict[int | None, tuple[str, int]] = {}
        for client, role in list(self.watchers.items()):
            entry = cache.get(role)
            if entry is None:
                text = dumps(frame_for(role))
                entry = cache[role] = (text, utf8_size(text))
            client.send(entry[0], entry[1])

    def _broadcast_update(self, seq: int) -> None:
        self._broadcast(lambda role: self._update_frame(seq, role, view=True))

    def _broadcast_sync(self) -> None:
        self._broadcast(self._sync_frame)

    def catch_up(self, client: Client, last_seq: int | None) -> None:
        """What a (re)connecting client missed since ``last_seq``: each missed update, or
        one full ``sync`` when it is far behind, up to date, says nothing or says
        something odd (a sync is always safe: it holds the whole view)."""
        if not self.playing and self.row.status != "finished":
            return
        if self.state is None:
            return
        role = self.watchers.get(client)
        seq = self.seq
        if last_seq is None or not 0 <= last_seq < seq or seq - last_seq > RESYNC_AFTER:
            client.send(self._sync_frame(role))
            return
        for s in range(last_seq + 1, seq + 1):
            client.send(self._update_frame(s, role, view=s == seq))

    # -- watching -------------------------------------------------------------------

    async def watch(self, client: Client, last_seq: int | None) -> None:
        async with self.lock:
            seat = self.seat_of(client.user.id)
            self.watchers[client] = seat
            client.tables[self.id] = seat
            was_away = False
            if seat is not None:
                task = self._grace.pop(seat, None)
                if task is not None:
                    task.cancel()
                was_away = seat in self.away
                self.away.discard(seat)  # the person is back
            client.send(self._table_frame(client))
            self.catch_up(client, last_seq)
            self.send_table()
            if was_away:
                self._schedule()

    async def unwatch(self, client: Client) -> None:
        async with self.lock:
            role = self.watchers.pop(client, None)
            client.tables.pop(self.id, None)
            if role is not None and self.playing and not self.connected(role):
                self._start_grace(role)
            self.send_table()

    async def back(self, client: Client) -> None:
        async with self.lock:
            seat = self.watchers.get(client)
            if seat is None:
                raise ProtocolError("not_seated")
            if seat in self.away:
                self.away.discard(seat)
                self.send_table()
                self._schedule()

    def _start_grace(self, seat: int) -> None:
        old = self._grace.pop(seat, None)
        if old is not None:
            old.cancel()
        self._grace[seat] = asyncio.create_task(self._grace_expired(seat))

    async def _grace_expired(self, seat: int) -> None:
        await asyncio.sleep(self.settings.grace)
        async with self.lock:
            self._grace.pop(seat, None)
            if not self.playing or self.connected(seat) or seat in self.away:
                return
            if self.row.seats[seat].user_id is None:
                return
            self.away.add(seat)
            self.send_table()
            self._schedule()

    # -- lobby changes (before the game) --------------------------------------------

    async def sit(self, user_id: int, name: str, seat: int | None) -> int:
        async with self.lock:
            if self.row.status != "open":
                raise ProtocolError("not_open", "The game has already started.", 409)
            if self.seat_of(user_id) is not None:
                raise ProtocolError("already_seated", "You already hold a seat here.", 409)
            free = [i for i, s in enumerate(self.row.seats) if s.empty]
            if seat is None:
                if not free:
                    raise ProtocolError("table_full", "The table is full.", 409)
                seat = free[0]
            if not 0 <= seat < self.row.players:
                raise ProtocolError("bad_seat", "No such seat.", 400)
            if seat not in free:
                raise ProtocolError("seat_taken", "That seat is taken.", 409)
            self.row.seats[seat] = Seat(user_id=user_id, name=name)
            self.row.join_order.append(seat)  # B1
            for client, role in self.watchers.items():
                if client.user.id == user_id and role is None:
                    self.watchers[client] = seat
                    client.tables[self.id] = seat
            await self._after_seats()
            return seat

    async def leave(self, user_id: int) -> None:
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None:
                raise ProtocolError("not_seated", status=409)
            if self.row.status == "open":
                self.row.seats[seat] = Seat()
                self.row.join_order.remove(seat)
                for client, role in self.watchers.items():
                    if role == seat:
                        self.watchers[client] = None
                        client.tables[self.id] = None
                await self._after_seats()
            elif self.playing:
                # The seat stays his: a bot plays it until he comes back (hello/back).
                self.away.add(seat)
                self.send_table()
                self._schedule()

    async def set_bot(self, user_id: int, seat: int, level: int | None) -> None:
        async with self.lock:
            if self.row.creator_id != user_id:
                raise ProtocolError("not_creator", "Only the table's creator may do that.", 403)
            if self.row.status != "open":
                raise ProtocolError("not_open", "The game has already started.", 409)
            if not 0 <= seat < self.row.players:
                raise ProtocolError("bad_seat", "No such seat.", 400)
            current = self.row.seats[seat]
            if level is None:
                if current.bot is None:
                    raise ProtocolError("no_bot", "There is no bot in that seat.", 409)
                self.row.seats[seat] = Seat()
                self.row.join_order.remove(seat)
            else:
                if not current.empty:
                    raise ProtocolError("seat_taken", "That seat is taken.", 409)
                self.row.seats[seat] = Seat(bot=level, name=f"bot {level}")
                self.row.join_order.append(seat)
            await self._after_seats()

    async def _after_seats(self) -> None:
        if all(not s.empty for s in self.row.seats):
            await self._start()
        else:
            await self.store.save_table(self.row)
            self.send_table()

    async def _start(self) -> None:
        """All seats are filled: the game begins (join order fixed, B1/E5)."""
        row = self.row
        row.status = "playing"
        row.started_ms = now_ms()
        if row.game == "imperial":
            from kozyr.games.imperial import draw_first_dealer

            row.first_dealer = draw_first_dealer(row.players, row.seed, row.dealing)
        state = new_state(row)
        if state.over:
            # A small target can be reached in the first declarations, before any card.
            row.status = "finished"
            row.finished_ms = now_ms()
            row.result = state.summary()
        await self.store.save_table(row)
        self._adopt(state)
        self.send_table()
        self._broadcast_sync()
        self._schedule()

    def _adopt(self, state: GameState) -> None:
        self.state = state
        self.event_index = [len(state.events)]
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

    def restore(self, actions: list[tuple[int, str, str, str | None]]) -> None:
        """Rebuilds a game in progress from its committed log (B2): (seat, text, actor, id)."""
        state = new_state(self.row)
        self._adopt(state)
        for seat, text, actor, cid in actions:
            state.play(text)
            by = "bot" if actor.startswith("bot") else "person"
            self.log.append((seat, text, by))
            self.event_index.append(len(state.events))
            if cid is not None:
                self.seen_ids[(seat, cid)] = len(self.log)
        # After a restart nobody is connected yet: people get the grace period.
        for i, s in enumerate(self.row.seats):
            if s.user_id is not None:
                self._start_grace(i)
        self._schedule()

    # -- actions --------------------------------------------------------------------

    async def act(
        self,
        seat: int,
        action: str | int,
        client_action_id: str | None,
        by: str,
        reply: Client | None = None,
        expect_seq: int | None = None,
    ) -> tuple[int, bool]:
        """Applies one intent; returns (seq, duplicate). Raises ProtocolError, changing
        nothing, for anything the rules or the table refuse."""
        async with self.lock:
            return await self._act(seat, action, client_action_id, by, reply, expect_seq)

    async def _act(
        self,
        seat: int,
        action: str | int,
        cid: str | None,
        by: str,
        reply: Client | None,
        expect_seq: int | None,
    ) -> tuple[int, bool]:
        if cid is not None and (seat, cid) in self.seen_ids:
            seq = self.seen_ids[(seat, cid)]
            if reply is not None:
                reply.send(self._ack(cid, seq, duplicate=True))
            return seq, True
        if self.row.status == "finished":
            raise ProtocolError("game_over")
        if not self.playing or self.state is None:
            raise ProtocolError("not_started")
        if expect_seq is not None and expect_seq != self.seq:
            raise ProtocolError("stale", "The game moved on.")
        state = self.state
        if by == "bot" and not self.bot_plays(seat):
            raise ProtocolError("stale", "The person is back.")
        if by == "person" and seat in self.away:
            self.away.discard(seat)  # the person is back (his own move says so)
            self.send_table()
        if state.to_act != seat:
            raise ProtocolError("not_your_turn")
        try:
            a = state.parse_action(action) if isinstance(action, str) else action
        except (GameError, CardError) as e:
            raise ProtocolError("illegal_action", str(e)) from e
        nxt = state.clone()
        try:
            nxt.apply(a)
        except IllegalAction as e:
            raise ProtocolError("illegal_action", str(e)) from e
        except GameError as e:
            raise ProtocolError("illegal_action", str(e)) from e
        text = nxt.actions[-1]
        seq = self.seq + 1
        # The finished status goes to the database with the last action, but this table
        # adopts it only once that commit has returned: until then every reader (the
        # record and replay routes included) must see a game still being played.
        finished: TableRow | None = None
        if nxt.over:
            finished = dataclasses.replace(
                self.row, status="finished", finished_ms=now_ms(), result=nxt.summary()
            )
        actor = "bot" if by == "bot" else f"user:{self.row.seats[seat].user_id}"
        started = time.perf_counter()
        try:
            await self.store.append_action(self.id, seq, seat, actor, text, cid, finished)
        except Duplicate:
            raise ProtocolError("duplicate", "That action id was already used.") from None
        except Exception as e:
            log.exception("commit failed at table %s", self.id)
            raise ProtocolError("busy", status=503) from e
        self.metrics.commit.observe(time.perf_counter() - started)
        # Committed: adopt, acknowledge, broadcast.
        if finished is not None:
            self.row.status = finished.status
            self.row.finished_ms = finished.finished_ms
            self.row.result = finished.result
        self.state = nxt
        self.log.append((seat, text, by))
        self.event_index.append(len(nxt.events))
        if cid is not None:
            self.seen_ids[(seat, cid)] = seq
        self.metrics.actions.labels(self.row.game, by).inc()
        if reply is not None and cid is not None:
            reply.send(self._ack(cid, seq, duplicate=False))
        # Arm the next turn first, so that the update can carry its deadline.
        self._schedule()
        self._broadcast_update(seq)
        if finished is not None:
            self._finish()
        return seq, False

    def _ack(self, cid: str, seq: int, duplicate: bool) -> dict[str, Any]:
        frame: dict[str, Any] = {"v": VERSION, "type": "ack", "table": self.id, "id": cid}
        frame["seq"] = seq
        if duplicate:
            frame["duplicate"] = True
        return frame

    def _finish(self) -> None:
        self.away.clear()
        for task in self._grace.values():
            task.cancel()
        self._grace.clear()
        self.send_table()

    # -- who moves next -------------------------------------------------------------

    def _schedule(self) -> None:
        """Arms the bot or the turn timer for whoever must act now (called under lock)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.deadline_ms = None
        state = self.state
        if not self.playing or state is None or state.over:
            return
        seat = state.to_act
        if seat is None:
            return
        if self.bot_plays(seat):
            key = (seat, self.seq)
            task = self._bot_task
            if task is not None and not task.done():
                if self._bot_key == key:
                    return
                task.cancel()
            self._bot_key = key
            self._bot_task = asyncio.create_task(self._bot_move(seat, self.seq))
            return
        timeout = self.timeout()
        if timeout:
            self.deadline_ms = now_ms() + int(timeout * 1000)
            self._timer = asyncio.create_task(self._turn_timer(seat, self.seq, timeout))

    async def _turn_timer(self, seat: int, seq: int, timeout: float) -> None:
        await asyncio.sleep(timeout)
        async with self.lock:
            if self.seq != seq or self.state is None or self.state.to_act != seat:
                return
            # Timed out: a bot plays for him until he comes back.
            self.away.add(seat)
            self._timer = None
            self.send_table()
            self._schedule()

    async def _bot_move(self, seat: int, seq: int) -> None:
        try:
            is_bot = self.row.seats[seat].bot is not None
            delay = self.settings.bot_delay if is_bot else min(self.settings.bot_delay, 0.2)
            if delay > 0:
                await asyncio.sleep(delay)
            while True:
                async with self.lock:
                    state = self.state
                    if state is None or self.seq != seq or state.to_act != seat:
                        return
                    if not self.bot_plays(seat):
                        return
                    observation = state.observation(seat)
                    legal = state.legal_actions()
                action = await self._choose(seat, observation, legal)
                async with self.lock:
                    try:
                        self._bot_task = None
                        await self._act(seat, action, None, "bot", None, seq)
                        return
                    except ProtocolError as e:
                        if e.code != "busy":
                            self._schedule()
                            return
                await asyncio.sleep(0.5)  # the database refused: try again
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move failed at table %s", self.id)

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
            log.exception("bot at table %s seat %s failed; playing at random", self.id, seat)
            return random.choice(legal)

    async def close(self) -> None:
        for task in [self._timer, self._bot_task, *self._grace.values()]:
            if task is not None:
                task.cancel()
