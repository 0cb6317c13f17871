"""The games the server runs, through the Game spec (``kozyr.games.GAMES``): the one place
the server learns what differs between Imperial and Emperor (options, player counts, the
start of a game)."""

from __future__ import annotations

from typing import Any

from kozyr.games import GAMES, Game
from kozyr.games.base import GameState
from kozyr.games.stakes import StakeTerms
from kozyr.server.storage.store import TableRow
from kozyr.server.transport.protocol import ProtocolError

__all__ = ["GAMES", "Game", "final_result", "game_of", "new_state", "settle_result"]


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
        game.options_from_json(row.options, stored=True),
        seed=row.seed,
        first_dealer=row.first_dealer,
        join_order=row.join_order,
        dealing=row.dealing,
    )


def final_result(row: TableRow, state: GameState) -> dict[str, Any]:
    """What a finished table's row keeps as its result: the engine's summary and the
    places (seats, best first) of the Game spec, which the finish hooks (ratings) read
    inside the transaction, where there is no state to ask."""
    return {**state.summary(), "places": list(game_of(row.game).result(state).places)}


def settle_result(row: TableRow, terms: StakeTerms) -> list[int]:
    """``Game.settle`` from a finished row's result (the game's summary) instead of its
    state: the settlement runs inside the commit of the last action, where replaying the
    game would hold the database's one writer for the length of a replay."""
    result = row.result
    assert result is not None
    game = game_of(row.game)
    return game.settle_summary(terms, game.options_from_json(row.options, stored=True), result)
