"""The oracle: a measuring stick that sees every card. Never offered to players.

It ranks its legal cards in the one true world (the real state): each card is played and
the deal finished with the heuristic for every seat, as in the search, but without
guessing hidden cards. The arena gives it the real state:

* ``bot.needs_state`` is True;
* ``bot.choose_state(state, budget) -> int`` picks a card for ``state.to_act``.

``choose(observation, legal, budget)`` works only after ``bind(state_provider)`` (a
callable returning the current real state), so an oracle can sit where a Bot sits.

``OracleBot(exact=True)`` is the stronger ceiling with two players: it plays the rest of
the deal perfectly for both sides (the double-dummy :mod:`.solver`) instead of with the
heuristic, and takes the card that scores the most play points (ties: tricks).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kozyr.bots.search import Ranked
from kozyr.games.base import Observation
from kozyr.games.imperial import ImperialState
from kozyr.games.imperial.card_tables import deck_for

from .heuristic import decide_in_state
from .search import equivalent_groups, rank_in_worlds
from .solver import solve_state

__all__ = ["OracleBot"]


class OracleBot:
    """Perfect-information player for measurement (it sees the hidden hands)."""

    needs_state = True

    def __init__(
        self,
        seed: int | None = None,
        state_provider: Callable[[], ImperialState] | None = None,
        exact: bool = False,
    ) -> None:
        self.name = "oracle-exact" if exact else "oracle"
        self.exact = exact
        self._rng = random.Random(seed)
        self._provider = state_provider

    def bind(self, state_provider: Callable[[], ImperialState]) -> None:
        """Where ``choose`` reads the real state from."""
        self._provider = state_provider

    def rank_state(self, state: ImperialState, budget: float = 1.0) -> list[Ranked]:
        seat = state.to_act
        trump = state.trump
        if seat is None or trump is None:
            raise ValueError("nobody is to act in this state")
        legal = state.legal_actions()
        hand = state.hands[seat]
        out = deck_for(state.players) & ~hand
        for m in state.played:
            out &= ~m
        groups = equivalent_groups(legal, hand, out, trump, state.players)
        # A playout is deterministic, so one world (the true one) says all there is to say.
        # Rebuilt without a seed, the world stops at the end of this deal instead of
        # dealing and declaring the next one (which no card here can change).
        hidden = [state.hands[s] for s in range(state.players)]
        world = ImperialState.from_observation(state.observation(seat), hidden)
        return rank_in_worlds(
            legal,
            seat,
            lambda _rng: world,
            self._rng,
            budget,
            max_worlds=1,
            groups=groups,
            preferred=decide_in_state(state),
        )

    def choose_state(self, state: ImperialState, budget: float = 1.0) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.exact and state.players == 2 and state.to_act is not None:
            values = solve_state(state, state.to_act)
            return max(values, key=values.__getitem__)
        return self.rank_state(state, budget)[0].action

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 1.0) -> int:
        if self._provider is None:
            raise RuntimeError("OracleBot needs the real state: call choose_state or bind()")
        state = self._provider()
        if state.to_act != observation.seat:
            raise RuntimeError("the bound state is not the observed position")
        return self.choose_state(state, budget)
