"""Titles: who ranks where after a round (E3, E6) and at the end of the game (E12), and
whom each title may take a hand from (E7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "FINAL_NAMES",
    "TITLE_NAMES",
    "final_order",
    "final_standing",
    "final_why",
    "rank_round",
    "round_why",
    "swap_targets",
    "title_order",
]

# E3: the titles, highest first, by number of players.
TITLE_NAMES: dict[int, tuple[str, ...]] = {
    4: ("king", "prince", "soldier", "jester"),
    3: ("king", "prince", "jester"),
}
# E12: the final ranks, highest first.
FINAL_NAMES: dict[int, tuple[str, ...]] = {
    4: ("emperor", "prince", "soldier", "jester"),
    3: ("emperor", "prince", "jester"),
}


def swap_targets(order: Sequence[int], rank: int) -> tuple[int, ...]:
    """The seats whose hand the holder of title ``rank`` (0 = King) may take (E7).

    King: anyone; Prince: Soldier or Jester; Soldier: Jester (3 players: King anyone,
    Prince the Jester). Both lists are "every lower title": the King has nobody above.
    Titles stay with seats while hands move, so a seat that already swapped may be taken
    from again.
    """
    return tuple(order[rank + 1 :])


def title_order(
    tricks: Sequence[int], first_trick: Sequence[int], previous: Sequence[int]
) -> list[int]:
    """E6: the seats in title order (King first) after a round; see :func:`rank_round`.

    >>> title_order([5, 3, 5, 0], [4, 1, 2, 0], [0, 1, 2, 3])
    [2, 0, 1, 3]
    """
    pos = {seat: i for i, seat in enumerate(previous)}

    def key(s: int) -> tuple[int, int]:
        # More tricks first; among equal tricks the earlier first trick; a seat with
        # no trick has no first trick and keeps its previous place.
        return (-tricks[s], first_trick[s] if tricks[s] else pos[s])

    return sorted(range(len(tricks)), key=key)


def rank_round(
    tricks: Sequence[int],
    first_trick: Sequence[int],
    previous: Sequence[int],
) -> tuple[list[int], list[dict[str, Any]]]:
    """E6: the seats in title order (King first) after a round, and why each tie went
    the way it did.

    ``first_trick[s]`` is the number (1..13) of the first trick seat ``s`` won this
    round, or 0 if none. ``previous`` is the order that decides ties among seats with no
    trick: after round 1 the order of play from the first leader, later the titles
    before this round.
    """
    order = title_order(tricks, first_trick, previous)
    return order, round_why(order, tricks, first_trick)


def round_why(
    order: Sequence[int], tricks: Sequence[int], first_trick: Sequence[int]
) -> list[dict[str, Any]]:
    """Why each tie of a round's title ``order`` (:func:`title_order`) went as it did (E6),
    in words for the round's summary."""
    why: list[dict[str, Any]] = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and tricks[order[j + 1]] == tricks[order[i]]:
            j += 1
        if j > i:
            group = list(order[i : j + 1])
            n = tricks[group[0]]
            if n:
                firsts = ", ".join(f"seat {s} trick {first_trick[s]}" for s in group)
                why.append(
                    {
                        "seats": group,
                        "tricks": n,
                        "by": "first_trick",
                        "text": f"seats {_seats(group)} took {n} tricks each; the earlier "
                        f"first trick ranks higher ({firsts})",
                    }
                )
            else:
                why.append(
                    {
                        "seats": group,
                        "tricks": 0,
                        "by": "previous_order",
                        "text": f"seats {_seats(group)} took no trick; they keep their "
                        "previous order",
                    }
                )
        i = j + 1
    return why


def final_order(totals: Sequence[int], order: Sequence[int]) -> list[int]:
    """E12: seats by game total, Emperor first; equal totals go to the better title after
    the last round (``order``, King first). See :func:`final_standing`.

    >>> final_order([30, 41, 30, 29], [2, 3, 0, 1])
    [1, 2, 0, 3]
    """
    pos = {seat: i for i, seat in enumerate(order)}
    return sorted(range(len(totals)), key=lambda s: (-totals[s], pos[s]))


def final_standing(
    totals: Sequence[int], order: Sequence[int]
) -> tuple[list[int], list[dict[str, Any]]]:
    """E12: seats by game total, Emperor first; equal totals go to the better title
    after the last round (``order``, King first)."""
    standing = final_order(totals, order)
    return standing, final_why(totals, standing)


def final_why(totals: Sequence[int], standing: Sequence[int]) -> list[dict[str, Any]]:
    """Why each tie of the final ``standing`` (:func:`final_order`) went as it did (E12)."""
    why: list[dict[str, Any]] = []
    i = 0
    while i < len(standing):
        j = i
        while j + 1 < len(standing) and totals[standing[j + 1]] == totals[standing[i]]:
            j += 1
        if j > i:
            group = list(standing[i : j + 1])
            why.append(
                {
                    "seats": group,
                    "total": totals[group[0]],
                    "by": "last_titles",
                    "text": f"seats {_seats(group)} have {totals[group[0]]} each; the better "
                    "title after the last round ranks higher",
                }
            )
        i = j + 1
    return why


def _seats(group: Sequence[int]) -> str:
    return ", ".join(map(str, group[:-1])) + " and " + str(group[-1])
