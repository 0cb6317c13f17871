"""The options of an Emperor table (E2, E4, E8) and their JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from kozyr.games.base import check_option, checked_options

__all__ = ["MAX_ROUNDS", "MIN_ROUNDS", "RANGES", "STORED_RANGES", "EmperorOptions"]

MIN_ROUNDS = 1
MAX_ROUNDS = 30
"""Rounds in a game: the rulings play 10 (E4); shorter games are for practice and tests.
The table form has always offered up to 30 (three times the rules' game), so games of up
to 30 rounds may be stored and must keep restoring."""

RANGES: dict[str, tuple[int, int]] = {
    "players": (3, 4),
    "rounds": (MIN_ROUNDS, MAX_ROUNDS),
    # Round 1 has no exchange (E5), so bargaining cannot start before round 2;
    # one past the last round means a game without bargaining.
    "bargain_from": (2, MAX_ROUNDS + 1),
    "max_offer": (1, 3),
}
"""Every option's smallest and largest value, for a new table, game or record."""

STORED_RANGES: dict[str, tuple[int, int]] = {
    **RANGES,
    # Before the ranges above, up to 1000 rounds were taken: tables and records made
    # then keep loading.
    "rounds": (MIN_ROUNDS, 1000),
    "bargain_from": (2, 1001),
}
"""What options read back from a store or a record may hold."""


@dataclass(frozen=True, slots=True)
class EmperorOptions:
    """How an Emperor table plays; the defaults are the rulings' game.

    ``players``: 3 or 4 (E2). ``rounds``: rounds in a game, 1-30 (E4). ``bargain_from``:
    the first round with bargaining, 2-31 (E8; larger than ``rounds`` means never).
    ``max_offer``: the most tricks one offer may name, 1-3 (E8; the action ids leave room
    for 3).

    >>> EmperorOptions.from_json({"rounds": 31})
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: rounds must be a whole number from 1 to 30, not 31
    """

    players: int = 4
    rounds: int = 10
    bargain_from: int = 4
    max_offer: int = 3

    def __post_init__(self) -> None:
        for name, (low, high) in STORED_RANGES.items():
            check_option(name, getattr(self, name), low, high)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, stored: bool = False) -> EmperorOptions:
        """New options (``RANGES``) or, with ``stored``, options a table or record was
        given before the ranges narrowed (``STORED_RANGES``): a game in play or on file
        keeps loading after an upgrade."""
        return cls(**checked_options(data, _FIELDS, None if stored else RANGES))

    def to_json(self) -> dict[str, Any]:
        # Every field is a plain int or bool: a flat dict equals ``asdict`` at a fraction
        # of its cost (``asdict`` deep-copies field by field, and every view of every move
        # carries the options).
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(EmperorOptions))
