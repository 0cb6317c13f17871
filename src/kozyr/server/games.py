"""The games the server runs, through the Game spec: the one place the server learns what
differs between Imperial and Emperor (options, player counts, the start of a game).

TEMPORARY: ``kozyr.games.spec`` (``from kozyr.games import GAMES``) is being written in
parallel. Until it lands, :class:`_Imperial` and :class:`_Emperor` below implement only the
part of its ``Game`` API the server uses, in the same shape: ``name``, ``title``,
``player_counts``, ``default_players``, ``options_from_json``, ``new_state``,
``draw_start`` and ``start_json``. At the merge this module's body becomes
``from kozyr.games import GAMES, Game`` plus :func:`game_of` and :func:`new_state`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from kozyr.games.base import GameState
from kozyr.games.dealing import SECURE
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState, draw_first_dealer
from kozyr.server.protocol import ProtocolError
from kozyr.server.store import TableRow


class Options(Protocol):
    """A game's options (``ImperialOptions``, ``EmperorOptions``)."""

    def to_json(self) -> dict[str, Any]: ...


class Game(Protocol):
    """The part of ``kozyr.games.spec.Game`` the server uses."""

    name: str
    title: tuple[str, str]
    player_counts: tuple[int, ...]
    default_players: int

    def options_from_json(self, data: Mapping[str, Any]) -> Options: ...

    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        dealing: str = SECURE,
    ) -> GameState: ...

    def draw_start(self, players: int, seed: int, dealing: str) -> int | None: ...

    def start_json(self, state: GameState) -> dict[str, Any]: ...


class _Imperial:
    name: str = "imperial"
    title: tuple[str, str] = ("Imperial", "Империал")
    player_counts: tuple[int, ...] = (2, 3)
    default_players: int = 2

    def options_from_json(self, data: Mapping[str, Any]) -> Options:
        return ImperialOptions.from_json(dict(data))

    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        dealing: str = SECURE,
    ) -> GameState:
        assert isinstance(options, ImperialOptions)
        return ImperialState.new(options, seed=seed, first_dealer=first_dealer, dealing=dealing)

    def draw_start(self, players: int, seed: int, dealing: str) -> int | None:
        return draw_first_dealer(players, seed, dealing)

    def start_json(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, ImperialState)
        return {"first_dealer": state.first_dealer}


class _Emperor:
    name: str = "emperor"
    title: tuple[str, str] = ("Emperor", "Император")
    player_counts: tuple[int, ...] = (3, 4)
    default_players: int = 4

    def options_from_json(self, data: Mapping[str, Any]) -> Options:
        return EmperorOptions.from_json(dict(data))

    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        dealing: str = SECURE,
    ) -> GameState:
        assert isinstance(options, EmperorOptions)
        return EmperorState.new(options, seed=seed, join_order=join_order, dealing=dealing)

    def draw_start(self, players: int, seed: int, dealing: str) -> int | None:
        return None  # the join order comes from seating (B1, E5)

    def start_json(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, EmperorState)
        return {"join_order": list(state.join_order)}


GAMES: dict[str, Game] = {g.name: g for g in (_Imperial(), _Emperor())}


def game_of(name: Any) -> Game:
    """The game called ``name``; ``bad_game`` for anything else."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise ProtocolError("bad_game", f"The game must be {' or '.join(GAMES)}.")
    return game


def new_state(row: TableRow) -> GameState:
    """The game a table's row fixes before any action (B2): options, seed, start."""
    game = game_of(row.game)
    return game.new_state(
        game.options_from_json(row.options),
        seed=row.seed,
        first_dealer=row.first_dealer,
        join_order=row.join_order,
        dealing=row.dealing,
    )
