"""The oracle: sees every card. For measurement only (how much hidden information
costs the fair bots); never offered to players.

The arena calls :meth:`EmperorOracle.choose_state` with the true state when a bot has
``needs_state = True``. Each legal action is played out once in the true world with the
heuristic (others still decide from their own observations) and the best is taken.
Deterministic. Without a state (:meth:`choose`), it falls back to the fair search.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyr.bots.search import Ranked
from kozyr.games.base import Observation
from kozyr.games.emperor import EmperorState

from .playout import Sim
from .search import EmperorSearch, finish_value

__all__ = ["EmperorOracle"]


class EmperorOracle:
    name = "oracle"
    needs_state = True

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._fallback = EmperorSearch(seed, cap=0.5, name="oracle")

    def rank_state(self, state: EmperorState) -> list[Ranked]:
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        rng = random.Random(self._seed)
        obs = state.observation(seat)
        values: list[Ranked] = []
        for a in legal:
            if state.phase == "play":
                sim = Sim.from_observation(obs, state.hands)
                sim.play(a)
                sim.run()
                v = sim.value(seat, state.round, state.options.rounds, state.totals)
            else:
                st = state.clone()
                st.apply(a)
                v = finish_value(st, seat, state.totals[seat], rng)
            values.append(Ranked(a, v, 1))
        values.sort(key=lambda r: -r.value)
        return values

    def choose_state(self, state: EmperorState, budget: float = 0.0) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.rank_state(state)[0].action

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        return self._fallback.choose(observation, legal, budget)
