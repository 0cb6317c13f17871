"""A live table: the parts that make it, behind the one lock that orders every change.

- :class:`~kozyr.server.play.seating.Seating`: seats and join order before the game (B1);
- :class:`~kozyr.server.play.match.Match`: the game state and the authority over moves
  (check, commit, adopt);
- :class:`~kozyr.server.play.presence.Presence`: watchers, grace and away;
- :class:`~kozyr.server.tables.turns.Turns`: turn timers and the bots' moves;
- :class:`~kozyr.server.tables.broadcast.Broadcaster`: each watcher's frames.

Every change runs under the table's asyncio lock (boardgame.io's master); the table
composes the parts and says in which order they act.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from kozyr.games.base import GameState
from kozyr.server.friends import lists
from kozyr.server.money import wallets
from kozyr.server.money.betting import PlacedBet, TableBets
from kozyr.server.money.escrow import StakeRefused, row_hold, stake_too_high
from kozyr.server.play.match import Gate, Match, Move, Replayed
from kozyr.server.play.presence import Presence, bots_alone
from kozyr.server.play.seating import Seating
from kozyr.server.runtime.config import Settings
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.store import Store, TableRow, User
from kozyr.server.tables.broadcast import RESYNC_AFTER, Broadcaster
from kozyr.server.tables.turns import Turns
from kozyr.server.tables.views import table_info
from kozyr.server.transport.protocol import Client, ProtocolError

__all__ = ["RESYNC_AFTER", "Table"]


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
        self.on_change = on_change
        self.lock = asyncio.Lock()
        self.seating = Seating(row)
        self.match = Match(row, store, metrics)
        self.presence = Presence(row, settings, self.lock, lambda: self.playing, self._away)
        self.turns = Turns(
            self.match, self.presence, settings, executor, self.lock, self._bot_play, self._away
        )
        self.frames = Broadcaster(
            self.match, self.presence, self.info, lambda: self.turns.deadline_ms
        )
        self.bets = TableBets(row, store, lambda: self.presence.watchers)
        self.check_bots_alone: Callable[[TableRow], Awaitable[None]] | None = None
        """Set by the lobby: refuses (``too_many_bot_tables``) to fill the table's last
        seat with a bot when its creator, or the server, has enough tables of bots alone."""
        self.on_over: list[Callable[[Table], None]] = []
        """Called under the lock once the game has ended (table talk reveals the
        spectators' channel to the players then, ``server/talk``)."""

    # -- facts ----------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seq(self) -> int:
        return self.match.seq

    @property
    def state(self) -> GameState | None:
        return self.match.state

    @property
    def playing(self) -> bool:
        return self.match.playing

    @property
    def watchers(self) -> dict[Client, int | None]:
        return self.presence.watchers

    def seat_of(self, user_id: int) -> int | None:
        return self.seating.seat_of(user_id)

    def info(self, private: bool = False) -> dict[str, Any]:
        """The table as the lobby shows it (public: no cards, no seed)."""
        return table_info(
            self.row,
            seq=self.seq,
            to_act=self.match.to_act,
            deadline_ms=self.turns.deadline_ms,
            spectators=self.presence.spectators,
            connected=self.presence.connected,
            away=self.presence.away,
            private=private,
        )

    def send_table(self) -> None:
        self.frames.send_table()
        self.on_change(self)

    def _away(self, _seat: int) -> None:
        """A seat became away by itself (grace over, turn timed out): a bot takes it.
        The turn is armed again first, so that the table frame says the seat has no
        clock any more (``deadline_ms`` null), not the deadline that just ran out."""
        self.turns.schedule()
        self.send_table()

    # -- watching -------------------------------------------------------------------

    async def watch(self, client: Client, last_seq: int | None) -> None:
        async with self.lock:
            unattended = not self.presence.attended
            was_away = self.presence.arrive(client, self.seat_of(client.user.id))
            if was_away or unattended:
                # (bots alone: the first watcher wakes them.) Armed before the frames, so
                # that they carry the clock of a person back at his turn.
                self.turns.schedule()
            client.send(self.frames.table_frame(self.watchers[client]))
            self.frames.catch_up(client, last_seq)
            self.send_table()

    async def unwatch(self, client: Client) -> None:
        async with self.lock:
            self.presence.depart(client)
            self.send_table()
            if not self.presence.attended:
                self.turns.pause()  # bots alone and the last watcher gone: they wait

    async def back(self, client: Client) -> None:
        async with self.lock:
            if self.presence.back(self.presence.role_of(client)):
                self.turns.schedule()  # first: the frame carries his turn's new deadline
                self.send_table()

    # -- lobby changes (before the game) --------------------------------------------

    async def sit(
        self,
        user_id: int,
        name: str,
        seat: int | None,
        guest: bool = False,
        addr: str | None = None,
    ) -> int:
        """``addr``: the mark of the address he sits down from (``ratings.address_mark``),
        kept by a rated table's seat until the game ends."""
        async with self.lock:
            self.seating.check_sit(user_id, seat, guest)
            # whoever a person at the table (or its creator) has blocked does not sit
            # with him, and is told no more than that he may not (#44)
            if await lists.seat_refused(self.store, user_id, self._people()):
                raise ProtocolError("seat_refused", status=409)
            # B4: players never bet on their table, so open bets on it keep him standing
            await self.bets.check_no_bets(user_id)
            # taking the seat is agreeing to the stake: his wallet must cover the hold
            await wallets.check_cover(self.store, user_id, row_hold(self.row))
            got = self.seating.sit(user_id, name, seat, guest)
            if self.row.rated:
                self.row.seats[got].addr = addr
            self.presence.seated(user_id, got)
            refused = await self.after_seats()
            if user_id in refused:
                raise refused[user_id]
            return got

    def _people(self) -> set[int]:
        people = {s.user_id for s in self.row.seats if s.user_id is not None}
        if self.row.creator_id is not None:
            people.add(self.row.creator_id)
        return people

    async def leave(self, user_id: int) -> None:
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None:
                raise ProtocolError("not_seated", status=409)
            if self.row.status == "open":
                self.seating.stand(seat)
                self.presence.stood(seat)
                await self.after_seats()
            elif self.playing:
                # The seat stays his: a bot plays it until he comes back (hello/back).
                self.presence.leave(seat)
                self.turns.schedule()  # first: the frame says his seat has no clock now
                self.send_table()

    async def set_bot(self, user_id: int, seat: int, level: int | None) -> None:
        async with self.lock:
            self.seating.set_bot(user_id, seat, level)
            if level is not None and bots_alone(self.row) and self.check_bots_alone:
                try:
                    await self.check_bots_alone(self.row)
                except ProtocolError:
                    self.seating.stand(seat)
                    raise
            await self.after_seats()

    async def after_seats(self) -> dict[int, ProtocolError]:
        """Saves the seats; with every seat filled, the game begins (called under lock).

        Returns the people unseated because their wallet no longer covers the stake's
        hold at the start (spent meanwhile at another table): the start is refused, they
        are told, and the table stays open for others."""
        if not self.seating.full:
            await self.store.save_table(self.row)
            self.send_table()
            return {}
        try:
            await self.match.start()
        except StakeRefused as e:
            return await self._unseat(e)
        self.turns.make_bots()
        self.send_table()
        self.frames.sync()
        await self._follow_bets()
        self.turns.schedule()
        return {}

    async def _unseat(self, refused: StakeRefused) -> dict[int, ProtocolError]:
        errors = {}
        for short in refused.short:
            self.seating.stand(short.seat)
            self.presence.stood(short.seat)
            errors[short.user_id] = stake_too_high(short.balance, refused.hold)
        await self.store.save_table(self.row)
        for client in list(self.watchers):
            error = errors.get(client.user.id)
            if error is not None:
                client.send(error.frame(table=self.id))
        self.send_table()
        return errors

    async def _follow_bets(self) -> None:
        """The markets follow the game before the lock is released (B4: a bet handled
        after the action that deals a deal finds that deal's markets closed)."""
        if self.match.state is not None:
            await self.bets.follow(self.match.state.events)

    def restore(self, replayed: Replayed, book: TableBets) -> None:
        """Takes over a game in progress that a worker rebuilt from its committed log
        (B2, ``match.replay_log``), with the book that followed its events there."""
        self.match.adopt(replayed)
        self.bets.adopt_book(book)
        self.turns.make_bots()
        # After a restart nobody is connected yet: people get the grace period.
        for i, s in enumerate(self.row.seats):
            if s.user_id is not None:
                self.presence.start_grace(i)
        self.turns.schedule()

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
            move = await self._act(seat, action, client_action_id, by, reply, expect_seq)
            return move.seq, move.duplicate

    async def _bot_play(self, seat: int, action: int, seq: int) -> Move:
        return await self._act(seat, action, None, "bot", None, seq)

    def _gate(self, seat: int, by: str) -> None:
        if self.turns.stopping:
            raise ProtocolError("stopping", status=503)
        if by == "bot" and not self.presence.bot_plays(seat):
            raise ProtocolError("stale", "The person is back.")
        if by == "person" and self.presence.back(seat):
            self.send_table()  # his own move says he is back

    async def _act(
        self,
        seat: int,
        action: str | int,
        cid: str | None,
        by: str,
        reply: Client | None,
        expect_seq: int | None,
    ) -> Move:
        gate: Gate = self._gate
        move = await self.match.submit(seat, action, cid, by, expect_seq, gate)
        if reply is not None and cid is not None:
            reply.send(self.frames.ack_frame(cid, move.seq, duplicate=move.duplicate))
        if move.duplicate:
            return move
        # Arm the next turn first, so that the update can carry its deadline.
        self.turns.schedule()
        self.frames.update(move.seq)
        state = self.match.state
        if state is not None and self.bets.announce(state.events):
            await self.bets.settle_pending()  # B4, as in _follow_bets
        if move.finished:
            self.presence.game_over()
            self.send_table()
            for hook in list(self.on_over):
                hook(self)
        return move

    # -- spectators' bets -----------------------------------------------------------

    async def bet(
        self, user: User, market: str, outcome: str, chips: object, key: str
    ) -> tuple[PlacedBet, bool]:
        """Takes a spectator's bet in the table's order of events; (bet, taken before)."""
        async with self.lock:
            seated = self.seat_of(user.id) is not None
            return await self.bets.place(user, seated, self.seq, market, outcome, chips, key)

    async def close(self) -> None:
        self.turns.close()
        self.presence.close()

    def forget(self) -> None:
        """The table has left memory (the database serves it from now on)."""
        self.presence.forget()
