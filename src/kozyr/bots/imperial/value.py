"""How good a position is for one seat: the search's evaluation of a finished playout.

Points are what the game counts, with one imperial worth 24 points, but:

* loose points are worth less than marked imperials: any mark by another player wipes
  them (the wipe rule), so a loose point counts ``LOOSE_WEIGHT`` of a marked one;
* reaching the target ends the game at once (I12): a win or loss outweighs everything;
* only the difference to the opponents matters (with three players, to their mean).

:func:`search_value` adds two small tie-breaks below that value, so that two cards which
end the same way on the score sheet are still told apart (the score sheet often cannot:
a mark wipes loose points, and a decided game is worth the same however it was won):
the points scored in the play since a given moment (I8 honours, I10 tricks and capot, a
tombé as 24 points each imperial), then the tricks won. Their weights keep the order
lexicographic for any single world: at most 40-odd play points times ``PLAY_TIE`` stays
below a quarter of one loose point's worth, and 12 tricks times ``TRICK_TIE`` below one
play point's ``PLAY_TIE``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kozyr.games.base import Event
from kozyr.games.imperial import IMPERIAL_POINTS, ImperialState

__all__ = [
    "GAME_VALUE",
    "LOOSE_WEIGHT",
    "PLAY_REASONS",
    "PLAY_TIE",
    "TRICK_TIE",
    "play_record",
    "search_value",
    "value",
]

GAME_VALUE = 1000.0
"""Value of winning the game (minus it for losing): far above any deal's points."""
LOOSE_WEIGHT = 0.75
PLAY_TIE = 0.004
"""Weight of one play point in :func:`search_value` (below the score sheet's values)."""
TRICK_TIE = 0.0003
"""Weight of one trick in :func:`search_value` (below one play point's weight / 12)."""
PLAY_REASONS = frozenset({"honour led", "honour heads the trick", "tricks", "capot"})
"""The ``score`` reasons of points scored in card play (I8, I10)."""


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


def play_record(events: Sequence[Event], players: int) -> tuple[list[float], list[int]]:
    """Per seat, the points scored in card play in ``events`` (I8, I10; a tombé counts 24
    an imperial, I9) and the tricks won."""
    points = [0.0] * players
    tricks = [0] * players
    for e in events:
        kind = e["type"]
        if kind == "trick":
            tricks[e["winner"]] += 1
        elif kind == "score" and e["reason"] in PLAY_REASONS:
            points[e["seat"]] += e["points"]
        elif kind == "mark" and e["reason"] == "imperial tombé":
            points[e["seat"]] += IMPERIAL_POINTS * e["imperials"]
    return points, tricks


def search_value(
    state: ImperialState, seat: int, points_before: Sequence[int], tricks_before: Sequence[int]
) -> float:
    """:func:`value`, then the play points and tricks won since ``state.play_points`` and
    ``state.tricks_won`` were ``points_before`` and ``tricks_before`` (each as the
    difference to the opponents' mean), as tie-breaks. The counters hold what
    :func:`play_record` reads from the events, which a search's fast playouts do not write."""
    n = state.players
    points = [a - b for a, b in zip(state.play_points, points_before, strict=True)]
    tricks = [a - b for a, b in zip(state.tricks_won, tricks_before, strict=True)]
    others = [s for s in range(n) if s != seat]
    play = points[seat] - sum(points[s] for s in others) / (n - 1)
    won = tricks[seat] - sum(tricks[s] for s in others) / (n - 1)
    return value(state, seat) + PLAY_TIE * play + TRICK_TIE * won
