"""Imperial and Emperor as PettingZoo AEC environments.

>>> env = imperial_env(players=2, target=1)
>>> env.reset(seed=7)
>>> env.agents
['player_0', 'player_1']
>>> obs, reward, terminated, truncated, info = env.last()
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

- Agents ``player_0`` .. ``player_{n-1}`` are the seats; ``agent_selection`` is the seat to
  act (turns follow the rules, not a fixed rotation).
- Observation: ``Dict(observation=Box(0, 1, (size,), float32), action_mask=Box(0, 1,
  (actions,), int8))``; the vector is :mod:`kozyr.interop.encoding` of
  ``state.observation(seat)`` (the agent's own view); the mask is the legal actions for
  the agent to act and all zeros for the others.
- Actions: ``Discrete(52)`` (Imperial cards) / ``Discrete(68)`` (Emperor action ids).
  An illegal action raises ``ValueError`` (mask your policy).
- Rewards: only at the end, the OpenSpiel utilities (Imperial: +1 winner, ``-1/(n-1)``
  each loser; Emperor: ``1 - 2r/(n-1)`` for final rank ``r``). No truncation.
- Seeding: ``reset(seed=s)`` plays the kozyr game of seed ``s`` (same deals as
  ``State.new(options, seed=s)``); ``reset()`` without a seed draws the game seed from the
  environment's random source (itself seeded by the last ``reset(seed=...)``). A game
  that ends before any action (possible with a low Imperial ``target``: imperials
  declared at the first deal) is skipped for the next seed; ``env.game_seed`` tells the
  seed played.
- ``render_mode``: None or ``"ansi"`` (``render()`` returns the public view as text).
- ``env.state_of()`` gives the kozyr state (the full truth).
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from kozyr.games import GAMES, Game, Options
from kozyr.games.base import GameState
from kozyr.games.emperor import EmperorObservation
from kozyr.games.imperial import ImperialObservation

from .encoding import emperor_size, emperor_vector, imperial_size, imperial_vector
from .utility import utilities

__all__ = ["EmperorEnv", "ImperialEnv", "KozyrEnv", "emperor_env", "imperial_env"]


class KozyrEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment both games share; use :func:`imperial_env` / :func:`emperor_env`."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "kozyr_v0",
        "is_parallelizable": False,
    }
    num_actions: ClassVar[int]
    spec: ClassVar[Game]
    options: Options

    def __init__(self, players: int, size: int, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._state: GameState | None = None
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = self.possible_agents[0]
        self.game_seed: int | None = None

    # -- per game

    def _new_state(self, seed: int) -> GameState:
        return self.spec.new_state(self.options, seed=seed)

    def _vector(self, seat: int) -> Any:
        raise NotImplementedError

    def _utilities(self) -> list[float]:
        return utilities(self.state_of())

    # -- AEC API

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def state_of(self) -> GameState:
        """The kozyr state (every hand: not an agent's observation)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._rng.integers(0, 2**62))
        state = self._new_state(game_seed)
        while state.over:
            # A low target can end a game in its first declarations, before any action;
            # an AEC game must start with an agent to act, so such seeds are skipped.
            game_seed += 1
            state = self._new_state(game_seed)
        self._state = state
        self.game_seed = game_seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        state = self.state_of()
        if state.to_act is not None:
            self.agent_selection = self.possible_agents[state.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state_of()
        seat = self._seat[agent]
        mask = np.zeros(self.num_actions, np.int8)
        if state.to_act == seat:
            mask[state.legal_actions()] = 1
        return {"observation": self._vector(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_of()
        a = int(action)
        if a not in state.legal_actions():
            raise ValueError(f"illegal action {a} for {agent} (use the action mask)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply(a)
        if state.over:
            for i, u in enumerate(self._utilities()):
                self.rewards[self.possible_agents[i]] = u
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self.state_of()
        view = state.observation(None).to_json()
        view.pop("events", None)
        view.pop("options", None)
        lines = [f"{state.game}: {state.summary()}"]
        lines += [f"  {k}: {v}" for k, v in view.items()]
        return "\n".join(lines)

    def close(self) -> None:
        pass


class ImperialEnv(KozyrEnv):
    """Imperial as an AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {**KozyrEnv.metadata, "name": "kozyr_imperial_v0"}
    num_actions = 52
    spec = GAMES["imperial"]

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        self.options = self.spec.options_from_json(options)
        super().__init__(self.options.players, imperial_size(self.options.players), render_mode)

    def _vector(self, seat: int) -> Any:
        return imperial_vector(cast(ImperialObservation, self.state_of().observation(seat)))


class EmperorEnv(KozyrEnv):
    """Emperor as an AEC environment (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {**KozyrEnv.metadata, "name": "kozyr_emperor_v0"}
    num_actions = 68
    spec = GAMES["emperor"]

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        self.options = self.spec.options_from_json(options)
        super().__init__(self.options.players, emperor_size(self.options.players), render_mode)

    def _vector(self, seat: int) -> Any:
        return emperor_vector(cast(EmperorObservation, self.state_of().observation(seat)))


def imperial_env(render_mode: str | None = None, **options: Any) -> ImperialEnv:
    """An Imperial AEC environment; ``options`` are :class:`ImperialOptions` fields."""
    return ImperialEnv(render_mode=render_mode, **options)


def emperor_env(render_mode: str | None = None, **options: Any) -> EmperorEnv:
    """An Emperor AEC environment; ``options`` are :class:`EmperorOptions` fields."""
    return EmperorEnv(render_mode=render_mode, **options)
