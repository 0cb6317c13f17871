"""Precomputed tables of Emperor's play order (E5, E10); cards and trick rules are in
:mod:`kozyr.cards` and :mod:`kozyr.games.tricks`."""

from __future__ import annotations

from typing import Final

__all__ = ["ROTATIONS"]

# ROTATIONS[n][leader]: the seats in clockwise play order from ``leader`` (E5).
ROTATIONS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {
    n: tuple(tuple((lead + i) % n for i in range(n)) for lead in range(n)) for n in (3, 4)
}
