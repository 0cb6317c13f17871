"""The match: a table's game state and the one authority over its moves.

An intent is checked by the engine on a copy of the current state, committed to the
store, and only then adopted (lichess-style numbered stream: ``seq`` is the number of
actions applied). A refusal changes nothing. The match knows no sockets, watchers or
timers: the table publishes what :meth:`Match.submit` returns, and the class can be
driven by a test with a fake store and no server.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kozyr.cards import CardError
from kozyr.games.base import GameError, GameState, IllegalAction
from kozyr.server.play.games import final_result, game_of, new_state
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.leases import Fenced
from kozyr.server.storage.store import Duplicate, TableRow, now_ms
from kozyr.server.transport.protocol import ProtocolError, refusal

log = logging.getLogger("kozyr.server.play.match")

_HOOKED = ("unrated", "rating_changes")
"""Fields of a finished row that its finish hooks set (the ratings'), adopted with the
finish: the table's info tells the players the game's rating changes, or why it moved
none."""


class MatchStore(Protocol):
    """The part of :class:`kozyr.server.storage.store.Store` a match writes to."""

    async def save_table(self, row: TableRow, *, started: bool = False) -> None: ...

    async def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        actor: str,
        text: str,
        client_action_id: str | None,
        finished: TableRow | None = None,
    ) -> None: ...


@dataclass(frozen=True, slots=True)
class Move:
    """An applied action (or, ``duplicate``, one applied before under the same id)."""

    seq: int
    seat: int
    by: str
    """"person" or "bot"."""
    duplicate: bool = False
    finished: bool = False
    """This move ended the game."""


Gate = Callable[[int, str], None]
"""Called with (seat, by) once the match has found the game live and the seq current,
before the turn is checked: the table's presence may refuse (a bot for a person who is
back) or take note (a person who was away moves again)."""


class Match:
    def __init__(self, row: TableRow, store: MatchStore, metrics: Metrics) -> None:
        self.row = row
        self.store = store
        self.metrics = metrics
        self.state: GameState | None = None
        self.log: list[tuple[int, str, str]] = []
        """(seat, action text, "person" | "bot") of each applied action, by seq - 1."""
        self.event_index: list[int] = [0]
        """event_index[seq]: len(state.events) after ``seq`` actions."""
        self.seen_ids: dict[tuple[int, str], int] = {}

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def playing(self) -> bool:
        return self.row.status == "playing" and self.state is not None

    @property
    def to_act(self) -> int | None:
        return self.state.to_act if self.state is not None else None

    def entry(self, seq: int) -> tuple[int, str, str]:
        """(seat, action text, by) of action ``seq`` (1-based)."""
        return self.log[seq - 1]

    def events(self, seq: int) -> list[Any]:
        """The events action ``seq`` caused."""
        assert self.state is not None
        return list(self.state.events[self.event_index[seq - 1] : self.event_index[seq]])

    # -- start --------------------------------------------------------------------------

    async def start(self) -> None:
        """Every seat is filled: the game begins (join order fixed, B1/E5) and the row
        saying so is saved."""
        # Worked out on a copy: if the start's transaction fails (a start hook refuses,
        # the database is down) the table is still open, as it was.
        row = dataclasses.replace(self.row, seats=list(self.row.seats))
        row.status = "playing"
        row.started_ms = now_ms()
        row.first_dealer = game_of(row.game).draw_start(row.players, row.seed, row.dealing)
        state = new_state(row)
        if state.over:
            # A small target can be reached in the first declarations, before any card.
            row.status = "finished"
            row.finished_ms = now_ms()
            row.result = final_result(row, state)
        await self.store.save_table(row, started=True)
        for f in ("status", "started_ms", "first_dealer", "finished_ms", "result", *_HOOKED):
            setattr(self.row, f, getattr(row, f))
        self._adopt(state)

    def _adopt(self, state: GameState) -> None:
        self.state = state
        self.event_index = [len(state.events)]

    def _adopt_next(self, nxt: GameState) -> None:
        """``nxt`` (from :meth:`_checked`, committed) becomes the state: the game's history
        lists, extended by what the action added, become its own. The state it replaces
        shares them from now on; nothing keeps it (a bot thinks on an observation)."""
        old = self.state
        assert old is not None
        old.actions.extend(nxt.actions)
        old.events.extend(nxt.events)
        nxt.actions = old.actions
        nxt.events = old.events
        self.state = nxt

    def restore(self, actions: Sequence[LoggedAction]) -> None:
        """Rebuilds a game in progress from its committed log (B2), here and now (CPU
        work: the server replays in a worker with :func:`replay_log`, then adopts)."""
        self.adopt(replay_log(self.row, actions))

    def adopt(self, replayed: Replayed) -> None:
        """Takes over a game :func:`replay_log` rebuilt (on the event loop: no replay
        here, only the hand-over of what the worker made)."""
        self.state = replayed.state
        self.log = replayed.log
        self.event_index = replayed.event_index
        self.seen_ids = replayed.seen_ids

    # -- moves --------------------------------------------------------------------------

    async def submit(
        self,
        seat: int,
        action: str | int,
        cid: str | None,
        by: str,
        expect_seq: int | None = None,
        gate: Gate | None = None,
    ) -> Move:
        """Applies one intent of ``seat``; raises ProtocolError, changing nothing, for
        anything the rules or the table refuse. The caller holds the table's lock."""
        if cid is not None and (seat, cid) in self.seen_ids:
            return Move(self.seen_ids[(seat, cid)], seat, by, duplicate=True)
        if self.row.status == "finished":
            raise ProtocolError("game_over")
        if not self.playing or self.state is None:
            raise ProtocolError("not_started")
        if expect_seq is not None and expect_seq != self.seq:
            raise ProtocolError("stale", "The game moved on.")
        if gate is not None:
            gate(seat, by)
        nxt = self._checked(seat, action)
        return await self._commit(seat, nxt, cid, by)

    def _checked(self, seat: int, action: str | int) -> GameState:
        """The state after ``action``, on a copy: the current one is left as it was. The
        copy's ``actions`` and ``events`` hold only what this action added (see
        :func:`_clone_without_history`); :meth:`_commit` joins them to the game's."""
        state = self.state
        assert state is not None
        if state.to_act != seat:
            raise ProtocolError("not_your_turn")
        try:
            a = state.parse_action(action) if isinstance(action, str) else action
            nxt = _clone_without_history(state)
            nxt.apply(a)
        except (IllegalAction, CardError) as e:
            raise refusal(e) from e
        except GameError as e:
            raise ProtocolError("illegal_action", str(e)) from e
        return nxt

    async def _commit(self, seat: int, nxt: GameState, cid: str | None, by: str) -> Move:
        text = nxt.actions[-1]
        seq = self.seq + 1
        # The finished status goes to the database with the last action, but the match
        # adopts it only once that commit has returned: until then every reader (the
        # record and replay routes included) must see a game still being played.
        finished: TableRow | None = None
        if nxt.over:
            finished = dataclasses.replace(
                self.row,
                status="finished",
                finished_ms=now_ms(),
                result=final_result(self.row, nxt),
            )
        actor = "bot" if by == "bot" else f"user:{self.row.seats[seat].user_id}"
        started = time.perf_counter()
        try:
            await self.store.append_action(self.id, seq, seat, actor, text, cid, finished)
        except Duplicate:
            raise ProtocolError("duplicate", "That action id was already used.") from None
        except Fenced:
            # Another process has taken the table over: nothing was written here.
            raise ProtocolError("moved", status=503) from None
        except Exception as e:
            log.exception("commit failed at table %s", self.id)
            raise ProtocolError("busy", status=503) from e
        self.metrics.commit.observe(time.perf_counter() - started)
        if finished is not None:
            for f in ("status", "finished_ms", "result", *_HOOKED):
                setattr(self.row, f, getattr(finished, f))
        self._adopt_next(nxt)
        self.log.append((seat, text, by))
        self.event_index.append(len(nxt.events))
        if cid is not None:
            self.seen_ids[(seat, cid)] = seq
        self.metrics.action(self.row.game, by)
        return Move(seq, seat, by, finished=finished is not None)


LoggedAction = tuple[int, str, str, str | None]
"""A committed action as the log keeps it: (seat, text, actor, client action id)."""


@dataclass(slots=True)
class Replayed:
    """A game in progress rebuilt from its committed log, ready for :meth:`Match.adopt`:
    the same state, seq, log and client action ids as the match that committed it had."""

    state: GameState
    log: list[tuple[int, str, str]]
    event_index: list[int]
    seen_ids: dict[tuple[int, str], int]


def replay_log(row: TableRow, actions: Sequence[LoggedAction]) -> Replayed:
    """Replays a table's committed log (B2). CPU work, and touches nothing shared: the
    server runs it in its replay pool (a table taken over may have a long log, and
    hundreds may be taken over at once), then adopts the result on the event loop."""
    state = new_state(row)
    done = Replayed(state, [], [len(state.events)], {})
    for seat, text, actor, cid in actions:
        state.play(text)
        by = "bot" if actor.startswith("bot") else "person"
        done.log.append((seat, text, by))
        done.event_index.append(len(state.events))
        if cid is not None:
            done.seen_ids[(seat, cid)] = len(done.log)
    return done


def _clone_without_history(state: GameState) -> GameState:
    """A copy of ``state`` whose ``actions`` and ``events`` start empty: O(1) in the length
    of the game, where ``clone`` copies both lists, which grow all game long. The engines
    only ever append to those lists, never read them to apply a move (a test in
    ``tests/server/test_match.py`` plays whole games both ways), so the copy applies an
    action exactly as a full clone would, and its lists hold that action's part alone."""
    actions, events = state.actions, state.events
    # Swapped out and back with no await in between (and no thread reads a table's
    # state), so nothing ever sees the live state without its history.
    state.actions, state.events = [], []
    try:
        return state.clone()
    finally:
        state.actions, state.events = actions, events
