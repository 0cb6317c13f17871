"""The end-of-game utilities shared by the OpenSpiel games and the PettingZoo rewards.

A game's utility is its ``game_over`` stakes (:class:`kozyr.games.GameResult`) scaled so
that the winner gets +1. Both are zero-sum and lie in [-1, 1]:

- Imperial: +1 for the winner, ``-1/(n-1)`` for each loser (the stakes, I12, scaled).
- Emperor: by final rank ``r`` (0 = Emperor, E12): ``1 - 2r/(n-1)``, so 4 players get
  +1, +1/3, -1/3, -1 and 3 players +1, 0, -1. The ranks, not the trick totals, decide
  the game, so the utility is the rank's.
"""

from __future__ import annotations

from kozyr.games import GAMES
from kozyr.games.base import GameState

__all__ = ["emperor_utilities", "imperial_utilities", "utilities"]


def utilities(state: GameState) -> list[float]:
    """The winner's stake scaled to +1, every seat alike; zeros before the end."""
    n = state.players
    if not state.over:
        return [0.0] * n
    result = GAMES[state.game].result(state)
    top = max(result.stakes)
    if top <= 0:
        # A table played for nothing (Imperial stake 0) still has a winner: score it as
        # if each loser paid him one unit.
        return [1.0 if s == result.winner else -1.0 / (n - 1) for s in range(n)]
    return [stake / top for stake in result.stakes]


# The names the adapters have always exported; both games now share one rule.
imperial_utilities = utilities
emperor_utilities = utilities
