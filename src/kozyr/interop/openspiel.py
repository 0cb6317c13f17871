"""Imperial and Emperor as OpenSpiel Python games.

Importing this module registers ``python_kozyr_imperial`` and ``python_kozyr_emperor``;
load them with ``pyspiel.load_game("python_kozyr_imperial", {"players": 3})``. Each
OpenSpiel state wraps a kozyr engine state; the rules are the engine's, nothing is
re-implemented here. See ``docs/interop.md`` for the choices in full. In short:

- **Parameters**: Imperial ``players`` (2), ``target`` (5), ``tombe_value`` (1),
  ``must_head`` (False), ``trick_bonus_over`` (6); Emperor ``players`` (4), ``rounds``
  (10), ``bargain_from`` (4), ``max_offer`` (3); both ``deal_seeds`` (1000).
- **Chance**: every deal is one chance node with ``deal_seeds`` equally likely outcomes;
  outcome ``k`` is the engine's seeded deal ``seeded_deal(...)`` of seed ``k`` (for the
  deal's index and dealer), so a game is fixed by its action history. The first dealer
  (Imperial) is seat 0 and the join order (Emperor) ``0..n-1`` (the engine's unseeded
  defaults). States rebuilt by :meth:`KozyrState.resample_from_infostate` hold arbitrary
  deals for the current deal; later deals are again chance nodes.
- **Actions**: the engine's action ids (Imperial 52 cards; Emperor 68).
- **Utility** (both zero-sum, in [-1, 1]): Imperial, the winner +1 and every loser
  ``-1/(n-1)``; Emperor, by final rank ``r`` (0 = Emperor): ``1 - 2r/(n-1)``.
- **Observations**: built only from ``state.observation(player)``. The observation string
  is the observation without its event log; the information state string adds the
  public events of the current deal (round), so within a deal it recalls the whole
  public history. Earlier deals are summed up by the scores (the future does not depend
  on them), so the information state is "Markov across deals", not strict perfect recall.
  The observation tensor is :mod:`kozyr.interop.encoding`. No information state tensor.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

import numpy as np
import pyspiel

from kozyr.cards import CARD_NAMES as IMPERIAL_TEXT
from kozyr.games import GAMES, Game
from kozyr.games.emperor import ACTION_TEXT as EMPEROR_TEXT
from kozyr.games.emperor import EmperorObservation, EmperorOptions, EmperorState
from kozyr.games.emperor import seeded_deal as emperor_deal
from kozyr.games.imperial import ImperialObservation, ImperialOptions, ImperialState
from kozyr.games.imperial import seeded_deal as imperial_deal

from .encoding import emperor_size, emperor_vector, imperial_size, imperial_vector
from .sampling import sample_emperor_hidden, sample_imperial_hidden
from .utility import emperor_utilities as emperor_returns
from .utility import imperial_utilities as imperial_returns
from .utility import utilities

__all__ = [
    "DEFAULT_DEAL_SEEDS",
    "EMPEROR",
    "IMPERIAL",
    "EmperorGame",
    "ImperialGame",
    "KozyrState",
    "emperor_returns",
    "imperial_returns",
    "kozyr_state",
    "state_from_observation",
]

IMPERIAL = "python_kozyr_imperial"
EMPEROR = "python_kozyr_emperor"
DEFAULT_DEAL_SEEDS = 1000

KState = ImperialState | EmperorState
KObservation = ImperialObservation | EmperorObservation

_OBS_SKIP = frozenset({"events", "options", "legal_actions", "players"})
_FIELDS: dict[type, tuple[str, ...]] = {}


# ---------------------------------------------------------------------- game types


def _game_type(spec: Game, short_name: str) -> Any:
    # The description comes from the Game spec: player counts, and every option with its
    # default (the rulings' game), plus how many deal seeds a chance node draws from.
    defaults = spec.options_from_json({}).to_json()
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Kozyr {spec.title[0]} (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(spec.player_counts),
        min_num_players=min(spec.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**defaults, "deal_seeds": DEFAULT_DEAL_SEEDS},
    )


_IMPERIAL_TYPE = _game_type(GAMES["imperial"], IMPERIAL)
_EMPEROR_TYPE = _game_type(GAMES["emperor"], EMPEROR)


def _option_values(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if k != "deal_seeds"}


def _merged(game_type: Any, params: dict[str, Any] | None) -> dict[str, Any]:
    defaults: dict[str, Any] = dict(game_type.parameter_specification)
    values = dict(defaults)
    for k, v in (params or {}).items():
        if k not in defaults:
            raise ValueError(f"unknown parameter {k!r} for {game_type.short_name}")
        values[k] = v
    return values


def imperial_max_deals(players: int, target: int) -> int:
    """An upper bound on the deals of an Imperial game.

    Every deal gives at least 2 loose points to someone (the point, I6.4) and loose points
    are wiped only by a mark, so at most ``23n/2 + 1`` deals pass without a mark; and at
    most ``n(target-1) + 1`` marks happen before somebody reaches the target.
    """
    return (players * (target - 1) + 1) * (23 * players // 2 + 2)


def emperor_round_length(players: int, max_offer: int) -> int:
    """The most actions one Emperor round can take, its chance node included."""
    exchange = (players - 1) * (2 * max_offer + 2) + 1  # swaps, offers, answers, trump
    return 1 + 13 * players + exchange


class _KozyrGame(pyspiel.Game):  # type: ignore[misc]
    """What both games share: kozyr options, chance outcomes, observers."""

    kind: ClassVar[str]
    options: Any

    def __init__(self, game_type: Any, info: Any, params: dict[str, Any]) -> None:
        super().__init__(game_type, info, params)
        self.spec = GAMES[self.kind]
        # from_observation is each engine's own constructor; the spec's state names it.
        self._state_type: Any = type(self.spec.new_state(self.options))
        self.deal_seeds = int(params["deal_seeds"])
        p = 1.0 / self.deal_seeds
        self.outcomes: list[tuple[int, float]] = [(k, p) for k in range(self.deal_seeds)]

    def new_initial_state(self, *args: Any) -> KozyrState:
        return KozyrState(self, self.new_kozyr_state())

    def new_kozyr_state(self) -> KState:
        return cast(KState, self.spec.new_state(self.options, seed=None))

    def deal_for(self, state: KState, outcome: int) -> Any:
        raise NotImplementedError

    def returns_of(self, state: KState) -> list[float]:
        return utilities(state)

    def sample_hidden(self, obs: Any, rng: random.Random) -> list[int]:
        raise NotImplementedError

    def rebuild(self, obs: Any, hidden: Sequence[int]) -> KState:
        return cast(KState, self._state_type.from_observation(obs, hidden, seed=None))

    def action_name(self, action: int) -> str:
        raise NotImplementedError

    def vector_size(self) -> int:
        raise NotImplementedError

    def vector(self, obs: Any, out: Any) -> Any:
        raise NotImplementedError

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> KozyrObserver:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        return KozyrObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class ImperialGame(_KozyrGame):
    """``python_kozyr_imperial``."""

    kind = "imperial"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = _merged(_IMPERIAL_TYPE, params)
        options = GAMES["imperial"].options_from_json(_option_values(values))
        assert isinstance(options, ImperialOptions)
        self.options = options
        n = self.options.players
        deals = imperial_max_deals(n, self.options.target)
        info = pyspiel.GameInfo(
            num_distinct_actions=52,
            max_chance_outcomes=int(values["deal_seeds"]),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=deals * (12 * n + 1),
        )
        self.max_deals = deals
        super().__init__(_IMPERIAL_TYPE, info, values)

    def max_chance_nodes_in_history(self) -> int:
        return self.max_deals

    def deal_for(self, state: KState, outcome: int) -> Any:
        state = cast(ImperialState, state)
        n = state.players
        index = state.deal_number
        return imperial_deal(n, outcome, index, (state.first_dealer + index) % n)

    def sample_hidden(self, obs: Any, rng: random.Random) -> list[int]:
        return sample_imperial_hidden(obs, rng)

    def action_name(self, action: int) -> str:
        return IMPERIAL_TEXT[action]

    def vector_size(self) -> int:
        return imperial_size(self.options.players)

    def vector(self, obs: Any, out: Any) -> Any:
        return imperial_vector(obs, out)


class EmperorGame(_KozyrGame):
    """``python_kozyr_emperor``."""

    kind = "emperor"

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = _merged(_EMPEROR_TYPE, params)
        options = GAMES["emperor"].options_from_json(_option_values(values))
        assert isinstance(options, EmperorOptions)
        self.options = options
        o = self.options
        info = pyspiel.GameInfo(
            num_distinct_actions=68,
            max_chance_outcomes=int(values["deal_seeds"]),
            num_players=o.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=o.rounds * emperor_round_length(o.players, o.max_offer),
        )
        super().__init__(_EMPEROR_TYPE, info, values)

    def max_chance_nodes_in_history(self) -> int:
        return int(self.options.rounds)

    def deal_for(self, state: KState, outcome: int) -> Any:
        state = cast(EmperorState, state)
        return emperor_deal(outcome, state.round - 1, state.players)

    def sample_hidden(self, obs: Any, rng: random.Random) -> list[int]:
        return sample_emperor_hidden(obs, rng)

    def action_name(self, action: int) -> str:
        return EMPEROR_TEXT[action]

    def vector_size(self) -> int:
        return emperor_size(self.options.players)

    def vector(self, obs: Any, out: Any) -> Any:
        return emperor_vector(obs, out)


# ---------------------------------------------------------------------- states


class _Box:
    """The kozyr state of an OpenSpiel state, plus what its observations need.

    ``prefix``: public events from before the kozyr state was built (a state rebuilt from
    an observation starts with no events); observations see ``prefix + state.events``.
    OpenSpiel clones a Python state by deep-copying its attributes; ``__deepcopy__`` makes
    that the engine's cheap ``clone``.
    """

    __slots__ = ("cache", "game", "k", "prefix")

    def __init__(
        self, game: _KozyrGame, k: KState, prefix: tuple[dict[str, Any], ...] = ()
    ) -> None:
        self.game = game
        self.k = k
        self.prefix = prefix
        self.cache: dict[Any, Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game, self.k.clone(), self.prefix)

    def observation(self, seat: int | None) -> KObservation:
        key = ("obs", seat)
        obs = self.cache.get(key)
        if obs is None:
            obs = self.k.observation(seat)
            if self.prefix:
                obs = dataclasses.replace(obs, events=self.prefix + obs.events)
            self.cache[key] = obs
        return obs


class KozyrState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state over a kozyr engine state (``kozyr_state(state)`` gives it)."""

    def __init__(self, game: _KozyrGame, k: KState | None = None) -> None:
        super().__init__(game)
        self._box = _Box(game, k if k is not None else game.new_kozyr_state())

    # -- what OpenSpiel calls

    def current_player(self) -> int:
        k = self._box.k
        if k.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if k.waiting_for_deal:
            return int(pyspiel.PlayerId.CHANCE)
        to_act = k.to_act
        assert to_act is not None
        return to_act

    def _legal_actions(self, player: int) -> list[int]:
        return self._box.k.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._box.game.outcomes

    def _apply_action(self, action: int) -> None:
        box = self._box
        box.cache.clear()
        k = box.k
        if k.waiting_for_deal:
            k.add_deal(self._box.game.deal_for(k, int(action)))
        else:
            k.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        return self._box.game.action_name(int(action))

    def is_terminal(self) -> bool:
        return self._box.k.over

    def returns(self) -> list[float]:
        return self._box.game.returns_of(self._box.k)

    def __str__(self) -> str:
        k = self._box.k
        hands = " ".join(f"{h:013x}" for h in k.hands)
        return f"{k.game} to_act={k.to_act} hands={hands} actions={len(k.actions)} {k.summary()}"

    # -- kozyr side

    @property
    def kozyr(self) -> KState:
        """The wrapped engine state (the full truth: do not show it to a player)."""
        return self._box.k

    def kozyr_observation(self, seat: int | None) -> KObservation:
        """``state.observation(seat)`` of the engine, with the whole public event log."""
        return self._box.observation(seat)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KozyrState:
        """A state ``player_id`` cannot tell from this one: same information state string,
        other seats' hidden cards drawn by :mod:`kozyr.interop.sampling`. The random
        source is seeded from one draw of ``probability_sampler``."""
        seed = int(float(probability_sampler()) * (1 << 53))
        return self.resample_with_rng(player_id, random.Random(seed))

    def resample_with_rng(self, player_id: int, rng: random.Random) -> KozyrState:
        k = self._box.k
        if k.over or k.waiting_for_deal:
            return self.clone()  # type: ignore[no-any-return]
        obs = self.kozyr_observation(player_id)
        hidden = self._box.game.sample_hidden(obs, rng)
        return state_from_observation(self._box.game, obs, hidden)


def state_from_observation(game: Any, obs: KObservation, hidden: Sequence[int]) -> KozyrState:
    """An OpenSpiel state that continues from a kozyr observation, the other seats holding
    ``hidden`` (one mask per seat, the observer's entry ignored). Its observations keep
    ``obs.events`` as their history; later deals are chance nodes."""
    k = game.rebuild(obs, hidden)
    state = KozyrState(game, k)
    state._box.prefix = tuple(obs.events)
    return state


def kozyr_state(state: Any) -> KState:
    """The kozyr engine state inside an OpenSpiel state of these games."""
    if not isinstance(state, KozyrState):
        raise TypeError(f"not a kozyr OpenSpiel state: {type(state).__name__}")
    return state.kozyr


# ---------------------------------------------------------------------- observer


def _deal_start(events: Sequence[dict[str, Any]], marker: str) -> int:
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == marker:
            return i
    return 0


def observation_text(obs: KObservation) -> str:
    """The observation without its event log, as one deterministic line."""
    names = _FIELDS.get(type(obs))
    if names is None:
        names = _FIELDS[type(obs)] = tuple(
            f.name for f in dataclasses.fields(obs) if f.name not in _OBS_SKIP
        )
    parts = []
    for name in names:
        value = getattr(obs, name)
        if isinstance(value, dict):
            value = sorted(value.items())
        parts.append(f"{name}={value!r}")
    return " ".join(parts)


def information_text(obs: KObservation) -> str:
    """The observation plus the public events of the current deal (round)."""
    events = obs.events
    current = events[_deal_start(events, "deal") :]
    return observation_text(obs) + " history=" + repr(list(current))


class KozyrObserver:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``, ``set_from``,
    ``string_from``). Private information: the observing seat's
    (``PrivateInfoType.SINGLE_PLAYER``) or none (a spectator's view)."""

    def __init__(self, game: _KozyrGame, iig_obs_type: Any) -> None:
        self._game = game
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("kozyr observers show one seat's private information, or none")
        self._public_only = private == pyspiel.PrivateInfoType.NONE
        self.tensor: Any
        if self._perfect_recall:
            self.tensor = None
            self.dict: dict[str, Any] = {}
        else:
            self.tensor = np.zeros(game.vector_size(), np.float32)
            self.dict = {"observation": self.tensor}

    def _obs(self, state: KozyrState, player: int) -> KObservation:
        return state.kozyr_observation(None if self._public_only else player)

    def set_from(self, state: KozyrState, player: int) -> None:
        if self.tensor is not None:
            self._game.vector(self._obs(state, player), self.tensor)

    def string_from(self, state: KozyrState, player: int) -> str:
        box = state._box
        key = ("text", self._perfect_recall, self._public_only, player)
        text = box.cache.get(key)
        if text is None:
            obs = self._obs(state, player)
            text = information_text(obs) if self._perfect_recall else observation_text(obs)
            box.cache[key] = text
        return text


pyspiel.register_game(_IMPERIAL_TYPE, ImperialGame)
pyspiel.register_game(_EMPEROR_TYPE, EmperorGame)
