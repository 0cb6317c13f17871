"""Hints at casual tables: the legal moves of the seat to act, best first, valued by the
bots' search from that seat's observation only (never the state: a hint can name no card
the seat may not see, B3).

A table has hints only if its creator asked for them and it is not rated (409
``hints_on_rated`` at creation). The search is CPU work, bounded three ways:

- one search per decision: a seat's hint is kept until the table moves on, and asking
  again at the same ``seq`` gets the same answer without a search; one search at a time
  per seat (429 ``hint_busy``);
- a budget per person (the caller's ``spend``, a window of the throttles: 429
  ``too_many_hints``);
- a pool of its own (:func:`kozyr.server.runtime.pools.hint_pool`, then 503
  ``hints_busy``), never the bots' threads nor the event loop: hints cannot take the
  threads of other tables' bots.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from kozyr.bots.search import Ranked
from kozyr.games.base import GameState, Observation
from kozyr.review import ranker
from kozyr.server.runtime.pools import Pool, PoolFull
from kozyr.server.storage.store import User
from kozyr.server.tables.table import Table
from kozyr.server.transport.protocol import ProtocolError

__all__ = ["HINT_SECONDS", "Hints", "rank_moves"]

HINT_SECONDS = 0.5
"""About how long a hint searches: long enough to rank the moves, short enough to wait."""
KEPT = 10_000
"""Answers kept for asking again (the latest per seat; the oldest seats' go first)."""

Spend = Callable[[], Awaitable[None]]
"""Counts a search against the caller's budget, or raises (429 ``too_many_hints``)."""


def rank_moves(game: str, observation: Observation, seconds: float) -> list[Ranked]:
    """Every legal action of the observer, best first (CPU work: run it in a worker)."""
    return ranker(game).hint(observation, seconds)


async def _free() -> None:
    return None


class Hints:
    """The hints being worked out, one per (table, seat) at most, and the latest answer
    of each seat."""

    def __init__(self, pool: Pool, seconds: float = HINT_SECONDS) -> None:
        self.pool = pool
        self.seconds = seconds
        self._busy: set[tuple[str, int]] = set()
        self._answers: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        """(table, seat) -> its latest answer, whose ``seq`` says the decision."""

    async def hint(self, table: Table, user: User, spend: Spend = _free) -> dict[str, Any]:
        """``{"seq", "unit", "unit_ru", "moves": [{"action", "value"}]}`` for the caller's
        seat at the table's current ``seq``; a ProtocolError for every refusal. ``spend``
        is called only when a search is to run."""
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
        kept = self._answers.get(key)
        if kept is not None and kept["seq"] == table.seq:
            return kept  # this decision's hint was worked out already: no second search
        if key in self._busy:
            raise ProtocolError("hint_busy", status=429)
        if self.pool.full:  # before the budget: a refused hint costs the person nothing
            raise ProtocolError("hints_busy", status=503)
        self._busy.add(key)
        try:
            await spend()
            # The table may have moved on while the budget was asked (Redis): the state
            # is read again, and with no await between, the observation is of this seq.
            state = table.state
            if state is None or state.to_act != seat or table.seat_of(user.id) != seat:
                raise ProtocolError("not_your_turn", status=409)
            seq = table.seq
            observation = state.observation(seat)
            try:
                ranked = await self.pool.run(rank_moves, row.game, observation, self.seconds)
            except PoolFull:
                raise ProtocolError("hints_busy", status=503) from None
        finally:
            self._busy.discard(key)
        answer = self._answer(row.game, state, seq, ranked)
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > KEPT:
            self._answers.popitem(last=False)
        return answer

    @staticmethod
    def _answer(game: str, state: GameState, seq: int, ranked: list[Ranked]) -> dict[str, Any]:
        unit = ranker(game).UNIT
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
