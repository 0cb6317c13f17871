"""How good a position is for one seat: the search's evaluation of a finished playout.

Points are what the game counts, with one imperial worth 24 points, but:

* loose points are worth less than marked imperials: any mark by another player wipes
  them (the wipe rule), so a loose point counts ``LOOSE_WEIGHT`` of a marked one;
* reaching the target ends the game at once (I12): a win or loss outweighs everything;
* only the difference to the opponents matters (with three players, to their mean).
"""

from __future__ import annotations

from kozyr.games.imperial import IMPERIAL_POINTS, ImperialState

__all__ = ["GAME_VALUE", "LOOSE_WEIGHT", "value"]

GAME_VALUE = 1000.0
"""Value of winning the game (minus it for losing): far above any deal's points."""
LOOSE_WEIGHT = 0.75


def _worth(imperials: int, loose: int) -> float:
    return IMPERIAL_POINTS * imperials + LOOSE_WEIGHT * loose


def value(state: ImperialState, seat: int) -> float:
    """The value of ``state`` for ``seat``: higher is better."""
    if state.winner is not None:
        return GAME_VALUE if state.winner == seat else -GAME_VALUE
    n = state.players
    own = _worth(state.imperials[seat], state.loose[seat])
    others = sum(_worth(state.imperials[s], state.loose[s]) for s in range(n) if s != seat)
    return own - others / (n - 1)
