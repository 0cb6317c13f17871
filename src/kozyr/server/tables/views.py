"""What a table looks like from outside: its lobby info and a recipient's own view of the
game (no frame here carries a card its recipient may not see, B3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kozyr.games.base import GameState
from kozyr.games.dealing import LEGACY, commitment
from kozyr.server.money.escrow import settlement_info
from kozyr.server.storage.store import TableRow


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


class Views:
    """Every role's view of one state, for one broadcast: the public view is built once,
    and a seat's is a copy of it with the seat's own fields laid over (the engine's
    ``seat_json``), the same dict as :func:`view_of` gives, key order and all, at a
    fraction of the cost of building each seat's observation whole. The state must not
    move on while a ``Views`` of it is in use (a broadcast runs under the table's lock)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._public: dict[str, Any] | None = None

    def of(self, seat: int | None) -> dict[str, Any]:
        seat_json: Callable[[int], dict[str, Any]] | None = getattr(self.state, "seat_json", None)
        if seat_json is None:  # an engine without it: each view whole
            return view_of(self.state, seat)
        if self._public is None:
            self._public = view_of(self.state, None)
        if seat is None:
            return dict(self._public)
        return {**self._public, **seat_json(seat)}


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
        "rated": row.rated,
        "hints": row.hints,
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
        # a rated game once over: each seat's rating change, or why it moved none
        "unrated": row.unrated,
        "rating_changes": row.rating_changes,
        "dealing": row.dealing,
        "commitment": table_commitment(row),
        "seed_secret": row.seed_secret,
        **settlement_info(row),
    }
    if private and row.invite_code:
        out["invite_code"] = row.invite_code
    return out
