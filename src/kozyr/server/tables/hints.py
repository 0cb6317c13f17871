"""Hints at casual tables: the legal moves of the seat to act, best first, valued by the
bots' search from that seat's observation only (never the state: a hint can name no card
the seat may not see, B3).

A table has hints only if its creator asked for them and it is not rated (409
``hints_on_rated`` at creation). The search is CPU work: it runs in the bots' thread
pool, never on the event loop, and one hint at a time per seat (429 ``hint_busy``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any

from kozyr.bots.search import Ranked
from kozyr.games.base import Observation
from kozyr.review import ranker
from kozyr.server.storage.store import User
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import ProtocolError

__all__ = ["HINT_SECONDS", "Hints", "rank_moves"]

HINT_SECONDS = 0.5
"""About how long a hint searches: long enough to rank the moves, short enough to wait."""


def rank_moves(game: str, observation: Observation, seconds: float) -> list[Ranked]:
    """Every legal action of the observer, best first (CPU work: run it in a worker)."""
    return ranker(game).hint(observation, seconds)


class Hints:
    """The hints being worked out, one per (table, seat) at most."""

    def __init__(self, executor: Executor, seconds: float = HINT_SECONDS) -> None:
        self.executor = executor
        self.seconds = seconds
        self._busy: set[tuple[str, int]] = set()

    async def hint(self, table: Table, user: User) -> dict[str, Any]:
        """``{"seq", "unit", "unit_ru", "moves": [{"action", "value"}]}`` for the caller's
        seat at the table's current ``seq``; a ProtocolError for every refusal."""
        row = table.row
        if not row.hints:
            raise ProtocolError("hints_off", status=409)
        seat = table.seat_of(user.id)
        if seat is None:
            raise ProtocolError("not_seated", status=403)
        if row.status == "finished":
            raise ProtocolError("game_over", status=409)
        state = table.state
        if row.status != "playing" or state is None:
            raise ProtocolError("not_started", status=409)
        if state.to_act != seat or len(state.legal_actions()) == 0:
            raise ProtocolError("not_your_turn", status=409)
        key = (table.id, seat)
        if key in self._busy:
            raise ProtocolError("hint_busy", status=429)
        # Taken together with no await between: the observation is of this seq.
        seq = table.seq
        observation = state.observation(seat)
        self._busy.add(key)
        try:
            ranked = await asyncio.get_running_loop().run_in_executor(
                self.executor, rank_moves, row.game, observation, self.seconds
            )
        finally:
            self._busy.discard(key)
        unit = ranker(row.game).UNIT
        return {
            "seq": seq,
            "unit": unit[0],
            "unit_ru": unit[1],
            # the text of an action is its name alone (a card, "swap 2", "offer 1"): the
            # same for every state of the game
            "moves": [
                {"action": state.action_text(r.action), "value": round(r.value, 2)} for r in ranked
            ],
        }
