"""OpenSpiel's ISMCTS as a kozyr bot, so the arena can pit it against kozyr's own bots.

The registry lists it as the kind ``"ismcts"`` of both games
(``kozyr.bots.registry.make_bot("imperial", "ismcts", seed)``); importing this module
registers nothing.

How a move is chosen from a kozyr observation (the bot never sees a state):

1. The OpenSpiel game is loaded with the observation's options.
2. A root state is built with ``State.from_observation(obs, hidden)``, ``hidden`` one guess
   of the other hands from :mod:`kozyr.interop.sampling` (the bots' samplers); its
   observations keep the real game's public events, so its information state string is
   the observer's.
3. OpenSpiel's Python ``ISMCTSBot`` searches from that root: every simulation starts from
   a fresh determinization, ``root.resample_from_infostate(seat, ...)`` (all worlds share
   the root's information state; the first guess is just one of them, not favoured).
   Tree nodes are keyed by the acting player's information state string.
4. Leaves are valued by a random rollout run directly on the engine (fast), by default to
   the end of the current deal (Imperial) or round (Emperor), then scored by a heuristic
   (``horizon="deal"``); ``horizon="game"`` rolls out to the end of the game, dealing
   later deals at random, and returns the true utilities.
5. Simulations run until the wall-time budget is spent (at least two: the first only
   expands the root), or until ``max_simulations`` if given; a fixed ``max_simulations``
   with a generous budget makes the bot reproducible for a seed. The move is the most
   visited root action (ties broken by the seeded random source).

Leaf heuristics (values in [-1, 1] for each seat):

- Imperial: ``v = imperials + loose/24``; value ``clip(2 (v - mean v) / target)``.
- Emperor: half the rank utility of the standing the game would have now (E12 on the
  current totals and titles), half ``clip((total - mean total) / 5)``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import (
    ISMCTSBot,
    ISMCTSFinalPolicyType,
)

from kozyr.games.base import Observation
from kozyr.games.emperor import EmperorObservation, EmperorState
from kozyr.games.emperor.titles import final_order
from kozyr.games.imperial import ImperialObservation, ImperialState

from .openspiel import (
    EMPEROR,
    IMPERIAL,
    KozyrState,
    emperor_returns,
    imperial_returns,
    state_from_observation,
)
from .sampling import sample_emperor_hidden, sample_imperial_hidden

__all__ = ["DealRolloutEvaluator", "ISMCTSKozyrBot", "load_game_for"]

_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


def load_game_for(obs: Observation) -> Any:
    """The OpenSpiel game (cached) with the options of a kozyr observation."""
    if isinstance(obs, ImperialObservation):
        o = obs.options
        name = IMPERIAL
        params: dict[str, Any] = {
            "players": o.players,
            "target": o.target,
            "tombe_value": o.tombe_value,
            "must_head": o.must_head,
            "trick_bonus_over": o.trick_bonus_over,
        }
    elif isinstance(obs, EmperorObservation):
        e = obs.options
        name = EMPEROR
        params = {
            "players": e.players,
            "rounds": e.rounds,
            "bargain_from": e.bargain_from,
            "max_offer": e.max_offer,
        }
    else:
        raise TypeError(f"not a kozyr observation: {type(obs).__name__}")
    key = (name, tuple(sorted(params.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = pyspiel.load_game(name, params)
    return game


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def heuristic_values(k: ImperialState | EmperorState) -> list[float]:
    """Each seat's value of an unfinished game (see the module doc); true utilities at
    the end."""
    n = k.players
    if isinstance(k, ImperialState):
        if k.over:
            return imperial_returns(k)
        v = [i + p / 24.0 for i, p in k.scores]
        mean = sum(v) / n
        target = k.options.target
        return [_clip(2.0 * (x - mean) / target) for x in v]
    if k.over:
        return emperor_returns(k)
    totals = k.totals
    order = k.title_order or list(range(n))
    standing = final_order(totals, order)
    mean_total = sum(totals) / n
    out = [0.0] * n
    for rank, seat in enumerate(standing):
        out[seat] = 0.5 * (1.0 - 2.0 * rank / (n - 1)) + 0.5 * _clip(
            (totals[seat] - mean_total) / 5.0
        )
    return out


class DealRolloutEvaluator:
    """An OpenSpiel MCTS evaluator (``evaluate``, ``prior``): uniform priors and uniform
    random rollouts on the kozyr engine, to the end of the deal (``horizon="deal"``,
    then :func:`heuristic_values`) or of the game (``horizon="game"``)."""

    def __init__(self, rng: random.Random, horizon: str = "deal", rollouts: int = 1) -> None:
        if horizon not in ("deal", "game"):
            raise ValueError(f"horizon must be 'deal' or 'game', not {horizon!r}")
        self._rng = rng
        self._horizon = horizon
        self._rollouts = rollouts

    def evaluate(self, state: Any) -> np.ndarray[Any, np.dtype[np.float64]]:
        assert isinstance(state, KozyrState)
        total = np.zeros(state.num_players(), np.float64)
        for _ in range(self._rollouts):
            total += self._rollout(state)
        result: np.ndarray[Any, np.dtype[np.float64]] = total / self._rollouts
        return result

    def _rollout(self, state: KozyrState) -> list[float]:
        k = state.kozyr.clone()
        rng = self._rng
        game = state.get_game()
        choice = rng.choice
        while not k.over:
            if k.waiting_for_deal:
                if self._horizon == "deal":
                    break
                k.add_deal(game.deal_for(k, rng.randrange(game.deal_seeds)))
                continue
            k.apply(choice(k.legal_actions()))
        return heuristic_values(k)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


# "visits": the most visited root action (OpenSpiel's default, robust to a lucky few
# rollouts); "value": the root action of the highest mean value.
_FINAL_POLICIES = {
    "visits": ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "value": ISMCTSFinalPolicyType.MAX_VALUE,
}

# The search's clock, one name so that a test can drive it (tests never time the wall).
_clock = time.perf_counter


class _TimedISMCTS(ISMCTSBot):  # type: ignore[misc]
    """ISMCTS with a deadline: the same search, simulations until time is up."""

    def search(
        self, state: Any, deadline: float, max_simulations: int | None
    ) -> tuple[list[tuple[int, float]], int]:
        self.reset()
        root = self._root_node = self.create_new_node(state)
        done = 0
        while True:
            if max_simulations is not None and done >= max_simulations and root.total_visits > 0:
                break
            if root.total_visits > 0 and _clock() >= deadline:
                break
            self.run_simulation(self.sample_root_state(state))
            done += 1
        return self.get_final_policy(state, root), done


class ISMCTSKozyrBot:
    """A kozyr bot (``choose(observation, legal, budget)``) running OpenSpiel's ISMCTS.

    ``budget`` is wall time in seconds for the move; ``max_simulations`` (optional) caps
    the simulations. ``last_simulations`` tells how many the last move ran. ``uct_c`` is
    the exploration constant and ``final_policy`` how the move is picked from the root
    ("visits" or "value"); the defaults are OpenSpiel's (issue #31 tunes them:
    docs/bots.md).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        uct_c: float = 2.0,
        max_simulations: int | None = None,
        horizon: str = "deal",
        margin: float = 0.05,
        final_policy: str = "visits",
    ) -> None:
        if final_policy not in _FINAL_POLICIES:
            raise ValueError(f"final_policy must be 'visits' or 'value', not {final_policy!r}")
        if not 0.0 < uct_c <= 100.0:
            raise ValueError(f"uct_c must be above 0 and at most 100, not {uct_c!r}")
        self._final_policy = _FINAL_POLICIES[final_policy]
        self._rng = random.Random(seed)
        self._np = np.random.RandomState(self._rng.randrange(1 << 31))
        self._uct_c = uct_c
        self._max_simulations = max_simulations
        self._evaluator = DealRolloutEvaluator(self._rng, horizon)
        self._margin = margin
        self.last_simulations = 0

    def _resample(self, state: Any, player: int) -> Any:
        assert isinstance(state, KozyrState)
        return state.resample_with_rng(player, self._rng)

    def root_state(self, observation: Observation) -> KozyrState:
        """An OpenSpiel state for ``observation``, the hidden cards guessed."""
        game = load_game_for(observation)
        if isinstance(observation, ImperialObservation):
            hidden = sample_imperial_hidden(observation, self._rng)
        else:
            assert isinstance(observation, EmperorObservation)
            hidden = sample_emperor_hidden(observation, self._rng)
        return state_from_observation(game, observation, hidden)

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 1.0) -> int:
        start = _clock()
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        root = self.root_state(observation)
        if sorted(root.legal_actions()) != sorted(legal):
            raise ValueError("the legal actions do not match the observation")
        game = root.get_game()
        bot = _TimedISMCTS(
            game,
            self._evaluator,
            self._uct_c,
            max_simulations=self._max_simulations or 1,
            random_state=self._np,
            final_policy_type=self._final_policy,
        )
        bot.set_resampler(self._resample)
        deadline = start + max(0.0, budget * (1.0 - self._margin))
        policy, self.last_simulations = bot.search(root, deadline, self._max_simulations)
        best = max(p for _, p in policy)
        top = sorted(int(a) for a, p in policy if p == best)
        return self._rng.choice(top)
