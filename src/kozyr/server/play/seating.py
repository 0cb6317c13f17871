"""Who sits where before the game: a table's seats and its join order (B1).

Pure bookkeeping on the table's row, with no I/O and no lock of its own: the table calls
it under its lock, then saves the row and tells the watchers. Every refusal is a
:class:`ProtocolError` raised before anything changes.
"""

from __future__ import annotations

from kozyr.server.storage.store import Seat, TableRow
from kozyr.server.transport.protocol import ProtocolError


class Seating:
    def __init__(self, row: TableRow) -> None:
        self.row = row

    @property
    def full(self) -> bool:
        return all(not s.empty for s in self.row.seats)

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.row.seats):
            if s.user_id == user_id:
                return i
        return None

    def _check_open(self) -> None:
        if self.row.status != "open":
            raise ProtocolError("not_open", "The game has already started.", 409)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.row.players:
            raise ProtocolError("bad_seat", "No such seat.", 400)

    def check_sit(self, user_id: int, seat: int | None, guest: bool = False) -> None:
        """Raises what :meth:`sit` would refuse, changing nothing (the table checks the
        seat before it reads the person's wallet). Guests are not rated, so they may not
        sit at a rated table."""
        self._check_open()
        if guest and self.row.rated:
            raise ProtocolError("rated_needs_account", status=409)
        if self.seat_of(user_id) is not None:
            raise ProtocolError("already_seated", "You already hold a seat here.", 409)
        free = [i for i, s in enumerate(self.row.seats) if s.empty]
        if seat is None and not free:
            raise ProtocolError("table_full", "The table is full.", 409)
        if seat is not None:
            self._check_seat(seat)
            if seat not in free:
                raise ProtocolError("seat_taken", "That seat is taken.", 409)

    def sit(self, user_id: int, name: str, seat: int | None, guest: bool = False) -> int:
        """Seats the person at ``seat`` (None: the first free one); returns the seat."""
        self.check_sit(user_id, seat, guest)
        if seat is None:
            seat = next(i for i, s in enumerate(self.row.seats) if s.empty)
        self.row.seats[seat] = Seat(user_id=user_id, name=name)
        self.row.join_order.append(seat)
        return seat

    def stand(self, seat: int) -> None:
        """Frees ``seat`` of an open table; it leaves the join order."""
        self.row.seats[seat] = Seat()
        self.row.join_order.remove(seat)

    def set_bot(self, user_id: int, seat: int, level: int | None) -> None:
        """The creator puts a bot of ``level`` in an empty seat, or takes one out (None)."""
        if self.row.creator_id != user_id:
            raise ProtocolError("not_creator", "Only the table's creator may do that.", 403)
        self._check_open()
        self._check_seat(seat)
        current = self.row.seats[seat]
        if level is None:
            if current.bot is None:
                raise ProtocolError("no_bot", "There is no bot in that seat.", 409)
            self.stand(seat)
            return
        if not current.empty:
            raise ProtocolError("seat_taken", "That seat is taken.", 409)
        self.row.seats[seat] = Seat(bot=level, name=f"bot {level}")
        self.row.join_order.append(seat)
