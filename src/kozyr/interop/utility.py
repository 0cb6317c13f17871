"""The end-of-game utilities shared by the OpenSpiel games and the PettingZoo rewards.

Both are zero-sum and lie in [-1, 1]:

- Imperial: +1 for the winner, ``-1/(n-1)`` for each loser (the stakes, I12, scaled).
- Emperor: by final rank ``r`` (0 = Emperor, E12): ``1 - 2r/(n-1)``, so 4 players get
  +1, +1/3, -1/3, -1 and 3 players +1, 0, -1. The ranks, not the trick totals, decide
  the game, so the utility is the rank's.
"""

from __future__ import annotations

from kozyr.games.emperor import EmperorState
from kozyr.games.imperial import ImperialState

__all__ = ["emperor_utilities", "imperial_utilities"]


def imperial_utilities(state: ImperialState) -> list[float]:
    """+1 for the winner, ``-1/(n-1)`` for each loser; zeros before the end."""
    n = state.players
    if state.winner is None:
        return [0.0] * n
    lose = -1.0 / (n - 1)
    return [1.0 if s == state.winner else lose for s in range(n)]


def emperor_utilities(state: EmperorState) -> list[float]:
    """``1 - 2r/(n-1)`` for final rank ``r`` (0 = Emperor); zeros before the end."""
    n = state.players
    standing = state.standing
    if standing is None:
        return [0.0] * n
    out = [0.0] * n
    for rank, seat in enumerate(standing):
        out[seat] = 1.0 - 2.0 * rank / (n - 1)
    return out
